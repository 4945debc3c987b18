"""End markers: what is drawn at each connector end (arrowhead, triangle, diamond, none).

Geometry first: a filled arrowhead makes the ink around the end much wider than the line
itself, so the widest ink near an end, compared with the line's own width, decides.  Ink
is first shared out among connectors by proximity, so an arrowhead of one connector does
not count for another that ends beside it.
"""

from __future__ import annotations

import cv2
import numpy as np
from scipy import ndimage

from .elements import Connector

ARROW_MIN = 1.6
"""An arrowhead's half-width is at least this many strokes (a line's is about half one)."""
ARROW_SURE = 2.0
"""Above this many strokes both ends are heads even when one is wider than the other."""
ARROW_DOMINANCE = 1.2
"""Below ``ARROW_SURE``, only the clearly wider end (by this factor) is a head."""


def ownership(mask: np.ndarray, connectors: list[Connector]) -> np.ndarray:
    """Index + 1 of the connector nearest to every pixel (0 where there are none)."""
    drawn = np.zeros(mask.shape, np.int32)
    for i, c in enumerate(connectors):
        pts = c.points.round().astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(drawn, [pts], False, i + 1, 1)
    if not drawn.any():
        return drawn
    _, (iy, ix) = ndimage.distance_transform_edt(drawn == 0, return_indices=True)
    return drawn[iy, ix]


def end_halfwidth(conn: Connector, index: int, end: int, dist: np.ndarray,
                  owner: np.ndarray, stroke: float) -> float:
    """Widest ink (half-width, pixels) of this connector within a few strokes of one end."""
    h, w = dist.shape
    r = int(round(2 * stroke + 4))
    ex, ey = conn.ends[end].point
    x1, x2 = max(0, int(ex) - r), min(w, int(ex) + r + 1)
    y1, y2 = max(0, int(ey) - r), min(h, int(ey) + r + 1)
    window = np.where(owner[y1:y2, x1:x2] == index + 1, dist[y1:y2, x1:x2], 0)
    return float(window.max()) if window.size else 0.0


def classify_ends(connectors: list[Connector], mask: np.ndarray, stroke: float) -> None:
    """Set ``marker`` on both ends of every connector from the ink width around them."""
    dist = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    owner = ownership(mask, connectors)
    for i, c in enumerate(connectors):
        # A page-wide stroke estimate can be inflated (text, halos); a connector's own
        # line width is the better unit when it is thinner.
        unit = min(stroke, max(1.0, c.width)) if c.width > 0 else stroke
        widths = [end_halfwidth(c, i, e, dist, owner, stroke) / unit for e in (0, 1)]
        for e in (0, 1):
            mine, other = widths[e], widths[1 - e]
            head = mine >= ARROW_SURE or (mine >= ARROW_MIN and mine >= ARROW_DOMINANCE * other)
            c.ends[e].marker = "arrow" if head else "none"


def width_profile(mask: np.ndarray, tip: tuple[float, float], inward: tuple[float, float],
                  length: float, half_span: float) -> tuple[np.ndarray, np.ndarray]:
    """Ink extent and ink count across the line, stepping back from ``tip`` one pixel a time.

    ``inward`` points from the connector into the shape it ends on; the profile walks the
    opposite way, from the shape border back along the connector.  At each step ``t`` it
    reports the distance between the outermost ink pixels across the line (``extent``)
    and how many ink pixels lie on that cross-section (``count``).
    """
    h, w = mask.shape
    ux, uy = inward
    nx, ny = -uy, ux
    steps = int(length)
    extent = np.zeros(steps)
    count = np.zeros(steps)
    offsets = np.arange(-int(half_span), int(half_span) + 1)
    for t in range(steps):
        cx, cy = tip[0] - ux * t, tip[1] - uy * t
        xs = np.round(cx + nx * offsets).astype(int)
        ys = np.round(cy + ny * offsets).astype(int)
        ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        on = np.zeros(offsets.size, bool)
        on[ok] = mask[ys[ok], xs[ok]]
        if on.any():
            # the run of ink must include the line itself (near the centre)
            idx = np.flatnonzero(on)
            extent[t] = offsets[idx[-1]] - offsets[idx[0]] + 1
            count[t] = idx.size
    return extent, count


def classify_symbol(extent: np.ndarray, count: np.ndarray, stroke: float) -> str:
    """End marker from a width profile: none, arrow, open_arrow, triangle, diamond,
    filled_diamond (hollow triangle = UML inheritance / realization)."""
    drawn = extent[extent > 0]
    line = max(1.0, float(np.percentile(drawn, 20)) if drawn.size else 1.0)
    wide = extent > max(line + 2.0, 1.8 * line, 0.8 * stroke)
    if wide.sum() < 2:
        return "none"
    idx = np.flatnonzero(wide)
    start, stop = idx[0], idx[-1]
    span = stop - start + 1
    peak = start + int(np.argmax(extent[start:stop + 1]))
    solid = count[start:stop + 1] / np.maximum(extent[start:stop + 1], 1)
    filled = float(np.median(solid)) > 0.7
    rel = (peak - start) / max(span - 1, 1)
    taper = float(extent[stop]) / max(float(extent[peak]), 1)
    if 0.2 <= rel <= 0.75 and taper < 0.75:
        return "filled_diamond" if filled else "diamond"
    if filled:
        return "arrow"
    far = slice(max(start, stop - 2), stop + 1)
    base = count[far] / np.maximum(extent[far], 1)
    return "triangle" if float(base.max()) > 0.6 else "open_arrow"


def read_end_symbol(mask: np.ndarray, tip: tuple[float, float], inward: tuple[float, float],
                    length: float, half_span: float, stroke: float) -> str:
    """End marker drawn where a connector meets a box border at ``tip`` (UML ends).

    ``inward`` points into the box; the border itself (ink across the whole window) is
    skipped before the profile is classified.
    """
    extent, count = width_profile(mask, tip, inward, length, half_span)
    skip = 0
    while skip < len(extent) and extent[skip] >= 0.9 * (2 * int(half_span) + 1):
        skip += 1
    return classify_symbol(extent[skip:], count[skip:], stroke)
