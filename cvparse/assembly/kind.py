"""Pick the diagram family from what perception found, and run that family's assembler.

The guess reads the notation, not the words: Chen ER mixes relationship diamonds with
attribute ellipses or draws IS-A triangles; Silberschatz and schema-style ER draw tables
(boxes split into one row per attribute) joined through diamonds or cardinality text;
UML draws class boxes with at most three compartments; topology diagrams label icons from
below and join nodes with straight lines at any angle, where flowchart renderers route
smooth curves or orthogonal lines between rows of nodes.
"""

from __future__ import annotations

import cv2
import numpy as np
from scipy import ndimage

from ..connectors.elements import Connector
from ..model import Document
from ..primitives.elements import Inventory

BIG_SYMBOL = 3.0
"""An ER diamond or IS-A triangle is at least this many text heights wide (UML end
markers, which are closed shapes too, are about one)."""
TABLE_ROWS = 4
"""A box cut into this many compartments or more is a table (UML classes have <= 3)."""
STRAIGHT_SHARE = 0.7
"""Topology: at least this share of the connectors are straight segments end to end."""
DIAGONAL_SHARE = 0.3
"""... and this share run at angles an orthogonal router would not draw, or"""
ONE_WAY = 0.85
"""... fewer than this share of the arrows run the same way (a layered flowchart)."""


def _big(inv: Inventory, kind: str, labelled: bool = False) -> int:
    """Shapes of ``kind`` big enough to be a node (not a line-end marker), optionally
    only those with a label."""
    th = inv.scale.text_height
    return sum(s.kind == kind and s.bbox[2] - s.bbox[0] >= BIG_SYMBOL * th
               and (not labelled or any(ch.isalnum() for ch in s.label)) for s in inv.shapes)


def _holds_text(inv: Inventory, bbox) -> bool:
    """A class box or table has text inside (a drawn icon split by lines has none)."""
    if inv.text_mask is None:
        return True
    x1, y1, x2, y2 = (int(v) for v in bbox)
    return bool(inv.text_mask[y1:y2 + 1, x1:x2 + 1].any())


def guess_kind(inv: Inventory) -> str:
    """``er``, ``uml``, ``topology`` (labelled icons) or ``flowchart`` (any other node-link
    diagram, which :func:`graph_kind` settles once connectors are traced)."""
    from .uml import class_boxes

    kinds = [s.kind for s in inv.shapes]
    n = max(len(kinds), 1)
    ellipses = sum(k in ("ellipse", "circle") for k in kinds)
    diamonds = sum(k == "diamond" for k in kinds)
    if ellipses >= 3 and diamonds >= 1 and ellipses / n >= 0.25:
        return "er"
    if _icon_labels(inv) >= 2:
        return "topology"
    triangles = _big(inv, "triangle")
    boxes = [b for b in class_boxes(inv) if _holds_text(inv, b.bbox)]
    split = [b for b in boxes if len(b.compartments) >= 2]
    if triangles and (len(inv.shapes) - triangles >= 2 or split):
        return "er"
    if split and len(split) >= max(1, len(boxes) // 2):
        tables = sum(len(b.compartments) >= TABLE_ROWS for b in split)
        if tables * 2 > len(split) or _big(inv, "diamond", labelled=True):
            return "er"
        return "uml"
    return "flowchart"


def _icon_labels(inv: Inventory) -> int:
    """Free text lines with a compact drawing (an icon) or an empty shape right above them."""
    if inv.ink is None or not inv.texts:
        return 0
    th = inv.scale.text_height
    ink = inv.ink.copy()
    if inv.text_mask is not None:
        ink &= ~inv.text_mask
    for s in inv.shapes:
        x1, y1, x2, y2 = s.bbox
        ink[y1:y2 + 1, x1:x2 + 1] = False
    k = 2 * int(round(inv.scale.stroke)) + 1  # opening drops lines, keeps solid drawings
    ink = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN,
                           cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    lab, _ = ndimage.label(ink, np.ones((3, 3), bool))
    boxes = ndimage.find_objects(lab)
    sizes = np.bincount(lab.ravel())
    blank = [s.bbox for s in inv.shapes if not any(ch.isalnum() for ch in s.label)]
    count = 0
    for t in inv.texts:
        x1, y1, x2, y2 = t.bbox
        if any(0 <= y1 - b[3] <= 1.5 * th and b[0] <= (x1 + x2) / 2 <= b[2] for b in blank):
            count += 1  # an icon drawn as a closed outline, found as an empty shape
            continue
        ids = np.unique(lab[max(0, int(y1 - 1.5 * th)):y1, x1:x2 + 1])
        for i in ids[ids > 0]:
            ys, xs = boxes[i - 1]
            h, w = ys.stop - ys.start, xs.stop - xs.start
            if min(w, h) >= 1.2 * th and max(w, h) <= 8 * th and sizes[i] >= 0.25 * w * h:
                count += 1
                break
    return count


def _straight(conn: Connector, stroke: float, th: float) -> tuple[bool, bool]:
    """``(straight, diagonal)``: the connector is made of long straight segments, and its
    longest segment runs at an angle no orthogonal router would draw."""
    pts = conn.points.astype(np.float32).reshape(-1, 1, 2)
    poly = cv2.approxPolyDP(pts, max(1.5, stroke), False).reshape(-1, 2)
    d = np.diff(poly, axis=0)
    seg = np.hypot(d[:, 0], d[:, 1])
    if not seg.size or seg[seg > 2 * th].sum() < 0.85 * max(seg.sum(), 1e-6):
        return False, False
    dx, dy = np.abs(d[int(np.argmax(seg))])
    angle = np.degrees(np.arctan2(dy, dx))
    return True, bool(12 <= angle <= 78)


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


def graph_kind(inv: Inventory, connectors: list[Connector]) -> str:
    """``topology`` or ``flowchart`` for a node-link diagram without labelled icons
    (:func:`guess_kind` has ruled those out).

    Straight lines at any angle (force or hand layouts) mean topology, and curved lines
    (flowchart renderers route splines) mean flowchart; straight orthogonal lines mean
    flowchart only when the arrows run one way, as in a layered chart.
    """
    th = inv.scale.text_height
    long = [c for c in connectors if c.length >= 3 * th]
    if len(long) < 3:
        return "flowchart"
    kinds = [_straight(c, inv.scale.stroke, th) for c in long]
    straight = sum(k[0] for k in kinds) / len(long)
    diagonal = sum(k[1] for k in kinds) / len(long)
    if straight < STRAIGHT_SHARE:
        return "flowchart"
    n, share = _flow(long)
    if diagonal < DIAGONAL_SHARE and n >= 3 and share >= ONE_WAY:
        return "flowchart"
    return "topology"


def assemble(kind: str, inv: Inventory, connectors: list[Connector]) -> Document:
    """The document of family ``kind`` built from the primitives."""
    if kind == "er":
        from .er import assemble_er

        return assemble_er(inv, connectors)
    if kind == "uml":
        from .uml import assemble_uml

        return assemble_uml(inv, connectors)
    from .graph import assemble_graph

    return assemble_graph(inv, connectors, "topology" if kind == "topology" else "flowchart")
