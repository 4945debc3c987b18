"""Plain-text nodes a traced line was bridged through.  The tracer joins line ends facing
each other across a free label (a label drawn over its line), so the lines of a
plain-text node (no border, no picture: a label the tools stop lines short of) can come
out as one line running on through it, with no loose end left at the label.  A label
sitting on its line has the line run straight through it, once; a node has lines turn at
it (they come in from one side and leave from another) or several lines meeting there.
"""

from __future__ import annotations

import numpy as np

from ...arrays import under
from ...connectors.lines import Connector

THROUGH_PAD = 0.3
"""A line runs through a label where its points come within this many text heights of
the label's box."""

THROUGH_ARM = 3.0
"""The line's heading on either side of the label is read over this many text heights
of it, from where it comes within ``THROUGH_PAD`` of the label."""

THROUGH_TURN = 0.9
"""A line runs straight through when its headings in and out agree to this cosine
(about 25 degrees)..."""

THROUGH_OFFSET = 0.35
"""...and the line going out lies within this many text heights (or two strokes) of the
line coming in, carried on."""


def _at_arc(pts: np.ndarray, start: int, step: int, dist: float) -> np.ndarray:
    """The point ``dist`` px of arc length from ``pts[start]`` walking by ``step``
    (the last point reached if the line ends first)."""
    k, run = start, 0.0
    while 0 <= k + step < len(pts) and run < dist:
        run += float(np.linalg.norm(pts[k + step] - pts[k]))
        k += step
    return pts[k]


def _passes(box, pts: np.ndarray, pad: float) -> list[tuple[int, int]]:
    """Index ranges ``(first, last)`` of the runs of ``pts`` within ``pad`` px of
    ``box`` that neither start nor end the line (an end inside is no pass)."""
    x1, y1, x2, y2 = box
    inside = ((pts[:, 0] >= x1 - pad) & (pts[:, 0] <= x2 + pad)
              & (pts[:, 1] >= y1 - pad) & (pts[:, 1] <= y2 + pad))
    out = []
    k, n = 0, len(pts)
    while k < n:
        if not inside[k]:
            k += 1
            continue
        j = k
        while j + 1 < n and inside[j + 1]:
            j += 1
        if k > 0 and j < n - 1:
            out.append((k, j))
        k = j + 1
    return out


def _straight(pts: np.ndarray, first: int, last: int, arm: float, offset: float) -> bool:
    """True if the line runs on straight over ``pts[first..last]``: its heading in (over
    ``arm`` px before) and out (``arm`` px after) agree and the line going out carries
    on the line coming in to within ``offset`` px."""
    a0, a1 = _at_arc(pts, first, -1, arm), pts[first]
    b0, b1 = pts[last], _at_arc(pts, last, 1, arm)
    din, dout = a1 - a0, b1 - b0
    nin, nout = float(np.linalg.norm(din)), float(np.linalg.norm(dout))
    if nin == 0 or nout == 0:
        return False
    din, dout = din / nin, dout / nout
    if float(din @ dout) < THROUGH_TURN:
        return False
    normal = np.array([-din[1], din[0]])
    return abs(float((b1 - a0) @ normal)) <= offset


def bridged_through(box, connectors: list[Connector], th: float, stroke: float,
                    ink: np.ndarray) -> bool:
    """True if traced lines were bridged through the label ``box`` (no line ink, text
    left out, where they cross it) the way they run to a plain-text node: one line
    turning there, or two or more crossings."""
    pad = THROUGH_PAD * th
    arm = THROUGH_ARM * th
    offset = max(THROUGH_OFFSET * th, 2 * stroke)
    crossings = 0
    turned = False
    for c in connectors:
        pts = np.asarray(c.points, np.float64)
        if len(pts) < 3:
            continue
        for first, last in _passes(box, pts, pad):
            if under(ink, pts[first:last + 1]).mean() >= 0.5:
                continue  # a drawn line passing by: an edge label's own line
            crossings += 1
            turned = turned or not _straight(pts, first, last, arm, offset)
    return turned or crossings >= 2
