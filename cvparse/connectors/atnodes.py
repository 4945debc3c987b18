"""Lines mended at the nodes an assembler found, before it reads them as edges.

A topology page's nodes (shapes and labelled icons) are known only once its assembler
has put them together; the lines traced before that can run on through a node, into an
icon's drawing, or stop short of a node across a stretch the tracer lost.
:func:`cut_at_nodes` cuts them where they run through a node or into an icon (reading the
marker again at every end it makes), :func:`probe_to_nodes` runs each loose end on to the
node it reaches and lets the moved ends claim their filled heads.  New connectors come
back; the ones passed in are left as they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

import numpy as np

from ..primitives.items import Inventory, Scale, Shape
from ..primitives.regions import Region
from ..primitives.strokes import inked_along
from .headclaims import claim_heads
from .lines import Connector, End
from .stage import read_cut_ends


class AtNode(Protocol):
    """What the mending reads of a node: its box, its shape (``icon`` for an icon) and
    the inventory shapes that belong to it."""

    bbox: list[int]
    shape: str
    shapes: list[int]


def cut_at_nodes(connectors: list[Connector], nodes: Sequence[AtNode], inv: Inventory
                 ) -> list[Connector]:
    """``connectors`` cut where they run through a node (:func:`split_through`), the
    marker read again at every end a cut made, then cut back into the icons where a head
    is read at the cut (:func:`heads_at_icons`)."""
    before = {id(e) for c in connectors for e in c.ends}
    live = split_through(connectors, nodes, inv.scale, inv.shapes, inv.ink)
    live = read_cut_ends(live, [[id(e) not in before for e in c.ends] for c in live], inv)
    return heads_at_icons(live, nodes, inv)


def probe_to_nodes(connectors: list[Connector], ends: list[tuple[int | None, int | None]],
                   boxes: list, inv: Inventory
                   ) -> tuple[list[Connector], list[tuple[int | None, int | None]],
                              list[list[bool]]]:
    """Each loose end (``None`` in ``ends``, the node indices of both ends) run on to the
    node box of ``boxes`` it reaches (:func:`probe_ends`, over dash gaps of up to 0.8 text
    heights), the marker read again at every moved end and the filled heads claimed
    (:func:`~cvparse.connectors.headclaims.claim_heads`) by ends that now face a node.

    Returns the connectors, their ends' node indices and which ends moved.
    """
    ink = inv.ink
    assert ink is not None, "loose ends are run on over the page's ink"
    live, ends, moved = probe_ends(connectors, ends, ink, boxes, inv.scale.stroke,
                                   0.8 * inv.scale.text_height)
    pair_boxes = [tuple(None if k is None else boxes[k] for k in pair) for pair in ends]
    live = claim_heads(read_cut_ends(live, moved, inv), ink, inv.scale, boxes=pair_boxes,
                       heads=None if inv.page is None else inv.page.solid_blobs)
    return live, ends, moved


def split_through(connectors: list[Connector], nodes: Sequence[AtNode], scale: Scale,
                  shapes: Sequence[Shape] = (), ink: np.ndarray | None = None
                  ) -> list[Connector]:
    """Connectors cut where they run through a node: two lines meeting at an icon that is
    not a closed shape are traced as one, through the icon's ink.  With the inventory's
    ``shapes`` and ``ink``, a node drawn as a closed shape is run through only where the
    line's ink runs into the shape's (two lines meeting on its border) or the line turns
    back at it, not where it passes on by the corner of its box (off an ellipse or a
    diamond, or clear of a box's corner).

    A gap the tracer bridged (a line read on across an unread label) is a straight jump
    between two points: it is filled in pixel by pixel first, so a node it jumps over
    is seen to hold the line.

    The new ends lie on the node (no marker); the outer ends keep theirs.
    """
    grow = scale.stroke + 1
    least = max(3, int(round(0.5 * scale.text_height)))
    seam = max(1, int(round(0.5 * scale.stroke)))
    out = []
    for c in connectors:
        pieces = [_filled_in(c)]
        for n in nodes:
            nxt = []
            for p in pieces:
                pts = p.points
                runs = _runs(_in_box(pts, n.bbox, grow))
                inner = [(a, b) for a, b in runs if a > 0 and b < len(pts) and b - a >= least]
                if ink is not None and shapes and n.shape != "icon" and n.shapes:
                    inner = [(a, b) for a, b in inner if _turns_back(pts, a, b, least)
                             or any(_touches(pts[a:b], shapes[i].outer, ink, seam)
                                    for i in n.shapes)]
                if not inner:
                    nxt.append(p)
                    continue
                a, b = max(inner, key=lambda r: r[1] - r[0])
                nxt.extend(_cut(p, a, b))
            pieces = nxt
        out.extend(pieces)
    return out


def _filled_in(c: Connector) -> Connector:
    """``c`` with every jump of more than two pixels between its points filled in with
    points a pixel apart (``c`` itself when it has none)."""
    pts = c.points
    if len(pts) < 2:
        return c
    steps = np.hypot(*np.diff(pts, axis=0).T)
    if not (steps > 2).any():
        return c
    parts = [pts[:1]]
    for a, b, d in zip(pts[:-1], pts[1:], steps):
        n = int(np.ceil(d)) if d > 2 else 1
        parts.append(a + (b - a) * (np.arange(1, n + 1)[:, None] / n))
    return replace(c, points=np.vstack(parts))


def trim_into_icons(connectors: list[Connector], nodes: Sequence[AtNode], scale: Scale
                    ) -> list[Connector]:
    """Solid connectors cut back to where they enter the icon they end in, at ends read
    as plain: a head whose tip touches an icon's drawing is traced on into the drawing,
    so the end's marker was read inside the icon instead of at the head.  (A dashed
    line's end is read across its gaps: moved onto the icon, the icon's ink reads as a
    head.)

    The new end lies on the icon's box (no marker yet); the other end keeps its own.
    """
    grow = scale.stroke + 1
    least = max(3, int(round(0.5 * scale.text_height)))
    icons = [n for n in nodes if n.shape == "icon"]
    out = []
    for c in connectors:
        for k in (0, 1) if c.style == "solid" else ():
            if c.ends[k].marker != "none":
                continue
            pts = c.points
            for icon in icons:
                if c.ends[k].node is not None and c.ends[k].node not in icon.shapes:
                    continue  # attached to another node's shape: it ends there
                runs = _runs(_in_box(pts, icon.bbox, grow))
                a, b = runs[0 if k == 0 else -1] if runs else (0, 0)
                touches = a == 0 if k == 0 else b == len(pts)
                if touches and b - a >= least and b - a < len(pts) - 1:
                    c = _cut(c, a, b)[0]
                    break
        out.append(c)
    return out


def heads_at_icons(connectors: list[Connector], nodes: Sequence[AtNode], inv: Inventory
                   ) -> list[Connector]:
    """``connectors`` with each one :func:`trim_into_icons` cuts back replaced by its cut
    only where a head is read at the new end; elsewhere the trace is left as it was."""
    trimmed = trim_into_icons(connectors, nodes, inv.scale)
    flags = [[not any(e is f for f in c.ends) for e in t.ends]
             for c, t in zip(connectors, trimmed)]
    if not any(any(f) for f in flags):
        return connectors
    trimmed = read_cut_ends(trimmed, flags, inv)
    return [t if any(f and e.marker != "none" for f, e in zip(fl, t.ends)) else c
            for c, t, fl in zip(connectors, trimmed, flags)]


def _touches(pts: np.ndarray, region: Region, ink: np.ndarray, gap: int = 1) -> bool:
    """Some point of the polyline ``pts`` is joined to the filled ``region`` by ink along
    the straight walk from it towards the region's middle (or lies inside it), broken by
    no more than ``gap`` px of paper (the faint seam between a border and the area it
    closes).  Traced points may jump a few pixels: the polyline is walked a pixel at a
    time."""
    x1, y1 = region.bbox[:2]
    h, w = region.filled.shape
    centre = np.array([x1 + (w - 1) / 2, y1 + (h - 1) / 2])
    dense = [pts[:1]] + [np.linspace(a, b, int(np.ceil(np.hypot(*(b - a)))) + 1)[1:]
                         for a, b in zip(pts[:-1], pts[1:])]
    for p in np.concatenate(dense):
        v = centre - p
        steps = int(np.ceil(np.hypot(v[0], v[1]))) + 1
        paper = 0
        for t in np.linspace(0.0, 1.0, steps):
            x, y = (int(round(c)) for c in p + t * v)
            if 0 <= x - x1 < w and 0 <= y - y1 < h and region.filled[y - y1, x - x1]:
                return True
            inked = 0 <= y < ink.shape[0] and 0 <= x < ink.shape[1] and ink[y, x]
            paper = 0 if inked else paper + 1
            if paper > gap:
                break
    return False


def _turns_back(pts: np.ndarray, a: int, b: int, reach: int) -> bool:
    """The polyline leaves its points ``a:b`` heading back more than a right angle from
    the way it came in (over ``reach`` points on either side)."""
    d_in = pts[a] - pts[max(0, a - reach)]
    d_out = pts[min(len(pts) - 1, b - 1 + reach)] - pts[b - 1]
    return float(np.dot(d_in, d_out)) < 0


def _in_box(pts: np.ndarray, bbox, grow: float) -> np.ndarray:
    """Which points lie in the box ``x1, y1, x2, y2`` widened by ``grow`` on every side."""
    x1, y1, x2, y2 = bbox
    return ((pts[:, 0] >= x1 - grow) & (pts[:, 0] <= x2 + grow)
            & (pts[:, 1] >= y1 - grow) & (pts[:, 1] <= y2 + grow))


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """``[start, stop)`` of every run of True."""
    d = np.diff(np.concatenate([[0], flags.astype(np.int8), [0]]))
    return list(zip(np.nonzero(d == 1)[0].tolist(), np.nonzero(d == -1)[0].tolist()))


def _cut(c: Connector, a: int, b: int) -> list[Connector]:
    """``c`` without its points ``a:b``: the part before and the part after."""
    out = []
    for pts, keep, inward in ((c.points[:a], 0, True), (c.points[b:], 1, False)):
        if len(pts) < 2:
            continue
        tip = pts[-1] if inward else pts[0]
        prev = pts[max(0, len(pts) - 6)] if inward else pts[min(len(pts) - 1, 5)]
        d = np.asarray(tip, float) - np.asarray(prev, float)
        d = d / max(float(np.linalg.norm(d)), 1e-6)
        new = End(point=(float(tip[0]), float(tip[1])), direction=(float(d[0]), float(d[1])))
        old = c.ends[keep]
        ends = (old, new) if inward else (new, old)
        out.append(Connector(points=pts, ends=ends, style=c.style, width=c.width,
                             colour=c.colour))
    return out


def _probe(end: End, ink: np.ndarray, boxes: list, stroke: float, turns: int = 2,
           gap: int = 0) -> tuple[int, End] | None:
    """The node a loose end reaches by running on over ink broken by no more than ``gap``
    px (a stretch the tracer lost, e.g. as the border of a gap closed off by lines), or
    None where the ink stops first; with the end moved to where it arrives. Straight on; an
    axis-aligned run may turn a right-angle corner (up to ``turns`` times) where the ink
    goes on one way only."""
    r = max(1, int(round(stroke)))
    d = np.asarray(end.direction, float)
    d = d / max(float(np.hypot(d[0], d[1])), 1e-6)
    axis = float(np.abs(d).max()) > 0.98  # a heading a few degrees off an axis is on it
    if axis:
        d = np.where(np.abs(d) == np.abs(d).max(), np.sign(d), 0.0)
    p, k = _run(np.asarray(end.point, float), d, ink, boxes, r, gap)
    if k is not None or not axis:
        return _arrival(k, p, d)
    for _ in range(turns):
        ways = []
        for n in (np.array([-d[1], d[0]]), np.array([d[1], -d[0]])):
            q = p - r * d  # the corner sits within a stroke of where the run stopped
            if all(inked_along(ink, q + t * n, q + t * n, r // 2) for t in range(r + 1, 3 * r + 3)):
                ways.append((q, n))
        if len(ways) != 1:
            return None
        q, d = ways[0]
        p, k = _run(q, d, ink, boxes, r, gap)
        if k is not None:
            return _arrival(k, p, d)
    return None


def _arrival(k: int | None, p: np.ndarray, d: np.ndarray) -> tuple[int, End] | None:
    return None if k is None else (k, End(point=(float(p[0]), float(p[1])),
                                          direction=(float(d[0]), float(d[1]))))


def _run(start: np.ndarray, d: np.ndarray, ink: np.ndarray, boxes: list, r: int,
         gap: int = 0) -> tuple[np.ndarray, int | None]:
    """Walk from ``start`` along ``d`` while there is ink: the last point on ink, and the
    node box reached (within a stroke), if any."""
    h, w = ink.shape
    grow = r + 1
    n = np.array([-d[1], d[0]])
    offsets = np.arange(-r, r + 1, dtype=float)
    drift = 0.0
    last, last_t = start, 0
    for t in range(1, int(np.hypot(w, h))):
        p = start + t * d + drift * n
        for k, b in enumerate(boxes):
            if b[0] - grow <= p[0] <= b[2] + grow and b[1] - grow <= p[1] <= b[3] + grow:
                return p, k
        side = p[None, :] + offsets[:, None] * n[None, :]
        xs, ys = np.round(side[:, 0]).astype(int), np.round(side[:, 1]).astype(int)
        ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        hit = np.zeros(len(offsets), bool)
        hit[ok] = ink[ys[ok], xs[ok]]
        if not hit.any():
            if t - last_t > gap:
                return last, None
            continue
        last, last_t = p, t
        # keep to the middle of the line, but never wander off the straight run
        drift = float(np.clip(drift + 0.5 * offsets[hit].mean(), -r, r))
    return last, None


def probe_ends(connectors: list[Connector], ends: list[tuple[int | None, int | None]],
               ink: np.ndarray, boxes: list, stroke: float, dash_gap: float = 0.0
               ) -> tuple[list[Connector], list[tuple[int | None, int | None]], list[list[bool]]]:
    """Connectors and ``ends`` with each loose end attached to the node that
    :func:`_probe` reaches from it (the end moved there), and which ends moved. Dashed and
    dotted lines run straight on over gaps up to ``dash_gap`` and turn no corners."""
    conns, out, moved = [], [], []
    for c, pair in zip(connectors, ends):
        new_ends, new_pair, flags = list(c.ends), list(pair), [False, False]
        for i in (0, 1):
            if pair[i] is None:
                hit = _probe(c.ends[i], ink, boxes, stroke,
                             turns=2 if c.style == "solid" else 0,
                             gap=0 if c.style == "solid" else int(round(dash_gap)))
                if hit is not None:
                    new_pair[i], new_ends[i], flags[i] = hit[0], hit[1], True
        conns.append(replace(c, ends=(new_ends[0], new_ends[1])) if any(flags) else c)
        out.append((new_pair[0], new_pair[1]))
        moved.append(flags)
    return conns, out, moved
