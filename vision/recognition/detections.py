"""``Detections``: recognised cards as parallel numpy arrays, in the style of supervision.

>>> import numpy as np
>>> d = Detections(polygons=np.zeros((2, 4, 2), np.float32), confidence=np.array([0.9, 0.4]),
...                class_id=np.array([0, 28]))
>>> len(d), d.codes, len(d[d.confidence > 0.5])
(2, ['GK', 'J'], 1)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sisepai.engine.cards import CARD_CODES


@dataclass(frozen=True)
class CardSeen:
    """One card found in a picture: the wire format of ``sisepai recognize --json``, ``/api/recognize``
    and the live socket's ``detections``, written once (the service's schemas use this class).

    >>> d = Detections(np.float32([[[0, 0], [10, 0], [10, 40], [0, 40]]]), np.array([0.9]), np.array([0]))
    >>> d.cards()[0].card, d.cards()[0].polygon[2], d.cards()[0].top[0]
    ('GK', [10.0, 40.0], ('GK', 1.0))
    """

    __pydantic_config__ = {"use_attribute_docstrings": True}  # a plain dict: vision needs no pydantic

    card: str
    """its kind, e.g. GK"""
    polygon: list[list[float]]
    """its outline: four corners, in the picture's pixels"""
    confidence: float
    colour_confidence: float
    rank_confidence: float
    kind: str
    """"card" (a whole card) or "end" (one end seen alone, as in a fan)"""
    detector_confidence: float
    top: list[tuple[str, float]]
    """the reader's three likeliest kinds, with their probabilities"""


@dataclass
class Detections:
    """Cards found in one image.

    - ``polygons``: (N, 4, 2) float32 image pixels; the first two corners are the card's (or the
      visible end's) top edge when known.
    - ``confidence``: (N,) overall confidence (detector x reader).
    - ``class_id``: (N,) card kinds, ids of :data:`sisepai.engine.cards.CARD_CODES`.
    - ``colour_confidence`` and ``rank_confidence``: (N,) the reader's belief in the suit and the rank.
    - ``kind``: (N,) ``"card"`` (a whole card) or ``"end"`` (only an end is visible, as in a fan).
    - ``probs``: (N, 29) the reader's full belief over the card kinds (each row sums to at most 1;
      the rest is its belief that there is no card). Given no readings, one-hot on ``class_id``.
    - ``detector_confidence``: (N,) the detector's own confidence in the outline; given none, ``confidence``.
    """

    polygons: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    colour_confidence: np.ndarray | None = None
    rank_confidence: np.ndarray | None = None
    kind: np.ndarray | None = None
    probs: np.ndarray | None = None
    detector_confidence: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = len(self.confidence)
        self.polygons = np.asarray(self.polygons, np.float32).reshape(n, 4, 2)
        self.confidence = np.asarray(self.confidence, np.float32)
        self.class_id = np.asarray(self.class_id, np.int64)
        if self.colour_confidence is None:
            self.colour_confidence = self.confidence.copy()
        if self.rank_confidence is None:
            self.rank_confidence = self.confidence.copy()
        if self.kind is None:
            self.kind = np.array(["card"] * n, dtype=object)
        self.colour_confidence = np.asarray(self.colour_confidence, np.float32)
        self.rank_confidence = np.asarray(self.rank_confidence, np.float32)
        self.kind = np.asarray(self.kind, dtype=object)
        if self.probs is None:
            self.probs = np.eye(len(CARD_CODES), dtype=np.float32)[self.class_id] if n else \
                np.zeros((0, len(CARD_CODES)), np.float32)
        self.probs = np.asarray(self.probs, np.float32).reshape(n, len(CARD_CODES))
        if self.detector_confidence is None:
            self.detector_confidence = self.confidence.copy()
        self.detector_confidence = np.asarray(self.detector_confidence, np.float32)
        for name in ("class_id", "colour_confidence", "rank_confidence", "kind", "detector_confidence"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"Detections.{name} has {len(getattr(self, name))} entries, expected {n}")

    @classmethod
    def empty(cls) -> "Detections":
        return cls(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64),
                   probs=np.zeros((0, len(CARD_CODES)), np.float32), detector_confidence=np.zeros(0, np.float32))

    def __len__(self) -> int:
        return len(self.confidence)

    def __getitem__(self, index) -> "Detections":
        if isinstance(index, (int, np.integer)):
            index = [index]
        return Detections(self.polygons[index], self.confidence[index], self.class_id[index],
                          self.colour_confidence[index], self.rank_confidence[index], self.kind[index],
                          self.probs[index], self.detector_confidence[index])

    @property
    def codes(self) -> list[str]:
        return [CARD_CODES[i] for i in self.class_id]

    @property
    def centers(self) -> np.ndarray:
        return self.polygons.mean(axis=1)

    def cards(self, digits: int = 1) -> list[CardSeen]:
        """Each card as the CLI and the API give it (:class:`CardSeen`), coordinates to ``digits``."""
        return [CardSeen(card=CARD_CODES[int(self.class_id[i])],
                         polygon=[[round(float(x), digits), round(float(y), digits)] for x, y in self.polygons[i]],
                         confidence=round(float(self.confidence[i]), 4),
                         colour_confidence=round(float(self.colour_confidence[i]), 4),
                         rank_confidence=round(float(self.rank_confidence[i]), 4), kind=str(self.kind[i]),
                         detector_confidence=round(float(self.detector_confidence[i]), 4),
                         top=[(code, round(prob, 4)) for code, prob in self.top_k(i, 3)])
                for i in range(len(self))]

    @classmethod
    def merge(cls, parts: list["Detections"]) -> "Detections":
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls.empty()
        return cls(np.concatenate([p.polygons for p in parts]), np.concatenate([p.confidence for p in parts]),
                   np.concatenate([p.class_id for p in parts]),
                   np.concatenate([p.colour_confidence for p in parts]),
                   np.concatenate([p.rank_confidence for p in parts]), np.concatenate([p.kind for p in parts]),
                   np.concatenate([p.probs for p in parts]), np.concatenate([p.detector_confidence for p in parts]))

    def top_k(self, i: int, k: int = 3) -> list[tuple[str, float]]:
        """The ``k`` likeliest card kinds of detection ``i`` with their probabilities.

        >>> d = Detections(np.zeros((1, 4, 2)), np.array([0.6]), np.array([0]),
        ...                probs=np.eye(29)[[0]] * 0.7 + np.eye(29)[[7]] * 0.2)
        >>> [(c, round(p, 2)) for c, p in d.top_k(0, 2)]
        [('GK', 0.7), ('WK', 0.2)]
        """
        order = np.argsort(-self.probs[i])[:k]
        return [(CARD_CODES[int(j)], float(self.probs[i, j])) for j in order]
