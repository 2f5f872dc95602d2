"""Colours as a person names them: hue in degrees, saturation and value, and boxes of them."""

import colorsys


def hsv(rgb) -> tuple[float, float, float]:
    """``rgb`` (0-255) as (hue in degrees, saturation, value).

    >>> hsv((255, 0, 0))
    (0.0, 1.0, 1.0)
    """
    h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    return h * 360, s, v


def in_box(colour_hsv, box, slack: float = 0.01) -> bool:
    """``colour_hsv`` inside ``box`` ((h0, h1), (s0, s1), (v0, v1)), within 2° and ``slack``.

    >>> in_box((10, 0.5, 0.5), ((0, 20), (0.4, 0.6), (0.4, 0.6)))
    True
    """
    (h0, h1), (s0, s1), (v0, v1) = box
    h, s, v = colour_hsv
    return h0 - 2 <= h <= h1 + 2 and s0 - slack <= s <= s1 + slack and v0 - slack <= v <= v1 + slack
