"""Datasets on disk: the writer, COCO and Hugging Face files, the dataset card, contact sheets,
flat photos of decks."""
