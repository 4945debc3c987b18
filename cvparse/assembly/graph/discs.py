"""Solid discs at the loose ends of a flowchart's lines: start (and end) nodes.

Activity-diagram tools (PlantUML's ``start``, UML's initial node, Mermaid 11's small
filled circle) draw a flow's start as a disc filled with the line colour.  A disc holds
no paper, so the inventory finds no shape in it, and the first line of the chart starts
from nowhere.  A disc is told from everything else drawn in ink by its roundness: cut
off its line (an opening by a disk a few strokes across), its ink fills most of the least
circle round it (a square fills two thirds, a triangle less than half), and its middle
lies about a radius deep in the ink (an arrowhead's lies at most half its circle's
radius deep).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ...connectors.lines import Connector
from ...primitives.items import Inventory
from ...arrays import components
from ...primitives.regions import fill_holes

DISC_SPAN = (0.7, 3.0)
"""A start disc is this many text heights across (a bullet or a dot is smaller, a node
larger)."""
DISC_FILL = 0.75
"""Least share of its enclosing circle the core of a disc fills (the core: the ink left
by an opening that cuts the lines off)."""
DISC_AREA = 1.2
"""Most area of a disc's ink, in areas of the circle its depth gives (the distance from
its middle to the paper as radius): a disc's area is what its depth says, an
arrowhead's is 1.3-2.6 times that."""


@dataclass
class Disc:
    """A solid disc: centre and radius in page pixels."""

    cx: float
    cy: float
    r: float

    @property
    def bbox(self) -> list[int]:
        return [int(np.floor(self.cx - self.r)), int(np.floor(self.cy - self.r)),
                int(np.ceil(self.cx + self.r)) + 1, int(np.ceil(self.cy + self.r)) + 1]


def solid_discs(inv: Inventory) -> list[Disc]:
    """The solid round blobs of ink outside every shape, ``DISC_SPAN`` text heights
    across."""
    if inv.ink is None:
        return []
    th, stroke = inv.scale.text_height, inv.scale.stroke
    ink = inv.ink.astype(np.uint8)
    k = max(1, int(round(1.5 * stroke)))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    core = cv2.morphologyEx(ink, cv2.MORPH_OPEN, disk)
    if not core.any():
        return []
    n, labels, stats, _ = components(core, 8)
    grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 3, 2 * k + 3))
    out = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if not DISC_SPAN[0] * th <= max(w, h) <= DISC_SPAN[1] * th:
            continue
        own = labels[y:y + h, x:x + w] == i
        (cx, cy), r = cv2.minEnclosingCircle(cv2.findNonZero(own.astype(np.uint8)))
        if area < DISC_FILL * np.pi * (r + 0.5) ** 2:
            continue
        # the blob: its core grown back over the ink the opening shaved off, the hole
        # that a wide median leaves in a large solid disc filled in
        m = k + 2
        X1, Y1 = max(0, x - m), max(0, y - m)
        X2, Y2 = min(ink.shape[1], x + w + m), min(ink.shape[0], y + h + m)
        seed = (labels[Y1:Y2, X1:X2] == i).astype(np.uint8)
        blob = fill_holes((cv2.dilate(seed, grow) > 0) & (ink[Y1:Y2, X1:X2] > 0))
        depth = float(cv2.distanceTransform(np.pad(blob, 1).astype(np.uint8),
                                            cv2.DIST_L2, 5).max()) + 0.5
        if blob.sum() > DISC_AREA * np.pi * depth * depth:
            continue
        cx, cy = cx + x, cy + y
        if any(s.bbox[0] <= cx <= s.bbox[2] and s.bbox[1] <= cy <= s.bbox[3]
               for s in inv.shapes):
            continue  # the dot in a ringed stop node, or a fill read as ink
        out.append(Disc(float(cx), float(cy), max(depth, float(r) + 0.5)))
    return out


def disc_ends(inv: Inventory, connectors: list[Connector],
              ends: list[tuple[int | None, int | None]], reach: float
              ) -> tuple[list[Disc], list[tuple[int | None, int | None]]]:
    """The discs that loose connector ends touch or point at (within ``reach`` px), and
    ``ends`` with those ends attached to them: disc ``j`` as node ``first + j``, where
    ``first`` is the number of inventory shapes.  Only discs some end reaches are kept."""
    loose = [(i, k) for i, pair in enumerate(ends) for k in (0, 1) if pair[k] is None]
    if not loose:
        return [], ends
    discs = solid_discs(inv)
    if not discs:
        return [], ends
    near = 2 * inv.scale.stroke + 2
    first = len(inv.shapes)
    used: dict[int, int] = {}
    out = [list(pair) for pair in ends]
    for i, k in loose:
        end = connectors[i].ends[k]
        p, d = np.asarray(end.point, float), np.asarray(end.direction, float)
        best = None
        for j, disc in enumerate(discs):
            c = np.array([disc.cx, disc.cy])
            if np.hypot(*(p - c)) <= disc.r + near:
                best = j
                break
            along = float(np.dot(c - p, d))  # the end heads at the disc across a gap
            side = abs(float(d[0] * (c - p)[1] - d[1] * (c - p)[0]))
            if 0 < along - disc.r <= reach and side <= disc.r:
                best = j
        if best is not None:
            out[i][k] = first + used.setdefault(best, len(used))
    kept = sorted(used, key=lambda j: used[j])
    return [discs[j] for j in kept], [(a, b) for a, b in out]
