"""Choosing on tuning data: the sweeps that set recognition and live constants, and the side-by-side choice between candidate models."""
