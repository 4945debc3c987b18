"""Attach connector ends to the shapes they touch (or point at, across a small gap).

Shapes that are closed areas but no nodes are never attached to; perception finds them
(:func:`~cvparse.primitives.phantoms.phantom_shapes`, named here too)."""

from __future__ import annotations

import cv2
import numpy as np

from ..primitives.items import Inventory
from ..primitives.phantoms import GAP_SIDES, phantom_shapes
from .lines import Connector

__all__ = ["GAP_SIDES", "attach_ends", "attach_grow", "attach_reach", "end_target",
           "landed_reach", "merge_ends", "phantom_shapes", "shape_label_map"]


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
                phantoms: set[int] | None = None, close_nodes: bool = False) -> None:
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
    close_nodes : bool
        Curves into one node may merge only a few strokes before it (a flowchart's):
        a merge's shared stretch need be no longer than ``span`` (``merge_ends``).
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
    span = 3 * inv.scale.stroke + 4
    run = 2 * inv.scale.text_height
    merge_ends(connectors, span, run, shared=span if close_nodes else run)


def merge_ends(connectors: list[Connector], span: float, run: float, cos: float = 0.9,
               shared: float | None = None) -> None:
    """Ends that run into another connector at a shallow angle share its way on.

    Curved links into (or out of) one node often converge and run on as one stroke: the
    branch that loses the junction ends on the other line, pointing along it.  Such an
    end takes the node and the marker of the other line's end it flows towards (the
    junction itself holds no head: what looks like one there is the two strokes merging).
    The branch runs for at least ``run`` pixels (a stub touching a line is debris, not a
    merge), and the shared stretch for at least ``shared`` (``run`` unless given): curves
    converging on one flowchart node's port may meet only a few strokes before it.
    Ends meeting a line across (T-junctions, trees of lines) keep none.
    """
    least = run if shared is None else shared
    for _ in range(len(connectors)):
        changed = False
        for conn in connectors:
            for end in conn.ends:
                if end.node is not None or end.on_connector is None:
                    continue
                other = connectors[end.on_connector]
                side, along = _flows_to(other.points, end.point, end.direction, span, cos)
                if (side is None or other.ends[side].node is None or along < least
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

