"""A card's shape as the generator draws it and vision reads it.

>>> round(END_FRACTION * 40)   # a 40 px wide card: its end region is 46 px deep
46
"""

END_FRACTION = 1.15
"""An end region is the card's width across and ``END_FRACTION`` widths deep: where the generator
prints the character, and what the reader reads."""
