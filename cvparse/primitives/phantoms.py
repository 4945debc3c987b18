"""Phantom shapes: closed areas perception finds that are no nodes.

Lines crossing or running side by side close off areas that look like shapes (curves
between nodes, two lines and a frame's side), and a group frame holds whole nodes.  They
are neither cut out of the ink lines are traced in nor attached to, and no assembler
takes them for nodes.  Which shapes they are follows from the shapes and the ink alone,
so it is a fact of the inventory, found once (:func:`phantom_shapes`) and read by the
connector stage and the assemblers.
"""

from __future__ import annotations

import cv2
import numpy as np

from .inventory import continued_sides
from .items import Inventory


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


def sides_run_on(inv: Inventory) -> list[int]:
    """For every shape, how many sides of its box are lines running on past its corners
    (:func:`~cvparse.primitives.inventory.continued_sides`, in the inventory's ink; none
    without ink).  Found once per inventory (its fact ``sides_run_on``): the phantoms and
    the topology assembler's gaps between crossing lines read it."""
    if inv.ink is None:
        return [0] * len(inv.shapes)
    ink = inv.ink
    return list(inv.facts.get("sides_run_on", lambda: [
        continued_sides(s, ink, inv.scale) for s in inv.shapes]))


def phantom_shapes(inv: Inventory) -> set[int]:
    """Indices of the shapes that are closed areas but no nodes (:func:`_phantom_shapes`),
    computed once per inventory; the set returned is the caller's own."""
    return set(inv.facts.get("phantom_shapes", lambda: _phantom_shapes(inv)))


def _phantom_shapes(inv: Inventory) -> set[int]:
    """Closed areas that are not nodes: they partly overlap several shapes (or hold one),
    or three of their sides are lines that run on past their corners (``GAP_SIDES``).

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
    gaps = {k for k, runs in enumerate(sides_run_on(inv)) if runs >= GAP_SIDES}
    if n < 2:
        return gaps
    b = np.array([s.bbox for s in inv.shapes], np.float64)
    margin = 2 * inv.scale.stroke + 2
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
                        if _between(centre, int(i), [int(j) for j in np.flatnonzero(near[i] & live)
                                                if _touches(inv, int(i), int(j), int(margin))])]
            if not squeezed:
                return flagged
            best = int(squeezed[0])
        else:
            best = int(np.argmax(score))
        flagged.add(best)
        live[best] = False


def squeezed_between(inv: Inventory, nodes: list[tuple[int, int, int, int]]) -> set[int]:
    """Shapes squeezed between two of ``nodes`` (rectangles ``x1, y1, x2, y2``) on
    opposite sides, touching both, labelled or not.

    Where the nodes of a page are known apart from its shapes (UML class boxes), a closed
    area that reaches from one node to another is no node: two lines drawn between the
    same pair of nodes that bow apart close it off (two roles of one association), and the
    role names written beside them are its "label".  A shape lying within a node (a
    compartment, a badge) or holding one is left alone.
    """
    margin = 2 * inv.scale.stroke + 2
    rects = np.array(nodes, np.float64).reshape(-1, 4)
    if len(rects) < 2:
        return set()
    centres = np.stack([(rects[:, 0] + rects[:, 2]) / 2, (rects[:, 1] + rects[:, 3]) / 2], 1)
    out = set()
    for k, s in enumerate(inv.shapes):
        x1, y1, x2, y2 = (float(v) for v in s.bbox)
        within = ((rects[:, 0] - margin <= x1) & (rects[:, 1] - margin <= y1)
                  & (rects[:, 2] + margin >= x2) & (rects[:, 3] + margin >= y2))
        holds = ((x1 - margin <= rects[:, 0]) & (y1 - margin <= rects[:, 1])
                 & (x2 + margin >= rects[:, 2]) & (y2 + margin >= rects[:, 3]))
        if within.any() or holds.any():
            continue
        gap_x = np.maximum(np.maximum(rects[:, 0] - x2, x1 - rects[:, 2]), 0.0)
        gap_y = np.maximum(np.maximum(rects[:, 1] - y2, y1 - rects[:, 3]), 0.0)
        touching = np.flatnonzero(np.hypot(gap_x, gap_y) <= margin)
        here = np.vstack([[(x1 + x2) / 2, (y1 + y2) / 2], centres[touching]])
        if _between(here, 0, list(range(1, len(here)))):
            out.add(k)
    return out
