"""Borders cut by the white halo drawn round a filled arrowhead, bridged again.

Some renderers draw each arrowhead over a slightly larger white triangle, after the nodes,
with the tip inside the node's border.  The halo then erases the border on both flanks of
the head, and the box no longer encloses a region.  The head itself is whole in the wide
median's ink (a solid blob some strokes across); the border gaps lie within a few strokes
of it.  Pixels that lie near the head *and* near other ink are filled, which closes the
gap without swelling the head into the node's interior.
"""

from __future__ import annotations

import cv2
import numpy as np

from .elements import Scale
from .labelling import components

MAX_HEAD = 2.5
"""Largest solid blob taken for a head, in text heights (a filled box is larger)."""

UNIFORM = 40.0
"""Largest difference in mean grey between a head's inside and its edge."""

REACH = 2.0
"""How far a gap is bridged from the head, in strokes (plus one pixel of anti-aliasing)."""


def _disk(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


def solid_blobs(ink: np.ndarray, scale: Scale, rgb: np.ndarray | None = None
                ) -> np.ndarray:
    """Ink at least two strokes thick everywhere, in blobs no larger than a head.

    With ``rgb``, a blob counts only where it is one colour through and through (a head
    is filled with the colour of its line): on a dark page the wide median also takes the
    inside corner of a large light box for ink, a light wedge whose only dark pixels are
    the border lines it sits in.
    """
    radius = max(1, int(round(scale.stroke)))
    core = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, _disk(radius))
    n, labels, stats, _ = components(core, 8)
    if n <= 1:
        return np.zeros(ink.shape, bool)
    size = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    keep = size <= MAX_HEAD * scale.text_height
    keep[0] = False
    if rgb is not None and keep.any():
        keep &= _uniform(rgb, labels, keep, n)
    # the opening shaved the tip and the edges off: take the ink back round the core
    return cv2.dilate(keep[labels].astype(np.uint8), _disk(radius + 1)).astype(bool) & ink


def _uniform(rgb: np.ndarray, labels: np.ndarray, keep: np.ndarray, n: int) -> np.ndarray:
    """Per label: the core's inside (one pixel in from its edge) has the mean colour of
    its edge, within ``UNIFORM`` grey levels."""
    kept = keep[labels].astype(np.uint8)
    inner = cv2.erode(kept, _disk(1)).astype(bool)
    edge = kept.astype(bool) & ~inner
    grey = rgb.astype(np.float32).mean(axis=2) if rgb.ndim == 3 else rgb.astype(np.float32)
    def mean(mask: np.ndarray) -> np.ndarray:
        count = np.bincount(labels[mask], minlength=n)
        total = np.bincount(labels[mask], weights=grey[mask], minlength=n)
        return total / np.maximum(count, 1), count
    inside, count = mean(inner)
    rim, _ = mean(edge)
    return (count == 0) | (np.abs(inside - rim) <= UNIFORM)


def bridge_halos(fine: np.ndarray, ink: np.ndarray, scale: Scale, fill: bool = True,
                 rgb: np.ndarray | None = None) -> np.ndarray:
    """``fine`` with each solid head joined to the ink around it (and filled in, with
    ``fill``; without, only heads ``fine`` holds count: a connector mask cleared of text
    keeps no head of the text's)."""
    blobs = solid_blobs(ink, scale, rgb)
    if not fill:
        blobs &= fine
    if not blobs.any():
        return fine
    reach = _disk(int(round(REACH * scale.stroke)) + 1)
    b8 = blobs.astype(np.uint8)
    near_head = cv2.dilate(b8, reach).astype(bool)
    own = cv2.dilate(b8, _disk(1)).astype(bool)
    other = (fine & ~own).astype(np.uint8)
    near_other = cv2.dilate(other, reach).astype(bool)
    return fine | blobs | (near_head & near_other)
