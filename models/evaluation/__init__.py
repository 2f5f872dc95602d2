"""Measuring models: precision, recall and F1 on generated, scanned and real decks, and the records every measurement is kept in."""
