"""Training the detector and the reader: data preparation, the runs and the `sisepai train` command."""
