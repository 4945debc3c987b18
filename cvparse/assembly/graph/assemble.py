"""Node-link assembler (flowcharts and topology diagrams): shapes + connectors -> Graph."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from skimage.morphology import skeletonize

from ...arrays import under
from ...boxes import point_gaps
from ...connectors.atnodes import cut_at_nodes, probe_to_nodes
from ...connectors.attach import GAP_SIDES, attach_reach, phantom_shapes
from ...connectors.lines import Connector, End
from ...model import Edge, Graph, Node
from ...params import GraphParams
from ...primitives.clusters import cluster_borders, clusters_of
from ...primitives.freetext import wrapped_tail
from ...primitives.items import Inventory, Shape
from ...primitives.phantoms import sides_run_on
from ...primitives.strokes import inked_along
from .discs import disc_ends
from .iconlabels import reread_labels
from .identifiers import small_ell
from .legend import edge_type, find_legends
from .linedrawn import line_drawn
from .throughlabels import bridged_through
from .twins import twin_lines

BOLD_RATIO = 1.5
"""A connector this much wider than the median connector is drawn bold."""


WORD_LETTERS = 3
"""A free read of at least this many letters or digits is a word whatever its height."""


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
    return float(point_gaps(conn.points, bbox).max()) > 1.5 * text_height


def _inside_shape(inv: Inventory, box) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(s.bbox[0] <= cx <= s.bbox[2] and s.bbox[1] <= cy <= s.bbox[3]
               for s in inv.shapes)


def _join_line_words(items: list[tuple[str, list[int]]], th: float
                     ) -> list[tuple[str, list[int]]]:
    """Merge free words side by side on one text line (a word gap, not a column gap)."""
    items = sorted(items, key=lambda t: t[1][0])
    out: list[tuple[str, list[int]]] = []
    for text, box in items:
        for k, (t0, b0) in enumerate(out):
            overlap = min(box[3], b0[3]) - max(box[1], b0[1])
            gap = box[0] - b0[2]
            if overlap >= 0.5 * min(box[3] - box[1], b0[3] - b0[1]) and -2 <= gap <= 0.8 * th:
                out[k] = (f"{t0} {text}", [b0[0], min(b0[1], box[1]), box[2],
                                           max(b0[3], box[3])])
                break
        else:
            out.append((text, list(box)))
    return out


def _stack_lines(items: list[tuple[str, list[int]]], th: float) -> list[tuple[str, list[int]]]:
    """Merge free text lines stacked under each other into one multi-line label."""
    items = sorted(items, key=lambda t: (t[1][1], t[1][0]))
    out: list[tuple[str, list[int]]] = []
    for text, box in items:
        for k, (t0, b0) in enumerate(out):
            cx, cx0 = (box[0] + box[2]) / 2, (b0[0] + b0[2]) / 2
            width = max(box[2] - box[0], b0[2] - b0[0])
            lone = _alnum(t0) <= 1 < _alnum(text)  # a letter-like speck above a label
            if 0 <= box[1] - b0[3] <= 0.8 * th and abs(cx - cx0) <= 0.35 * width and not lone:
                out[k] = (f"{t0} {text}", [min(b0[0], box[0]), b0[1], max(b0[2], box[2]),
                                           box[3]])
                break
        else:
            out.append((text, list(box)))
    return out


def _alnum(text: str) -> int:
    return sum(ch.isalnum() for ch in text)


def _drawing_above(ink: np.ndarray, box: list[int], th: float, stroke: float,
                   pieces: np.ndarray | None = None, lines: np.ndarray | None = None
                   ) -> list[int] | None:
    """Box of the drawing right above a free label (an icon), or ``None`` if there is
    hardly any ink there, or only a line running across (``lines``: the thin straight
    horizontal runs of the page; a connector passing over a label, a cluster's border
    above its title).  With ``pieces``, the drawing is grown to the whole icon
    (:func:`_whole_icon`).

    The drawing is the ink in a window up to four text heights above the label, grown to
    the whole of every icon-sized piece of ink that reaches into the window; a thin piece
    running on out of the region looked at is a connector passing by, not a piece.
    """
    x1, y1, x2, y2 = box
    h, w = ink.shape
    cx = (x1 + x2) / 2
    half = max((x2 - x1) / 2, 1.5 * th)
    wx1, wx2 = int(max(0, cx - half)), int(min(w, cx + half))
    wy1, wy2 = int(max(0, y1 - 4 * th)), int(max(0, y1 - 1))
    window = ink[wy1:wy2, wx1:wx2]
    if window.size == 0 or not window.any():
        return None
    if lines is not None:
        run = lines[wy1:wy2, wx1:wx2]
        if not (window & ~run).any() and run[:, 0].any() and run[:, -1].any():
            return None  # a line running across the window and nothing else
    m = int(round(2 * th))
    rx1, ry1, rx2, ry2 = max(0, wx1 - m), max(0, wy1 - m), min(w, wx2 + m), wy2
    n, labels, stats, _ = cv2.connectedComponentsWithStats(
        ink[ry1:ry2, rx1:rx2].astype(np.uint8), 8)
    inside = np.unique(labels[wy1 - ry1:wy2 - ry1, wx1 - rx1:wx2 - rx1])
    passing = set()
    win = (wx1 - rx1, wy1 - ry1, wx2 - rx1, wy2 - ry1)
    for i in inside[inside > 0]:
        bx, by, bw, bh, area = stats[i]
        # A thin piece running off the region's edge is a connector passing by.
        cut = ((bx == 0 and rx1 > 0) or (by == 0 and ry1 > 0)
               or (bx + bw == rx2 - rx1 and rx2 < w))
        if cut and (area <= 1.5 * stroke * (bw + bh)
                    or _lines_crossing(labels == i, stroke, th, win)):
            passing.add(int(i))
    if passing:
        window = window & ~np.isin(labels[wy1 - ry1:wy2 - ry1, wx1 - rx1:wx2 - rx1],
                                   list(passing))
        if not window.any():
            return None
    if window.mean() < 0.04:
        mark = _lone_mark(window, th, stroke)
        if mark is None:
            return None
        return [wx1 + mark[0], wy1 + mark[1], wx1 + mark[2], wy1 + mark[3]]
    ys, xs = np.nonzero(window)
    out = [wx1 + int(xs.min()), wy1 + int(ys.min()), wx1 + int(xs.max()) + 1,
           wy1 + int(ys.max()) + 1]
    for i in inside[inside > 0]:
        bx, by, bw, bh, area = stats[i]
        if int(i) not in passing and bw <= 6 * th and bh <= 6 * th:
            out = [min(out[0], rx1 + bx), min(out[1], ry1 + by),
                   max(out[2], rx1 + bx + bw), max(out[3], ry1 + by + bh)]
    if pieces is not None:
        out = _whole_icon(out, box, pieces, th, stroke)
    return out


def _lines_crossing(piece: np.ndarray, stroke: float, th: float,
                    window: tuple[int, int, int, int]) -> bool:
    """True if a piece of ink (a mask the size of the region looked at) is lines
    crossing one another on their way through: strokes only (no thicker than one and a
    half strokes on average along its skeleton) that enter and leave the region and
    close off no area lying in the ``window`` right over the label (``x1, y1, x2, y2``
    in the piece).  A drawing made of strokes with a line ending at it leaves the region
    at one place only; an outline drawing (a cylinder, a brick wall, a box) encloses
    areas of its own over its label, where crossing lines close off only areas
    reaching out of it."""
    length = int(skeletonize(piece).sum())
    if length == 0 or int(piece.sum()) > 1.5 * stroke * length:
        return False
    rim = np.concatenate([piece[0, :], piece[1:, -1], piece[-1, -2::-1], piece[-2:0:-1, 0]])
    if int((rim & ~np.roll(rim, 1)).sum()) < 2:
        return False
    # a letter's counter, of a word drawn in the ink, is smaller than a quarter of a
    # text height squared
    contours, hierarchy = cv2.findContours(piece.astype(np.uint8), cv2.RETR_CCOMP,
                                           cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return True
    x1, y1, x2, y2 = window
    for c, parent in zip(contours, hierarchy[0][:, 3]):
        if parent < 0 or cv2.contourArea(c) < 0.25 * th * th:
            continue
        cx, cy, cw, ch = cv2.boundingRect(c)
        if x1 <= cx and cy >= y1 and cx + cw <= x2 and cy + ch <= y2:
            return False
    return True


def _pieces_off_lines(ink: np.ndarray, rgb: np.ndarray | None, th: float, stroke: float,
                      paper: tuple[int, int, int] = (255, 255, 255)
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Boxes ``x, y, w, h, area`` of the pieces of ``ink`` once its connector runs are
    taken out, and the mask of the thin straight horizontal runs with the ``paper``
    colour above them (a line or a frame's top side; the bottom side of a filled icon
    has its fill above): a connector whose tip touches an icon is one piece of ink with
    it.  A connector run is a long thin straight run with the same colour on both sides
    of it (paper, or a cluster's tint); the side of a filled icon has the icon's fill on
    one side, and an outline icon's strokes are thicker, so both stay."""
    m = ink.astype(np.uint8)
    run = max(8, int(round(2 * th)))
    thick = max(3, int(round(2 * stroke + 2)))
    img = None if rgb is None else rgb.astype(np.int16)
    lines = np.zeros(ink.shape, bool)
    flat = lines
    for axis, along, across in ((0, (1, run), (thick, 1)), (1, (run, 1), (1, thick))):
        straight = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones(along, np.uint8)) > 0
        wide = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones(across, np.uint8)) > 0
        thin = straight & ~wide
        if axis == 0:
            flat = thin.copy()
            if img is not None:
                above = np.roll(img, thick, axis=0)
                flat &= np.abs(above - np.asarray(paper, np.int16)).max(axis=2) <= 40
        if img is not None:
            a, b = np.roll(img, thick, axis=axis), np.roll(img, -thick, axis=axis)
            ia, ib = np.roll(ink, thick, axis=axis), np.roll(ink, -thick, axis=axis)
            same = (np.abs(a - b).sum(axis=2) <= 60) & ~ia & ~ib
            thin &= same
        lines |= thin
    _, _, stats, _ = cv2.connectedComponentsWithStats((ink & ~lines).astype(np.uint8), 8)
    return stats[1:].astype(np.int64), flat


ICON_SPAN = 12.0
"""An icon is at most this many text heights wide and tall (the tools that draw icon
diagrams set a label's type at about a tenth of its picture's size)."""


def _whole_icon(seed: list[int], label: list[int], pieces: np.ndarray, th: float,
                stroke: float) -> list[int]:
    """``seed`` (the drawing found in the window above a label) grown to the whole of
    the icon: every piece of the page's ink (``pieces``: boxes ``x, y, w, h, area``)
    that reaches into it, or comes within a third of a text height of it, is added,
    as long as it lies above the label's baseline, is no line (a thin piece longer than
    two text heights whose area is about a stroke times its length) and the icon stays
    within ``ICON_SPAN`` text heights.  Growing stops at anything larger: a cluster's
    frame or a connector is no part of an icon.  An icon drawn as many pieces (a head
    over a body) is found whole, not only the part right above its label."""
    near = 0.33 * th
    span = ICON_SPAN * th
    bottom = label[3]
    out = list(seed)
    taken = np.zeros(len(pieces), bool)
    for _ in range(4):
        x, y, w, h, area = (pieces[:, k] for k in range(5))
        hit = (~taken & (x <= out[2] + near) & (x + w >= out[0] - near)
               & (y <= out[3] + near) & (y + h >= out[1] - near)
               & (y + h <= bottom) & (w <= span) & (h <= span)
               & ((area > 1.5 * stroke * (w + h)) | (np.maximum(w, h) <= 2 * th)))
        if not hit.any():
            break
        grown = [min(out[0], int(x[hit].min())), min(out[1], int(y[hit].min())),
                 max(out[2], int((x + w)[hit].max())), max(out[3], int((y + h)[hit].max()))]
        if grown[2] - grown[0] > span or grown[3] - grown[1] > span:
            break
        taken |= hit
        out = grown
    return out


def _lone_mark(window: np.ndarray, th: float, stroke: float) -> list[int] | None:
    """Box (in the window) of a small drawing standing alone in an otherwise empty window
    above a label: one piece of ink clear of the window's edges, at least half a letter
    long and thicker than a hairline (a faint tile's glyph); ``None`` if there is none, or
    more than one (a passing line or scattered specks are no icon)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(window.astype(np.uint8), 8)
    h, w = window.shape
    found = []
    for i in range(1, n):
        bx, by, bw, bh, area = stats[i]
        if bx == 0 or by == 0 or bx + bw == w or by + bh == h:
            continue
        if max(bw, bh) >= 0.6 * th and min(bw, bh) >= stroke and max(bw, bh) <= 3 * th:
            found.append([int(bx), int(by), int(bx + bw), int(by + bh)])
    return found[0] if len(found) == 1 else None


def _label_under(box, labels: list[tuple[str, list[int]]], th: float) -> int | None:
    """Index of the nearest label starting at most three text heights under ``box`` and
    centred under it, or ``None``."""
    x1, y1, x2, y2 = box
    cx = (x1 + x2) / 2
    below = [(lb[1] - y2, k) for k, (_, lb) in enumerate(labels)
             if lb[0] - th <= cx <= lb[2] + th and -0.5 * th <= lb[1] - y2 <= 3 * th]
    return min(below)[1] if below else None


CAPTION_GAP = 1.0
"""A caption starts at most this many text heights under the picture it names."""
CAPTION_CENTRE = 0.15
"""...and its middle lies within this share of the picture's width of the picture's."""


def _caption_under(box, labels: list[tuple[str, list[int]]], th: float) -> bool:
    """True if a free label starts right under ``box`` (``CAPTION_GAP``), centred under
    it (``CAPTION_CENTRE``), and ``box`` is at least two text lines tall: the shape is an
    icon's picture and the label its name, whatever is read inside the picture."""
    x1, y1, x2, y2 = box
    if y2 - y1 < 2 * th:
        return False
    cx = (x1 + x2) / 2
    return any(0 <= lb[1] - y2 <= CAPTION_GAP * th
               and abs((lb[0] + lb[2]) / 2 - cx) <= CAPTION_CENTRE * (x2 - x1)
               for _, lb in labels)


def _contains(outer, inner, slack: float = 0.0) -> bool:
    cx, cy = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    return (outer[0] - slack <= cx <= outer[2] + slack
            and outer[1] - slack <= cy <= outer[3] + slack)


def _edge(c: Connector, a: int, b: int, typical: float) -> Edge:
    """The edge of connector ``c`` whose ends attach to nodes ``a`` and ``b`` (0-based)."""
    src_end, dst_end, directed = _direction(c)
    style = c.style
    if style == "solid" and typical and c.width >= BOLD_RATIO * typical:
        style = "bold"
    src, dst = (a, b) if src_end == 0 else (b, a)
    return Edge(source=f"n{src + 1}", target=f"n{dst + 1}", directed=directed, style=style,
                extra={"points": [[round(float(x), 1), round(float(y), 1)]
                                  for x, y in c.points[:: max(1, len(c.points) // 20)]],
                       "heads": [c.ends[src_end].marker, c.ends[dst_end].marker]})


def _connector_edges(connectors: list[Connector], ends: list[tuple[int | None, int | None]],
                     boxes: list, text_height: float, typical: float
                     ) -> tuple[list[tuple[Connector, Edge]], int]:
    """One edge per connector joining two nodes (a connector back to its own node only if
    it loops away from it), with its connector; and how many connectors dangle."""
    pairs = []
    dangling = 0
    for c, (a, b) in zip(connectors, ends):
        if a is None or b is None:
            dangling += 1
            continue
        if a == b and not _leaves_node(c, boxes[a], text_height):
            continue
        pairs.append((c, _edge(c, a, b, typical)))
    return pairs, dangling


def _split_twin(c: Connector, e: Edge) -> list[tuple[Connector, Edge]]:
    """The two links of a connector that is two lines side by side, one each way
    (:func:`~.twins.twin_lines`): each runs into the node its own head points at."""
    if e.source == e.target:
        return [(c, e)]
    heads = ["none", "arrow"]
    style = "solid" if e.style == "bold" else e.style  # each line is as wide as one
    there = replace(e, directed=True, style=style, extra={**e.extra, "heads": heads})
    back = replace(e, source=e.target, target=e.source, directed=True, style=style,
                   extra={**e.extra, "points": e.extra["points"][::-1], "heads": heads})
    return [(c, there), (c, back)]


def _typical_width(connectors: list[Connector], ends: list[tuple[int | None, int | None]],
                   quantile: float = 50.0) -> float:
    """Width of a plain connector: the median (or another percentile) of the widths of
    the connectors joining two nodes."""
    widths = [c.width for c, (a, b) in zip(connectors, ends) if a is not None and b is not None]
    return float(np.percentile(widths, quantile)) if widths else 0.0


def _centre(box) -> np.ndarray:
    return np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2], float)


def split_mixed_pair(edges: list[Edge]) -> list[Edge]:
    """Edges with a two-headed edge beside a one-headed edge between the same two nodes
    read as one link each way.

    Two curves drawn close together between two nodes, one each way, touch where they
    leave a node (one's arrowhead beside the other's start); traced through that touch,
    one connector picks up both heads and the other keeps the head it had twice over.
    The heads drawn are one at each node, so the two-headed edge is the link opposite
    the one-headed one.
    """
    out = list(edges)
    taken: set[int] = set()
    for i, e in enumerate(out):
        heads = e.extra.get("heads") or []
        if e.directed or e.source == e.target or len(heads) != 2 or "none" in heads:
            continue
        for j, f in enumerate(out):
            if j == i or j in taken or not f.directed \
                    or {f.source, f.target} != {e.source, e.target}:
                continue
            taken.add(j)
            points = e.extra["points"] if e.source == f.target else e.extra["points"][::-1]
            out[i] = replace(e, source=f.target, target=f.source, directed=True,
                             extra={**e.extra, "points": points, "heads": ["none", heads[1]]})
            break
    return out


def orient_with_flow(edges: list[Edge], boxes: list) -> list[Edge]:
    """Edges with no head read, written from upstream to downstream: the way the chart's
    headed edges run on the whole.

    A layered flowchart places each step after the one it follows, so where no head says
    which end is the source (an open link, or a head too small to read) the end that lies
    upstream along the chart's flow is the likelier one.  The flow is the summed unit
    vector of the directed edges; its main axis and sign decide.  Without directed edges,
    or with no clear main direction, edges are kept as traced.
    """
    node = {f"n{k + 1}": _centre(b) for k, b in enumerate(boxes)}
    flow = np.zeros(2)
    for e in edges:
        if e.directed and e.source != e.target:
            d = node[e.target] - node[e.source]
            norm = float(np.hypot(*d))
            if norm:
                flow += d / norm
    axis = int(abs(flow[1]) > abs(flow[0]))
    if abs(flow[axis]) < 1.0 or abs(flow[axis]) < 2 * abs(flow[1 - axis]):
        return edges
    sign = float(np.sign(flow[axis]))
    out = []
    for e in edges:
        if not e.directed and (node[e.target] - node[e.source])[axis] * sign < 0:
            heads = e.extra.get("heads")
            e = replace(e, source=e.target, target=e.source,
                        extra={**e.extra, "points": e.extra["points"][::-1],
                               **({"heads": heads[::-1]} if heads else {})})
        out.append(e)
    return out


SIDE_PART_SHARE = 0.8
"""An unlabelled box flush against a labelled one is a part of it when it runs along this
share (at least) of the shorter of the two sides they share."""


def side_parts(shapes: list[Shape], stroke: float) -> list[int]:
    """For each shape, the shape it is a part of (itself if none).

    Some node shapes are drawn as several closed areas: a subroutine's (framed
    rectangle's) side bars, a stack of documents' back sheets, a lined cylinder's band.
    Only one of them holds the label; the others are unlabelled boxes flush against it,
    narrower across the side they share and running along most of it.  Connectors ending
    on such a part end on the node.
    """
    gap = 2 * stroke + 1
    owner = list(range(len(shapes)))
    for k, s in enumerate(shapes):
        if s.label.strip():
            continue
        best, best_run = None, 0.0
        for j, t in enumerate(shapes):
            if j == k or not t.label.strip():
                continue
            for ax in (0, 1):  # 0: side by side, 1: stacked
                o = 1 - ax
                apart = max(s.bbox[ax] - t.bbox[ax + 2], t.bbox[ax] - s.bbox[ax + 2])
                run = min(s.bbox[o + 2], t.bbox[o + 2]) - max(s.bbox[o], t.bbox[o])
                shorter = min(s.bbox[o + 2] - s.bbox[o], t.bbox[o + 2] - t.bbox[o])
                across_s = s.bbox[ax + 2] - s.bbox[ax]
                across_t = t.bbox[ax + 2] - t.bbox[ax]
                if (apart <= gap and run >= SIDE_PART_SHARE * shorter
                        and across_s <= 0.5 * across_t and run > best_run):
                    best, best_run = j, run
        if best is not None:
            owner[k] = best
    return owner


def assemble_graph(inv: Inventory, connectors: list[Connector], kind: str = "flowchart",
                   *, params: GraphParams | None = None) -> Graph:
    """A graph document with one node per shape (and, for topology diagrams, per labelled
    icon) and one edge per connector joining two of them.

    Parameters
    ----------
    inv : Inventory
        The page's shapes and text.
    connectors : list of Connector
        Its lines, ends read and attached.
    kind : {"flowchart", "topology"}
        The graph family.
    params : GraphParams, optional
        The thresholds (the defaults of :class:`cvparse.params.GraphParams`).

    Returns
    -------
    Graph
        Nodes with labels, shapes and boxes (pixels); edges directed by their arrowheads.
    """
    if kind == "topology":
        return assemble_topology(inv, connectors)
    owner = side_parts(inv.shapes, inv.scale.stroke)
    boxes = [list(s.bbox) for s in inv.shapes]
    for k, o in enumerate(owner):
        if o != k:
            b = boxes[o]
            boxes[o] = [min(b[0], boxes[k][0]), min(b[1], boxes[k][1]),
                        max(b[2], boxes[k][2]), max(b[3], boxes[k][3])]
    # a phantom (a gap closed off by lines, a frame round a group) is traced through and
    # never attached to: it is no node, whatever is read inside it
    phantoms = phantom_shapes(inv)
    nodes = [Node(id=f"n{i + 1}", label=s.label, shape=s.kind,
                  bbox=[int(v) for v in boxes[i]], extra={"double": True} if s.double else {})
             for i, s in enumerate(inv.shapes) if owner[i] == i and i not in phantoms]
    ends = [tuple(None if c.ends[k].node is None else owner[c.ends[k].node] for k in (0, 1))
            for c in connectors]
    connectors, ends, labels = _through_label_shapes(inv, connectors, ends, owner,
                                                     params or GraphParams())
    if labels:
        nodes = [n for n in nodes if int(n.id[1:]) - 1 not in labels]
    # a solid disc at a line's loose end is a start (or end) node: no shape holds it
    discs, ends = disc_ends(inv, connectors, ends, attach_reach(inv))
    for j, disc in enumerate(discs):
        boxes.append(disc.bbox)
        nodes.append(Node(id=f"n{len(inv.shapes) + j + 1}", label="", shape="circle",
                          bbox=disc.bbox))
    typical = _typical_width(connectors, ends)
    pairs, dangling = _connector_edges(connectors, ends, boxes, inv.scale.text_height, typical)
    # a line broken where it crosses a frame or a dash gap is traced in pieces whose
    # loose ends meet: one edge from the chain of them
    for ch in chains(connectors, ends, inv.scale.text_height):
        pairs.extend(_chain_edges(ch, connectors, typical))
        dangling -= len(ch.pieces)
    twins = {id(connectors[i]) for i in twin_lines(connectors, inv.image, inv.background,
                                                    inv.scale.stroke)}
    pairs = [ce for c, e in pairs for ce in (_split_twin(c, e) if id(c) in twins else [(c, e)])]
    through = {joined: text for text, joined in labels.values()}
    for c, e in pairs:
        e.label = through.get(id(c), e.label)
    edges = orient_with_flow(split_mixed_pair([e for _, e in pairs]), boxes)
    # A flowchart box with no text and no connector is a gap between lines, not a step.
    used = {e.source for e in edges} | {e.target for e in edges}
    nodes = [n for n in nodes if n.label.strip() or n.id in used]
    extra = {"dangling_connectors": dangling} if dangling else {}
    return Graph(kind=kind, width=inv.width, height=inv.height, nodes=nodes, edges=edges,
                 extra=extra)


LABEL_MARGIN = (0.45, 0.8)
"""An edge label's plate hugs its text: at most this many text heights of fill left and
right, and above and below (where a word without descenders leaves the room a text
line keeps for them).  The plates of the real-tool subsets leave 0.2-0.4 left and
right; the tightest nodes (FlowLearn's, our dev charts') 0.67, so the limit keeps clear
of both."""


def _hugs_text(inv: Inventory, shape: Shape, contrast: float = GraphParams.plate_text_contrast
               ) -> bool:
    """True if ``shape`` is no taller than two text lines and its text (the pixels
    further than ``contrast`` off its fill, away from its border) reaches within
    ``LABEL_MARGIN`` text heights of the sides of its box and of the top and bottom of
    its fill: a label's plate, not a node."""
    th = inv.scale.text_height
    x1, y1, x2, y2 = shape.bbox
    if inv.image is None or y2 - y1 > 2.5 * th:
        return False
    reg = shape.interior
    rx1, ry1, rx2, ry2 = reg.bbox
    crop = inv.image[ry1:ry2, rx1:rx2].astype(np.float32)
    off = np.linalg.norm(crop - np.asarray(shape.fill, np.float32), axis=2) > contrast
    # the interior lies inside the border already: one pixel off its edge drops the
    # border's anti-aliased fringe, not letters set right against a plate's edge
    inside = cv2.erode(reg.filled.astype(np.uint8), np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero(off & inside.astype(bool))
    if len(xs) == 0:
        return False
    # left and right to the outer box (as LABEL_MARGIN was measured); above and below to
    # the edge of the fill: a plate has no border, and the antialiased ink found along
    # its top and bottom edges widens its outer box by pixels a text line cannot spare
    margins = (rx1 + xs.min() - x1, ys.min(), x2 - rx1 - xs.max(), ry2 - ry1 - ys.max())
    return (max(margins[0], margins[2]) <= LABEL_MARGIN[0] * th
            and max(margins[1], margins[3]) <= LABEL_MARGIN[1] * th)


def _through_label_shapes(inv: Inventory, connectors: list[Connector],
                          ends: list[tuple[int | None, int | None]], owner: list[int],
                          params: GraphParams
                          ) -> tuple[list[Connector], list[tuple[int | None, int | None]],
                                     dict[int, tuple[str, int]]]:
    """Edge labels taken for shapes, turned back into labels on one line.

    A label's plate is a filled box and can pass for a node; it hugs its text (see
    :func:`_hugs_text`) and exactly two connectors reach it, from two other nodes.
    Those two are one connector from one node to the other through the label.
    Returns the connectors, their ends' nodes and, per label shape, its text and the
    ``id`` of the joined connector.
    """
    at: dict[int, list[tuple[int, int]]] = {}
    for i, pair in enumerate(ends):
        for k in (0, 1):
            if pair[k] is not None and pair[0] != pair[1]:
                at.setdefault(int(pair[k]), []).append((i, k))
    conns, out_ends = list(connectors), list(ends)
    labels: dict[int, tuple[str, int]] = {}
    used: set[int] = set()
    for node, touching in sorted(at.items()):
        if len(touching) != 2 or owner[node] != node or touching[0][0] == touching[1][0]:
            continue
        (i, ki), (j, kj) = touching
        if i in used or j in used:
            continue
        a, b = ends[i][1 - ki], ends[j][1 - kj]
        if a is None or b is None or a == b or node in (a, b):
            continue
        ci, cj = connectors[i], connectors[j]
        if ci.ends[ki].marker != "none" and cj.ends[kj].marker != "none":
            continue
        if not _hugs_text(inv, inv.shapes[node], params.plate_text_contrast):
            continue
        first = ci.points if ki == 1 else ci.points[::-1]
        second = cj.points if kj == 0 else cj.points[::-1]
        joined = Connector(points=np.vstack([first, second]),
                           ends=(ci.ends[1 - ki], cj.ends[1 - kj]),
                           style=ci.style if ci.style == cj.style else "solid",
                           width=max(ci.width, cj.width), colour=ci.colour)
        conns[i], out_ends[i] = joined, (a, b)
        conns[j], out_ends[j] = None, (None, None)  # type: ignore[call-overload]
        used.update((i, j))
        labels[node] = (inv.shapes[node].label, id(joined))
    keep = [k for k, c in enumerate(conns) if c is not None]
    return [conns[k] for k in keep], [out_ends[k] for k in keep], labels


@dataclass
class TopoNode:
    """A topology node before numbering: a labelled shape, or an icon with its label."""

    label: str
    shape: str
    bbox: list[int]
    shapes: list[int] = field(default_factory=list)
    """Inventory shapes that belong to it (its border, or the parts of its icon)."""


def free_labels(inv: Inventory, skip: list[tuple[int, int, int, int]] = ()
                ) -> list[tuple[str, list[int]]]:
    """The free text of the page outside shapes and ``skip`` boxes, words joined into
    lines and lines stacked into labels."""
    th = inv.scale.text_height
    # Text lower than a letter is a marker fragment read as one, unless it reads as a
    # word ("mer", "ance") or stands right under a line as a wrapped label's last line
    # ("or", "r").
    outside = [(t.text, list(t.bbox)) for t in inv.texts
               if not _inside_shape(inv, t.bbox) and not any(_contains(b, t.bbox) for b in skip)]
    tall = [b[3] - b[1] >= 0.55 * th or _alnum(t) >= WORD_LETTERS for t, b in outside]
    lines = [tuple(b) for (_, b), ok in zip(outside, tall) if ok]
    free = [(t, b) for (t, b), ok in zip(outside, tall)
            if ok or wrapped_tail((b[0], b[1], b[2], b[3]), lines, th)]
    return _stack_lines(_join_line_words(free, th), th)


def text_nodes(connectors: list[Connector], ends: list[tuple[int | None, int | None]],
               nodes: list[TopoNode], inv: Inventory, skip: list = ()) -> list[TopoNode]:
    """Free labels that a loose connector end reaches, or that traced lines were bridged
    through the way they run to a node (:func:`bridged_through`): plain-text nodes (a
    label with no border and no picture), as nodes of kind ``text``.  A label in a
    node's box is that node's, and an edge label beside a line is reached by no end of
    it."""
    boxes = [n.bbox for n in nodes]
    th = inv.scale.text_height
    titles = [s.interior.bbox for s in clusters_of(inv)]
    free = [(t, b) for t, b in free_labels(inv, skip)
            if _alnum(t) >= TEXT_NODE_LETTERS and not any(_contains(nb, b) for nb in boxes)
            and not any(_hugs_border(b, c, TITLE_GAP * th) for c in titles)]
    through: list[bool] = [False] * len(free)
    if inv.ink is not None:
        lines = inv.ink if inv.text_mask is None else inv.ink & ~inv.text_mask
        through = [bridged_through(b, connectors, th, inv.scale.stroke, lines)
                   for _, b in free]
    cands = [(t, b, bridged) for (t, b), bridged in zip(free, through)
             if bridged or not _passed_by(b, connectors, th, inv.ink)]
    if not cands:
        return []
    probe = [TopoNode(t, "text", b) for t, b, _ in cands]
    bridged_at = {k for k, (_, _, bridged) in enumerate(cands) if bridged}
    loose = [Connector(points=c.points, ends=tuple(replace(e, node=None) for e in c.ends),
                       style=c.style, width=c.width, colour=c.colour)  # type: ignore[arg-type]
             for c, pair in zip(connectors, ends) if None in pair]
    hits = _end_nodes(loose, probe, inv, TEXT_NODE_REACH, TEXT_NODE_WIDEN)
    reached = {k for pair in hits for k in pair if k is not None} | bridged_at
    return [probe[k] for k in sorted(reached)]


def _passed_by(box, connectors: list[Connector], th: float,
               ink: np.ndarray | None = None) -> bool:
    """True if a drawn line runs through ``box`` or grazes it (``PASS_GAP``) with both of
    its ends well away (``PASS_ENDS``): an edge label beside or under its line (or what a
    crossing line left of one), not a node; lines end at a node.  With the page's
    ``ink``, a line bridged over the label (no ink where it passes: the label stands in a
    gap of it, as a plain-text node it runs to and on from does) does not count."""
    x1, y1, x2, y2 = box
    g, far = PASS_GAP * th, PASS_ENDS * th
    for c in connectors:
        pts = np.asarray(c.points, np.float64)
        if not len(pts):
            continue
        near = ((pts[:, 0] >= x1 - g) & (pts[:, 0] <= x2 + g)
                & (pts[:, 1] >= y1 - g) & (pts[:, 1] <= y2 + g))
        if not near.any() or not all(float(point_gaps(e.point, box)) >= far for e in c.ends):
            continue
        if ink is not None and under(ink, pts[near]).mean() < 0.5:
            continue
        return True
    return False


PASS_GAP = 0.3
"""A line within this many text heights of a label runs past it..."""
PASS_ENDS = 1.5
"""...when both its ends lie this many text heights or more away from the label."""
TEXT_NODE_LETTERS = 3
"""A plain-text node's label holds at least this many letters or digits (fewer are
pieces of an edge label or of a marker read as letters)."""
TEXT_NODE_REACH = 3.0
"""A loose end points at a plain-text node this many text heights ahead at most: the tools
stop a line at the label's invisible box, which has margins round the text."""
TEXT_NODE_WIDEN = 0.25
"""...in a cone widening by this many px per px looked ahead (a line aims at the label's
middle, its end's heading is read from a few px of stroke)."""
TITLE_GAP = 1.5
"""A label within this many text heights under a cluster's top (or over its bottom) is
its title."""


def _hugs_border(box, frame, gap: float) -> bool:
    """True if ``box`` lies inside ``frame`` within ``gap`` px of its top or bottom side
    (where a cluster's title goes; a label near a left or right side is a node's)."""
    x1, y1, x2, y2 = box
    f1, g1, f2, g2 = frame
    if not (f1 <= x1 and x2 <= f2 and g1 <= y1 and y2 <= g2):
        return False
    return min(y1 - g1, g2 - y2) <= gap


def topology_nodes(inv: Inventory, skip: list[tuple[int, int, int, int]] = (),
                   connectors: list[Connector] | None = None) -> list[TopoNode]:
    """Nodes of a node-link diagram: shapes with a label inside, and icons (a free label
    with a drawing, or label-less shapes, right above it).

    Shapes without text that sit above a label are parts of that label's icon; other
    label-less shapes and free text with no drawing above are not nodes.  A short text
    lying inside another icon's drawing is a piece of that drawing read as a letter.
    Shapes and text inside a ``skip`` box (a legend) are left out, and so are gaps
    between crossing lines (see ``GAP_SIDES``).  With the traced ``connectors``, a
    drawing above a label that is only their ink makes no icon (:func:`line_drawn`).
    """
    th = inv.scale.text_height

    def skipped(box) -> bool:
        return any(_contains(b, box) for b in skip)

    labels = free_labels(inv, skip)
    runs = sides_run_on(inv)
    nodes: list[TopoNode] = []
    iconic: list[int] = []
    for i, s in enumerate(inv.shapes):
        if skipped(s.bbox) or runs[i] >= GAP_SIDES:
            continue
        # A few letters read in a shape with a label right under it: a part of an icon.
        short = ((len(s.label.replace(" ", "")) <= 3
                  and _label_under(s.bbox, labels, th) is not None)
                 or _caption_under(s.bbox, labels, th))
        if _alnum(s.label) >= 2 and not short:
            nodes.append(TopoNode(s.label, s.kind, [int(v) for v in s.bbox], [i]))
        else:
            iconic.append(i)
    ink = inv.ink if inv.text_mask is None else inv.ink & ~inv.text_mask
    ink = ink.copy()
    for n in nodes:  # a labelled shape is a node of its own, not an icon's drawing
        x1, y1, x2, y2 = n.bbox
        ink[max(0, y1 - 2):y2 + 2, max(0, x1 - 2):x2 + 2] = False
    ink &= ~cluster_borders(inv)  # a cluster's title has its border above, no icon
    pieces, lines = _pieces_off_lines(ink, inv.image, th, inv.scale.stroke, inv.background)
    drawings = [_drawing_above(ink, box, th, inv.scale.stroke, pieces, lines)
                for _, box in labels]
    if connectors:  # a 'drawing' made of the graph's own lines is no picture
        drawings = [None if d is not None and line_drawn(ink, d, box, connectors,
                                                         inv.scale.stroke, th) else d
                    for d, (_, box) in zip(drawings, labels)]
    parts: list[list[int]] = [[] for _ in labels]
    for i in iconic:
        s = inv.shapes[i]
        k = _label_under(s.bbox, labels, th)
        if k is not None:
            parts[k].append(i)
        elif (len(s.label.strip()) == 1 and _alnum(s.label) == 1
              and runs[i] < 2):
            # a lone letter in a box; not a line-bounded gap with a speck read in it
            nodes.append(TopoNode(s.label.strip(), s.kind, [int(v) for v in s.bbox], [i]))
    icons = [k for k, (text, box) in enumerate(labels)
             if (drawings[k] is not None or parts[k]) and not any(
                 _alnum(text) <= 2 < _alnum(other) and d is not None and _contains(d, box)
                 for j, ((other, _), d) in enumerate(zip(labels, drawings)) if j != k)]
    # letters a line took away when the label was first read
    reread = reread_labels(inv, [labels[k] for k in icons])
    for k, (text, box) in zip(icons, reread):
        boxes = [box] + ([drawings[k]] if drawings[k] is not None else [])
        boxes += [list(inv.shapes[i].bbox) for i in parts[k]]
        bb = np.array(boxes)
        nodes.append(TopoNode(text, "icon", [int(bb[:, 0].min()), int(bb[:, 1].min()),
                                              int(bb[:, 2].max()), int(bb[:, 3].max())],
                               parts[k]))
    return nodes


def _end_nodes(connectors: list[Connector], nodes: list[TopoNode], inv: Inventory,
               reach_th: float = 2.0, widen: float = 0.0
               ) -> list[tuple[int | None, int | None]]:
    """Node index of both ends of every connector: through the shape the end was attached
    to, else the node box it touches or points at (within ``reach_th`` text heights, the
    boxes grown by ``widen`` px per px looked ahead: a cone, for ends that stop short of
    a label's invisible box)."""
    owner = {i: k for k, n in enumerate(nodes) for i in n.shapes}
    grow0 = 2 * inv.scale.stroke + 4
    reach = reach_th * inv.scale.text_height
    boxes = [n.bbox for n in nodes]
    out = []
    for c in connectors:
        pair = []
        for end in c.ends:
            k = owner.get(end.node) if end.node is not None else None
            if k is None:
                x, y = end.point
                dx, dy = end.direction
                for t in range(int(reach) + 1):
                    px, py = x + dx * t, y + dy * t
                    grow = grow0 + widen * t
                    k = next((j for j, b in enumerate(boxes)
                              if b[0] - grow <= px <= b[2] + grow
                              and b[1] - grow <= py <= b[3] + grow), None)
                    if k is not None:
                        break
            pair.append(k)
        out.append((pair[0], pair[1]))
    return out


@dataclass
class Chain:
    """Connector pieces joined at their loose ends (a line broken at a corner or a gap, or
    one that forks), with the node ends it reaches: ``(node, end has a head)``."""

    pieces: list[int]
    ends: list[tuple[int, bool]]


def _loose_ends_meet(a: End, b: End, th: float) -> bool:
    """Two loose ends close enough to be one line: near each other (a broken corner), or
    facing each other across a longer gap (a dash gap at a crossing)."""
    v = np.subtract(b.point, a.point)
    d = float(np.hypot(v[0], v[1]))
    if d <= 0.8 * th:
        return True
    if d > 2.0 * th:
        return False
    u = v / d
    return (float(np.dot(a.direction, u)) > 0.9 and float(np.dot(b.direction, -u)) > 0.9)


def _end(connectors: list[Connector], ref: tuple[int, int]) -> End:
    return connectors[ref[0]].ends[ref[1]]


def _continues(a: End, b: End, th: float) -> bool:
    """Loose end ``b`` carries on the line of loose end ``a``: the two head towards each
    other (opposite headings, |cos| > 0.9) and sit on one line (small sideways offset)."""
    if float(np.dot(a.direction, b.direction)) > -0.9:
        return False
    v = np.subtract(b.point, a.point)
    side = abs(float(a.direction[0] * v[1] - a.direction[1] * v[0]))
    return side <= 0.4 * th and float(np.dot(a.direction, v)) >= -0.4 * th


def _bridge(a: End, b: End, ink: np.ndarray, stroke: float, th: float,
            boxes: list) -> float | None:
    """Length of the drawn ink joining loose ends ``a`` and ``b`` that the tracer lost
    (taken as the border of a gap closed off by lines), or None: straight on when they
    face each other, or round one corner where their headings cross at right angles;
    longer than the gaps :func:`_loose_ends_meet` closes, and never through a node box."""
    pa, pb = np.asarray(a.point, float), np.asarray(b.point, float)
    da, db = np.asarray(a.direction, float), np.asarray(b.direction, float)
    v = pb - pa
    side = stroke + 2
    if float(np.dot(da, db)) < -0.95:
        if abs(float(da[0] * v[1] - da[1] * v[0])) > side or float(np.dot(da, v)) <= 0:
            return None
        legs = [(pa, pb)]
    elif min(float(np.abs(da).max()), float(np.abs(db).max())) > 0.98:
        # an orthogonal route's corner c = pa + s da = pb + t db with s, t > 0
        m = np.array([[da[0], -db[0]], [da[1], -db[1]]])
        if abs(float(np.linalg.det(m))) < 0.5:
            return None
        s, t = np.linalg.solve(m, v)
        if s <= 0.5 * th or t <= 0.5 * th:
            return None
        c = pa + s * da
        legs = [(pa, c), (c, pb)]
    else:
        return None
    length = sum(float(np.hypot(*(q - p))) for p, q in legs)
    if length <= 2.0 * th:
        return None
    r = max(1, int(round(stroke)))
    for p, q in legs:
        lo, hi = np.minimum(p, q), np.maximum(p, q)
        if any(lo[0] < x2 and hi[0] > x1 and lo[1] < y2 and hi[1] > y1
               for x1, y1, x2, y2 in boxes):
            return None
        if not inked_along(ink, p, q, r):
            return None
    return length


def _bridges(connectors: list[Connector], loose: list[tuple[int, int]],
             pairs: list[tuple[int, int]], ink: np.ndarray, stroke: float, th: float,
             boxes: list) -> list[tuple[int, int]]:
    """Pairs of loose ends of solid pieces joined by lost ink, each end to its shortest
    bridge and only where that choice is mutual (lines sharing a corridor offer several)."""
    best: dict[int, tuple[float, int]] = {}
    for a, b in pairs:
        if connectors[loose[a][0]].style != "solid" or connectors[loose[b][0]].style != "solid":
            continue
        length = _bridge(_end(connectors, loose[a]), _end(connectors, loose[b]),
                         ink, stroke, th, boxes)
        if length is None:
            continue
        for x, y in ((a, b), (b, a)):
            if x not in best or length < best[x][0]:
                best[x] = (length, y)
    return [(a, b) for a, b in pairs if best.get(a, (0, -1))[1] == b
            and best.get(b, (0, -1))[1] == a]


def chains(connectors: list[Connector], ends: list[tuple[int | None, int | None]], th: float,
           ink: np.ndarray | None = None, stroke: float = 1.0, boxes: list = ()
           ) -> list[Chain]:
    """Dangling connectors joined loose end to loose end into chains that reach nodes.

    Only connectors with a loose end (no node) take part, so a connector that already
    joins two nodes is never changed; a chain reaching fewer than two nodes is dropped.
    """
    loose = [(i, k) for i, pair in enumerate(ends) for k in (0, 1) if pair[k] is None]
    parent = {i: i for i, _ in loose}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    pairs = [(a, b) for a in range(len(loose)) for b in range(a + 1, len(loose))
             if loose[a][0] != loose[b][0]]
    meets = [(a, b) for a, b in pairs
             if _loose_ends_meet(_end(connectors, loose[a]), _end(connectors, loose[b]), th)]
    aligned = {(a, b) for a, b in meets
               if _continues(_end(connectors, loose[a]), _end(connectors, loose[b]), th)}
    if ink is not None:
        bridges = _bridges(connectors, loose, pairs, ink, stroke, th, boxes)
        meets += [pair for pair in bridges if pair not in meets]
        aligned.update(bridges)
    has_aligned = {x for pair in aligned for x in pair}
    for a, b in meets:
        # Where two lines cross, each end joins the piece that runs on in its heading,
        # not the nearest end of the other line; an end with no such piece (the stem of
        # a fork) still joins whatever it meets.
        if (a, b) in aligned or a not in has_aligned or b not in has_aligned:
            parent[find(loose[b][0])] = find(loose[a][0])
    groups: dict[int, list[int]] = {}
    for i in parent:
        groups.setdefault(find(i), []).append(i)
    out = []
    for members in groups.values():
        if len(members) < 2:
            continue
        reached = [(ends[i][k], connectors[i].ends[k].marker != "none")
                   for i in members for k in (0, 1) if ends[i][k] is not None]
        if len({n for n, _ in reached}) >= 2:
            out.append(Chain(sorted(members), reached))
    return out


def _chain_edges(chain: Chain, connectors: list[Connector], typical: float
                 ) -> list[tuple[Connector, Edge]]:
    """Edges of a chain: every plain end to every headed end; two ends alike (both plain
    or both headed) make one undirected edge; more than two alike are left out (a fan
    with no direction cannot be told apart from lines crossing)."""
    main = max((connectors[i] for i in chain.pieces), key=lambda c: c.length)
    tails = [n for n, head in chain.ends if not head]
    heads = [n for n, head in chain.ends if head]
    pairs: list[tuple[int, int, bool]] = []
    if heads and tails:
        pairs = [(t, h, True) for t in tails for h in heads if t != h]
    elif len(chain.ends) == 2:
        pairs = [(chain.ends[0][0], chain.ends[1][0], False)]
    out = []
    for a, b, directed in dict.fromkeys(pairs):
        e = _edge(main, a, b, typical)
        e.source, e.target, e.directed = f"n{a + 1}", f"n{b + 1}", directed
        e.extra["heads"] = (["none", "arrow"] if directed
                            else ["arrow" if heads else "none"] * 2)
        out.append((main, e))
    return out


def assemble_topology(inv: Inventory, connectors: list[Connector]) -> Graph:
    """A node-link (topology) graph: shape and icon nodes, one edge per connector joining
    two of them, typed from the legend when the diagram has one."""
    th = inv.scale.text_height
    legends = find_legends(inv)
    skip = [lg.bbox for lg in legends]
    tnodes = topology_nodes(inv, skip, connectors)
    live = [c for c in connectors if not any(_within(c.points, b) for b in skip)]
    live = cut_at_nodes(live, tnodes, inv)
    ends = _end_nodes(live, tnodes, inv)
    more = text_nodes(live, ends, tnodes, inv, skip)
    if more:
        base = len(tnodes)
        tnodes += more
        # a line bridged over a plain-text node's label (read as a gap in one line) is
        # two lines ending at it
        live = cut_at_nodes(live, tnodes, inv)
        ends = _end_nodes(live, tnodes, inv)
        far = _end_nodes(live, more, inv, TEXT_NODE_REACH, TEXT_NODE_WIDEN)
        ends = [(a if a is not None or fa is None else base + fa,
                 b if b is not None or fb is None else base + fb)
                for (a, b), (fa, fb) in zip(ends, far)]
    probed: set[int] = set()
    if inv.ink is not None:
        live, ends, moved = probe_to_nodes(live, ends, [n.bbox for n in tnodes], inv)
        probed = {id(c) for c, flags in zip(live, moved) if any(flags)}
    # Typed diagrams may draw most of their lines bold; the thinner quarter is plain.
    typical = _typical_width(live, ends, 25.0)
    pairs, dangling = _connector_edges(live, ends, [n.bbox for n in tnodes], th, typical)
    for ch in chains(live, ends, th, inv.ink, inv.scale.stroke, [n.bbox for n in tnodes]):
        pairs.extend(_chain_edges(ch, live, typical))
        dangling -= len(ch.pieces)
    pairs = _merge_probed(pairs, probed)
    edges = []
    for c, e in pairs:
        if legends:
            e.type = edge_type(c, legends, inv)
        edges.append(e)
    nodes = [Node(id=f"n{k + 1}", label=small_ell(n.label), shape=n.shape, bbox=n.bbox)
             for k, n in enumerate(tnodes)]
    extra = {"dangling_connectors": dangling} if dangling else {}
    if legends:
        extra["legend"] = [lg.to_dict() for lg in legends]
    return Graph(kind="topology", width=inv.width, height=inv.height, nodes=nodes,
                 edges=edges, extra=extra)


def _merge_probed(pairs: list[tuple[Connector, Edge]], probed: set[int]
                  ) -> list[tuple[Connector, Edge]]:
    """``pairs`` without the edges of probed connectors that repeat another edge's node
    pair (the pieces of one line on both sides of a lost stretch each reach both of its
    nodes); a directed repeat stands in for an undirected edge."""
    out: list[tuple[Connector, Edge]] = []
    where: dict[frozenset, int] = {}
    for c, e in sorted(pairs, key=lambda ce: id(ce[0]) in probed):
        key = frozenset((e.source, e.target))
        k = where.get(key)
        if k is None or id(c) not in probed:
            where.setdefault(key, len(out))
            out.append((c, e))
        elif e.directed and not out[k][1].directed and id(out[k][0]) in probed:
            out[k] = (c, e)
    return out


def _within(points: np.ndarray, box) -> bool:
    """All points of a polyline inside a box (a legend swatch traced as a connector)."""
    x1, y1, x2, y2 = box
    return bool(len(points) and ((points[:, 0] >= x1) & (points[:, 0] <= x2)
                                 & (points[:, 1] >= y1) & (points[:, 1] <= y2)).all())
