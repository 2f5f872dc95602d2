"""CSV a spreadsheet opens safely: a cell that would run as a formula is defused.

>>> import io
>>> buf = io.StringIO(); safe_writer(buf).writerow(["=1+1", "Ann", 3]); buf.getvalue()
"'=1+1,Ann,3\\r\\n"
"""

from __future__ import annotations

import csv
from typing import TextIO

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: a string starting like a formula (``= + - @``, tab
    or carriage return) gets a leading apostrophe, as OWASP advises against CSV injection.

    >>> csv_cell("=SUM(A1:A9)"), csv_cell("Ann"), csv_cell(-3)
    ("'=SUM(A1:A9)", 'Ann', -3)
    """
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


class SafeWriter:
    """A ``csv.writer`` whose every cell goes through :func:`csv_cell`."""

    def __init__(self, writer):
        self.writer = writer

    def writerow(self, row) -> None:
        self.writer.writerow([csv_cell(v) for v in row])


def safe_writer(out: TextIO) -> SafeWriter:
    """A CSV writer into ``out`` that defuses formulas (:func:`csv_cell`)."""
    return SafeWriter(csv.writer(out))
