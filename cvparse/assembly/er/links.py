"""Shape-to-shape links from the traced connectors: the pieces of a line that crosses a
shape joined back into one, and a line cut in two by a label kept once."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...boxes import point_gaps
from ...connectors.lines import Connector
from ...primitives.items import Inventory
from .geometry import dist_to_polyline, straighten


@dataclass
class Link:
    """One connector between two shapes, with the end points at each shape."""

    a: int
    b: int
    points: np.ndarray = field(repr=False)
    """Polyline from the end at ``a`` to the end at ``b``."""
    style: str = "solid"
    under: tuple[int, ...] = ()
    """Free texts (indices into the inventory's texts) the line passes under: drawn over
    it, they cut it in pieces."""


def _ink_along(ink: np.ndarray, p: np.ndarray, q: np.ndarray) -> float:
    """Share of the samples on the segment ``p``-``q`` that hit ink (within one pixel)."""
    n = max(2, int(np.linalg.norm(q - p)))
    h, w = ink.shape
    hits = 0
    for t in np.linspace(0, 1, n):
        x, y = (p + (q - p) * t).round().astype(int)
        hits += bool(ink[max(0, y - 1):min(h, y + 2), max(0, x - 1):min(w, x + 2)].any())
    return hits / n


def _end_chord(points: np.ndarray, end: int, th: float) -> np.ndarray:
    """Unit direction in which a traced piece leaves through its end ``end`` (0: first
    point), along the last stretch of the piece straightened to within 0.3 text heights."""
    pts = straighten(points, th) if len(points) >= 2 else np.asarray(points, float)
    if len(pts) < 2:
        return np.zeros(2)
    seg = pts[0] - pts[1] if end == 0 else pts[-1] - pts[-2]
    n = float(np.linalg.norm(seg))
    return seg / n if n > 0 else np.zeros(2)


def pass_through_pairs(inv: Inventory, connectors: list[Connector]
                       ) -> dict[tuple[int, int], tuple[int, int]]:
    """Connector ends that meet at a shape only because one line crosses it.

    Two ends on one shape, pointing at each other along one straight line, with that line
    drawn across the inside: the line passes through (a neato layout artefact) and the
    shape is attached to neither piece.  Returns ``(connector, end)`` pairs both ways.
    """
    by_shape: dict[int, list[tuple[int, int]]] = {}
    for ci, c in enumerate(connectors):
        for ei, e in enumerate(c.ends):
            if e.node is not None:
                by_shape.setdefault(e.node, []).append((ci, ei))
    tol = 2 * inv.scale.stroke + 2
    chords = {(ci, ei): _end_chord(connectors[ci].points, ei, inv.scale.text_height)
              for ends in by_shape.values() for ci, ei in ends}
    pairs: dict[tuple[int, int], tuple[int, int]] = {}
    for node, ends in by_shape.items():
        if inv.shapes[node].kind == "triangle":
            continue  # IS-A lines are drawn into the triangle, to its centre
        cands = []
        for i, (c1, e1) in enumerate(ends):
            for c2, e2 in ends[i + 1:]:
                if c1 == c2:
                    continue
                a, b = connectors[c1].ends[e1], connectors[c2].ends[e2]
                p, q = np.asarray(a.point, float), np.asarray(b.point, float)
                off = q - p
                # The traced end direction is noisy on a short piece: the straightened
                # piece's last stretch is the other estimate.
                for d1, d2 in ((np.asarray(a.direction, float), np.asarray(b.direction, float)),
                               (chords[(c1, e1)], chords[(c2, e2)])):
                    if float(d1 @ d2) <= -0.97 and float(off @ d1) > 0 \
                            and abs(off[0] * d1[1] - off[1] * d1[0]) <= tol:
                        break
                else:
                    continue
                if _ink_along(inv.ink, p, q) >= 0.85:
                    cands.append((float(d1 @ d2), (c1, e1), (c2, e2)))
        for _, x, y in sorted(cands):
            if x not in pairs and y not in pairs:
                pairs[x], pairs[y] = y, x
    return pairs


def _stub(inv: Inventory, points: np.ndarray, node: int) -> bool:
    """A short piece that stops well short of the shape ``node`` its last point was
    attached to (the pointed tip of a double border, traced as a line): shorter than one
    and a half text heights and ending more than a text height from that shape."""
    th = inv.scale.text_height
    seg = np.diff(points, axis=0)
    if float(np.linalg.norm(seg, axis=1).sum()) >= 1.5 * th:
        return False
    return float(point_gaps(points[-1], inv.shapes[node].bbox)) > th


def merged_ends(inv: Inventory, connectors: list[Connector]) -> dict[tuple[int, int], int]:
    """Loose ends of lines that run into another line just before its shape (a layout
    that joins edges at one port: the tracer gives the shared stretch to one of them).
    The end lands on the other connector within two text heights of that connector's
    attached end and points on straight at it (within 25 degrees: merging lines run
    together); it takes that end's shape.  An end on or in
    a shape (within two strokes of its box) stopped there, not at the other line."""
    th, pad = inv.scale.text_height, 2 * inv.scale.stroke
    boxes = np.array([s.bbox for s in inv.shapes], float).reshape(-1, 4)
    out: dict[tuple[int, int], int] = {}
    for ci, c in enumerate(connectors):
        for ei, e in enumerate(c.ends):
            k = e.on_connector
            if e.node is not None or k is None or k == ci or c.ends[1 - ei].node is None:
                continue
            p, d = np.asarray(e.point, float), np.asarray(e.direction, float)
            if ((boxes[:, 0] - pad <= p[0]) & (p[0] <= boxes[:, 2] + pad)
                    & (boxes[:, 1] - pad <= p[1]) & (p[1] <= boxes[:, 3] + pad)).any():
                continue
            best = None
            for f in connectors[k].ends:
                if f.node is None or f.node == c.ends[1 - ei].node:
                    continue
                off = np.asarray(f.point, float) - p
                gap = float(np.linalg.norm(off))
                if gap <= 2 * th and (gap == 0 or float(off @ d) >= 0.9 * gap) \
                        and (best is None or gap < best[0]):
                    best = (gap, f.node)
            if best is not None:
                out[(ci, ei)] = best[1]
    return out


def shape_links(inv: Inventory, connectors: list[Connector]) -> list[Link]:
    """Shape-to-shape links: connectors whose two ends attach to two different shapes,
    with the pieces of a line that crosses a shape joined back into one, and lines that
    merge into another just before a shape (:func:`merged_ends`) taken to that shape."""
    pairs = pass_through_pairs(inv, connectors)
    merged = merged_ends(inv, connectors)
    links = []
    seen: set[int] = set()
    for ci, c in enumerate(connectors):
        for ei in (0, 1):
            if ci in seen or (ci, ei) in pairs:
                continue
            # Walk from a real end through every crossed shape to the far end.
            pts = [np.asarray(c.points, float)[::1 if ei == 0 else -1]]
            start = c.ends[ei].node
            if start is None:
                start = merged.get((ci, ei))
            cur, cur_end = ci, 1 - ei
            seen.add(ci)
            while (cur, cur_end) in pairs:
                nxt, nxt_end = pairs[(cur, cur_end)]
                if nxt in seen:
                    break
                seen.add(nxt)
                seq = np.asarray(connectors[nxt].points, float)
                pts.append(seq[::1 if nxt_end == 0 else -1])
                cur, cur_end = nxt, 1 - nxt_end
            end = connectors[cur].ends[cur_end].node
            if end is None:
                end = merged.get((cur, cur_end))
            if start is None or end is None or start == end:
                continue
            whole = np.concatenate(pts)
            if (inv.shapes[start].double and _stub(inv, whole, end)) or (
                    inv.shapes[end].double and _stub(inv, whole[::-1], start)):
                continue
            links.append(Link(start, end, whole, c.style))
    return drop_split_duplicates(links, 2 * inv.scale.text_height)


def drop_split_duplicates(links: list[Link], gap: float) -> list[Link]:
    """One line cut in two (where a label box was taken out of it) between the same two
    shapes: keep the longer piece.  The shorter piece lies within ``gap / 2`` of the longer
    line or is shorter than that; a recursive relationship's two lines run apart."""
    def length(ln: Link) -> float:
        return float(np.linalg.norm(np.diff(ln.points, axis=0), axis=1).sum())

    drop: set[int] = set()
    for i, a in enumerate(links):
        for j in range(i + 1, len(links)):
            b = links[j]
            if i in drop or j in drop or {a.a, a.b} != {b.a, b.b}:
                continue
            short, long_ = (a, b) if length(a) < length(b) else (b, a)
            # The short piece lies along the long one (its direction is too noisy to use),
            # or is a mere stub (the pointed tip of a double border, traced as a line).
            if length(short) < gap / 2 or max(
                    dist_to_polyline(p, long_.points)[0] for p in short.points) <= gap / 2:
                drop.add(i if short is a else j)
    return [ln for k, ln in enumerate(links) if k not in drop]
