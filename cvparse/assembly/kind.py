"""Settle a node-link diagram's family once its lines are traced, and run the family's
assembler.

The first guess, from the shapes alone, is :func:`cvparse.primitives.family.guess_kind`.
Topology diagrams join nodes with straight lines at any angle, where flowchart renderers
route smooth curves or orthogonal lines between rows of nodes.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..connectors.lines import Connector
from ..model import Document
from ..params import FamilyParams, Params
from ..primitives.items import Inventory
from ..vocabulary import Family


def _polyline(conn: Connector, tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """Segment vectors and signed turns (degrees) of the connector's path simplified to
    within ``tolerance`` pixels."""
    pts = conn.points.astype(np.float32).reshape(-1, 1, 2)
    poly = cv2.approxPolyDP(pts, tolerance, False).reshape(-1, 2)
    d = np.diff(poly, axis=0).astype(float)
    angles = np.degrees(np.arctan2(d[:, 1], d[:, 0]))
    return d, (np.diff(angles) + 180) % 360 - 180


def _curved(conn: Connector, stroke: float) -> bool:
    """A spline: three or more gentle turns in a row bending the same way, 25 degrees or
    more in all (a bent polyline turns once and sharply)."""
    _, turns = _polyline(conn, max(1.0, 0.5 * stroke))
    run, total = 0, 0.0
    for i, t in enumerate(turns):
        if 3 <= abs(t) <= 35:
            same = run and np.sign(t) == np.sign(turns[i - 1])
            run, total = (run + 1, total + abs(t)) if same else (1, abs(t))
            if run >= 3 and total >= 25:
                return True
        else:
            run, total = 0, 0.0
    return False


def _straight(conn: Connector, stroke: float, th: float) -> tuple[bool, bool, bool]:
    """``(straight, diagonal, square)``: the connector is made of long straight segments,
    its longest segment runs at an angle no orthogonal router would draw, and it turns
    through a right angle without any gentle (spline) turn."""
    d, turns = _polyline(conn, max(1.5, stroke))
    seg = np.hypot(d[:, 0], d[:, 1])
    square = bool(len(turns)) and bool(((np.abs(turns) > 60) & (np.abs(turns) < 120)).any()) \
        and float(np.abs(turns)[(np.abs(turns) >= 6) & (np.abs(turns) <= 50)].sum()) < 20
    if not seg.size or seg[seg > 2 * th].sum() < 0.85 * max(seg.sum(), 1e-6):
        return False, False, square
    dx, dy = np.abs(d[int(np.argmax(seg))])
    angle = np.degrees(np.arctan2(dy, dx))
    return True, bool(12 <= angle <= 78), square


def _flow(connectors: list[Connector]) -> tuple[int, float]:
    """Directed connectors between two nodes, and the share of them running the same
    way (down, up, left or right): layered flowcharts point mostly one way."""
    moves = []
    for c in connectors:
        heads = [e.marker != "none" for e in c.ends]
        if heads[0] == heads[1] or any(e.node is None for e in c.ends):
            continue
        tail, head = (c.ends[1], c.ends[0]) if heads[0] else (c.ends[0], c.ends[1])
        v = np.subtract(head.point, tail.point)
        moves.append(v / max(float(np.hypot(*v)), 1e-6))
    if not moves:
        return 0, 0.0
    m = np.array(moves)
    share = max(float((m @ np.array(u) > 0.3).mean())
                for u in ((0, 1), (0, -1), (1, 0), (-1, 0)))
    return len(moves), share


def graph_kind(inv: Inventory, connectors: list[Connector],
               params: FamilyParams | None = None) -> Family:
    """``topology`` or ``flowchart`` for a node-link diagram without labelled icons
    (:func:`~cvparse.primitives.family.guess_kind` has ruled those out).

    Splines (flowchart renderers route smooth curves) mean flowchart; right-angle routing
    and straight lines at any angle (force or hand layouts) mean topology; straight
    axis-parallel lines mean flowchart only when the arrows run one way, as in a layered
    chart.

    Parameters
    ----------
    inv : Inventory
        The page's shapes and text (its scale sets what counts as long).
    connectors : list of Connector
        Its traced lines, ends read and attached.
    params : FamilyParams, optional
        The thresholds (the defaults of :class:`cvparse.params.FamilyParams`).

    Returns
    -------
    str
        ``topology`` or ``flowchart``.
    """
    p = params or FamilyParams()
    th = inv.scale.text_height
    long = [c for c in connectors if c.length >= 3 * th]
    if len(long) < 3:
        return "flowchart"
    spans = [c for c in connectors if c.length >= 2 * th]
    if sum(_curved(c, inv.scale.stroke) for c in spans) >= p.curved_share * len(spans):
        return "flowchart"
    kinds = [_straight(c, inv.scale.stroke, th) for c in long]
    straight, diagonal, square = (sum(k[i] for k in kinds) / len(long) for i in range(3))
    if straight >= 0.5 and square >= p.square_share:
        return "topology"
    if straight < p.straight_share:
        return "flowchart"
    n, share = _flow(long)
    if diagonal < p.diagonal_share and n >= 3 and share >= p.one_way:
        return "flowchart"
    return "topology"


def assemble(kind: str, inv: Inventory, connectors: list[Connector], *,
             params: Params | None = None) -> Document:
    """The document of family ``kind`` built from the primitives.

    Parameters
    ----------
    kind : {"flowchart", "topology", "er", "uml"}
        The family to assemble.
    inv : Inventory
        The page's shapes and text.
    connectors : list of Connector
        Its lines, ends read and attached (:func:`cvparse.connectors.stage.build`).
    params : Params, optional
        The assemblers' tunables (:mod:`cvparse.params`; the defaults if omitted).

    Returns
    -------
    Graph, ERSchema or UMLModel
        The family's document, in page pixels where it keeps boxes.
    """
    if kind == "er":
        from .er import assemble_er

        return assemble_er(inv, connectors)
    if kind == "uml":
        from .uml import assemble_uml

        return assemble_uml(inv, connectors)
    from .graph import assemble_graph

    return assemble_graph(inv, connectors, "topology" if kind == "topology" else "flowchart",
                          params=(params or Params()).graph)
