"""Drawings made of connector ink: what looks like an icon's picture over a free label
can be nothing but the lines of the graph (an edge label under its curve, a plain-text
node with its lines ending right above it, a cluster title under lines crossing the
cluster's border).  Such a label has no picture of its own and is no icon."""

from __future__ import annotations

import math

import cv2
import numpy as np

from ...arrays import under
from ...connectors.lines import Connector

LINE_DRAWN_SHARE = 0.9
"""A drawing is connector ink when at least this share of its ink lies on traced lines
that pass over it or stop in it at the label (an icon's own picture is ink no line runs
through; a line ending at the icon covers only its tip)."""

LINE_DRAWN_OUT = 1.0
"""A line runs out of a drawing when it reaches at least this many text heights beyond
the drawing's box (a stroke of the picture traced as a short line stays inside it)."""

LINE_DRAWN_INKED = 0.9
"""A line passes over a drawing when it is drawn along this share of its course there
(a line the tracer bridged over an icon's picture has gaps where it meets it)."""

LINE_AIM = 0.7
"""A line ending in a drawing ends at the label when its heading points at the label's
middle to this cosine (about 45 degrees); a picture's stroke the tracer ran a line on
into points anywhere."""


def _aims_at(point, direction, label) -> bool:
    """True if a line end at ``point`` heading along ``direction`` points at the middle
    of the ``label`` box (to ``LINE_AIM``)."""
    to = np.array([(label[0] + label[2]) / 2 - point[0], (label[1] + label[3]) / 2 - point[1]])
    norm = float(np.linalg.norm(to))
    return norm > 0 and float(to @ np.asarray(direction, np.float64)) / norm >= LINE_AIM


def _dense(pts: np.ndarray) -> np.ndarray:
    """The polyline ``pts`` with a point every pixel along it (a bridged stretch of a
    traced line is one long step)."""
    out = [pts[:1]]
    for a, b in zip(pts[:-1], pts[1:]):
        n = int(np.ceil(np.abs(b - a).max()))
        if n > 1:
            t = np.arange(1, n + 1)[:, None] / n
            out.append(a + t * (b - a))
        else:
            out.append(b[None])
    return np.concatenate(out)


def line_drawn(ink: np.ndarray, box, label, connectors: list[Connector], stroke: float,
               th: float) -> bool:
    """True if the ink in ``box`` (``x1, y1, x2, y2``, a drawing above the ``label``
    box) lies, by ``LINE_DRAWN_SHARE``, on ``connectors`` that run out of it by
    ``LINE_DRAWN_OUT`` text heights: lines passing over it (on out on both sides), or
    ending in it with their heading on at the label.  The 'drawing' is then the lines
    of the graph passing or stopping at the label, not a picture."""
    x1, y1, x2, y2 = (int(v) for v in box)
    h, w = ink.shape
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
    region = ink[y1:y2, x1:x2]
    total = int(region.sum())
    if total == 0:
        return False
    out = LINE_DRAWN_OUT * th
    near = stroke + 1
    mask = np.zeros(region.shape, np.uint8)
    thick = max(3, math.ceil(stroke) + 2)
    for c in connectors:
        pts = np.asarray(c.points, np.float64)
        if len(pts) < 2:
            continue
        beyond = np.flatnonzero((pts[:, 0] < x1 - out) | (pts[:, 0] > x2 + out)
                                | (pts[:, 1] < y1 - out) | (pts[:, 1] > y2 + out))
        inside = np.flatnonzero((pts[:, 0] >= x1 - near) & (pts[:, 0] <= x2 + near)
                                & (pts[:, 1] >= y1 - near) & (pts[:, 1] <= y2 + near))
        if not len(beyond) or not len(inside):
            continue
        before, after = beyond[0] < inside[0], beyond[-1] > inside[-1]
        # a line stops here when it goes no further than LINE_DRAWN_OUT past the drawing
        ends_here = ((not before and _aims_at(c.ends[0].point, c.ends[0].direction, label))
                     or (not after and _aims_at(c.ends[1].point, c.ends[1].direction, label)))
        if before and after and not ends_here:
            # passing over: drawn all the way (a line bridged over a tile's picture
            # runs on through it, but with gaps in its ink there)
            span = np.flatnonzero((pts[:, 0] >= x1 - out) & (pts[:, 0] <= x2 + out)
                                  & (pts[:, 1] >= y1 - out) & (pts[:, 1] <= y2 + out))
            course = _dense(pts[max(0, span[0] - 1):span[-1] + 2])
            course = course[(course[:, 0] >= x1 - out) & (course[:, 0] <= x2 + out)
                            & (course[:, 1] >= y1 - out) & (course[:, 1] <= y2 + out)]
            if under(ink, course).mean() < LINE_DRAWN_INKED:
                continue
        elif not ends_here:
            continue
        local = np.round(pts - (x1, y1)).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(mask, [local], False, 1, thick)
    return int((region & (mask > 0)).sum()) >= LINE_DRAWN_SHARE * total
