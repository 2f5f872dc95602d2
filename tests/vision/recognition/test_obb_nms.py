"""The near-pairs NMS keeps exactly the boxes ultralytics' own NMS keeps."""

import torch

from sisepai.vision.recognition import obb_nms


def table_candidates(seed: int, cards: int = 60, per_card: int = 12) -> torch.Tensor:
    """Raw OBB predictions as the detector gives them on a table: for each card, a dozen
    candidates scattered around it (xywh, 3 class scores, angle), in the layout (1, 8, N)."""
    g = torch.Generator().manual_seed(seed)
    centre = torch.rand(cards, 2, generator=g) * torch.tensor([1280.0, 720.0])
    size = torch.tensor([30.0, 120.0]) * (0.8 + 0.4 * torch.rand(cards, 1, generator=g))
    angle = torch.rand(cards, 1, generator=g) * 3.14
    rows = []
    for k in range(per_card):
        jitter = torch.randn(cards, 2, generator=g) * 4
        scores = torch.zeros(cards, 3)
        scores[:, 0] = 0.2 + 0.8 * torch.rand(cards, generator=g)
        rows.append(torch.cat([centre + jitter, size * (1 + 0.05 * torch.randn(cards, 1, generator=g)), scores,
                               angle + 0.05 * torch.randn(cards, 1, generator=g)], 1))
    return torch.cat(rows).T[None]


def test_the_same_boxes_are_kept_as_by_ultralytics_own_nms():
    import ultralytics.utils.nms as nms
    from ultralytics.utils.metrics import batch_probiou

    saved = nms.batch_probiou  # as a detector loaded earlier left it
    try:
        for seed in range(3):
            pred = table_candidates(seed)
            nms.batch_probiou = batch_probiou
            dense = nms.non_max_suppression(pred.clone(), 0.25, 0.5, agnostic=True, rotated=True, nc=3)[0]
            obb_nms.install()
            near = nms.non_max_suppression(pred.clone(), 0.25, 0.5, agnostic=True, rotated=True, nc=3)[0]
            assert len(dense) > 40
            assert torch.equal(dense, near)
    finally:
        nms.batch_probiou = saved
