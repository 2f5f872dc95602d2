"""Synthetic labelled scenes of Four Color Cards for training the recogniser."""
