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


def _dash_components(ink: np.ndarray, stroke: float, text_height: float
                     ) -> tuple[np.ndarray, np.ndarray, list[tuple[int, np.ndarray, np.ndarray]]]:
    """Dash-like ink components (short, one stroke thick, nearly straight): their mask, the
    component labels and, for each dash, its label and two end points along its axis."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), 8)
    keep = np.zeros(n, bool)
    ends = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if max(w, h) > 1.2 * text_height:
            continue
        ys, xs = np.nonzero(labels[y:y + h, x:x + w] == i)
        pts = np.stack([xs + x, ys + y], 1).astype(float)
        if len(pts) < 2:
            continue
        mean = pts.mean(0)
        c = pts - mean
        axes = np.linalg.svd(c, full_matrices=False)[2]
        keep[i] = np.abs(c @ axes[-1]).max() <= stroke + 1
        if keep[i]:
            along = c @ axes[0]
            ends.append((i, mean + axes[0] * along.min(), mean + axes[0] * along.max()))
    return keep[labels], labels, ends


def dash_mask(ink: np.ndarray, stroke: float, text_height: float) -> np.ndarray:
    """Ink components shaped like dashes or dots: short, one stroke thick, nearly straight."""
    return _dash_components(ink, stroke, text_height)[0]


def _extend(canvas: np.ndarray, labels: np.ndarray,
            tips: dict[int, tuple[np.ndarray, np.ndarray]], own: int, start: np.ndarray,
            d: np.ndarray, length: int, thick: int, near: float) -> None:
    """Draw from ``start`` along ``d`` until other ink is reached (or ``length`` pixels):
    stopping there leaves no overshoot that could enclose a pocket outside the border.
    Nothing is drawn if the ink reached is the middle of another dash: the next dash of a
    border is met at its end (a letter stroke pointing at a border meets a dash anywhere).
    ``tips`` holds each dash's two end points; ``near`` is how close to one counts."""
    h, w = canvas.shape
    stop = start
    for t in range(1, length + 1):
        x, y = (start + d * t).round().astype(int)
        if not (0 <= x < w and 0 <= y < h):
            break
        stop = start + d * t
        other = labels[y, x]
        if canvas[y, x] and other != own:
            if other in tips and min(float(np.linalg.norm(stop - e))
                                     for e in tips[other]) > near:
                return
            break
    cv2.line(canvas, tuple(int(round(v)) for v in start), tuple(int(round(v)) for v in stop),
             1, thick)


def gap_radius(stroke: float) -> int:
    """Half the widest dash gap bridged (gaps up to about seven strokes)."""
    return int(round(3.5 * stroke))


def thicken_radius(stroke: float) -> int:
    """How far dashes are thickened (and the inside shrinks): a stroke, so that letters
    near a small border stay apart from it and from each other."""
    return max(1, int(round(stroke)))


def close_gaps(ink: np.ndarray, stroke: float, text_height: float) -> np.ndarray:
    """Ink with the gaps between dash-like components closed.

    Each dash is drawn on along its own axis across one whole gap (:func:`gap_radius`
    twice), which also reaches a dash a connector line joins (not dash-like itself); the
    dashes are thickened a little (:func:`thicken_radius`, given back by :func:`regrow`)
    so that extensions meeting at an angle on a tight curve still touch.  Only dash-like
    components grow, so text near a border stays apart from it.
    """
    r = gap_radius(stroke)
    t = thicken_radius(stroke)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * t + 1, 2 * t + 1))
    dashes, labels, ends = _dash_components(ink, stroke, text_height)
    canvas = (ink | cv2.dilate(dashes.astype(np.uint8), kernel).astype(bool)).astype(np.uint8)
    labels = cv2.dilate(labels.astype(np.float32), kernel).astype(np.int32)
    thick = max(1, int(round(stroke)))
    tips = {own: (p, q) for own, p, q in ends}
    near = t + stroke + 1
    for own, p, q in ends:
        n = float(np.linalg.norm(q - p))
        if n < stroke:
            continue  # a dot: no axis
        d = (q - p) / n
        _extend(canvas, labels, tips, own, q, d, 2 * r, thick, near)
        _extend(canvas, labels, tips, own, p, -d, 2 * r, thick, near)
    return canvas.astype(bool)


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

    ``taken`` marks the area of shapes already found, whose regions are not new.  A line
    drawn across a dashed shape cuts its inside in pieces; those that fit no shape are
    joined as in :func:`cvparse.primitives.pieces.joined_pieces`.
    """
    from .pieces import joined_pieces

    closed = close_gaps(fine, stroke, text_height)
    out = []
    grow = thicken_radius(stroke)
    h, w = fine.shape
    pieces = []
    for shrunk in enclosed_regions(closed, 0.5 * min_area):
        r = convex(regrow(shrunk, grow))
        x1, y1, x2, y2 = r.bbox
        if x1 < 0 or y1 < 0 or x2 > w or y2 > h:
            continue
        if (taken[y1:y2, x1:x2] & r.filled).mean() > 0.2 * r.filled.mean():
            continue
        kind, fit = classify(r.filled)
        if fit < min_fit or kind not in DASHED_KINDS:
            if y2 - y1 <= 5 * text_height and r.area <= 40 * text_height ** 2:
                pieces.append(shrunk)  # label-sized: may be part of a cut shape
            continue
        if r.area >= min_area and _dashed_outline(r, fine, stroke):
            out.append((convex(r, int(round(stroke)) + 2), r, kind, fit))
    if len(pieces) >= 2:
        for joined, _, _ in joined_pieces(pieces, fine.shape, stroke, 0.5 * min_area, min_fit):
            r = convex(regrow(joined, grow))
            x1, y1, x2, y2 = r.bbox
            if x1 < 0 or y1 < 0 or x2 > w or y2 > h or r.area < min_area:
                continue
            kind, fit = classify(r.filled)
            if fit >= min_fit and kind in DASHED_KINDS and _dashed_outline(r, fine, stroke):
                out.append((convex(r, int(round(stroke)) + 2), r, kind, fit))
    return out


def _dashed_outline(r: Region, fine: np.ndarray, stroke: float) -> bool:
    """Many short inked runs of one length along the outline, no long solid stretch."""
    hits = border_hits(r, fine, stroke)
    runs, longest, spread = dash_runs(hits)
    return 0.25 <= hits.mean() <= 0.92 and runs >= 8 and longest <= 0.2 and spread <= 0.55
