"""Camera frames to cards: detection, reading and table state (needs the ``vision`` extra).

Four rooms, one job each: :mod:`.recognition` (a picture to cards), :mod:`.live` (following a
table over video), :mod:`.hand` (reading and scoring a finished hand) and :mod:`.decks` (a
player's own deck: its store and grid cut). A deck's faces lie below, in
:mod:`sisepai.faces`, shared with the generator.
"""
