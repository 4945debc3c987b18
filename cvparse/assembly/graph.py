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


def _inside_shape(inv: Inventory, box) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(s.bbox[0] <= cx <= s.bbox[2] and s.bbox[1] <= cy <= s.bbox[3]
               for s in inv.shapes)


def _stack_lines(items: list[tuple[str, list[int]]], th: float) -> list[tuple[str, list[int]]]:
    """Merge free text lines stacked under each other into one multi-line label."""
    items = sorted(items, key=lambda t: (t[1][1], t[1][0]))
    out: list[tuple[str, list[int]]] = []
    for text, box in items:
        for k, (t0, b0) in enumerate(out):
            cx, cx0 = (box[0] + box[2]) / 2, (b0[0] + b0[2]) / 2
            width = max(box[2] - box[0], b0[2] - b0[0])
            if 0 <= box[1] - b0[3] <= 0.8 * th and abs(cx - cx0) <= 0.35 * width:
                out[k] = (f"{t0} {text}", [min(b0[0], box[0]), b0[1], max(b0[2], box[2]),
                                           box[3]])
                break
        else:
            out.append((text, list(box)))
    return out


def _label_below(box, labels: list[tuple[str, list[int]]], th: float) -> int | None:
    """Index of the free label right under ``box`` (an icon drawn as a closed shape)."""
    cx = (box[0] + box[2]) / 2
    for k, (_, (x1, y1, x2, y2)) in enumerate(labels):
        if x1 - th <= cx <= x2 + th and 0 <= y1 - box[3] <= 1.5 * th:
            return k
    return None


def icon_nodes(inv: Inventory) -> tuple[list[tuple[str, list[int]]], dict[int, str]]:
    """Labelled icons: a free text label with a drawing right above it (network devices,
    species pictures).  Returns ``(label, bbox)`` per icon, the bbox around icon and label,
    and labels for unlabelled shapes that are such an icon's drawing."""
    th = inv.scale.text_height
    labels = _stack_lines([(t.text, list(t.bbox)) for t in inv.texts
                           if not _inside_shape(inv, t.bbox)], th)
    shape_labels: dict[int, str] = {}
    for i, s in enumerate(inv.shapes):
        if not s.label.strip():
            k = _label_below(s.bbox, labels, th)
            if k is not None:
                shape_labels[i] = labels.pop(k)[0]
    ink = inv.ink if inv.text_mask is None else inv.ink & ~inv.text_mask
    out = []
    for text, (x1, y1, x2, y2) in labels:
        cx = (x1 + x2) / 2
        half = max((x2 - x1) / 2, 1.5 * th)
        wx1, wx2 = int(max(0, cx - half)), int(min(inv.width, cx + half))
        wy1, wy2 = int(max(0, y1 - 4 * th)), int(max(0, y1 - 1))
        window = ink[wy1:wy2, wx1:wx2]
        if window.size == 0 or window.mean() < 0.04:
            continue
        ys, xs = np.nonzero(window)
        out.append((text, [min(x1, wx1 + int(xs.min())), wy1 + int(ys.min()),
                           max(x2, wx1 + int(xs.max())), y2]))
    return out, shape_labels


def _attach_to_boxes(connectors: list[Connector], boxes: list[list[int]], first: int,
                     grow: float, reach: float) -> None:
    """Attach still-free connector ends to node boxes they touch or point at."""
    for c in connectors:
        for end in c.ends:
            if end.node is not None:
                continue
            x, y = end.point
            dx, dy = end.direction
            for t in range(int(reach) + 1):
                px, py = x + dx * t, y + dy * t
                hit = next((k for k, b in enumerate(boxes) if b[0] - grow <= px <= b[2] + grow
                            and b[1] - grow <= py <= b[3] + grow), None)
                if hit is not None:
                    end.node = first + hit
                    break


def assemble_graph(inv: Inventory, connectors: list[Connector], kind: str = "flowchart"
                   ) -> Graph:
    """A graph document with one node per shape (and, for topology diagrams, per labelled
    icon) and one edge per connector joining two of them."""
    nodes = []
    boxes = []
    for i, s in enumerate(inv.shapes):
        nodes.append(Node(id=f"n{i + 1}", label=s.label, shape=s.kind,
                          bbox=[int(v) for v in s.bbox],
                          extra={"double": True} if s.double else {}))
        boxes.append(list(s.bbox))
    if kind == "topology":
        icons, shape_labels = icon_nodes(inv)
        for i, text in shape_labels.items():
            nodes[i].label, nodes[i].shape = text, "icon"
        for text, box in icons:
            nodes.append(Node(id=f"n{len(nodes) + 1}", label=text, shape="icon", bbox=box))
        _attach_to_boxes(connectors, [b for _, b in icons], len(boxes),
                         2 * inv.scale.stroke + 4, 2 * inv.scale.text_height)
        boxes.extend(b for _, b in icons)
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
        if a == b and not _leaves_node(c, boxes[a], inv.scale.text_height):
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
    if kind == "flowchart":
        # A flowchart box with no text and no connector is a gap between lines, not a step.
        used = {e.source for e in edges} | {e.target for e in edges}
        nodes = [n for n in nodes if n.label.strip() or n.id in used]
    extra = {"dangling_connectors": dangling} if dangling else {}
    return Graph(kind=kind, width=inv.width, height=inv.height, nodes=nodes, edges=edges,
                 extra=extra)
