"""Second, outer border of a shape (weak entity, identifying relationship, multivalued).

The ring between two concentric borders is an enclosed region only while it stays open;
at the sharp corners of a diamond the two lines meet and cut it into pieces.  Here the
outer border is found directly: walking outwards from the inner area, ink coverage is
high on the inner border, drops in the gap, and rises again on a second border.
"""

from __future__ import annotations

import cv2
import numpy as np

from .regions import Region, fill_holes, region_from_mask

HIGH = 0.75
"""Share of a ring at one distance that must be ink to count as a border."""
LOW = 0.35
"""Share below which a ring is the paper gap between two borders."""


def coverage_profile(region: Region, ink: np.ndarray, max_dist: int
                     ) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """Ink share of the rings 1, 2, ... ``max_dist`` pixels outside a region; also the
    distance map and its crop origin."""
    h, w = ink.shape
    x1, y1, x2, y2 = region.bbox
    m = max_dist + 2
    cx1, cy1, cx2, cy2 = max(0, x1 - m), max(0, y1 - m), min(w, x2 + m), min(h, y2 + m)
    inside = np.zeros((cy2 - cy1, cx2 - cx1), np.uint8)
    inside[y1 - cy1:y2 - cy1, x1 - cx1:x2 - cx1] = region.filled
    dist = cv2.distanceTransform(1 - inside, cv2.DIST_L2, 3)
    crop = ink[cy1:cy2, cx1:cx2]
    # ring d holds the distances in (d - 1, d], i.e. ceil(dist) == d
    ring = np.ceil(np.minimum(dist, max_dist + 1)).astype(np.int64)
    use = (ring >= 1) & (ring <= max_dist)
    idx = ring[use]
    count = np.bincount(idx, minlength=max_dist + 1)
    hits = np.bincount(idx, weights=crop[use].astype(np.float64), minlength=max_dist + 1)
    prof = np.zeros(max_dist + 1)
    nz = count > 0
    prof[nz] = hits[nz] / count[nz]
    return prof, dist, (cx1, cy1)


def outer_border(region: Region, ink: np.ndarray, stroke: float) -> Region | None:
    """The area inside a second border around ``region``, or ``None`` if it has none."""
    max_dist = int(round(5 * stroke)) + 4
    prof, dist, (ox, oy) = coverage_profile(region, ink, max_dist)
    d = 1
    while d <= max_dist and prof[d] >= LOW:
        d += 1  # the inner border
    gap_start = d
    while d <= max_dist and prof[d] < LOW:
        d += 1  # the gap
    if d > max_dist or d == gap_start or prof[d:].max() < HIGH:
        return None
    peak = d + int(np.argmax(prof[d:] >= HIGH))
    # The outer area reaches to the inner edge of the outer border.
    return region_from_mask(fill_holes(dist <= max(gap_start, peak - 1)), ox, oy,
                            region.paper_area)
