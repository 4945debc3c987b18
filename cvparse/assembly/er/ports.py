"""Lines that stop short of a table: schema tools write a cardinality (``0..N``,
``{0,1}``) between a line's end and the table's edge, or end the line at a row's side
(a port), so the traced end touches no shape.  Such an end is carried on along its own
direction, a few text heights at most, to the first table cell it meets."""

from __future__ import annotations

import numpy as np

from ...boxes import point_gaps
from ...connectors.lines import Connector
from ...primitives.items import Inventory
from .geometry import dists_to_polyline
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
    return bool(point_gaps(pts, (x1, y1, x2, y2)).max() >= far)


def loose_end_links(inv: Inventory, connectors: list[Connector], head: dict[int, int],
                    skip: set[int] | None = None, have: list[Link] | None = None
                    ) -> list[Link]:
    """Links between tables (their name cells, ``head``'s values) of the connectors that
    reach a table cell at each end, at least one end only once carried on.  A line from a
    table back to it (a self-reference) needs two different rows and a loop that goes
    three text heights or more away from the table.  Connectors in ``skip`` are left
    out (taken up already), and so is a piece that runs along a link in ``have`` between
    the same two tables, within a text height of it all the way (the same line, traced
    once whole and once in pieces)."""
    th = inv.scale.text_height
    out = []
    for ci, c in enumerate(connectors):
        if ci in (skip or ()) or all(e.node is not None for e in c.ends) or c.length < th:
            continue
        hit = [_table_cell(inv, c.ends[k].node, c.ends[k].point, c.points, k == 0, head)
               for k in (0, 1)]
        if hit[0] is None or hit[1] is None:
            continue
        a, b = head[hit[0]], head[hit[1]]
        if a == b and (hit[0] == hit[1] or c.length < 4 * th
                       or not _leaves(inv, c.points, a, head, 3 * th)):
            continue
        pts = np.asarray(c.points, float)
        if any({ln.a, ln.b} == {a, b} and float(dists_to_polyline(pts, ln.points)[0].max()) <= th
               for ln in have or ()):
            continue
        out.append(Link(a, b, pts, c.style))
    return out


def _table_cell(inv: Inventory, node: int | None, point, points: np.ndarray, at_start: bool,
                head: dict[int, int]) -> int | None:
    """The table cell a line's end reaches: the cell it is attached to, or, for a loose
    end, the cell it points at when carried on (:func:`_cell_ahead`); None if the end
    is attached to another shape or points at no cell."""
    if node is not None:
        return node if node in head else None
    th = inv.scale.text_height
    return _cell_ahead(inv, np.asarray(point, float), end_direction(points, at_start, 1.5 * th),
                       list(head), REACH * th, inv.scale.stroke)


UNDER = 0.8
"""How near (text heights) a loose end comes to a free text's box to have been cut by
it: the text's own background hides the line for a padding around the letters."""


def _text_at(inv: Inventory, point, reach: float) -> int | None:
    """The free text whose box is nearest ``point``, within ``reach``."""
    p = np.asarray(point, float)
    best = None
    for k, t in enumerate(inv.texts):
        gap = float(point_gaps(p, t.bbox))
        if gap <= reach and (best is None or gap < best[0]):
            best = (gap, k)
    return None if best is None else best[1]


def under_text_links(inv: Inventory, connectors: list[Connector], head: dict[int, int]
                     ) -> tuple[list[Link], set[int]]:
    """Links between tables of lines cut in pieces by the text drawn over them.

    A tool that writes a line's label (or draws an end mark that reads as text, a
    circle) on the line itself hides the line under the text's background, so the
    line is traced as pieces whose loose ends stop at the text.  A text reached by the
    loose ends of exactly two connectors joins them; a chain of such joins from one
    table cell to another (each outer end attached to a cell or carried on to one) is
    one link, which keeps the texts it passes under.  Returns the links and the
    connectors they took up.
    """
    reach = UNDER * inv.scale.text_height
    at_text: dict[int, list[tuple[int, int]]] = {}
    for ci, c in enumerate(connectors):
        for ei, e in enumerate(c.ends):
            if e.node is None:
                k = _text_at(inv, e.point, reach)
                if k is not None:
                    at_text.setdefault(k, []).append((ci, ei))
    pairs: dict[tuple[int, int], tuple[int, int]] = {}
    text_of: dict[tuple[int, int], int] = {}
    for k, ends in at_text.items():
        if len(ends) == 2 and ends[0][0] != ends[1][0]:
            pairs[ends[0]], pairs[ends[1]] = ends[1], ends[0]
            text_of[ends[0]] = text_of[ends[1]] = k
    links: list[Link] = []
    used: set[int] = set()
    for ci, c in enumerate(connectors):
        for ei in (0, 1):
            if ci in used or (ci, ei) in pairs or (ci, 1 - ei) not in pairs:
                continue
            chain, texts = [ci], []
            pts = [np.asarray(c.points, float)[::1 if ei == 0 else -1]]
            cur, cur_end = ci, 1 - ei
            while (cur, cur_end) in pairs:
                nxt, nxt_end = pairs[(cur, cur_end)]
                if nxt in chain:
                    break
                texts.append(text_of[(cur, cur_end)])
                chain.append(nxt)
                pts.append(np.asarray(connectors[nxt].points, float)[::1 if nxt_end == 0 else -1])
                cur, cur_end = nxt, 1 - nxt_end
            if (cur, cur_end) in pairs:
                continue  # a loop of pieces
            first, last = c.ends[ei], connectors[cur].ends[cur_end]
            a = _table_cell(inv, first.node, first.point, pts[0], True, head)
            b = _table_cell(inv, last.node, last.point, pts[-1], False, head)
            if a is None or b is None or head[a] == head[b]:
                continue
            used.update(chain)
            links.append(Link(head[a], head[b], np.concatenate(pts), c.style, tuple(texts)))
    return links, used
