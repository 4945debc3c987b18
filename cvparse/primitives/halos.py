"""Filled arrowheads: solid triangular blobs of ink, and boxes a haloed head cut open.

Some renderers draw each filled head over a slightly larger white triangle, after the
lines and nodes.  The halo shaves the last pixels off the line, so the head stands a few
pixels apart from it, and erases the border of the node its tip reaches into.  A head is
a solid, triangular blob of the wide median's ink (an opening by a stroke-sized disk keeps
it, lines and letters vanish).  Perception grows the heads by the halo's width to close
the boxes they cut open (:func:`closed_by_heads`); the connector stage joins a head that
stands apart to its line (:func:`cvparse.connectors.haloheads.bridge_halos`).
"""

from __future__ import annotations

import cv2
import numpy as np

from ..arrays import components, disk
from .items import Scale

MAX_HEAD = 2.5
"""Largest solid blob taken for a head, in text heights (a filled box is larger)."""

TRIANGULAR = 0.7
"""Least share of its enclosing triangle a head's core fills."""

REACH = 2.0
"""How far a halo reaches past its head, in strokes (plus one pixel of anti-aliasing): how
far a head is grown to close a box and bridged to its line."""


def solid_blobs(ink: np.ndarray, scale: Scale) -> np.ndarray:
    """Ink at least two strokes thick everywhere, in triangular blobs no larger than a
    head."""
    radius = max(1, int(round(scale.stroke)))
    core = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, disk(radius))
    n, labels, stats, _ = components(core, 8)
    if n <= 1:
        return np.zeros(ink.shape, bool)
    size = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    keep = size <= MAX_HEAD * scale.text_height
    keep[0] = False
    for i in np.flatnonzero(keep):
        keep[i] = _triangular(labels, stats, int(i))
    # the opening shaved the tip and the edges off: take the ink back round the core
    return cv2.dilate(keep[labels].astype(np.uint8), disk(radius + 1)).astype(bool) & ink


def _triangular(labels: np.ndarray, stats: np.ndarray, i: int) -> bool:
    """Component ``i`` fills most of the least triangle round it: a head, not a filled
    box, disc or icon part (a square fills half its triangle, a disc about 60%)."""
    x, y, w, h = (int(v) for v in stats[i, :4])
    pts = cv2.findNonZero((labels[y:y + h, x:x + w] == i).astype(np.uint8))
    if pts is None or len(pts) < 3:
        return False
    area, _ = cv2.minEnclosingTriangle(pts.astype(np.float32))
    return bool(area > 0 and stats[i, cv2.CC_STAT_AREA] >= TRIANGULAR * area)


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
    grow = disk(int(round(REACH * scale.stroke)) + 1)
    return fine | cv2.dilate(heads.astype(np.uint8), grow).astype(bool)
