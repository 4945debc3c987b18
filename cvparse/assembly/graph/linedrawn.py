"""Drawings made of connector ink: what looks like an icon's picture over a free label
can be nothing but the lines of the graph (an edge label under its curve, a plain-text
node with its lines ending right above it, a cluster title under lines crossing the
cluster's border).  Such a label has no picture of its own and is no icon."""

from __future__ import annotations

import math

import cv2
import numpy as np

from ...connectors.lines import Connector

LINE_DRAWN_SHARE = 0.9
"""A drawing is connector ink when at least this share of its ink lies on traced lines
that run out of it (an icon's own picture is ink no line runs through; a line ending
at the icon covers only its tip)."""

LINE_DRAWN_OUT = 1.0
"""A line runs out of a drawing when it reaches at least this many text heights beyond
the drawing's box (a stroke of the picture traced as a short line stays inside it)."""


def line_drawn(ink: np.ndarray, box, connectors: list[Connector], stroke: float,
               th: float) -> bool:
    """True if the ink in ``box`` (``x1, y1, x2, y2``) lies, by ``LINE_DRAWN_SHARE``, on
    ``connectors`` that run on out of the box by ``LINE_DRAWN_OUT`` text heights: the
    'drawing' is lines passing or ending there, not a picture."""
    x1, y1, x2, y2 = (int(v) for v in box)
    h, w = ink.shape
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
    region = ink[y1:y2, x1:x2]
    total = int(region.sum())
    if total == 0:
        return False
    out = LINE_DRAWN_OUT * th
    mask = np.zeros(region.shape, np.uint8)
    thick = max(3, 2 * math.ceil(stroke) + 3)
    for c in connectors:
        pts = np.asarray(c.points, np.float64)
        if len(pts) < 2:
            continue
        beyond = ((pts[:, 0] < x1 - out) | (pts[:, 0] > x2 + out)
                  | (pts[:, 1] < y1 - out) | (pts[:, 1] > y2 + out))
        if not beyond.any():
            continue
        local = np.round(pts - (x1, y1)).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(mask, [local], False, 1, thick)
    return int((region & (mask > 0)).sum()) >= LINE_DRAWN_SHARE * total
