"""Training and shipped weights of the card recogniser."""
