"""A player's own deck: the store of enrolled decks, and cutting faces out of a photo of the grid."""
