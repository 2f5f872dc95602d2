"""A finished hand: read as a whole from a photo, and scored."""
