"""Synthetic labelled scenes of Four Color Cards for training the recogniser, in rooms by job:

- :mod:`.faces`: how a card face is drawn (fonts, regional forms, printing families, papers,
  stand-in decks);
- :mod:`.scenes`: whole scenes laid with those faces, under a camera;
- :mod:`.video`: videos of a game;
- :mod:`.export`: datasets on disk (the writer, COCO and Hugging Face files, the dataset card).

``sisepai dataset`` (:mod:`.cli`) stands above the rooms; imports between them run one way
(scenes, video and export use faces; video and export use scenes).
"""
