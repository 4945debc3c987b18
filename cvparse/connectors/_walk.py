"""Skeleton walking: split a one-pixel skeleton into paths between end points and junctions.

The Numba kernel :func:`walk_skeleton` and the pure-Python reference
:func:`walk_skeleton_py` implement the same walk and return identical output; the tests
compare them pixel for pixel.

Output format (both): ``coords`` (``N x 2`` int32, ``y, x``) and ``offsets`` (int64, one
more than the number of paths); path ``i`` is ``coords[offsets[i]:offsets[i + 1]]``.
A path starts at a *node pixel* (fewer or more than two skeleton neighbours), follows
pixels with exactly two neighbours and stops at the next node pixel.  Two adjacent node
pixels form a two-pixel path, emitted once.  Closed loops without any node pixel are
walked from their first pixel in raster order and end back on it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Neighbour order: orthogonal first, so a walk prefers the 4-connected step.
_DY = np.array([-1, 0, 1, 0, -1, -1, 1, 1], dtype=np.int64)
_DX = np.array([0, 1, 0, -1, -1, 1, 1, -1], dtype=np.int64)


@njit(cache=True)
def _degree(skel):
    h, w = skel.shape
    deg = np.zeros((h, w), np.int64)
    for y in range(h):
        for x in range(w):
            if skel[y, x]:
                n = 0
                for k in range(8):
                    yy = y + _DY[k]
                    xx = x + _DX[k]
                    if 0 <= yy < h and 0 <= xx < w and skel[yy, xx]:
                        n += 1
                deg[y, x] = n
    return deg


@njit(cache=True)
def _follow(skel, deg, visited, y0, x0, y1, x1, out, n_out):
    """Walk from node (y0, x0) through (y1, x1) until a node pixel; append to ``out``."""
    h, w = skel.shape
    out[n_out, 0] = y0
    out[n_out, 1] = x0
    n_out += 1
    py, px = y0, x0
    cy, cx = y1, x1
    while True:
        out[n_out, 0] = cy
        out[n_out, 1] = cx
        n_out += 1
        if deg[cy, cx] != 2:
            break
        visited[cy, cx] = True
        ny, nx = -1, -1
        for k in range(8):
            yy = cy + _DY[k]
            xx = cx + _DX[k]
            if 0 <= yy < h and 0 <= xx < w and skel[yy, xx] and not (yy == py and xx == px):
                if deg[yy, xx] != 2 or not visited[yy, xx] or (yy == y0 and xx == x0):
                    ny, nx = yy, xx
                    break
        if ny < 0:
            break
        py, px = cy, cx
        cy, cx = ny, nx
        if cy == y0 and cx == x0 and deg[cy, cx] == 2:
            out[n_out, 0] = cy
            out[n_out, 1] = cx
            n_out += 1
            break
    return n_out


@njit(cache=True)
def _walk(skel):
    h, w = skel.shape
    deg = _degree(skel)
    visited = np.zeros((h, w), np.bool_)
    total = 0
    for y in range(h):
        for x in range(w):
            if skel[y, x]:
                total += 1
    cap = 4 * total + 16
    out = np.zeros((cap, 2), np.int32)
    offsets = np.zeros(cap + 1, np.int64)
    n_out = 0
    n_paths = 0
    for y in range(h):
        for x in range(w):
            if not skel[y, x] or deg[y, x] == 2:
                continue
            for k in range(8):
                yy = y + _DY[k]
                xx = x + _DX[k]
                if not (0 <= yy < h and 0 <= xx < w and skel[yy, xx]):
                    continue
                if deg[yy, xx] == 2:
                    if visited[yy, xx]:
                        continue
                elif yy * w + xx < y * w + x:
                    continue
                n_out = _follow(skel, deg, visited, y, x, yy, xx, out, n_out)
                n_paths += 1
                offsets[n_paths] = n_out
    for y in range(h):
        for x in range(w):
            if skel[y, x] and deg[y, x] == 2 and not visited[y, x]:
                visited[y, x] = True
                for k in range(8):
                    yy = y + _DY[k]
                    xx = x + _DX[k]
                    if 0 <= yy < h and 0 <= xx < w and skel[yy, xx]:
                        n_out = _follow(skel, deg, visited, y, x, yy, xx, out, n_out)
                        n_paths += 1
                        offsets[n_paths] = n_out
                        break
    return out[:n_out], offsets[:n_paths + 1]


def walk_skeleton(skel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Numba walk of a boolean skeleton; see the module docstring for the output."""
    return _walk(np.ascontiguousarray(skel, dtype=np.bool_))


def walk_skeleton_py(skel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pure-Python reference of :func:`walk_skeleton` (same order, same pixels)."""
    skel = np.asarray(skel, dtype=bool)
    h, w = skel.shape
    dirs = list(zip(_DY.tolist(), _DX.tolist()))

    def on(y, x):
        return 0 <= y < h and 0 <= x < w and skel[y, x]

    deg = np.zeros((h, w), np.int64)
    ys, xs = np.nonzero(skel)
    for y, x in zip(ys.tolist(), xs.tolist()):
        deg[y, x] = sum(on(y + dy, x + dx) for dy, dx in dirs)
    visited = np.zeros((h, w), bool)
    coords: list[tuple[int, int]] = []
    offsets = [0]

    def follow(y0, x0, y1, x1):
        coords.append((y0, x0))
        py, px, cy, cx = y0, x0, y1, x1
        while True:
            coords.append((cy, cx))
            if deg[cy, cx] != 2:
                break
            visited[cy, cx] = True
            nxt = None
            for dy, dx in dirs:
                yy, xx = cy + dy, cx + dx
                if on(yy, xx) and (yy, xx) != (py, px) and (
                        deg[yy, xx] != 2 or not visited[yy, xx] or (yy, xx) == (y0, x0)):
                    nxt = (yy, xx)
                    break
            if nxt is None:
                break
            py, px = cy, cx
            cy, cx = nxt
            if (cy, cx) == (y0, x0) and deg[cy, cx] == 2:
                coords.append((cy, cx))
                break
        offsets.append(len(coords))

    for y, x in zip(ys.tolist(), xs.tolist()):
        if deg[y, x] == 2:
            continue
        for dy, dx in dirs:
            yy, xx = y + dy, x + dx
            if not on(yy, xx):
                continue
            if deg[yy, xx] == 2:
                if visited[yy, xx]:
                    continue
            elif yy * w + xx < y * w + x:
                continue
            follow(y, x, yy, xx)
    for y, x in zip(ys.tolist(), xs.tolist()):
        if deg[y, x] == 2 and not visited[y, x]:
            visited[y, x] = True
            for dy, dx in dirs:
                if on(y + dy, x + dx):
                    follow(y, x, y + dy, x + dx)
                    break
    out = np.array(coords, dtype=np.int32).reshape(-1, 2)
    return out, np.array(offsets, dtype=np.int64)
