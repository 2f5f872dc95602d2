"""Enrolling a printed deck: adapting the reader (and the detector) to its faces, and the `sisepai deck` command."""
