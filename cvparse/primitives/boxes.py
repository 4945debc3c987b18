"""Boxes built from straight border lines: UML class boxes and table boxes with compartments.

A class box is a rectangle whose sides are long straight strokes, split into stacked
compartments by horizontal strokes running from side to side.  Long horizontal and
vertical strokes are isolated by morphological opening with line kernels (scaled to the
text height), then paired into rectangles; separators inside a rectangle make the
compartments.  Icons, text and shadows inside or beside a box do not matter.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..arrays import components


@dataclass(frozen=True)
class Segment:
    """An axis-aligned stroke: ``pos`` is its y (horizontal) or x (vertical)."""

    pos: float
    start: int
    end: int


@dataclass
class Box:
    """A rectangle with its compartments (top to bottom), image pixels."""

    bbox: tuple[int, int, int, int]
    separators: list[int]
    """y of each separator line, top to bottom."""

    @property
    def compartments(self) -> list[tuple[int, int, int, int]]:
        x1, y1, x2, y2 = self.bbox
        ys = [y1] + self.separators + [y2]
        return [(x1, a, x2, b) for a, b in zip(ys[:-1], ys[1:])]


def line_segments(ink: np.ndarray, length: int, horizontal: bool) -> list[Segment]:
    """Axis-aligned strokes at least ``length`` pixels long."""
    k = (max(3, length), 1) if horizontal else (1, max(3, length))
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, k)
    lines = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, kernel)
    n, _, stats, centroids = components(lines, 8)
    out = []
    for i in range(1, n):
        x, y, w, h = stats[i, :4]
        if horizontal:
            out.append(Segment(float(centroids[i][1]), int(x), int(x + w - 1)))
        else:
            out.append(Segment(float(centroids[i][0]), int(y), int(y + h - 1)))
    return out


def _covers(seg: Segment, a: float, b: float, tol: float) -> bool:
    return seg.start <= a + tol and seg.end >= b - tol


def find_boxes(ink: np.ndarray, stroke: float, text_height: float) -> list[Box]:
    """Rectangles whose four sides are drawn as straight lines, with their separators."""
    tol = 2 * stroke + 2
    corner = max(tol, 0.5 * text_height)
    horiz = line_segments(ink, int(round(text_height)), horizontal=True)
    vert = line_segments(ink, int(round(1.2 * text_height)), horizontal=False)
    boxes: list[Box] = []
    vert = sorted(vert, key=lambda s: s.pos)
    for i, left in enumerate(vert):
        for right in vert[i + 1:]:
            if right.pos - left.pos < text_height:
                continue
            top = max(left.start, right.start)
            bottom = min(left.end, right.end)
            if bottom - top < 1.2 * text_height:
                continue
            if abs(left.start - right.start) > tol or abs(left.end - right.end) > tol:
                continue
            x1, x2 = left.pos, right.pos
            tops = [h for h in horiz if abs(h.pos - top) <= tol and _covers(h, x1, x2, tol)]
            bottoms = [h for h in horiz if abs(h.pos - bottom) <= tol
                       and _covers(h, x1, x2, tol)]
            # rounded corners: the sides stop a radius short of the top and bottom lines,
            # which are as much shorter at both ends
            tops = tops or [h for h in horiz if top - corner <= h.pos < top - 1
                            and _covers(h, x1, x2, tol + top - h.pos)]
            bottoms = bottoms or [h for h in horiz if bottom + 1 < h.pos <= bottom + corner
                                  and _covers(h, x1, x2, tol + h.pos - bottom)]
            if not tops or not bottoms:
                continue
            # the box reaches to its lines, not to where its straight sides start
            top = min(top, min(h.pos for h in tops))
            bottom = max(bottom, max(h.pos for h in bottoms))
            seps = sorted(h.pos for h in horiz if top + tol < h.pos < bottom - tol
                          and _covers(h, x1, x2, tol))
            merged: list[float] = []
            for y in seps:
                if merged and y - merged[-1] <= tol:
                    continue
                merged.append(y)
            boxes.append(Box(bbox=(int(round(x1)), int(round(top)), int(round(x2)),
                                   int(round(bottom))),
                             separators=[int(round(y)) for y in merged]))
            break
    return _drop_contained(boxes, tol)


def _drop_contained(boxes: list[Box], tol: float) -> list[Box]:
    """Keep the outermost of overlapping boxes (a drop shadow pairs with a side, too)."""
    keep = []
    for b in sorted(boxes, key=lambda b: -(b.bbox[2] - b.bbox[0]) * (b.bbox[3] - b.bbox[1])):
        x1, y1, x2, y2 = b.bbox
        inside = any(k.bbox[0] - tol <= x1 and k.bbox[1] - tol <= y1 and x2 <= k.bbox[2] + tol
                     and y2 <= k.bbox[3] + tol for k in keep)
        overlap = any(min(x2, k.bbox[2]) - max(x1, k.bbox[0]) > 0.5 * (x2 - x1)
                      and min(y2, k.bbox[3]) - max(y1, k.bbox[1]) > 0.5 * (y2 - y1)
                      for k in keep)
        if not inside and not overlap:
            keep.append(b)
    return sorted(keep, key=lambda b: (b.bbox[1], b.bbox[0]))
