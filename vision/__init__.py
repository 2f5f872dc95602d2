"""Camera frames to cards: detection, reading and table state (needs the ``vision`` extra)."""
