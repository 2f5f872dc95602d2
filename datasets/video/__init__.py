"""Videos of a game: turns played on a table, a table's life under a webcam, a win shown."""
