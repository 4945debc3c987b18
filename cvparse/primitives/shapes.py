"""Classify a filled region as one of the diagram shapes by fitting ideal templates.

Each candidate shape (rectangle, rounded rectangle, stadium, ellipse, diamond, triangle,
hexagon, parallelogram) is drawn into the region's bounding box with parameters estimated
from the region itself (corner radius, slant, inset); the best intersection-over-union wins.
Template fitting needs no per-renderer constants and degrades gracefully with anti-aliasing.
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def _poly(w: int, h: int, pts: list[tuple[float, float]]) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    cv2.fillPoly(m, [np.round(np.array(pts) - 0.5).astype(np.int32)], 1)
    return m.view(bool)


def _round_rect(w: int, h: int, r: float) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    r = int(round(min(r, w / 2, h / 2)))
    if r <= 0:
        m[:] = 1
        return m.view(bool)
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 1, cv2.FILLED)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 1, cv2.FILLED)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 1, cv2.FILLED)
    return m.view(bool)


def _ellipse(w: int, h: int) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    cv2.ellipse(m, (((w - 1) / 2, (h - 1) / 2), (float(w), float(h)), 0.0), 1, cv2.FILLED)
    return m.view(bool)


def _iou(a: np.ndarray, b: np.ndarray, a_count: int) -> float:
    """Intersection over union of two masks; ``a_count`` is the pixel count of ``a``."""
    inter = np.count_nonzero(np.logical_and(a, b))
    union = a_count + np.count_nonzero(b) - inter
    return float(inter / union) if union else 0.0


def _row_extents(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Leftmost and rightmost filled column of every row (NaN for empty rows)."""
    any_ = mask.any(axis=1)
    left = np.where(any_, mask.argmax(axis=1), np.nan).astype(float)
    right = np.where(any_, mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1), np.nan)
    return left, right.astype(float)


def templates(mask: np.ndarray) -> dict[str, np.ndarray]:
    """Ideal masks of every shape kind, fitted to the size and area of ``mask``."""
    h, w = mask.shape
    area = float(mask.sum())
    missing = max(0.0, w * h - area)
    out: dict[str, np.ndarray] = {"rect": np.ones((h, w), bool)}
    r = math.sqrt(missing / (4 - math.pi)) if missing > 0 else 0.0
    out["round_rect"] = _round_rect(w, h, r)
    out["stadium"] = _round_rect(w, h, min(w, h) / 2)
    out["ellipse"] = _ellipse(w, h)
    out["diamond"] = _poly(w, h, [(w / 2, 0), (w, h / 2), (w / 2, h), (0, h / 2)])
    out["triangle"] = _poly(w, h, [(w / 2, 0), (w, h), (0, h)])
    out["triangle_down"] = _poly(w, h, [(0, 0), (w, 0), (w / 2, h)])
    inset = min(w / 2.5, missing / max(h, 1))
    out["hexagon"] = _poly(w, h, [(inset, 0), (w - inset, 0), (w, h / 2), (w - inset, h),
                                  (inset, h), (0, h / 2)])
    left, right = _row_extents(mask)
    slant = missing / max(h, 1)
    rows = np.flatnonzero(~np.isnan(left))
    if rows.size >= 2:
        top_left, bottom_left = left[rows[: max(1, rows.size // 5)]].mean(), \
            left[rows[-max(1, rows.size // 5):]].mean()
    else:
        top_left = bottom_left = 0.0
    if top_left >= bottom_left:
        pts = [(slant, 0), (w, 0), (w - slant, h), (0, h)]
    else:
        pts = [(0, 0), (w - slant, 0), (w, h), (slant, h)]
    out["parallelogram"] = _poly(w, h, pts)
    out["cylinder"] = _cylinder_body(w, h, area)
    return out


MIN_ARC = 0.12
"""A cylinder's arcs are at least this deep relative to its height (shallower ones are
the noise of a straight edge)."""


def _cylinder_body(w: int, h: int, area: float) -> np.ndarray:
    """A database cylinder below its lid: top and bottom edges are the same half-ellipse
    arc, so every column is equally tall and the arc depth follows from the area (an
    empty template when the arcs would be too shallow to tell from a rectangle)."""
    depth = max(0.0, h - area / max(w, 1))
    if depth < MIN_ARC * h:
        return np.zeros((h, w), bool)
    u = (np.arange(w) + 0.5) / w * 2 - 1
    top = depth * np.sqrt(np.clip(1 - u * u, 0, 1))
    y = np.arange(h)[:, None] + 0.5
    return (y >= top) & (y <= top + h - depth)


def corner_radius(mask: np.ndarray) -> float:
    """Radius of rounded corners implied by the pixels missing from the four corners."""
    h, w = mask.shape
    k = max(2, min(h, w) // 4)
    missing = sum(int((~mask[ys, xs]).sum()) for ys, xs in (
        (slice(0, k), slice(0, k)), (slice(0, k), slice(w - k, w)),
        (slice(h - k, h), slice(0, k)), (slice(h - k, h), slice(w - k, w))))
    return math.sqrt(missing / (4 - math.pi))


def classify(mask: np.ndarray) -> tuple[str, float]:
    """Best-fitting shape kind of a filled mask and its IoU with that template."""
    h, w = mask.shape
    if h < 3 or w < 3:
        return "other", 0.0
    count = int(np.count_nonzero(mask))
    scores = {k: _iou(mask, t, count) for k, t in templates(mask).items()}
    # Prefer the simpler shape when a rounded corner or inset adds nothing measurable.
    order = ["rect", "ellipse", "diamond", "triangle", "triangle_down", "round_rect",
             "stadium", "hexagon", "parallelogram", "cylinder"]
    best = max(order, key=lambda k: (round(scores[k], 2), -order.index(k)))
    kind = "triangle" if best == "triangle_down" else best
    if kind in ("rect", "round_rect"):
        r = corner_radius(mask)
        kind = "round_rect" if r >= max(3.0, 0.04 * min(w, h)) else "rect"
        best = kind
    if kind == "ellipse" and 0.9 <= w / h <= 1.1:
        kind = "circle"
    if kind == "round_rect" and scores["stadium"] >= scores["round_rect"] - 0.005:
        kind = "stadium"
    return kind, scores[best]
