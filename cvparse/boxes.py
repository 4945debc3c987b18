"""Gaps between points and axis-aligned boxes, shared by every stage.

A box is ``x1, y1, x2, y2`` in image pixels.  How far a line's end, a text's centre or a
whole polyline lies from a node's box is asked in every family's assembly; the answer is
one formula, kept here once (below every stage, like :mod:`cvparse.arrays`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def point_gaps(points: np.ndarray | Sequence[float], box: Sequence | np.ndarray
               ) -> np.ndarray:
    """Distance from each point to a box: 0 inside it, else to its nearest border point.

    Parameters
    ----------
    points : array_like, ``... x 2``
        One ``x, y`` point or any array of them, in pixels.
    box : sequence of four
        ``x1, y1, x2, y2`` of one box, or four arrays of those coordinates (the columns
        of an ``M x 4`` array, ``boxes.T``) for the gap from one point to each of M boxes.

    Returns
    -------
    ndarray
        Pixels, broadcast over the points and boxes (0-d for one point and one box).

    Examples
    --------
    >>> float(point_gaps((13, 14), (0, 0, 10, 10)))
    5.0
    >>> point_gaps([[5, 5], [5, 12]], (0, 0, 10, 10)).tolist()
    [0.0, 2.0]
    """
    x1, y1, x2, y2 = box
    p = np.asarray(points)
    x, y = p[..., 0], p[..., 1]
    dx = np.maximum(np.maximum(x1 - x, x - x2), 0)
    dy = np.maximum(np.maximum(y1 - y, y - y2), 0)
    return np.hypot(dx, dy)


def box_gap(a: Sequence | np.ndarray, b: Sequence | np.ndarray) -> float:
    """Clear distance between two boxes ``x1, y1, x2, y2`` (0 if they touch or overlap).

    >>> box_gap((0, 0, 10, 10), (13, 14, 20, 20))
    5.0
    """
    return float(np.hypot(max(a[0] - b[2], b[0] - a[2], 0), max(a[1] - b[3], b[1] - a[3], 0)))
