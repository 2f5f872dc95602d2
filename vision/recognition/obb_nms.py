"""Faster non-maximum suppression for oriented boxes: the same boxes kept, in a fraction of the time.

Ultralytics suppresses overlapping oriented boxes with a probabilistic IoU (``batch_probiou``)
between every pair of candidates: on a table of 60 cards, about as long as the network itself.
Two boxes farther apart than their half lengths summed overlap too little to suppress one another:
their probabilistic IoU is at most about 0.12 (two equal boxes end to end), far under the
detector's NMS threshold (0.5), so :func:`near_probiou` computes it only for boxes that near, and
:func:`install` makes ultralytics' NMS use it.

>>> import torch
>>> from ultralytics.utils.metrics import batch_probiou
>>> g = torch.Generator().manual_seed(0)
>>> boxes = torch.cat([torch.rand(300, 2, generator=g) * 1000, 10 + torch.rand(300, 2, generator=g) * 60,
...                    torch.rand(300, 1, generator=g) * 3], 1)
>>> dense, near = batch_probiou(boxes, boxes).triu(1), near_probiou(boxes, boxes).triu(1)
>>> bool(((dense > 0.3) == (near > 0.3)).all()), float((dense - near)[near > 0].abs().max()) < 1e-5
(True, True)
>>> float(dense[near == 0].max()) < 0.12  # what is left out
True
"""

from __future__ import annotations

NEAR_FROM = 64
"""Below this many candidates the dense computation is as quick."""


def _covariance(obb):
    """The covariance of each box as a Gaussian, as ultralytics computes it: (a, b, c) per box."""
    import torch

    w2, h2 = obb[:, 2].pow(2) / 12, obb[:, 3].pow(2) / 12
    cos, sin = torch.cos(obb[:, 4]), torch.sin(obb[:, 4])
    return w2 * cos.pow(2) + h2 * sin.pow(2), w2 * sin.pow(2) + h2 * cos.pow(2), (w2 - h2) * cos * sin


def near_probiou(obb1, obb2, eps: float = 1e-7):
    """``ultralytics.utils.metrics.batch_probiou(obb1, obb2)`` for NMS (one set against itself):
    computed for the pairs of boxes whose centres lie within their half lengths summed, 0 for the
    rest. Any other call is passed to ``batch_probiou`` as it is."""
    import torch
    from ultralytics.utils.metrics import batch_probiou

    if obb1 is not obb2 or not isinstance(obb1, torch.Tensor) or obb1.shape[0] < NEAR_FROM:
        return batch_probiou(obb1, obb2, eps)
    xy = obb1[:, :2]
    half = obb1[:, 2:4].amax(1) / 2
    near = torch.cdist(xy, xy) < half[:, None] + half[None, :]
    i, j = torch.nonzero(near.triu_(1), as_tuple=True)
    a, b, c = _covariance(obb1)
    a1, b1, c1, a2, b2, c2 = a[i], b[i], c[i], a[j], b[j], c[j]
    dx, dy = xy[i, 0] - xy[j, 0], xy[i, 1] - xy[j, 1]
    den = (a1 + a2) * (b1 + b2) - (c1 + c2).pow(2) + eps
    t1 = ((a1 + a2) * dy.pow(2) + (b1 + b2) * dx.pow(2)) / den * 0.25
    t2 = ((c1 + c2) * (-dx) * dy) / den * 0.5
    t3 = (((a1 + a2) * (b1 + b2) - (c1 + c2).pow(2))
          / (4 * ((a1 * b1 - c1.pow(2)).clamp_(0) * (a2 * b2 - c2.pow(2)).clamp_(0)).sqrt() + eps) + eps).log() * 0.5
    bd = (t1 + t2 + t3).clamp(eps, 100.0)
    out = torch.zeros((obb1.shape[0], obb1.shape[0]), dtype=obb1.dtype)
    out[i, j] = 1 - (1.0 - (-bd).exp() + eps).sqrt()
    return out


def install() -> None:
    """Make ultralytics' NMS use :func:`near_probiou` (its module looks the function up at each call)."""
    import ultralytics.utils.nms as nms

    nms.batch_probiou = near_probiou
