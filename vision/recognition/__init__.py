"""Recognising a picture: the detector and the reader, their weights, and what reads a frame's cards
(:class:`~sisepai.vision.recognition.recognize.Recognizer`)."""
