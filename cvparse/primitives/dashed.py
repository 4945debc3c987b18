"""Shapes with a dashed or dotted border (derived attributes): gaps closed, then found.

A dashed border leaks, so its inside is no enclosed region of the ink.  A morphological
closing scaled to the stroke width bridges the dash gaps on a copy of the ink; regions
enclosed only after the closing, fitting a shape template, whose border ink covers the
outline only in part, are the dashed shapes.
"""

from __future__ import annotations

import cv2
import numpy as np

from .regions import Region, enclosed_regions, region_from_mask
from .shapes import classify

DASHED_KINDS = ("ellipse", "circle", "rect", "round_rect", "diamond", "stadium")


def dash_mask(ink: np.ndarray, stroke: float, text_height: float) -> np.ndarray:
    """Ink components shaped like dashes or dots: short, one stroke thick, nearly straight."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), 8)
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if max(w, h) > 1.2 * text_height:
            continue
        ys, xs = np.nonzero(labels[y:y + h, x:x + w] == i)
        pts = np.stack([xs, ys], 1).astype(float)
        if len(pts) < 2:
            continue
        c = pts - pts.mean(0)
        normal = np.linalg.svd(c, full_matrices=False)[2][-1]
        keep[i] = np.abs(c @ normal).max() <= stroke + 1
    return keep[labels]


def gap_radius(stroke: float) -> int:
    """Half the widest dash gap bridged (gaps up to about seven strokes)."""
    return int(round(3.5 * stroke))


def close_gaps(ink: np.ndarray, stroke: float, text_height: float) -> np.ndarray:
    """Ink with the dash-like components thickened until the gaps between them close.

    (A closing does not bridge collinear dashes; thickening does, at the cost of shrinking
    the inside by :func:`gap_radius`, given back by :func:`regrow`.)  Only dash-like
    components are thickened, so text near a border stays apart from it.
    """
    r = gap_radius(stroke)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    dashes = dash_mask(ink, stroke, text_height).astype(np.uint8)
    return ink | cv2.dilate(dashes, kernel).astype(bool)


def regrow(region: Region, radius: int) -> Region:
    """A region dilated by ``radius``: the inside of a dashed border before thickening."""
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    filled = cv2.dilate(np.pad(region.filled, radius).astype(np.uint8), k).astype(bool)
    x1, y1 = region.bbox[:2]
    return region_from_mask(filled, x1 - radius, y1 - radius, region.paper_area, crop=False)


def border_hits(region: Region, ink: np.ndarray, stroke: float) -> np.ndarray:
    """Per outline point of the region: is there ink just outside it."""
    h, w = ink.shape
    pts = region.contour
    hits = np.zeros(len(pts), bool)
    reach = int(round(stroke)) + 2
    cx, cy = pts[:, 0].mean(), pts[:, 1].mean()
    for k, (x, y) in enumerate(pts):
        d = np.array([x - cx, y - cy], float)
        d /= max(np.linalg.norm(d), 1e-9)
        found = False
        for t in range(reach + 1):
            px, py = int(round(x + d[0] * t)), int(round(y + d[1] * t))
            if 0 <= px < w and 0 <= py < h and ink[py, px]:
                found = True
                break
        hits[k] = found
    return hits


def dash_runs(hits: np.ndarray) -> tuple[int, float, float]:
    """Inked runs along a closed outline: their number, the longest one's share of the
    outline, and the spread of their lengths (std / mean; dashes are all alike)."""
    if hits.all() or not hits.any():
        return int(hits.any()), float(hits.all()), 0.0
    k = int(np.argmin(hits))
    h = np.roll(hits, -k).astype(np.int8)
    d = np.diff(np.concatenate([[0], h, [0]]))
    lengths = np.flatnonzero(d == -1) - np.flatnonzero(d == 1)
    return (len(lengths), float(lengths.max() / len(hits)),
            float(lengths.std() / max(lengths.mean(), 1e-9)))


def convex(region: Region, shrink: int = 0) -> Region:
    """The convex hull of a region, optionally eroded by ``shrink`` pixels.

    Letters thickened with the dashes can join the border and notch the region; every
    dashed shape kind is convex, so the hull restores it.
    """
    x1, y1, x2, y2 = region.bbox
    hull = cv2.convexHull(region.contour.astype(np.int32) - np.array([x1, y1]))
    m = np.zeros(region.filled.shape, np.uint8)
    cv2.fillPoly(m, [hull], 1)
    if shrink > 0:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * shrink + 1, 2 * shrink + 1))
        m = cv2.erode(np.pad(m, 1), k)[1:-1, 1:-1]
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return region
    contour = max(contours, key=cv2.contourArea).reshape(-1, 2) + np.array([x1, y1])
    return Region(bbox=region.bbox, filled=m.astype(bool), paper_area=region.paper_area,
                  contour=contour)


def dashed_regions(fine: np.ndarray, taken: np.ndarray, stroke: float, text_height: float,
                   min_area: float, min_fit: float
                   ) -> list[tuple[Region, Region, str, float]]:
    """Regions enclosed by dashed borders: ``(inner, region, kind, fit)`` each, ``inner``
    being the region kept clear of the dashes (for reading the label).

    ``taken`` marks the area of shapes already found, whose regions are not new.
    """
    closed = close_gaps(fine, stroke, text_height)
    out = []
    grow = gap_radius(stroke)
    h, w = fine.shape
    for shrunk in enclosed_regions(closed, 0.5 * min_area):
        r = convex(regrow(shrunk, grow))
        x1, y1, x2, y2 = r.bbox
        if x1 < 0 or y1 < 0 or x2 > w or y2 > h or r.area < min_area:
            continue
        if (taken[y1:y2, x1:x2] & r.filled).mean() > 0.2 * r.filled.mean():
            continue
        kind, fit = classify(r.filled)
        if fit < min_fit or kind not in DASHED_KINDS:
            continue
        hits = border_hits(r, fine, stroke)
        runs, longest, spread = dash_runs(hits)
        # A dashed outline: many short inked runs of one length, no long solid stretch.
        if 0.25 <= hits.mean() <= 0.92 and runs >= 8 and longest <= 0.2 and spread <= 0.45:
            out.append((convex(r, int(round(stroke)) + 2), r, kind, fit))
    return out
