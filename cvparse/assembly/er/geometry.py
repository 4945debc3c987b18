"""Plane geometry the ER assembly measures with: distances from points and boxes to
polylines, polylines straightened, and the centre and apex of a shape."""

from __future__ import annotations

import cv2
import numpy as np

from ...boxes import point_gaps
from ...connectors.lines import Connector
from ...primitives.items import Shape, TextItem


def dist_to_polyline(p: np.ndarray, pts: np.ndarray) -> tuple[float, float]:
    """Distance from ``p`` to a polyline and the arc-length fraction of the nearest point."""
    if len(pts) < 2:
        return float(np.linalg.norm(p - pts[0])), 0.0
    a, b = pts[:-1], pts[1:]
    ab = b - a
    L = np.linalg.norm(ab, axis=1)
    t = np.clip(((p - a) * ab).sum(1) / np.maximum(L ** 2, 1e-9), 0, 1)
    proj = a + ab * t[:, None]
    d = np.linalg.norm(proj - p, axis=1)
    i = int(d.argmin())
    total = max(L.sum(), 1e-9)
    return float(d[i]), float((L[:i].sum() + t[i] * L[i]) / total)


def dists_to_polyline(ps: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`dist_to_polyline` for many points at once (``ps``: N x 2)."""
    pts = np.asarray(pts, float)
    if len(pts) < 2:
        return np.linalg.norm(ps - pts[0], axis=1), np.zeros(len(ps))
    a, ab = pts[:-1], np.diff(pts, axis=0)
    L = np.linalg.norm(ab, axis=1)
    rel = ps[:, None, :] - a[None]
    t = np.clip((rel * ab[None]).sum(2) / np.maximum(L ** 2, 1e-9), 0, 1)
    d = np.linalg.norm(rel - ab[None] * t[..., None], axis=2)
    i = d.argmin(axis=1)
    before = np.concatenate([[0.0], np.cumsum(L)])[i]
    frac = (before + t[np.arange(len(ps)), i] * L[i]) / max(L.sum(), 1e-9)
    return d[np.arange(len(ps)), i], frac


def box_to_polyline(box: tuple[int, int, int, int], pts: np.ndarray) -> float:
    """Distance from a box to a polyline (0 where the line runs through the box)."""
    pts = np.asarray(pts, float)
    if len(pts) >= 2:
        seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
        along = np.concatenate([[0.0], np.cumsum(seg)])
        ts = np.linspace(0, along[-1], max(2, int(along[-1])))
        pts = np.column_stack([np.interp(ts, along, pts[:, 0]), np.interp(ts, along, pts[:, 1])])
    return float(point_gaps(pts, box).min())


def text_centre(t: TextItem) -> np.ndarray:
    """Centre of a text's box."""
    x1, y1, x2, y2 = t.bbox
    return np.array([(x1 + x2) / 2, (y1 + y2) / 2], float)


def straighten(points: np.ndarray, th: float) -> np.ndarray:
    """A polyline simplified to within 0.3 text heights (Douglas-Peucker)."""
    pts = cv2.approxPolyDP(np.asarray(points, np.float32).reshape(-1, 1, 2), 0.3 * th, False)
    return pts.reshape(-1, 2).astype(float)


def straightened_lines(connectors: list[Connector], th: float) -> list[np.ndarray]:
    """Connector polylines with the wiggles under a text height taken out: the traced
    skeleton bends into a glyph that touches the line."""
    return [straighten(c.points, th) for c in connectors if len(c.points) >= 2]


def shape_centre(s: Shape) -> np.ndarray:
    """Centre of mass of a shape's inside (where layouts aim lines; for a triangle it lies
    two thirds of the way from apex to base, not at its box centre)."""
    ys, xs = np.nonzero(s.interior.filled)
    if xs.size == 0:
        x1, y1, x2, y2 = s.bbox
        return np.array([(x1 + x2) / 2, (y1 + y2) / 2], float)
    x1, y1 = s.interior.bbox[:2]
    return np.array([x1 + xs.mean() + 0.5, y1 + ys.mean() + 0.5], float)


def apex_and_base(s: Shape) -> tuple[np.ndarray, np.ndarray]:
    """Apex point and base midpoint of a triangle shape, from its widest and narrowest rows."""
    m = s.interior.filled
    x1, y1 = s.interior.bbox[:2]
    widths = m.sum(axis=1)
    h = len(widths)
    k = max(1, h // 5)
    top, bottom = widths[:k].mean(), widths[-k:].mean()
    cx = x1 + m.shape[1] / 2
    if top < bottom:
        return np.array([cx, y1]), np.array([cx, y1 + h])
    return np.array([cx, y1 + h]), np.array([cx, y1])
