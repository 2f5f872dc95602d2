"""Worker processes any layer above the engine may start (:mod:`.pool`)."""
