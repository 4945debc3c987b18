"""The fast forms of hot primitives give exactly what the plain forms they replaced gave
(issue #4: speed-ups must leave every output byte-identical)."""

from __future__ import annotations

import cv2
import numpy as np

from cvparse.primitives.double import coverage_profile
from cvparse.primitives.items import Scale
from cvparse.primitives.arrowheads import head_sides_many
from cvparse.primitives.inventory import _masked_median
from cvparse.primitives.regions import Region

from .plain import plain_head_sides


def _plain_profile(region: Region, ink: np.ndarray, max_dist: int) -> np.ndarray:
    h, w = ink.shape
    x1, y1, x2, y2 = region.bbox
    m = max_dist + 2
    cx1, cy1, cx2, cy2 = max(0, x1 - m), max(0, y1 - m), min(w, x2 + m), min(h, y2 + m)
    inside = np.zeros((cy2 - cy1, cx2 - cx1), np.uint8)
    inside[y1 - cy1:y2 - cy1, x1 - cx1:x2 - cx1] = region.filled
    dist = cv2.distanceTransform(1 - inside, cv2.DIST_L2, 3)
    crop = ink[cy1:cy2, cx1:cx2]
    prof = np.zeros(max_dist + 1)
    for d in range(1, max_dist + 1):
        ring = (dist > d - 1) & (dist <= d)
        prof[d] = crop[ring].mean() if ring.any() else 0.0
    return prof


def test_coverage_profile_matches_ring_by_ring_means():
    rng = np.random.default_rng(1)
    for _ in range(300):
        h, w = (int(v) for v in rng.integers(20, 80, 2))
        ink = rng.random((h, w)) < rng.random()
        x1, y1 = int(rng.integers(0, w - 2)), int(rng.integers(0, h - 2))
        x2, y2 = int(rng.integers(x1 + 1, w)), int(rng.integers(y1 + 1, h))
        filled = rng.random((y2 - y1, x2 - x1)) < 0.8
        region = Region((x1, y1, x2, y2), filled, int(filled.sum()), np.zeros((0, 2)))
        max_dist = int(rng.integers(1, 20))
        fast = coverage_profile(region, ink, max_dist)[0]
        assert fast.tobytes() == _plain_profile(region, ink, max_dist).tobytes()


def test_masked_median_matches_numpy_median():
    rng = np.random.default_rng(0)
    for t in range(1000):
        h, w = (int(v) for v in rng.integers(1, 30, 2))
        page = rng.integers(0, 256, (h + 5, w + 5, 3), dtype=np.uint8)
        if t % 3 == 0:
            page = (page // 64 * 64).astype(np.uint8)  # many ties
        crop = page[2:2 + h, 3:3 + w]
        mask = rng.random((h, w)) < rng.random()
        inner = crop[mask]
        want = tuple(int(v) for v in np.median(inner, axis=0)) if inner.size else (255, 255, 255)
        assert _masked_median(crop, mask) == want


def test_head_sides_many_matches_end_by_end_search():
    rng = np.random.default_rng(3)
    scale = Scale(stroke=2.0, text_height=14.0)
    for _ in range(20):
        near = rng.random((120, 160)) < 0.7
        near = cv2.dilate(near.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) \
            & (rng.random((120, 160)) < 0.97)
        tips = rng.integers(0, 160, (40, 2)).astype(np.int64)
        tips[:, 1] %= 120
        backs = rng.integers(-10, 11, (40, 2)).astype(np.int64)
        got = head_sides_many(near, tips, backs, scale)
        want = [plain_head_sides(near, t, bk, scale) for t, bk in zip(tips, backs)]
        assert got == want
        assert any(got) and not all(got)  # both outcomes exercised
