"""Crow's-foot line ends: many (``|{``, ``o{``) or one (``||``, ``o|``) read from the ink
where a relationship line meets a table's side.

A crow's foot fans out into prongs that touch the table's side apart from each other; a
bar, a circle or a plain end reaches the side as one line.  Scanned along the side, a few
strokes outside it, the ink of a crow's foot falls into two runs or more spread over
a good part of a text height; that of any other end into one narrow run.  A page that
draws crow's feet gives each other end of its lines the cardinality ``1``.
"""

from __future__ import annotations

import numpy as np

SPREAD = 0.4
"""How far apart (text heights) the outer prongs of a crow's foot touch the side."""


def _side(box: tuple[int, int, int, int], p: np.ndarray) -> int:
    """Which side of ``box`` the point ``p`` is nearest: 0 left, 1 top, 2 right, 3 bottom."""
    x1, y1, x2, y2 = box
    return int(np.argmin([abs(p[0] - x1), abs(p[1] - y1), abs(p[0] - x2), abs(p[1] - y2)]))


def _runs(line: np.ndarray) -> list[tuple[int, int]]:
    """Runs of True in a 1-D mask, as (start, end) index pairs."""
    out, k = [], 0
    while k < len(line):
        if line[k]:
            s = k
            while k < len(line) and line[k]:
                k += 1
            out.append((s, k))
        else:
            k += 1
    return out


def is_crowsfoot(ink: np.ndarray, box: tuple[int, int, int, int], point: np.ndarray,
                 stroke: float, th: float) -> bool:
    """Whether the line ending at ``point`` beside ``box`` (a table or its row) ends in a
    crow's foot: on two of the scans two, three and four strokes outside the side it
    meets, within a text height of the end along the side, the ink makes two runs or
    more whose outer ends are ``SPREAD`` text heights apart or more."""
    h, w = ink.shape
    x1, y1, x2, y2 = box
    side = _side(box, point)
    half = int(round(th))
    hits = 0
    for k in (2, 3, 4):
        off = int(round(k * stroke)) + 1
        if side in (0, 2):
            x = x1 - off if side == 0 else x2 + off
            c = int(round(point[1]))
            lo, hi = max(0, c - half), min(h, c + half + 1)
            if not 0 <= x < w or hi <= lo:
                continue
            scan = ink[lo:hi, x]
        else:
            y = y1 - off if side == 1 else y2 + off
            c = int(round(point[0]))
            lo, hi = max(0, c - half), min(w, c + half + 1)
            if not 0 <= y < h or hi <= lo:
                continue
            scan = ink[y, lo:hi]
        runs = _runs(np.asarray(scan, bool))
        if len(runs) >= 2 and runs[-1][1] - runs[0][0] >= SPREAD * th:
            hits += 1
    return hits >= 2
