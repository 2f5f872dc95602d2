"""Reading scans of cards: the evaluation's pictures and its report."""

import numpy as np
import pytest

from sisepai.models.evaluation.scan_eval import SINGLE_MARGINS, evaluate_scans, scan_sheet, single_scan


def test_scan_pictures_are_reproducible_and_plain_bed():
    a, codes_a = scan_sheet(np.random.default_rng(3))
    b, codes_b = scan_sheet(np.random.default_rng(3))
    assert codes_a == codes_b and np.array_equal(a, b)
    single, code = single_scan(np.random.default_rng(4), 40)
    assert max(single.shape[:2]) / min(single.shape[:2]) > 1.5  # a long card with its bed
    assert (single[0] == single[0, 0]).all()  # the bed's edge is plain


@pytest.mark.model
def test_evaluate_scans_reads_sheets_and_single_cards(recognizer):
    report = evaluate_scans(recognizer, sheets=3, singles=2, seed=5, fonts="tune")
    assert report["sheets"]["cards"] >= 9
    # these three sheets in the tuning fonts read at precision 0.833 and recall 0.893 (one sheet of
    # short 1:3 cards gets extra cards); the test measurement is benchmarks/results/scan_eval.json
    assert report["sheets"]["precision"] >= 0.8 and report["sheets"]["recall"] >= 0.87
    assert set(report["singles"]["exact_match"]) == {f"margin_{m}" for m in SINGLE_MARGINS}
    # each single card read exactly at every margin, as measured
    assert all(v == 1.0 for v in report["singles"]["exact_match"].values()), report["singles"]
