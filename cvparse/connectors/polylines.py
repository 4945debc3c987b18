"""Measures of a traced polyline (points in walk order) that tracing and its repairs share."""

from __future__ import annotations

import numpy as np


def polyline_direction(pts: np.ndarray, span: float) -> np.ndarray:
    """Unit vector leaving ``pts`` at its first point, fitted over ``span`` pixels."""
    if len(pts) < 2:
        return np.array([0.0, 0.0])
    pts = pts[:int(2 * span) + 2]  # path points are at most 1.5 px apart
    rel = pts - pts[0]
    d = np.sqrt((rel * rel).sum(axis=1))
    v = -rel[min(len(pts) - 1, max(1, int(np.searchsorted(d, span))))]
    n = float(np.sqrt(v @ v))
    return v / n if n else np.array([0.0, 0.0])


def polyline_length(pts: np.ndarray) -> float:
    """Length of the polyline ``pts`` in pixels."""
    if len(pts) < 2:
        return 0.0
    d = pts[1:] - pts[:-1]
    return float(np.sqrt((d * d).sum(axis=1)).sum())
