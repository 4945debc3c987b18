"""Lines that stop short of a table: schema tools write a cardinality (``0..N``,
``{0,1}``) between a line's end and the table's edge, or end the line at a row's side
(a port), so the traced end touches no shape.  Such an end is carried on along its own
direction, a few text heights at most, to the first table cell it meets."""

from __future__ import annotations

import numpy as np

from ...connectors.lines import Connector
from ...primitives.items import Inventory
from .links import Link

REACH = 4.0
"""How far (text heights) a loose end is carried on to a table."""
NEAR = 0.65
"""Share of the reach within which a table cell is taken whatever the end's direction."""


def end_direction(points: np.ndarray, at_start: bool, span: float) -> np.ndarray:
    """Unit vector out of a polyline's end, from the point ``span`` back along it: a
    dashed or text-crossed end's last pixels point anywhere."""
    pts = np.asarray(points, float)
    pts = pts if at_start else pts[::-1]
    if len(pts) < 2:
        return np.zeros(2)
    run = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))])
    back = pts[min(int(np.searchsorted(run, span)), len(pts) - 1)]
    v = pts[0] - back
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else np.zeros(2)


def _cell_ahead(inv: Inventory, point: np.ndarray, d: np.ndarray, cells: list[int],
                reach: float, stroke: float) -> int | None:
    """The table cell a loose end at ``point`` going ``d`` points at: within ``reach``,
    in front of it (the way to the cell's box within 60 degrees of ``d``, or the box a
    few strokes away), nearest first; else the nearest within ``NEAR`` of ``reach`` in
    any direction (a curve's end hidden under its label turns where it cannot be seen)."""
    p = np.asarray(point, float)
    best = None
    near = None
    for i in cells:
        x1, y1, x2, y2 = inv.shapes[i].bbox
        q = np.array([min(max(p[0], x1), x2), min(max(p[1], y1), y2)], float)
        v = q - p
        dist = float(np.linalg.norm(v))
        if dist > reach:
            continue
        if dist <= NEAR * reach and (near is None or dist < near[0]):
            near = (dist, i)
        if dist > 3 * stroke + 1 and float(v @ d) < 0.5 * dist:
            continue
        if best is None or dist < best[0]:
            best = (dist, i)
    best = best or near
    return None if best is None else best[1]


def _leaves(inv: Inventory, points: np.ndarray, table: int, head: dict[int, int],
            far: float) -> bool:
    """Whether a line goes at least ``far`` away from the table's cells (a loop that
    leaves the table, not a glyph beside it traced as a line)."""
    boxes = np.array([inv.shapes[i].bbox for i, h in head.items() if h == table], float)
    x1, y1 = boxes[:, 0].min(), boxes[:, 1].min()
    x2, y2 = boxes[:, 2].max(), boxes[:, 3].max()
    pts = np.asarray(points, float)
    gap = np.hypot(np.maximum(np.maximum(x1 - pts[:, 0], pts[:, 0] - x2), 0),
                   np.maximum(np.maximum(y1 - pts[:, 1], pts[:, 1] - y2), 0))
    return bool(gap.max() >= far)


def loose_end_links(inv: Inventory, connectors: list[Connector], head: dict[int, int]
                    ) -> list[Link]:
    """Links between tables (their name cells, ``head``'s values) of the connectors that
    reach a table cell at each end, at least one end only once carried on.  A line from a
    table back to it (a self-reference) needs two different rows and a loop that goes
    three text heights or more away from the table."""
    th, stroke = inv.scale.text_height, inv.scale.stroke
    cells = list(head)
    out = []
    for c in connectors:
        if all(e.node is not None for e in c.ends) or c.length < th:
            continue
        hit = [e.node if e.node in head else
               _cell_ahead(inv, np.asarray(e.point, float),
                           end_direction(c.points, k == 0, 1.5 * th), cells, REACH * th,
                           stroke) if e.node is None else None
               for k, e in enumerate(c.ends)]
        if hit[0] is None or hit[1] is None:
            continue
        a, b = head[hit[0]], head[hit[1]]
        if a == b and (hit[0] == hit[1] or c.length < 4 * th
                       or not _leaves(inv, c.points, a, head, 3 * th)):
            continue
        out.append(Link(a, b, np.asarray(c.points, float), c.style))
    return out
