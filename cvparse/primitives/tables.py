"""Tables as perception finds them: rectangles stacked edge to edge into one box, and
the drop shadows such boxes cast.

Both are facts of the page before any line is traced: a table's inner borders and its
shadow are no lines, so the connector stage traces in the ink without them
(:func:`~cvparse.primitives.lineink.connector_inputs`).  What the rows say (names,
attributes, keys) is read by the ER assembler (:mod:`cvparse.assembly.er.tables`) from
the same stacks, found once per inventory (:func:`cell_stacks`).
"""

from __future__ import annotations

import cv2
import numpy as np

from .classboxes import dark_ink
from .items import Inventory

CELL_KINDS = ("rect", "round_rect")
"""Shapes a table's cell is found as."""
TOUCHED_CELL_KINDS = ("stadium",)
"""Shapes a cell is also found as when letters or line ends touch its corners (labels
written over a row's border round its box off), taken as cells only in a stack with a
cell of :data:`CELL_KINDS`."""


def _rows(inv: Inventory, cells: list[int], tol: float) -> list[list[int]]:
    """Cells side by side with the same top and bottom, left to right, as table rows."""
    box = {i: inv.shapes[i].interior.bbox for i in cells}
    parent = {i: i for i in cells}

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i in cells:
        for j in cells:
            a, b = box[i], box[j]
            if (i != j and abs(a[1] - b[1]) <= tol and abs(a[3] - b[3]) <= tol
                    and 0 <= b[0] - a[2] <= tol):
                parent[find(j)] = find(i)
    rows: dict[int, list[int]] = {}
    for i in cells:
        rows.setdefault(find(i), []).append(i)
    return [sorted(r, key=lambda i: box[i][0]) for r in rows.values()]


def _aligned(a: tuple, b: tuple, tol: float) -> bool:
    """Whether two row spans stack in one table: the same left and right sides, or one
    side the same and the narrower span within the wider (a row that lost a cell to a
    line drawn into it)."""
    left, right = abs(a[0] - b[0]) <= tol, abs(a[2] - b[2]) <= tol
    if left and right:
        return True
    inner = (a[0] >= b[0] - tol and a[2] <= b[2] + tol) or (b[0] >= a[0] - tol
                                                          and b[2] <= a[2] + tol)
    return (left or right) and inner


def cell_stacks(inv: Inventory) -> list[list[list[int]]]:
    """Tables: rows of rectangles stacked edge to edge under a row of the same width.

    Each table is a list of rows top to bottom, each row its cells left to right (shape
    indices of ``inv``); a lone rectangle is a table of one row.  Found once per
    inventory (its fact ``cell_stacks``): the connector inputs and the ER assembler both
    read it.
    """
    stacks = inv.facts.get("cell_stacks", lambda: _cell_stacks(inv))
    return [[list(r) for r in t] for t in stacks]


def _cell_stacks(inv: Inventory) -> list[list[list[int]]]:
    tol = 2 * inv.scale.stroke + 3
    cells = [i for i, s in enumerate(inv.shapes) if s.kind in CELL_KINDS + TOUCHED_CELL_KINDS]
    rows = _rows(inv, cells, tol)
    span = [(inv.shapes[r[0]].interior.bbox[0], inv.shapes[r[0]].interior.bbox[1],
             inv.shapes[r[-1]].interior.bbox[2], inv.shapes[r[-1]].interior.bbox[3])
            for r in rows]
    below: dict[int, int] = {}
    for i, a in enumerate(span):
        best = None
        for j, b in enumerate(span):
            if j != i and _aligned(a, b, tol) and 0 <= b[1] - a[3] <= tol:
                if best is None or b[1] < span[best][1]:
                    best = j
        if best is not None:
            below[i] = best
    lower = set(below.values())
    tables = []
    for t in range(len(rows)):
        if t in lower:
            continue
        stack = [t]
        while stack[-1] in below and below[stack[-1]] not in stack:
            stack.append(below[stack[-1]])
        table = [rows[k] for k in stack]
        if any(inv.shapes[i].kind in CELL_KINDS for r in table for i in r):
            tables.append(table)
    return tables


def table_boxes(inv: Inventory) -> list[tuple[int, int, int, int]]:
    """The outline of every stack of two rows or more (:func:`cell_stacks`): the ink
    inside it is the table's, whatever its cells were found as.  A cell drawn empty and
    unfilled is no shape of its own, and its borders would be traced as lines along
    the table's side."""
    return [table_outline(inv, [i for r in rows for i in r])
            for rows in cell_stacks(inv) if len(rows) >= 2]


def table_outline(inv: Inventory, cells: list[int]) -> tuple[int, int, int, int]:
    """The box round the shapes ``cells`` (a table's cells)."""
    b = np.array([inv.shapes[i].bbox for i in cells])
    return int(b[:, 0].min()), int(b[:, 1].min()), int(b[:, 2].max()), int(b[:, 3].max())


SHADOW_BAND = 0.8
"""How far (text heights) outside a table its drop shadow may reach."""


def shadowless_ink(inv: Inventory, boxes: list[tuple[int, int, int, int]],
                   cast: bool = False) -> np.ndarray | None:
    """The page's ink without the drop shadows cast by the tables at ``boxes``.

    A shadow is a band of light ink along a table's side, just outside it; traced, it is
    a line running round the table that joins the lines ending there.  Light ink (not in
    the strong ink, :func:`~cvparse.primitives.classboxes.dark_ink`) within
    ``SHADOW_BAND`` text heights of a table's side that runs along that side for a text
    height or more, from the table's border on, is dropped; a light line that crosses
    the side, or runs beside it with paper between, keeps its pixels.  With ``cast``,
    only the bands a shadow falls in are looked at: under a box and right of it, off
    its border (the tools light their drawings from the top left), so that a line
    leaving a box's side close to a corner keeps its first pixels."""
    ink = inv.ink
    if ink is None or inv.image is None or not boxes:
        return ink
    weak = (ink & ~dark_ink(inv)).astype(np.uint8)
    if not weak.any():
        return ink
    run = max(3, int(round(inv.scale.text_height)))
    upright = cv2.morphologyEx(weak, cv2.MORPH_OPEN, np.ones((run, 1), np.uint8)).astype(bool)
    flat = cv2.morphologyEx(weak, cv2.MORPH_OPEN, np.ones((1, run), np.uint8)).astype(bool)
    band = int(round(SHADOW_BAND * inv.scale.text_height))
    h, w = ink.shape
    sides = np.zeros_like(ink)  # beside a left or right side: upright runs are shadow
    ends = np.zeros_like(ink)  # above or below a table: flat runs are
    for x1, y1, x2, y2 in boxes:
        if cast:
            sides[y1 + 1:min(h, y2 + band + 1), x2 + 1:min(w, x2 + band + 1)] = True
            ends[y2 + 1:min(h, y2 + band + 1), x1 + 1:min(w, x2 + band + 1)] = True
            continue
        ys = slice(max(0, y1 - band), min(h, y2 + band + 1))
        xs = slice(max(0, x1 - band), min(w, x2 + band + 1))
        for x in (x1, x2):
            sides[ys, max(0, x - band):min(w, x + band + 1)] = True
        for y in (y1, y2):
            ends[max(0, y - band):min(h, y + band + 1), xs] = True
    shade = ((upright & sides) | (flat & ends)).astype(np.uint8)
    # A shadow starts at the table's border; a light line running beside the table, with
    # paper between, is no shadow.
    touch = np.zeros_like(ink)
    reach = int(round(inv.scale.stroke)) + 2
    for x1, y1, x2, y2 in boxes:
        touch[max(0, y1 - reach):min(h, y2 + reach + 1),
              max(0, x1 - reach):min(w, x2 + reach + 1)] = True
    n, labels = cv2.connectedComponents(shade, connectivity=8)
    keep = np.zeros(n, bool)
    keep[np.unique(labels[touch & shade.astype(bool)])] = True
    keep[0] = False
    return ink & ~keep[labels]
