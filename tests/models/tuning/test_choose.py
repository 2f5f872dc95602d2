"""Choosing models on tuning data: the scene sets, the paired interval and the shipping rule."""

import json

import numpy as np

from sisepai.datasets.families import FAMILIES
from sisepai.models.tuning import choose


def test_the_scene_sets_hold_every_family_in_the_tuning_fonts(tmp_path):
    sets = choose.scene_sets(tmp_path, scenes=1, family_scenes=2)
    assert {f"family-{f}" for f in FAMILIES} | {"tune-fonts", "standin-0", "standin-1"} <= set(sets)
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


def test_the_rule_wants_every_real_deck_better_and_nothing_else_worse_beyond_the_tolerance():
    ok = {"real-a": (0.004, -0.01, 0.02), "tune-fonts": (-choose.WORSE_BY, -0.02, 0.01), "family-x": (0.03, 0.0, 0.05)}
    assert choose.verdict(ok) == (True, [])
    ships, why = choose.verdict(ok | {"real-b": (0.0, -0.01, 0.01), "standin-0": (-0.01, -0.03, 0.0)})
    assert not ships and why == ["real-b not better (+0.000)", "standin-0 worse by 0.010"]
