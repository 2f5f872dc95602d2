"""Held out means held out: no font, stand-in deck or seed is in two splits."""

from sisepai.datasets.design import splits
from sisepai.datasets.design.font_splits import fonts_of
from sisepai.models.evaluation import deck_eval


def test_the_splits_share_no_font():
    files = {s: {f.file for f in fonts_of(splits.FONTS[s])} for s in splits.SPLITS}
    assert files["train"] and files["tune"] and files["test"]
    assert not files["train"] & files["tune"] and not files["train"] & files["test"] and not files["tune"] & files["test"]


def test_the_splits_share_no_seed():
    assert not splits.seeds_of("tune") & splits.seeds_of("test")
    owners: dict[int, str] = {}
    for split in ("tune", "test"):  # no seed in two sets either, of one split or of two
        for name, seeds in splits.seed_sets(split).items():
            for seed in seeds:
                assert seed not in owners, f"seed {seed} is in {owners[seed]} and in {split} {name}"
                owners[seed] = f"{split} {name}"
    # deck_eval's tuning offset (+50) lands on the tune seeds
    assert deck_eval.SCENE_SEED + 50 == splits.DECK_SCENE_SEEDS["tune"]
    assert deck_eval.HAND_SEED + 50 == splits.DECK_HAND_SEEDS["tune"]


def test_tuning_and_test_stand_in_decks_differ():
    from sisepai.datasets.design.standin import standin_style

    tune = {standin_style(k, "tune")[0].font.file for k in range(splits.STANDIN_DECKS["tune"])}
    test = {standin_style(k, "test")[0].font.file for k in range(splits.STANDIN_DECKS["test"])}
    assert not tune & test
    assert test <= {f.file for f in fonts_of("honest")}  # the test decks print only honest faces


def test_the_real_deck_is_a_tuning_deck_only():
    assert splits.REAL_DECKS["tune"] and not set(splits.REAL_DECKS["tune"]) & set(splits.REAL_DECKS["test"])
    assert splits.REAL_SCENE_SEEDS["tune"] in splits.seeds_of("tune")
    assert splits.REAL_SCENE_SEEDS["tune"] not in splits.seeds_of("test")
    assert all(s in splits.seeds_of("tune") for _, s in splits.VIDEO_SEEDS["tune"]["real"])


def test_the_family_tuning_scenes_count_every_family():
    from sisepai.datasets.design.families import FAMILIES
    from sisepai.datasets.design.splits import FAMILY_COUNT, FAMILY_SCENE_SEEDS

    assert FAMILY_COUNT == len(FAMILIES)
    assert {FAMILY_SCENE_SEEDS["tune"] + k for k in range(FAMILY_COUNT)} <= splits.seeds_of("tune")


def test_benchmarks_and_evaluations_take_their_seeds_and_fonts_from_the_splits():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    files = [*sorted((root / "benchmarks").glob("*.py")), *sorted((root / "models").rglob("*_eval.py"))]
    assert len(files) > 10
    for path in files:
        text = path.read_text()
        literal = re.findall(r"(?<!def )\b(?:scene_jpegs|make_scene)\(\s*(\d+)\b", text)
        assert not literal, f"{path.name} draws scenes of a seed of its own: {literal}"
        assert not re.search(r"font_split=\"(holdout|honest)\"", text), f"{path.name} names a held-out font split itself"
    assert splits.SCAN_SEEDS["tune"] in splits.seeds_of("tune") and splits.SCAN_SEEDS["test"] in splits.seeds_of("test")
    assert set(splits.BENCH_SEEDS.values()) <= splits.seeds_of("tune")


def test_the_tests_never_draw_the_test_fonts_decks_or_seeds():
    """Tests tune and check on the tuning data: the held-out split (which holds the test fonts),
    the honest test fonts, the test decks and the test seeds are for measurements of record only
    (this file alone names them, to check the splits keep apart)."""
    import re
    from pathlib import Path

    tests = Path(__file__).resolve().parents[2]
    for path in tests.rglob("test_*.py"):
        if path.name == "test_splits.py":
            continue
        text = path.read_text()
        assert not re.search(r"font_split=\"(holdout|honest)\"|DeckStyle\.random\([^)]*\"(holdout|honest)\"", text), path.name
        assert not re.search(r"\[\"test\"\]|(standin_style|standin_deck|paper_decks|far_papers)\([^)]*\"test\"", text), path.name


def test_the_seeds_choose_draws_are_tuning_seeds(tmp_path, monkeypatch):
    """The seeds the tuning tools really draw, collected as they draw them (not only the table's):
    every one is a tuning seed, none a test seed (choose once drew the test fonts' 7100 and 7101
    for the stand-in decks, from a seed built outside the table)."""
    from sisepai.models.evaluation import deck_eval as de
    from sisepai.models.tuning import choose

    drawn = []
    def draw(faces, out, n, seed, **kw):
        drawn.append(seed)
        return out

    for module in (de, choose):  # choose draws through its own name for it
        monkeypatch.setattr(module, "write_scenes", draw)
    choose.scene_sets(tmp_path, scenes=1, family_scenes=1)
    assert drawn and set(drawn) <= splits.seeds_of("tune"), sorted(set(drawn) - splits.seeds_of("tune"))
    assert not set(drawn) & splits.seeds_of("test")


def test_the_live_scale_plans_draw_their_own_splits_seeds():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "benchmarks" / "live_scale.py"
    spec = importlib.util.spec_from_file_location("live_scale", path)
    live_scale = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(live_scale)
    for split, other in (("tune", "test"), ("test", "tune")):
        seeds = {item["seed"] for item in live_scale.plan(split, 16)}
        assert seeds <= splits.seeds_of(split) and not seeds & splits.seeds_of(other)
