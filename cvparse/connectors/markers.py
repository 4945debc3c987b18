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

ARROW_RATIO = 1.8
"""An end whose ink is this many times wider than its line carries a filled arrowhead."""


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


def _line_halfwidth(conn: Connector, dist: np.ndarray) -> float:
    h, w = dist.shape
    xs = np.clip(conn.points[:, 0].round().astype(int), 0, w - 1)
    ys = np.clip(conn.points[:, 1].round().astype(int), 0, h - 1)
    values = dist[ys, xs]
    n = len(values)
    body = values[n // 4: max(n // 4 + 1, 3 * n // 4)]
    body = body[body > 0]
    if body.size == 0:
        body = values[values > 0]
    return max(float(np.median(body)) if body.size else 0.5, 0.5)


def end_width_ratio(conn: Connector, index: int, end: int, dist: np.ndarray,
                    owner: np.ndarray, stroke: float) -> float:
    """Widest ink of this connector around one end, over the line's own half-width."""
    h, w = dist.shape
    line = _line_halfwidth(conn, dist)
    r = int(round(2 * stroke + 4))
    ex, ey = conn.ends[end].point
    x1, x2 = max(0, int(ex) - r), min(w, int(ex) + r + 1)
    y1, y2 = max(0, int(ey) - r), min(h, int(ey) + r + 1)
    window = np.where(owner[y1:y2, x1:x2] == index + 1, dist[y1:y2, x1:x2], 0)
    return float(window.max()) / line if window.size else 0.0


def classify_ends(connectors: list[Connector], mask: np.ndarray, stroke: float) -> None:
    """Set ``marker`` on both ends of every connector from the ink width around them."""
    dist = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    owner = ownership(mask, connectors)
    for i, c in enumerate(connectors):
        for e in (0, 1):
            ratio = end_width_ratio(c, i, e, dist, owner, stroke)
            c.ends[e].marker = "arrow" if ratio >= ARROW_RATIO else "none"
