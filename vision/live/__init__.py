"""Following a live table: camera sources, the video session, the card tracker, the table state,
events, the table assistant and ``sisepai watch``."""
