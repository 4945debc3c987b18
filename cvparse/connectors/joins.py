"""Repairs on traced connectors: the two pieces of a line cut where it brushes past a node,
or by a shallow crossing, joined back into one; ends that stop on another connector
marked as landing there."""

from __future__ import annotations

import cv2
import numpy as np

from ..primitives.items import Inventory
from .lines import Connector
from .gaps import crosses, facing
from .polylines import polyline_direction


def join_grazing(connectors: list[Connector], inv: Inventory, targets: np.ndarray,
                  span: float, depth: float) -> None:
    """Join the two pieces of a line cut where it brushes past a node.

    The margin cleared round every shape cuts a line that touches a node's border in
    passing (or runs over an arrowhead there): its two pieces end by that one node,
    head at each other (directions opposed to within 25 degrees, the far end ahead and
    at most ``depth`` aside) across a gap of at most ``span`` that stays within ``depth``
    pixels of the node's border.  Lines ending on the node head into it, so two of them facing each
    other are a node's width apart.  Closest pairs first, each end once; ``connectors``
    is changed in place.
    """
    ends = [(i, e) for i, c in enumerate(connectors) for e in (0, 1)]
    if len(ends) < 2:
        return
    h, w = targets.shape
    pts = np.array([connectors[i].ends[e].point for i, e in ends], np.float64)
    ix = np.clip(np.rint(pts).astype(int), 0, [w - 1, h - 1])
    node = targets[ix[:, 1], ix[:, 0]] - 1
    dirs = np.array([polyline_direction(connectors[i].points if e == 0
                                        else connectors[i].points[::-1], span)
                     for i, e in ends])
    cands = []
    for p in range(len(ends)):
        for q in range(p + 1, len(ends)):
            k = int(node[p])
            if k < 0 or node[q] != k or ends[p][0] == ends[q][0]:
                continue
            outer = inv.shapes[k].outer
            if _inside(outer, pts[p]) or _inside(outer, pts[q]):
                continue  # a line running on into the node (over it) is not brushing past
            gap = pts[q] - pts[p]
            dist = float(np.linalg.norm(gap))
            side = abs(float(dirs[p][0] * gap[1] - dirs[p][1] * gap[0]))
            if not (0 < dist <= span and float(dirs[p] @ dirs[q]) <= -0.9 and side <= depth
                    and float(gap @ dirs[p]) > 0):
                continue
            reached, deepest = _depth_along(outer, pts[p], pts[q])
            # Across a node no wider than the margin, its middle is no brushing past either.
            if reached <= depth and reached < MIDDLE * deepest:
                cands.append((dist, p, q))
    link: dict[int, int] = {}
    for _, p, q in sorted(cands):
        if p not in link and q not in link:
            link[p], link[q] = q, p
    if not link:
        return
    # follow each chain of links from a free end, joining piece after piece
    conns = list(connectors)
    seen: set[int] = set()
    joined = []
    index = {ref: n for n, ref in enumerate(ends)}
    for start in range(len(conns)):
        for e in (0, 1):
            if start in seen or index[(start, e)] in link:
                continue
            c, i, far = conns[start], start, 1 - e
            seen.add(start)
            if e == 1:
                c = Connector(points=c.points[::-1], ends=(c.ends[1], c.ends[0]),
                              style=c.style, width=c.width, colour=c.colour)
            while index[(i, far)] in link:
                j, f = ends[link[index[(i, far)]]]
                if j in seen:
                    break
                seen.add(j)
                c = _join(c, 1, conns[j], f)
                i, far = j, 1 - f
            joined.append(c)
    joined.extend(c for i, c in enumerate(conns) if i not in seen)
    connectors[:] = joined


def _inside(region, p: np.ndarray) -> bool:
    """True if point ``p`` lies in ``region`` (inside a shape's border)."""
    x1, y1, x2, y2 = region.bbox
    x, y = int(round(p[0])), int(round(p[1]))
    return x1 <= x < x2 and y1 <= y < y2 and bool(region.filled[y - y1, x - x1])


MIDDLE = 0.75
"""Share of a node's greatest depth (its middle) a line brushing past it stays short of."""


def _depth_along(region, p: np.ndarray, q: np.ndarray) -> tuple[float, float]:
    """How deep the segment ``p``-``q`` runs into ``region`` (pixels from its border), and
    the depth of the region's middle."""
    x1, y1, x2, y2 = region.bbox
    filled = np.pad(region.filled.astype(np.uint8), 1)
    inside = cv2.distanceTransform(filled, cv2.DIST_L2, 3)
    t = np.linspace(0.0, 1.0, max(2, int(np.linalg.norm(q - p)) + 1))[:, None]
    s = np.rint(p + t * (q - p)).astype(int) - [x1 - 1, y1 - 1]
    ok = (s[:, 0] >= 0) & (s[:, 0] < inside.shape[1]) & (s[:, 1] >= 0) & (s[:, 1] < inside.shape[0])
    reached = float(inside[s[ok, 1], s[ok, 0]].max()) if ok.any() else 0.0
    return reached, float(inside.max())


def join_crossings(connectors: list[Connector], reach: float, blocked: np.ndarray | None,
                   near_shape: np.ndarray | None = None) -> bool:
    """Join the two halves of a line cut where another line crosses it at a shallow angle.

    Both halves end on the crossing line (``on_connector``) and face each other across
    it; the skeleton of two strokes meeting at a small angle is one blob there, so the
    branches could not be paired.  With ``near_shape`` (where ends attach to a node), the
    halves of a dashed or dotted line that another line crosses are joined too: the dash
    on the crossing went with that line, so they stop a gap short of it.  Closest pairs
    first, each end once; ``connectors`` is changed in place.  Returns whether anything
    was joined.
    """
    loose = set()
    if near_shape is not None:
        h, w = near_shape.shape
        for i, c in enumerate(connectors):
            for e in (0, 1):
                x, y = (int(round(v)) for v in c.ends[e].point)
                if (c.style != "solid" or c.length < 2 * reach) \
                        and not near_shape[min(max(y, 0), h - 1), min(max(x, 0), w - 1)]:
                    loose.add((i, e))
    ends = [(i, e) for i, c in enumerate(connectors) for e in (0, 1)
            if c.ends[e].on_connector is not None or (i, e) in loose]
    if len(ends) < 2:
        return False
    pts = np.array([connectors[i].ends[e].point for i, e in ends], np.float64)
    # over a longer span than the ends' own: the tips bend along the crossing stroke
    dirs = np.array([polyline_direction(connectors[i].points if e == 0
                                        else connectors[i].points[::-1], reach)
                     for i, e in ends])
    cands = []
    for p in range(len(ends)):
        for q in range(p + 1, len(ends)):
            (i, e), (j, f) = ends[p], ends[q]
            on = connectors[i].ends[e].on_connector
            if i == j or on in (i, j):
                continue
            landed = on is not None and on == connectors[j].ends[f].on_connector
            if not landed and not ((i, e) in loose and (j, f) in loose):
                continue
            dist = facing(pts, dirs, p, q, 0.8)
            if dist is None or dist > reach or crosses(blocked, pts[p], pts[q]):
                continue
            # a dashed line's dash on the crossing line went with that line: its halves
            # stop a gap short of it, each alike in pattern
            if landed or _dashes_across(connectors, (i, e), (j, f), reach):
                cands.append((dist, p, q))
    link: dict[int, int] = {}
    for _, p, q in sorted(cands):
        i, j = ends[p][0], ends[q][0]
        if all(x not in link for x in (p, q)) and i not in link.values() and j not in link:
            link[p] = q
    if not link:
        return False
    joined: dict[int, Connector] = {}
    gone: set[int] = set()
    for p, q in link.items():
        (i, e), (j, f) = ends[p], ends[q]
        joined[i] = _join(connectors[i], e, connectors[j], f)
        gone.add(j)
    connectors[:] = [joined.get(i, c) for i, c in enumerate(connectors) if i not in gone]
    return True


def _dashes_across(connectors: list[Connector], a: tuple[int, int], b: tuple[int, int],
                   reach: float) -> bool:
    """Whether the ends of two lines of one dashed (or dotted) pattern have another
    connector passing between them (its ends at least ``reach`` apart: no arrowhead's
    remains, no icon's outline): the halves of one dashed line it crosses.  A piece
    shorter than twice ``reach`` may read as solid."""
    (i, e), (j, f) = a, b
    ci, cj = connectors[i], connectors[j]
    # a piece a few dashes long may not show its pattern (two dashes read as solid)
    styles = {c.style for c in (ci, cj) if c.length >= 2 * reach}
    if len(styles) != 1 or "solid" in styles:
        return False
    p, q = np.asarray(ci.ends[e].point, float), np.asarray(cj.ends[f].point, float)
    return any(_segments_cross(p, q, c.points) for k, c in enumerate(connectors)
               if k not in (i, j) and np.linalg.norm(c.points[-1] - c.points[0]) >= reach)


def _segments_cross(p: np.ndarray, q: np.ndarray, line: np.ndarray) -> bool:
    """Whether segment ``p``-``q`` crosses the polyline ``line`` (through a vertex too)."""
    if len(line) < 2:
        return False
    a, b = line[:-1], line[1:]

    def turn(o: np.ndarray, d: np.ndarray, pts: np.ndarray) -> np.ndarray:
        """Side of the line through ``o`` along ``d`` that each of ``pts`` lies on."""
        return np.sign(d[..., 0] * (pts[..., 1] - o[..., 1])
                       - d[..., 1] * (pts[..., 0] - o[..., 0]))

    apart = turn(a, b - a, p) * turn(a, b - a, q) < 0  # p and q either side of a piece
    return bool((apart & (turn(p, q - p, a) * turn(p, q - p, b) <= 0)).any())


def _join(a: Connector, ea: int, b: Connector, eb: int) -> Connector:
    """Connector ``a`` continued through its end ``ea`` by ``b`` from its end ``eb``."""
    pa = a.points if ea == 1 else a.points[::-1]
    pb = b.points if eb == 0 else b.points[::-1]
    first, last = a.ends[1 - ea], b.ends[1 - eb]
    la, lb = a.length, b.length
    style = a.style if la >= lb else b.style
    width = (a.width * la + b.width * lb) / max(la + lb, 1e-6)
    return Connector(points=np.vstack([pa, pb]), ends=(first, last), style=style, width=width,
                     colour=a.colour)


def mark_landings(connectors: list[Connector], tol: float) -> None:
    """Set ``on_connector`` on every end that stops on the middle of another connector
    (a T-junction): the nearest such line within ``tol`` pixels.  Lines that merely end
    next to each other are not marked."""
    from scipy.spatial import cKDTree

    if len(connectors) < 2:
        return
    pts = np.vstack([c.points for c in connectors])
    owner = np.concatenate([np.full(len(c.points), i) for i, c in enumerate(connectors)])
    # arc position of every point from the nearer end of its own line
    inner = []
    for c in connectors:
        step = np.linalg.norm(np.diff(c.points, axis=0), axis=1)
        arc = np.concatenate([[0.0], np.cumsum(step)])
        inner.append(np.minimum(arc, arc[-1] - arc))
    inner = np.concatenate(inner)
    tree = cKDTree(pts)
    for i, c in enumerate(connectors):
        for end in c.ends:
            hits = [j for j in tree.query_ball_point(end.point, tol)
                    if owner[j] != i and inner[j] > 3 * tol]
            if hits:
                d = np.linalg.norm(pts[hits] - np.asarray(end.point), axis=1)
                end.on_connector = int(owner[hits[int(np.argmin(d))]])
