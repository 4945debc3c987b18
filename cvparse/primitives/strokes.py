"""Stroke geometry of small ink components: a straight stroke (a line stub) or a filled
blob (an arrowhead, a dot marker) rather than a letter, or letters run together."""

from __future__ import annotations

import cv2
import numpy as np


def is_straight_stroke(ys: np.ndarray, xs: np.ndarray, stroke: float) -> bool:
    """Pixels that all lie within about half a stroke of one straight line (a line stub)."""
    pts = np.stack([xs, ys], 1).astype(float)
    if len(pts) < 3:
        return True
    c = pts - pts.mean(0)
    _, _, vt = np.linalg.svd(c, full_matrices=False)
    normal = vt[-1]
    spread = np.abs(c @ normal).max()
    return bool(spread <= 0.5 * stroke + 1.0)


def solid(mask: np.ndarray, stroke: float) -> bool:
    """A filled blob (arrowhead, dot marker), not a letter: thicker than letter strokes
    (at most about twice the line width), or thicker than a line and filling its convex
    hull (an arrowhead, diamond or dot; a bold M or N leaves notches)."""
    m = np.pad(mask, 1).astype(np.uint8)
    thick = float(cv2.distanceTransform(m, cv2.DIST_L2, 3).max())
    if thick > 1.5 * stroke + 1.5:
        return True
    if thick < stroke + 0.5:
        return False
    return hull_share(mask) >= 0.8


def hull_share(mask: np.ndarray) -> float:
    """Share of its convex hull a blob's pixels fill (1 for a filled convex shape; a
    letter leaves counters and notches)."""
    m = np.pad(mask, 1).astype(np.uint8)
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return 0.0
    hull = np.zeros_like(m)
    cv2.fillPoly(hull, [cv2.convexHull(np.concatenate(contours))], 1)
    return float(m.sum() / max(1, int(hull.sum())))


def touching_letters(own: np.ndarray, stroke: float) -> bool:
    """A wide, text-high component that is letters run together (stems rise across it
    in many columns), not a flat stretch of curve or line."""
    tall = own.sum(axis=0) > 2 * stroke + 1
    return bool(tall.mean() >= 0.3)


def stemmed_pair(own: np.ndarray, text_height: float) -> bool:
    """Two letters kerned into one piece at a small size ("EA", "CT"): no wider than two
    letters, at least two thirds of a text height tall, with a stem (a column inked over
    nine tenths of the piece's height), which a flat stretch of line or curve that short
    never has.  Letters of mostly level strokes fail :func:`touching_letters`."""
    h, w = own.shape
    if w > 2.0 * text_height or h < 0.6 * text_height:
        return False
    return bool((own.sum(axis=0) >= 0.9 * h).any())


def inked_along(ink: np.ndarray, p: np.ndarray, q: np.ndarray, r: int) -> bool:
    """Ink all along the straight run from ``p`` to ``q`` (within ``r`` px of it; with
    ``q`` at ``p``, ink near that point)."""
    n = int(np.ceil(np.hypot(*(q - p)))) + 1
    h, w = ink.shape
    for x, y in np.linspace(p, q, n):
        xi, yi = int(round(x)), int(round(y))
        if not (0 <= xi < w and 0 <= yi < h):
            return False
        if not ink[max(0, yi - r):yi + r + 1, max(0, xi - r):xi + r + 1].any():
            return False
    return True
