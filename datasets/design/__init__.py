"""How a card face is drawn: fonts and their splits, regional glyph forms, printing families and
traits, paper colours, stand-in decks, the card faces a scene lays."""
