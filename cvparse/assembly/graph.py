"""Node-link assembler (flowcharts and topology diagrams): shapes + connectors -> Graph."""

from __future__ import annotations

import numpy as np

from ..connectors.elements import Connector
from ..model import Edge, Graph, Node
from ..primitives.elements import Inventory

BOLD_RATIO = 1.5
"""A connector this much wider than the median connector is drawn bold."""


def _direction(conn: Connector) -> tuple[int, int, bool] | None:
    """``(source_end, target_end, directed)`` from the end markers."""
    heads = [e.marker != "none" for e in conn.ends]
    if heads[1] and not heads[0]:
        return 0, 1, True
    if heads[0] and not heads[1]:
        return 1, 0, True
    return 0, 1, False


def _leaves_node(conn: Connector, bbox, text_height: float) -> bool:
    """True if a connector whose ends both touch one node really loops away from it."""
    x1, y1, x2, y2 = bbox
    px, py = conn.points[:, 0], conn.points[:, 1]
    dx = np.maximum(np.maximum(x1 - px, px - x2), 0)
    dy = np.maximum(np.maximum(y1 - py, py - y2), 0)
    return float(np.hypot(dx, dy).max()) > 1.5 * text_height


def assemble_graph(inv: Inventory, connectors: list[Connector], kind: str = "flowchart"
                   ) -> Graph:
    """A graph document with one node per shape and one edge per connector joining two."""
    nodes = []
    for i, s in enumerate(inv.shapes):
        nodes.append(Node(id=f"n{i + 1}", label=s.label, shape=s.kind,
                          bbox=[int(v) for v in s.bbox],
                          extra={"double": True} if s.double else {}))
    widths = [c.width for c in connectors if c.ends[0].node is not None
              and c.ends[1].node is not None]
    typical = float(np.median(widths)) if widths else 0.0
    edges = []
    dangling = 0
    for c in connectors:
        a, b = c.ends[0].node, c.ends[1].node
        if a is None or b is None:
            dangling += 1
            continue
        if a == b and not _leaves_node(c, inv.shapes[a].bbox, inv.scale.text_height):
            continue
        src_end, dst_end, directed = _direction(c)
        style = c.style
        if style == "solid" and typical and c.width >= BOLD_RATIO * typical:
            style = "bold"
        src, dst = c.ends[src_end].node, c.ends[dst_end].node
        edges.append(Edge(source=f"n{src + 1}", target=f"n{dst + 1}", directed=directed,
                          style=style,
                          extra={"points": [[round(float(x), 1), round(float(y), 1)]
                                            for x, y in c.points[:: max(1, len(c.points) // 20)]],
                                 "heads": [c.ends[src_end].marker, c.ends[dst_end].marker]}))
    extra = {"dangling_connectors": dangling} if dangling else {}
    return Graph(kind=kind, width=inv.width, height=inv.height, nodes=nodes, edges=edges,
                 extra=extra)
