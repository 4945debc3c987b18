"""Skeleton walking: split a one-pixel skeleton into paths between end points and junctions.

The Numba kernel :func:`walk_skeleton_nb` and the pure-Python reference
:func:`walk_skeleton_py` implement the same walk and return identical output; the tests
compare them pixel for pixel.  :func:`walk_skeleton` picks one: Numba is imported only when
a skeleton is large or the kernel is already loaded (:func:`load_kernel`), because
importing it and loading the cached kernel cost about 1.3 s of CPU, which dominates the
parse of one small image run as its own process; the twin walks a small skeleton's few
thousand pixels in tens of milliseconds.

Output format (both): ``coords`` (``N x 2`` int32, ``y, x``) and ``offsets`` (int64, one
more than the number of paths); path ``i`` is ``coords[offsets[i]:offsets[i + 1]]``.
A path starts at a *node pixel* (fewer or more than two skeleton neighbours), follows
pixels with exactly two neighbours and stops at the next node pixel.  Two adjacent node
pixels form a two-pixel path, emitted once.  Closed loops without any node pixel are
walked from their first pixel in raster order and end back on it.
"""

from __future__ import annotations

import functools

import numpy as np

SMALL_SKELETON = 20_000
"""Skeletons of at most this many pixels are walked by the pure-Python twin while the
Numba kernel is not loaded (about 15 us a pixel: 0.3 s at most, under the kernel's load)."""

# Neighbour order: orthogonal first, so a walk prefers the 4-connected step.
_DY = np.array([-1, 0, 1, 0, -1, -1, 1, 1], dtype=np.int64)
_DX = np.array([0, 1, 0, -1, -1, 1, 1, -1], dtype=np.int64)


# Flat-index kernel: the skeleton is visited through its list of set pixels (raster
# order), so the cost grows with the skeleton, not the page; neighbours of pixels off the
# page border are addressed by flat offsets without bounds checks.


def _neighbour(i, k, w, h):
    """Flat index of neighbour ``k`` of pixel ``i``, or -1 off the page."""
    y = i // w + _DY[k]
    x = i % w + _DX[k]
    if 0 <= y < h and 0 <= x < w:
        return y * w + x
    return -1


def _follow(flat, deg, visited, offs, w, h, i0, i1, out, n_out):  # noqa: PLR0917 (kernel)
    """Walk from node ``i0`` through ``i1`` until a node pixel; append flat indices."""
    out[n_out] = i0
    n_out += 1
    prev = i0
    cur = i1
    while True:
        out[n_out] = cur
        n_out += 1
        if deg[cur] != 2:
            break
        visited[cur] = True
        inner = w <= cur < (h - 1) * w and 0 < cur % w < w - 1
        nxt = -1
        for k in range(8):
            j = cur + offs[k] if inner else _neighbour(cur, k, w, h)
            if j >= 0 and flat[j] and j != prev:
                if deg[j] != 2 or not visited[j] or j == i0:
                    nxt = j
                    break
        if nxt < 0:
            break
        prev = cur
        cur = nxt
        if cur == i0 and deg[cur] == 2:
            out[n_out] = cur
            n_out += 1
            break
    return n_out


def _walk(skel):
    h, w = skel.shape
    flat = skel.reshape(h * w)
    pix = np.flatnonzero(flat)
    offs = np.empty(8, np.int64)
    for k in range(8):
        offs[k] = _DY[k] * w + _DX[k]
    deg = np.zeros(h * w, np.uint8)
    for i in pix:
        inner = w <= i < (h - 1) * w and 0 < i % w < w - 1
        n = 0
        for k in range(8):
            j = i + offs[k] if inner else _neighbour(i, k, w, h)
            if j >= 0 and flat[j]:
                n += 1
        deg[i] = n
    visited = np.zeros(h * w, np.bool_)
    cap = 4 * len(pix) + 16
    out = np.empty(cap, np.int64)
    offsets = np.zeros(cap + 1, np.int64)
    n_out = 0
    n_paths = 0
    for i in pix:
        if deg[i] == 2:
            continue
        inner = w <= i < (h - 1) * w and 0 < i % w < w - 1
        for k in range(8):
            j = i + offs[k] if inner else _neighbour(i, k, w, h)
            if j < 0 or not flat[j]:
                continue
            if deg[j] == 2:
                if visited[j]:
                    continue
            elif j < i:
                continue
            n_out = _follow(flat, deg, visited, offs, w, h, i, j, out, n_out)
            n_paths += 1
            offsets[n_paths] = n_out
    for i in pix:
        if deg[i] == 2 and not visited[i]:
            visited[i] = True
            inner = w <= i < (h - 1) * w and 0 < i % w < w - 1
            for k in range(8):
                j = i + offs[k] if inner else _neighbour(i, k, w, h)
                if j >= 0 and flat[j]:
                    n_out = _follow(flat, deg, visited, offs, w, h, i, j, out, n_out)
                    n_paths += 1
                    offsets[n_paths] = n_out
                    break
    coords = np.empty((n_out, 2), np.int32)
    for t in range(n_out):
        coords[t, 0] = out[t] // w
        coords[t, 1] = out[t] % w
    return coords, offsets[:n_paths + 1]


@functools.cache
def load_kernel():
    """The Numba walk, compiled or loaded from Numba's on-disk cache on first call.

    ``_follow`` calls ``_neighbour`` and ``_walk`` calls both through this module's names,
    which Numba resolves when it compiles: those names are bound to their Numba versions
    first (the Python functions stay as the dispatchers' ``py_func``)."""
    from numba import njit

    g = globals()
    g["_neighbour"] = njit(cache=True, inline="always")(_neighbour)
    g["_follow"] = njit(cache=True)(_follow)
    return njit(cache=True)(_walk)


def walk_skeleton(skel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Walk a boolean skeleton (see the module docstring for the output): the pure-Python
    twin for a small skeleton while the Numba kernel is not loaded, else the kernel."""
    skel = np.ascontiguousarray(skel, dtype=np.bool_)
    if load_kernel.cache_info().currsize == 0 and np.count_nonzero(skel) <= SMALL_SKELETON:
        return walk_skeleton_py(skel)
    return load_kernel()(skel)


def walk_skeleton_nb(skel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Numba walk of a boolean skeleton, whatever its size."""
    return load_kernel()(np.ascontiguousarray(skel, dtype=np.bool_))


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
