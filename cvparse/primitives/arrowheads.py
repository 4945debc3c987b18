"""Open arrowheads at the ends of straight strokes: two short sides leaving a line end
backwards, alike in angle and length.

Free text is found in the ink that is no shape; a connector line that runs into a label
is cut out of it with its arrowhead (:func:`cvparse.primitives.freetext.line_strokes`),
so that the label's letters stay whole.  This module holds that arrowhead geometry.
"""

from __future__ import annotations

import numpy as np

from .items import Scale


def clear_of_line(tip: tuple[int, int], back: tuple[int, int],
                   sides: list[tuple[int, int]], clear: float) -> bool:
    """Arrowhead sides found, each ending at least ``clear`` pixels off the line: a ray
    at a small angle stays inside a thick line for a while and is no side."""
    if not sides:
        return False
    norm = max(1e-6, float(np.hypot(back[0], back[1])))
    nx, ny = -back[1] / norm, back[0] / norm
    return all(abs((x - tip[0]) * nx + (y - tip[1]) * ny) >= clear for x, y in sides)


def run_on(near: np.ndarray, tip: tuple[int, int], back: tuple[int, int], reach: float
            ) -> tuple[int, int]:
    """Last ink point going on from a line end ``tip`` away from ``back`` (the direction
    back along the line), at most ``reach`` pixels."""
    h, w = near.shape
    norm = max(1e-6, float(np.hypot(back[0], back[1])))
    fx, fy = -back[0] / norm, -back[1] / norm
    last = (int(tip[0]), int(tip[1]))
    for t in range(1, int(reach) + 1):
        x, y = int(round(tip[0] + fx * t)), int(round(tip[1] + fy * t))
        if not (0 <= x < w and 0 <= y < h) or not near[y, x]:
            break
        last = (x, y)
    return last


_HEAD_DEGREES = tuple(range(15, 65, 5))
_HEAD_ANGLES = [np.deg2rad(sign * deg) for sign in (1, -1) for deg in _HEAD_DEGREES]
_HEAD_COS = np.array([np.cos(a) for a in _HEAD_ANGLES])
_HEAD_SIN = np.array([np.sin(a) for a in _HEAD_ANGLES])
"""Directions (rotations of the line's backward direction) searched for arrowhead sides,
first to one side, then to the other."""


def head_sides(near: np.ndarray, tip: tuple[int, int], back: tuple[int, int], scale: Scale
                ) -> list[tuple[int, int]]:
    """Far ends of the two straight strokes leaving a line end backwards at 15-60 degrees,
    one on either side, alike in angle and length: the sides of an open arrowhead, which
    are shorter than a line.

    Taking them out with the line frees a label that the arrow tip touches; letters lie
    beyond the tip, not behind it.
    """
    return head_sides_many(near, np.array([tip], np.int64), np.array([back], np.int64),
                            scale)[0]


def head_sides_many(near: np.ndarray, tips: np.ndarray, backs: np.ndarray, scale: Scale
                     ) -> list[list[tuple[int, int]]]:
    """``head_sides`` of many line ends at once (``tips`` and ``backs``: one row each)."""
    h, w = near.shape
    if not len(tips):
        return []
    reach = int(round(1.2 * scale.text_height))
    least = max(4, int(round(0.4 * scale.text_height)))
    if reach < least:
        return [[] for _ in range(len(tips))]  # no side can be long enough
    bx, by = backs[:, 0].astype(float), backs[:, 1].astype(float)
    norm = np.maximum(1e-6, np.hypot(bx, by))
    bx, by = bx / norm, by / norm
    k = np.arange(1, reach + 1)
    # All 20 rays of every end, one row each (the same float operations as ray by ray).
    dx = bx[:, None] * _HEAD_COS - by[:, None] * _HEAD_SIN
    dy = bx[:, None] * _HEAD_SIN + by[:, None] * _HEAD_COS
    px = np.round(tips[:, 0, None, None] + k * dx[..., None]).astype(int)
    py = np.round(tips[:, 1, None, None] + k * dy[..., None]).astype(int)
    inside = (px >= 0) & (px < w) & (py >= 0) & (py < h)
    hit = np.zeros(px.shape, bool)
    hit[inside] = near[py[inside], px[inside]]
    runs = np.where(hit.all(axis=2), len(k), hit.argmin(axis=2))
    runs = np.where(runs >= least, runs, 0)
    half = len(_HEAD_DEGREES)
    n = len(tips)
    best = runs.reshape(n, 2, half).argmax(axis=2)  # the first of the longest, per side
    cols = best + np.array([0, half])
    run = np.take_along_axis(runs, cols, axis=1)
    rows = np.arange(n)[:, None]
    ex, ey = px[rows, cols, run - 1].tolist(), py[rows, cols, run - 1].tolist()
    deg = np.asarray(_HEAD_DEGREES)[best]
    # An arrowhead is symmetric: two sides at about the same angle and length.
    ok = ((run > 0).all(axis=1) & (np.abs(deg[:, 0] - deg[:, 1]) <= 15)
          & (run.min(axis=1) >= 0.5 * run.max(axis=1))).tolist()
    return [[(ex[t][0], ey[t][0]), (ex[t][1], ey[t][1])] if ok[t] else [] for t in range(n)]
