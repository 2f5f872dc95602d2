"""Whole scenes: cards laid on a table (rows, fans, hands, heaps, held fans), the backgrounds, the
camera and its light, phone close-ups and photos of a grid."""
