"""Reading scans of cards: the evaluation's pictures and its report."""

import numpy as np
import pytest

from sisepai.models.scan_eval import SINGLE_MARGINS, evaluate_scans, scan_sheet, single_scan


def test_scan_pictures_are_reproducible_and_plain_bed():
    a, codes_a = scan_sheet(np.random.default_rng(3))
    b, codes_b = scan_sheet(np.random.default_rng(3))
    assert codes_a == codes_b and np.array_equal(a, b)
    single, code = single_scan(np.random.default_rng(4), 40)
    assert max(single.shape[:2]) / min(single.shape[:2]) > 1.5  # a long card with its bed
    assert (single[0] == single[0, 0]).all()  # the bed's edge is plain


@pytest.mark.model
def test_evaluate_scans_reads_sheets_and_single_cards(recognizer):
    report = evaluate_scans(recognizer, sheets=3, singles=2, seed=5)
    assert report["sheets"]["cards"] >= 9
    # these three sheets read at precision 0.714 and recall 0.893 (one sheet of short 1:3 cards gets
    # extra cards); the full measurement, 40 sheets, is in the model card (0.971 / 1.000)
    assert report["sheets"]["precision"] >= 0.7 and report["sheets"]["recall"] >= 0.85
    assert set(report["singles"]["exact_match"]) == {f"margin_{m}" for m in SINGLE_MARGINS}
    # each single card read exactly at every margin, as measured (the full 30 a margin: 0.97 / 1.00 / 1.00)
    assert all(v == 1.0 for v in report["singles"]["exact_match"].values()), report["singles"]
