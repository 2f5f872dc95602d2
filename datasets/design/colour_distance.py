"""How far apart two colours look: CIEDE2000 (ΔE00) between sRGB colours, as people see them.

ΔE00 of about 1 is the smallest difference an eye sees side by side; 10 is plainly another colour.
A paper colour counts as held out only when it keeps at least :data:`HELD_OUT_MIN_DELTA_E` from
every paper colour training draws (:mod:`.render`, :mod:`.printed`). The stand-in decks' papers
(:data:`.standin.STANDIN_PAPERS`) come from other boxes but do not keep that distance, so the
decks do not claim them (:data:`.standin.HELD_OUT_BY_LOOK`; ``tests/datasets/design/test_standin.py``
measures it).

>>> round(float(delta_e2000(np.array([50, 2.6772, -79.7751]), np.array([50, 0, -82.7485]))), 4)  # Sharma et al., pair 1
2.0425
>>> round(float(delta_e2000(rgb_to_lab((255, 255, 255)), rgb_to_lab((0, 0, 0)))), 1)
100.0
"""

from __future__ import annotations

import numpy as np

HELD_OUT_MIN_DELTA_E = 10.0
"""A held-out paper colour lies at least this far (ΔE00) from every training paper colour of its suit."""

# How far a scene's camera moves a colour (:class:`sisepai.datasets.scenes.camera.Camera` draws from
# these): a paper is held out only if no such move brings a training paper near it.
EXPOSURE = (0.65, 1.3)
"""The range of a scene's exposure: every colour of the frame times this."""
WHITE_BALANCE = (0.85, 1.15)
"""The range of each channel's white-balance gain, drawn apart for red, green and blue."""


def rgb_to_lab(rgb) -> np.ndarray:
    """sRGB (0-255, shape (..., 3)) to CIE L*a*b* (D65), shape (..., 3).

    >>> [round(float(v), 2) + 0.0 for v in rgb_to_lab((255, 255, 255))]
    [100.0, 0.0, 0.0]
    """
    c = np.asarray(rgb, np.float64) / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]])
    xyz = linear @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def delta_e2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 between L*a*b* colours (broadcast over leading axes), kL = kC = kH = 1."""
    L1, a1, b1 = np.moveaxis(np.asarray(lab1, np.float64), -1, 0)
    L2, a2, b2 = np.moveaxis(np.asarray(lab2, np.float64), -1, 0)
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean ** 7 / (c_mean ** 7 + 25.0 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dL, dC = L2 - L1, c2p - c1p
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(c1p * c2p == 0, 0.0, dh)
    dH = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh) / 2)
    L_mean, c_mean_p = (L1 + L2) / 2, (c1p + c2p) / 2
    h_sum = h1p + h2p
    h_mean = np.where(c1p * c2p == 0, h_sum,
                      np.where(np.abs(h1p - h2p) <= 180, h_sum / 2, np.where(h_sum < 360, (h_sum + 360) / 2, (h_sum - 360) / 2)))
    t = (1 - 0.17 * np.cos(np.radians(h_mean - 30)) + 0.24 * np.cos(np.radians(2 * h_mean))
         + 0.32 * np.cos(np.radians(3 * h_mean + 6)) - 0.20 * np.cos(np.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (L_mean - 50) ** 2 / np.sqrt(20 + (L_mean - 50) ** 2)
    s_c = 1 + 0.045 * c_mean_p
    s_h = 1 + 0.015 * c_mean_p * t
    r_t = (-2 * np.sqrt(c_mean_p ** 7 / (c_mean_p ** 7 + 25.0 ** 7))
           * np.sin(np.radians(60 * np.exp(-(((h_mean - 275) / 25) ** 2)))))
    return np.sqrt((dL / s_l) ** 2 + (dC / s_c) ** 2 + (dH / s_h) ** 2 + r_t * (dC / s_c) * (dH / s_h))
