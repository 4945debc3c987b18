"""Filled arrowheads that a white halo set apart from their lines, joined to them again.

Some renderers draw each filled head over a slightly larger white triangle, after the
lines and nodes.  The halo shaves the last pixels off the line, so the head stands a few
pixels apart from it: traced as a stub of its own, while the line's end reads as plain.
The heads are the page's solid blobs (:func:`cvparse.primitives.halos.solid_blobs`).  In a
connector mask cleared of the nodes, a head that stands alone is joined to the lines
within two strokes of it: pixels near the head *and* near a long piece of ink are filled.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..arrays import components, disk
from ..primitives.halos import REACH, solid_blobs
from ..primitives.items import Scale

LONG = 2.0
"""Least length, in text heights, of the ink a head is bridged to (a line, not a letter)."""


def bridge_halos(mask: np.ndarray, ink: np.ndarray, scale: Scale, *,
                 heads: np.ndarray | None = None) -> np.ndarray:
    """``mask`` (connector ink) with each head that stands apart in it joined to the long
    pieces within reach.  Heads are found in ``ink`` (the wide median's, where they are
    whole; ``heads``, the page's :attr:`~cvparse.primitives.page.Page.solid_blobs`, where
    the caller has them) and count only where ``mask`` holds them."""
    solid = solid_blobs(ink, scale) if heads is None else heads
    blobs = _apart(solid & mask, mask, scale)
    blobs = _head_sized(blobs, scale)
    if not blobs.any():
        return mask
    reach = disk(int(round(REACH * scale.stroke)) + 1)
    b8 = blobs.astype(np.uint8)
    near_head = cv2.dilate(b8, reach).astype(bool)
    own = cv2.dilate(b8, disk(1)).astype(bool)
    other = _long_pieces((mask & ~own).astype(np.uint8), LONG * scale.text_height)
    near_other = cv2.dilate(other, reach).astype(bool)
    return mask | (near_head & near_other)


def _long_pieces(mask: np.ndarray, length: float) -> np.ndarray:
    """The pieces of ``mask`` at least ``length`` long: lines, not letters."""
    n, labels, stats, _ = components(mask, 8)
    if n <= 1:
        return mask
    keep = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) >= length
    keep[0] = False
    return keep[labels].astype(np.uint8)


def _apart(blobs: np.ndarray, mask: np.ndarray, scale: Scale) -> np.ndarray:
    """The heads of ``blobs`` that stand apart in ``mask``: their piece of the mask holds
    nothing beyond a stroke or two round the head.  A head still joined to its line needs
    no bridge (and an open head's arms would be filled in)."""
    n, labels, _, _ = components(mask.astype(np.uint8), 8)
    if n <= 1:
        return blobs
    near = cv2.dilate(blobs.astype(np.uint8), disk(int(round(scale.stroke)) + 1)).astype(bool)
    outside = np.bincount(labels[mask & ~near], minlength=n)
    alone = outside == 0
    alone[0] = False
    return blobs & alone[labels]


def _head_sized(blobs: np.ndarray, scale: Scale) -> np.ndarray:
    """The pieces of ``blobs`` at least two strokes square in area.  Where the connector
    mask cuts a head off from its line it keeps the head's body; a speck of a head that
    reaches past the mask's cut (its tip in a node's cleared margin, beside a dotted
    line running along the node) is no head set apart, and bridged it would join that
    line to the head."""
    n, labels, stats, _ = components(blobs.astype(np.uint8), 8)
    if n <= 1:
        return blobs
    keep = stats[:, cv2.CC_STAT_AREA] >= (2 * scale.stroke) ** 2
    keep[0] = False
    return keep[labels]
