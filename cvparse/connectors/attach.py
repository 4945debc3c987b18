"""Attach connector ends to the shapes they touch (or point at, across a small gap)."""

from __future__ import annotations

import cv2
import numpy as np

from ..primitives.inventory import continued_sides
from ..primitives.items import Inventory
from .lines import Connector


def shape_label_map(inv: Inventory, grow: int, phantoms: set[int] | None = None
                    ) -> np.ndarray:
    """Image of shape indices + 1 (0 = none), each shape's outer area grown by ``grow``;
    phantom shapes (``phantom_shapes``, computed unless given) are left out."""
    labels = np.zeros((inv.height, inv.width), np.int32)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1))
    if phantoms is None:
        phantoms = phantom_shapes(inv)
    order = sorted((i for i in range(len(inv.shapes)) if i not in phantoms),
                   key=lambda i: -inv.shapes[i].outer.area)
    for i in order:
        r = inv.shapes[i].outer
        x1, y1, x2, y2 = r.bbox
        m = r.filled.astype(bool)
        if grow > 0:
            m = cv2.dilate(np.pad(m, grow).astype(np.uint8), kernel).astype(bool)
        gx, gy = x1 - grow, y1 - grow
        cx1, cy1 = max(0, gx), max(0, gy)
        cx2, cy2 = min(inv.width, x2 + grow), min(inv.height, y2 + grow)
        sub = m[cy1 - gy:cy2 - gy, cx1 - gx:cx2 - gx]
        labels[cy1:cy2, cx1:cx2][sub] = i + 1
    return labels


def attach_grow(inv: Inventory) -> int:
    """How far around a shape a connector end still counts as touching it."""
    return int(round(2.5 * inv.scale.stroke)) + 4


def attach_reach(inv: Inventory) -> float:
    """How far beyond its last pixel a connector end may point at a shape."""
    return max(2.0 * inv.scale.text_height, 8 * inv.scale.stroke)


def end_target(labels: np.ndarray, point: tuple[float, float],
               direction: tuple[float, float], reach: float) -> int | None:
    """Index of the shape an end touches or points at within ``reach`` pixels, else None."""
    h, w = labels.shape
    x, y = point
    dx, dy = direction
    for t in range(int(reach) + 1):
        px, py = int(round(x + dx * t)), int(round(y + dy * t))
        if not (0 <= px < w and 0 <= py < h):
            break
        if labels[py, px]:
            return int(labels[py, px]) - 1
    return None


def landed_reach(inv: Inventory) -> float:
    """How far beyond its last pixel an end stopping on another line may point at a shape:
    a line crossing it right at a node's border cuts off its last stroke widths (the
    crossing line's width, the margin cleared round the shape, the skeleton's retreat)."""
    return 3.0 * inv.scale.stroke + 4


def attach_ends(inv: Inventory, connectors: list[Connector],
                phantoms: set[int] | None = None) -> None:
    """Set ``node`` on every connector end that touches or points at a shape nearby, and
    on ends merging into another connector (see ``merge_ends``).

    Parameters
    ----------
    inv : Inventory
        The page's shapes (ends attach to their index).
    connectors : list of Connector
        Traced lines; their ends' ``node`` and ``on_connector`` are set in place.
    phantoms : set of int, optional
        Shapes that are no nodes (:func:`phantom_shapes` by default).
    """
    labels = shape_label_map(inv, attach_grow(inv), phantoms)
    reach = attach_reach(inv)
    near = landed_reach(inv)
    for conn in connectors:
        for end in conn.ends:
            # an end stopping on another line (T-junction) points at that line, not at
            # whatever shape lies well beyond it: it attaches only to a shape right there
            end.node = end_target(labels, end.point, end.direction,
                                  near if end.on_connector is not None else reach)
    merge_ends(connectors, 3 * inv.scale.stroke + 4, 2 * inv.scale.text_height)


def merge_ends(connectors: list[Connector], span: float, run: float, cos: float = 0.9
               ) -> None:
    """Ends that run into another connector at a shallow angle share its way on.

    Curved links into (or out of) one node often converge and run on as one stroke: the
    branch that loses the junction ends on the other line, pointing along it.  Such an
    end takes the node and the marker of the other line's end it flows towards (the
    junction itself holds no head: what looks like one there is the two strokes merging).
    Both the branch and the shared stretch run on for at least ``run`` pixels: a stub
    touching a line next to its end is debris, not a merge.  Ends meeting a line across
    (T-junctions, trees of lines) keep none.
    """
    for _ in range(len(connectors)):
        changed = False
        for conn in connectors:
            for end in conn.ends:
                if end.node is not None or end.on_connector is None:
                    continue
                other = connectors[end.on_connector]
                side, shared = _flows_to(other.points, end.point, end.direction, span, cos)
                if (side is None or other.ends[side].node is None or shared < run
                        or conn.length < run):
                    continue
                end.node = other.ends[side].node
                end.marker = other.ends[side].marker
                changed = True
        if not changed:
            return


def _flows_to(points: np.ndarray, point: tuple[float, float], direction: tuple[float, float],
              span: float, cos: float) -> tuple[int | None, float]:
    """Which end of polyline ``points`` (0 or 1) a line arriving at ``point`` heading
    ``direction`` runs on towards (``None`` if it meets the polyline at a steep angle),
    and how far along the polyline that end is."""
    if len(points) < 2:
        return None, 0.0
    d = np.linalg.norm(points - np.asarray(point, np.float64), axis=1)
    k = int(np.argmin(d))
    arc = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(points, axis=0), axis=1))])
    lo = min(len(points) - 1, int(np.searchsorted(arc, arc[k] - span)))
    hi = min(len(points) - 1, int(np.searchsorted(arc, arc[k] + span)))
    t = points[hi] - points[lo]
    n = float(np.linalg.norm(t))
    if n == 0:
        return None, 0.0
    c = float(t @ np.asarray(direction, np.float64)) / n
    if c >= cos:
        return 1, float(arc[-1] - arc[k])
    if c <= -cos:
        return 0, float(arc[k])
    return None, 0.0


def _touches(inv: Inventory, i: int, j: int, gap: int) -> bool:
    """True if shape ``j``'s outer area comes within ``gap`` pixels of shape ``i``'s."""
    a, b = inv.shapes[i].outer, inv.shapes[j].outer
    x1, y1 = max(a.bbox[0] - gap, b.bbox[0]), max(a.bbox[1] - gap, b.bbox[1])
    x2, y2 = min(a.bbox[2] + gap, b.bbox[2]), min(a.bbox[3] + gap, b.bbox[3])
    if x1 >= x2 or y1 >= y2:
        return False
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * gap + 1, 2 * gap + 1))
    grown = cv2.dilate(np.pad(a.filled, gap).astype(np.uint8), kernel).astype(bool)
    ga = grown[y1 - a.bbox[1] + gap:y2 - a.bbox[1] + gap, x1 - a.bbox[0] + gap:x2 - a.bbox[0] + gap]
    gb = b.filled[y1 - b.bbox[1]:y2 - b.bbox[1], x1 - b.bbox[0]:x2 - b.bbox[0]]
    return bool((ga & gb).any())


def _between(centre: np.ndarray, i: int, others: list[int]) -> bool:
    """True if two of ``others`` lie on opposite sides of ``i`` (centre to centre)."""
    v = centre[others] - centre[i]
    return bool(len(others) >= 2 and ((v @ v.T) < 0).any())


GAP_SIDES = 3
"""A "shape" with this many sides running on past its corners is a gap closed off by
lines, not a node: a node's border stops at its corners."""


def _grid_cells(b: np.ndarray, tol: float) -> set[int]:
    """Boxes (rows ``x1, y1, x2, y2``) that share a whole side with another box, within
    ``tol``: the cells of a table or the compartments of a class box.  Their sides run on
    past their corners as the borders of the cells beside them, which makes no gap."""
    if len(b) < 2:
        return set()
    x1, y1, x2, y2 = (b[:, k] for k in range(4))

    def close(u, v):
        return np.abs(u[:, None] - v[None]) <= tol

    same_rows = close(y1, y1) & close(y2, y2)
    same_cols = close(x1, x1) & close(x2, x2)
    side = ((same_rows & (close(x2, x1) | close(x1, x2)))
            | (same_cols & (close(y2, y1) | close(y1, y2))))
    np.fill_diagonal(side, False)
    return {int(k) for k in np.flatnonzero(side.any(axis=1))}


def phantom_shapes(inv: Inventory) -> set[int]:
    """Indices of the shapes that are closed areas but no nodes (:func:`_phantom_shapes`),
    computed once per inventory; the set returned is the caller's own."""
    return set(inv.facts.get("phantom_shapes", lambda: _phantom_shapes(inv)))


def _phantom_shapes(inv: Inventory) -> set[int]:
    """Closed areas that are not nodes: they partly overlap several shapes (or hold one),
    or three of their sides are lines that run on past their corners (``GAP_SIDES``)
    and they are no cell of a grid (:func:`_grid_cells`).

    Curved connectors running between nodes close off regions that look like big empty
    shapes (and group frames hold whole sub-diagrams); real nodes neither hold another
    shape well clear of their border nor partly overlap other nodes.  Their borders are
    connectors, so they are neither cut out of the connector mask nor attached to.  The
    worst offender goes first, so a real node overlapped by a phantom is not flagged.
    Compartments stacked in one box (UML classes) count neither as held nor overlapping.
    An unlabelled area squeezed between two nodes on opposite sides (two lines joining
    them both ways) is a phantom too.
    """
    n = len(inv.shapes)
    # bounded on three sides or more by lines running on past its corners: a gap
    # closed off by connectors and a frame's side (see ``continued_sides``)
    b = np.array([s.bbox for s in inv.shapes], np.float64).reshape(-1, 4)
    margin = 2 * inv.scale.stroke + 2
    cells = _grid_cells(b, margin)
    gaps = {k for k, s in enumerate(inv.shapes) if inv.ink is not None and k not in cells
            and continued_sides(s, inv.ink, inv.scale) >= GAP_SIDES}
    if n < 2:
        return gaps
    tol = inv.scale.stroke
    x1, y1, x2, y2 = (b[:, k] for k in range(4))
    area = np.maximum((x2 - x1) * (y2 - y1), 1)
    iw = np.minimum(x2[:, None], x2[None]) - np.maximum(x1[:, None], x1[None])
    ih = np.minimum(y2[:, None], y2[None]) - np.maximum(y1[:, None], y1[None])
    inter = np.where((iw > 0) & (ih > 0), iw * ih, 0.0)
    overlap = inter / np.minimum(area[:, None], area[None])
    holds = ((x1[None] - x1[:, None] >= margin) & (y1[None] - y1[:, None] >= margin)
             & (x2[:, None] - x2[None] >= margin) & (y2[:, None] - y2[None] >= margin))
    stacked = (((np.abs(x1[:, None] - x1[None]) <= tol) & (np.abs(x2[:, None] - x2[None]) <= tol))
               | ((np.abs(y1[:, None] - y1[None]) <= tol)
                  & (np.abs(y2[:, None] - y2[None]) <= tol)))
    partial = (overlap > 0.15) & (overlap < 0.9) & ~stacked
    near = ((np.minimum(x2[:, None], x2[None] + margin)
             > np.maximum(x1[:, None], x1[None] - margin))
            & (np.minimum(y2[:, None], y2[None] + margin)
               > np.maximum(y1[:, None], y1[None] - margin)))
    np.fill_diagonal(holds, False)
    np.fill_diagonal(partial, False)
    np.fill_diagonal(near, False)
    centre = np.stack([(x1 + x2) / 2, (y1 + y2) / 2], 1)
    unlabelled = np.array([not s.label.strip() for s in inv.shapes])
    live = np.ones(n, bool)
    flagged: set[int] = set(gaps)
    live[list(gaps)] = False
    while True:
        held = (holds & live[None]).sum(1)
        part = (partial & live[None]).sum(1)
        score = np.where((part >= 2) | ((held > 0) & (part > 0)), 2 * held + part, 0)
        score[~live] = 0
        if not score.any():
            squeezed = [i for i in np.flatnonzero(live & unlabelled
                                                  & ((near & live[None]).sum(1) >= 2))
                        if _between(centre, i, [int(j) for j in np.flatnonzero(near[i] & live)
                                                if _touches(inv, int(i), int(j), int(margin))])]
            if not squeezed:
                return flagged
            best = int(squeezed[0])
        else:
            best = int(np.argmax(score))
        flagged.add(best)
        live[best] = False
