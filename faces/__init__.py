"""A printed deck's faces (:mod:`.deck`): the face images ``sisepai deck add`` takes, below both
the generator (which lays them in scenes) and vision (which reads them). The card notation and the
card's shape (:data:`sisepai.engine.cards.END_FRACTION`) stay in :mod:`sisepai.engine.cards`.
"""
