"""Choosing models on tuning data: the scene sets, the paired interval and the shipping rule."""

import json

import numpy as np

from sisepai.datasets.design.families import FAMILIES
from sisepai.models.tuning import choose


def test_the_scene_sets_hold_every_family_in_the_tuning_fonts(tmp_path):
    sets = choose.scene_sets(tmp_path, scenes=1, family_scenes=2)
    assert {f"family-{f}" for f in FAMILIES} | {"tune-fonts", "standin-0", "standin-1", "held-tune-fonts"} <= set(sets)
    for family in FAMILIES:
        records = [json.loads(p.read_text()) for p in (sets[f"family-{family}"] / "annotations" / "val").glob("*.json")]
        assert len(records) == 2
        assert all(r["deck"]["family"] == family and r["deck"]["holdout_font"] for r in records)
    plain = json.loads(next((sets["tune-fonts"] / "annotations" / "val").glob("*.json")).read_text())
    assert plain["deck"]["family"] is None  # the tuning fonts' own styles stay plain


def test_a_candidate_that_reads_every_scene_better_has_an_interval_above_zero():
    rng = np.random.default_rng(3)
    base = np.column_stack([rng.integers(5, 15, 40), rng.integers(0, 3, 40), rng.integers(1, 4, 40)])
    better = base.copy()
    better[:, 0] += better[:, 2] // 2  # half of each scene's misses found
    better[:, 2] -= better[:, 2] // 2
    diff, lo, hi = choose.paired_difference(base, better, draws=300)
    assert 0 < lo <= diff <= hi
    same = choose.paired_difference(base, base, draws=50)
    assert same == (0.0, 0.0, 0.0)


def _scenes(rng, n=40):
    return np.column_stack([rng.integers(5, 15, n), rng.integers(0, 3, n), rng.integers(1, 4, n)])


def _finds(rows: np.ndarray, share: float, rng) -> np.ndarray:
    """``rows`` with about ``share`` of each scene's misses found (negative: cards lost)."""
    out = rows.copy()
    moved = np.round(np.where(share >= 0, rows[:, 2], rows[:, 0]) * abs(share) * rng.uniform(0.5, 1.5, len(rows)))
    moved = moved.astype(int) * (1 if share >= 0 else -1)
    out[:, 0] += moved
    out[:, 2] -= moved
    return out


def test_the_rule_ships_a_reader_that_reads_the_sets_better_on_average():
    """Made-up paired scores: better on three sets, a little worse (inside its interval) on the real deck."""
    rng = np.random.default_rng(5)
    sets = {name: _scenes(rng) for name in ("real-deck", "family-a", "family-b", "tune-fonts")}
    pairs = {name: (rows, _finds(rows, 0.5, rng)) for name, rows in sets.items()}
    worse = sets["real-deck"].copy()
    worse[:3, 0] -= 1  # three cards of the real deck lost
    worse[:3, 2] += 1
    pairs["real-deck"] = (sets["real-deck"], worse)
    diffs = {name: choose.paired_difference(*pair, draws=300) for name, pair in pairs.items()}
    mean = choose.mean_difference(pairs, draws=300)
    assert mean[1] > 0 and diffs["real-deck"][0] < 0
    assert choose.verdict(mean, diffs) == (True, [])


def test_the_rule_keeps_the_shipped_model_when_one_set_falls_or_the_mean_does_not_rise():
    rng = np.random.default_rng(6)
    sets = {name: _scenes(rng) for name in ("real-deck", "family-a", "family-b")}
    # far better on two families, far worse on the real deck: the mean rises, one set falls wholly below
    pairs = {name: (rows, _finds(rows, 0.9 if name != "real-deck" else -0.1, rng)) for name, rows in sets.items()}
    diffs = {name: choose.paired_difference(*pair, draws=300) for name, pair in pairs.items()}
    mean = choose.mean_difference(pairs, draws=300)
    ships, why = choose.verdict(mean, diffs)
    assert not ships and len(why) == 1 and why[0].startswith("real-deck worse")
    # the same scores both ways: the mean does not rise
    same = {name: (rows, rows) for name, rows in sets.items()}
    ships, why = choose.verdict(choose.mean_difference(same, draws=50),
                                {n: choose.paired_difference(*p, draws=50) for n, p in same.items()})
    assert not ships and why == ["mean F1 +0.000 (95% +0.000 to +0.000): the interval is not above 0"]


def test_held_sets_are_in_the_tuning_seeds():
    from sisepai.datasets.design.splits import HELD_SCENE_SEEDS, REAL_SCENE_SEEDS, seeds_of

    assert HELD_SCENE_SEEDS["tune"] in seeds_of("tune") and REAL_SCENE_SEEDS["tune"] + 300 in seeds_of("tune")
    assert not seeds_of("tune") & seeds_of("test")
