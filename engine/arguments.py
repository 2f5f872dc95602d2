"""Command-line values kept within a range, told in words when they are not: one ``type=`` for
argparse wherever a number has bounds.

>>> share = number_in(float, 0.0, 1.0, "{text!r} is not a number", "{text} is not a share between 0 and 1")
>>> share("0.25")
0.25
>>> share("2")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: 2 is not a share between 0 and 1
"""

from __future__ import annotations

import argparse
from typing import Callable, TypeVar

Number = TypeVar("Number", int, float)


def number_in(parse: Callable[[str], Number], low: Number, high: Number, not_a_number: str,
              out_of_range: str) -> Callable[[str], Number]:
    """An argparse ``type``: the text read by ``parse`` (``int`` or ``float``), kept within ``low``
    to ``high``; the messages may name ``{text}`` and ``{value}``."""

    def read(text: str) -> Number:
        try:
            value = parse(text)
        except ValueError:
            raise argparse.ArgumentTypeError(not_a_number.format(text=text)) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(out_of_range.format(text=text, value=value))
        return value

    return read
