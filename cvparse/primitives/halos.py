"""Filled arrowheads that a white halo set apart from their lines, joined to them again.

Some renderers draw each filled head over a slightly larger white triangle, after the
lines and nodes.  The halo shaves the last pixels off the line, so the head stands a few
pixels apart from it: traced as a stub of its own, while the line's end reads as plain.
A head is a solid, triangular blob of the wide median's ink (an opening by a stroke-sized
disk keeps it, lines and letters vanish).  In a connector mask cleared of the nodes, a
head that stands alone is joined to the lines within two strokes of it: pixels near the
head *and* near a long piece of ink are filled.
"""

from __future__ import annotations

import cv2
import numpy as np

from .items import Scale
from ..arrays import components

MAX_HEAD = 2.5
"""Largest solid blob taken for a head, in text heights (a filled box is larger)."""

TRIANGULAR = 0.7
"""Least share of its enclosing triangle a head's core fills."""

LONG = 2.0
"""Least length, in text heights, of the ink a head is bridged to (a line, not a letter)."""

REACH = 2.0
"""How far a gap is bridged from the head, in strokes (plus one pixel of anti-aliasing)."""


def _disk(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


def solid_blobs(ink: np.ndarray, scale: Scale) -> np.ndarray:
    """Ink at least two strokes thick everywhere, in triangular blobs no larger than a
    head."""
    radius = max(1, int(round(scale.stroke)))
    core = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, _disk(radius))
    n, labels, stats, _ = components(core, 8)
    if n <= 1:
        return np.zeros(ink.shape, bool)
    size = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    keep = size <= MAX_HEAD * scale.text_height
    keep[0] = False
    for i in np.flatnonzero(keep):
        keep[i] = _triangular(labels, stats, int(i))
    # the opening shaved the tip and the edges off: take the ink back round the core
    return cv2.dilate(keep[labels].astype(np.uint8), _disk(radius + 1)).astype(bool) & ink


def _triangular(labels: np.ndarray, stats: np.ndarray, i: int) -> bool:
    """Component ``i`` fills most of the least triangle round it: a head, not a filled
    box, disc or icon part (a square fills half its triangle, a disc about 60%)."""
    x, y, w, h = (int(v) for v in stats[i, :4])
    pts = cv2.findNonZero((labels[y:y + h, x:x + w] == i).astype(np.uint8))
    if pts is None or len(pts) < 3:
        return False
    area, _ = cv2.minEnclosingTriangle(pts.astype(np.float32))
    return bool(area > 0 and stats[i, cv2.CC_STAT_AREA] >= TRIANGULAR * area)


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
    near = cv2.dilate(blobs.astype(np.uint8), _disk(int(round(scale.stroke)) + 1)).astype(bool)
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
    reach = _disk(int(round(REACH * scale.stroke)) + 1)
    b8 = blobs.astype(np.uint8)
    near_head = cv2.dilate(b8, reach).astype(bool)
    own = cv2.dilate(b8, _disk(1)).astype(bool)
    other = _long_pieces((mask & ~own).astype(np.uint8), LONG * scale.text_height)
    near_other = cv2.dilate(other, reach).astype(bool)
    return mask | (near_head & near_other)


def closed_by_heads(fine: np.ndarray, ink: np.ndarray, scale: Scale, *,
                    heads: np.ndarray | None = None) -> np.ndarray:
    """``fine`` (the shape-finding ink) with every head grown by the width of its halo.

    A renderer that draws a head over a white halo after the nodes, its tip inside the
    node, erases the node's border on both flanks of the head: the box then encloses no
    region.  The halo is a few pixels wider than the head, so the head grown by that much
    closes the border again.  Used only to find the boxes that stayed open without it
    (see :func:`cvparse.primitives.inventory.build_inventory`): a box that is closed
    already keeps the region it has.  ``heads`` are the solid blobs of ``ink`` where the
    caller has them (the page's).
    """
    if heads is None:
        heads = solid_blobs(ink, scale)
    if not heads.any():
        return fine
    grow = _disk(int(round(REACH * scale.stroke)) + 1)
    return fine | cv2.dilate(heads.astype(np.uint8), grow).astype(bool)
