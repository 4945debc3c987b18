"""Group frames: rectangles drawn round a set of nodes (subgraphs, clusters), found in
the connector mask so the tracer neither follows them as lines nor lets them cut the
lines that cross them.

A frame is no shape of the inventory (it holds other shapes, so it is no node), yet its
border is ink outside every node: traced, it becomes a closed loop whose corners and
crossings break every connector that enters or leaves the group.  Its sides are long
straight runs, far longer than a text line, that meet in a closed rectangle with at
least one node well inside it.  Clearing them leaves a gap of one stroke in each line
crossing the border, which the gap bridging closes (the two pieces are collinear).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np


def frame_outlines(mask: np.ndarray, shapes: Sequence[tuple[int, int, int, int]],
                   stroke: float, text_height: float) -> list[tuple[int, int, int, int]]:
    """Boxes ``x1, y1, x2, y2`` of the rectangles in ``mask`` that hold a shape.

    A side is a straight run of at least three text lines (an opening of the mask with
    a line-shaped kernel), collinear runs joined across short gaps (``SIDE_GAP``).  Two
    horizontal runs with the same ends, one above the other, and two vertical runs
    covering most of the height between them at those ends, or a rounded corner's
    radius further out (``ROUND_CORNER``), make a rectangle; it is a frame if at least
    one of ``shapes`` lies inside it, clear of its border by a stroke.  Lines crossing a
    side or running on from it do not matter: each side is read on its own.
    """
    if not mask.any() or not shapes:
        return []
    run = max(8, int(round(3 * text_height)))
    thick = 2 * stroke + 2
    m = mask.astype(np.uint8)
    hor = _joined(_runs(cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((1, run), np.uint8)),
                        0, thick), text_height, stroke)
    ver = _joined(_runs(cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((run, 1), np.uint8)),
                        1, thick), text_height, stroke)
    if len(hor) < 2 or len(ver) < 2:
        return []
    tol = thick
    corner = max(tol, ROUND_CORNER * text_height)
    out = []
    for a1, a2, ay in hor:
        for b1, b2, by in hor:
            if by - ay < run or abs(a1 - b1) > tol or abs(a2 - b2) > tol:
                continue
            x1 = side_at(ver, min(a1, b1), -1, tol, corner, ay, by)
            x2 = side_at(ver, max(a2, b2), 1, tol, corner, ay, by)
            if x1 is None or x2 is None:
                continue
            pad = stroke + 1
            if any(a >= x1 + pad and b >= ay + pad and c <= x2 - pad and d <= by - pad
                   for a, b, c, d in shapes):
                out.append((int(round(x1)), int(ay), int(round(x2)), int(by)))
    return out


ROUND_CORNER = 1.0
"""A frame's corners may be rounded with a radius of up to this many text heights (a
cluster of Graphviz ``style=rounded`` or of an icon diagram): its straight top and bottom
runs then stop that far short of its sides, and its sides that far short of them."""


def side_at(ver: list[tuple[float, float, float]], end: float, out: int, tol: float,
            corner: float, ya: float, yb: float) -> float | None:
    """Where the vertical side of a frame whose top and bottom runs end at ``end`` lies
    (``out``: -1 for the left side, 1 for the right), or ``None`` if no side is drawn
    there: vertical runs within ``tol`` of ``end``, or up to ``corner`` further out (a
    rounded corner), covering most of the height from ``ya`` to ``yb`` less the two
    corners' arcs."""
    best = None
    for x in sorted({vx for _, _, vx in ver if -tol <= (vx - end) * out <= corner},
                    key=lambda vx: abs(vx - end)):
        inset = max(0.0, (x - end) * out)
        cover = sum(max(0.0, min(v2, yb) - max(v1, ya))
                    for v1, v2, vx in ver if abs(vx - x) <= tol)
        if cover >= 0.8 * (yb - ya) - 2 * inset:
            best = x
            break
    return best


def _runs(lines: np.ndarray, axis: int, thick: float) -> list[tuple[float, float, float]]:
    """Straight runs of an opened mask as ``(start, end, position)`` along ``axis`` 0
    (horizontal runs: x from, x to, y) or 1 (vertical: y from, y to, x); blobs thicker
    than a line (``thick``) are no runs."""
    n, _, stats, centres = cv2.connectedComponentsWithStats(lines, connectivity=8)
    out = []
    for i in range(1, n):
        x, y, w, h = (int(v) for v in stats[i, :4])
        if axis == 0 and h <= thick:
            out.append((float(x), float(x + w), float(centres[i][1])))
        elif axis == 1 and w <= thick:
            out.append((float(y), float(y + h), float(centres[i][0])))
    return out


SIDE_GAP = 2.0
"""A frame's side may be broken by gaps of up to this many text heights (where lines
cross it or run along it, or its title is set into it): collinear runs that close."""


def _joined(runs: list[tuple[float, float, float]], text_height: float, stroke: float
            ) -> list[tuple[float, float, float]]:
    """``runs`` with collinear runs (positions within a stroke) joined across gaps of
    up to ``SIDE_GAP`` text heights, as one run each."""
    out: list[tuple[float, float, float]] = []
    for a, b, pos in sorted(runs, key=lambda r: (round(r[2]), r[0])):
        for k, (c, d, q) in enumerate(out):
            if abs(q - pos) <= stroke and a - d <= SIDE_GAP * text_height and b >= c:
                out[k] = (min(a, c), max(b, d), q)
                break
        else:
            out.append((a, b, pos))
    return out


def clear_frames(mask: np.ndarray, frames: Sequence[tuple[int, int, int, int]],
                 stroke: float) -> np.ndarray:
    """``mask`` without the border of each frame: a band a little wider than the
    stroke on either side of its four sides (a line crossing it keeps a short gap)."""
    if not frames:
        return mask
    out = mask.copy()
    h, w = out.shape
    band = max(2, int(round(1.5 * stroke)) + 1)
    for x1, y1, x2, y2 in frames:
        a, b = max(0, x1 - band), max(0, y1 - band)
        c, d = min(w, x2 + band + 1), min(h, y2 + band + 1)
        out[b:min(h, y1 + band + 1), a:c] = False
        out[max(0, y2 - band):d, a:c] = False
        out[b:d, a:min(w, x1 + band + 1)] = False
        out[b:d, max(0, x2 - band):c] = False
    return out
