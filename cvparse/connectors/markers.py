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
        widths = [end_halfwidth(c, i, e, dist, owner, stroke) / stroke for e in (0, 1)]
        for e in (0, 1):
            mine, other = widths[e], widths[1 - e]
            head = mine >= ARROW_SURE or (mine >= ARROW_MIN and mine >= ARROW_DOMINANCE * other)
            c.ends[e].marker = "arrow" if head else "none"
