"""Node-link assembly: icon nodes, connectors cut at the nodes they run through (the
mending of :mod:`cvparse.connectors.atnodes`, seen on topology pages), and empty regions
closed off by connectors."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from cvparse.assembly.graph.assemble import (
    TopoNode,
    assemble_graph,
    _join_line_words,
    _chain_edges,
    _stack_lines,
    chains,
    topology_nodes,
    _pieces_off_lines,
    _whole_icon,
)
from cvparse.connectors.atnodes import probe_ends, split_through, trim_into_icons
from cvparse.connectors.lines import Connector, End
from cvparse.pipeline import parse
from cvparse.primitives.items import Scale, Shape
from cvparse.primitives.inventory import build_inventory, continued_sides
from cvparse.primitives.regions import Region

from ...primitives.synth import canvas, font, to_array


def test_words_on_a_line_join_and_lines_stack():
    items = [("Server", [10, 40, 50, 50]), ("Mail", [20, 26, 40, 36]),
             ("4", [54, 40, 60, 50]), ("far", [200, 40, 220, 50])]
    joined = _join_line_words(items, 12)
    assert ("Server 4", [10, 40, 60, 50]) in joined
    stacked = _stack_lines(joined, 12)
    assert [t for t, _ in stacked] == ["Mail Server 4", "far"]


def _icon_page():
    """A labelled box, and an icon (an open drawing) with its label below."""
    img, draw = canvas(360, 200)
    draw.rectangle([20, 40, 140, 90], outline=(0, 0, 0), width=2)
    draw.text((45, 55), "Billing", fill=(0, 0, 0), font=font(16))
    draw.line([(240, 40), (270, 70), (300, 40)], fill=(30, 30, 120), width=3)  # a "V" icon
    draw.line([(240, 70), (300, 70)], fill=(30, 30, 120), width=3)
    draw.text((246, 80), "Relay", fill=(0, 0, 0), font=font(16))
    return to_array(img)


def test_labelled_shape_and_icon_become_nodes():
    rgb = _icon_page()
    inv = build_inventory(rgb)
    nodes = topology_nodes(inv)
    labels = sorted(n.label for n in nodes)
    assert labels == ["Billing", "Relay"]
    icon = next(n for n in nodes if n.label == "Relay")
    assert icon.shape == "icon"
    assert icon.bbox[1] <= 42 and icon.bbox[3] >= 90  # the drawing and its label


def test_free_text_without_drawing_is_no_node():
    img, draw = canvas(300, 160)
    draw.text((100, 70), "Caption", fill=(0, 0, 0), font=font(16))
    rgb = to_array(img)
    inv = build_inventory(rgb)
    assert topology_nodes(inv) == []


def _faint_tile_page(specks: bool = False):
    """A label under a faint tile whose only visible ink is one short dark stroke (or,
    with ``specks``, two specks of a hairline)."""
    img, draw = canvas(300, 200)
    draw.rectangle([120, 40, 160, 75], fill=(245, 247, 248))
    draw.text((118, 95), "Relay", fill=(0, 0, 0), font=font(16))
    if specks:
        draw.point([(130, 55), (150, 60)], fill=(60, 60, 60))
    else:
        draw.line([(133, 58), (146, 56)], fill=(60, 60, 60), width=3)
    return to_array(img)


def _tile_nodes(specks: bool) -> list[TopoNode]:
    rgb = _faint_tile_page(specks)
    inv = build_inventory(rgb)
    return topology_nodes(inv)


def test_a_short_stroke_alone_over_a_label_is_its_icon():
    nodes = _tile_nodes(specks=False)
    assert [n.label for n in nodes] == ["Relay"]
    assert nodes[0].bbox[1] <= 58 and nodes[0].bbox[3] >= 105


def test_specks_over_a_label_are_no_icon():
    assert _tile_nodes(specks=True) == []


def test_connector_through_a_node_is_cut_in_two():
    pts = np.array([[x, 50] for x in range(301)], float)
    c = Connector(points=pts, ends=(End((0, 50), (-1.0, 0.0), marker="arrow"),
                                    End((300, 50), (1.0, 0.0))))
    node = TopoNode("Hub", "icon", [140, 30, 170, 70])
    pieces = split_through([c], [node], Scale(stroke=2, text_height=12))
    assert len(pieces) == 2
    a, b = pieces
    assert a.ends[0].marker == "arrow" and a.ends[1].point[0] < 140
    assert b.ends[0].point[0] > 170 and b.ends[1].point == (300, 50)
    assert a.ends[1].direction[0] > 0.9 and b.ends[0].direction[0] < -0.9


def test_connector_ending_in_a_node_is_not_cut():
    pts = np.array([[x, 50] for x in range(160)], float)
    c = Connector(points=pts, ends=(End((0, 50), (-1.0, 0.0)), End((159, 50), (1.0, 0.0))))
    node = TopoNode("Hub", "icon", [140, 30, 170, 70])
    assert split_through([c], [node], Scale(stroke=2, text_height=12)) == [c]


def _ellipse_shape(box: list[int]) -> Shape:
    """An inventory ellipse filling ``box``."""
    x1, y1, x2, y2 = box
    yy, xx = np.mgrid[y1:y2, x1:x2]
    cx, cy, rx, ry = (x1 + x2 - 1) / 2, (y1 + y2 - 1) / 2, (x2 - x1) / 2, (y2 - y1) / 2
    filled = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2 <= 1
    region = Region((x1, y1, x2, y2), filled, int(filled.sum()), np.zeros((0, 2), int))
    return Shape("ellipse", (x1, y1, x2, y2), region, region)


def _ink(size: int, lines: list[np.ndarray], shape: Shape) -> np.ndarray:
    """A page's ink: the polylines drawn 2 px wide and the shape's 2 px border."""
    img = np.zeros((size, size), np.uint8)
    for pts in lines:
        cv2.polylines(img, [pts.round().astype(np.int32).reshape(-1, 1, 2)], False, 1, 2)
    x1, y1, x2, y2 = shape.bbox
    cv2.ellipse(img, (((x1 + x2 - 1) / 2, (y1 + y2 - 1) / 2), (x2 - x1, y2 - y1), 0), 1, 2)
    return img.astype(bool)


def test_line_passing_the_corner_of_an_ellipse_is_not_cut():
    # a diagonal line across the corner of the ellipse's box, clear of the ellipse itself
    pts = np.array([[x, 145 - x] for x in range(146)], float)
    c = Connector(points=pts, ends=(End((0, 145), (-0.7, 0.7)), End((145, 0), (0.7, -0.7))))
    node = TopoNode("Fish", "ellipse", [70, 70, 130, 110], [0])
    scale = Scale(stroke=2, text_height=12)
    shapes = [_ellipse_shape(node.bbox)]
    ink = _ink(200, [pts], shapes[0])
    assert split_through([c], [node], scale, shapes, ink) == [c]
    # without the shape to look at, its box alone is run through
    assert len(split_through([c], [node], scale)) == 2


def test_lines_meeting_along_a_shape_border_are_cut():
    # a line runs up to an ellipse's right end and down again hugging its border: the
    # line's ink runs into the border's, so two lines meet on the node
    pts = np.array([[140, y] for y in range(180)], float)
    c = Connector(points=pts, ends=(End((140, 0), (0.0, -1.0)), End((140, 179), (0.0, 1.0))))
    node = TopoNode("Fish", "ellipse", [60, 70, 140, 110], [0])
    shapes = [_ellipse_shape(node.bbox)]
    pieces = split_through([c], [node], Scale(stroke=2, text_height=12), shapes,
                           _ink(200, [pts], shapes[0]))
    assert len(pieces) == 2
    # the same line a few pixels clear of the ellipse passes it by
    far = pts + [6, 0]
    c = Connector(points=far, ends=(End((146, 0), (0.0, -1.0)), End((146, 179), (0.0, 1.0))))
    assert split_through([c], [node], Scale(stroke=2, text_height=12), shapes,
                         _ink(200, [far], shapes[0])) == [c]


def test_lines_meeting_at_a_shape_border_are_cut():
    # two lines leave the bottom of an ellipse a little apart, traced as one along its
    # border: a flat-bottomed "V" just under the shape
    down = [[90 - t, 111 + 2 * t] for t in range(40, 0, -1)]
    flat = [[x, 111] for x in range(90, 111)]
    up = [[110 + t, 111 + 2 * t] for t in range(1, 41)]
    c = Connector(points=np.array(down + flat + up, float),
                  ends=(End((50, 191), (-0.45, 0.9)), End((150, 191), (0.45, 0.9))))
    node = TopoNode("Rain", "ellipse", [60, 70, 140, 110], [0])
    shape = _ellipse_shape(node.bbox)
    pieces = split_through([c], [node], Scale(stroke=2, text_height=12), [shape],
                           _ink(200, [c.points], shape))
    assert len(pieces) == 2
    assert all(p.ends[0].point[1] > 110 and p.ends[1].point[1] > 110 for p in pieces)


def test_plain_end_run_into_an_icon_is_cut_back_to_it():
    pts = np.array([[x, 50] for x in range(170)], float)
    icon = TopoNode("Hub", "icon", [140, 30, 180, 70], [3])
    scale = Scale(stroke=2, text_height=12)
    c = Connector(points=pts, ends=(End((0, 50), (-1.0, 0.0)), End((169, 50), (1.0, 0.0))))
    (t,) = trim_into_icons([c], [icon], scale)
    assert t.ends[0] is c.ends[0]
    assert t.ends[1].point[0] < 140 - scale.stroke and t.ends[1].marker == "none"
    assert t.ends[1].direction[0] > 0.9
    # a head read where the trace stops, or an end on another node's shape, is kept
    headed = replace(c, ends=(c.ends[0], End((169, 50), (1.0, 0.0), marker="arrow")))
    assert trim_into_icons([headed], [icon], scale) == [headed]
    owned = replace(c, ends=(c.ends[0], End((169, 50), (1.0, 0.0), node=5)))
    assert trim_into_icons([owned], [icon], scale) == [owned]
    # a shape node's box is not an icon's; a dashed line is read across its gaps anyway
    assert trim_into_icons([c], [replace(icon, shape="rect")], scale) == [c]
    dashed = replace(c, style="dashed")
    assert trim_into_icons([dashed], [icon], scale) == [dashed]


def test_head_touching_an_icon_is_read_at_the_icon():
    # a bold line's head touches an icon's drawing: the trace runs on into the bricks
    img, draw = canvas(420, 220)
    draw.rectangle([20, 60, 140, 110], outline=(0, 0, 0), width=2)
    draw.text((45, 75), "Billing", fill=(0, 0, 0), font=font(16))
    for y in (60, 72, 84, 96):
        draw.line([(300, y), (344, y)], fill=(60, 30, 30), width=2)
    for x in (300, 322, 344):
        draw.line([(x, 60), (x, 96)], fill=(60, 30, 30), width=2)
    draw.text((306, 104), "Relay", fill=(0, 0, 0), font=font(16))
    draw.line([(141, 85), (290, 85)], fill=(0, 0, 0), width=4)
    draw.polygon([(300, 85), (288, 80), (288, 90)], fill=(0, 0, 0))
    g = parse(to_array(img), kind="topology").document
    labels = {n.id: n.label for n in g.nodes}
    assert [(labels[e.source], labels[e.target], e.directed) for e in g.edges] == [
        ("Billing", "Relay", True)]


def test_gap_between_connectors_is_no_shape():
    img, draw = canvas(400, 260)
    # two long parallel lines joined by two short ones: a closed strip whose sides run on
    draw.line([(20, 100), (380, 100)], fill=(0, 0, 0), width=2)
    draw.line([(20, 130), (380, 130)], fill=(0, 0, 0), width=2)
    draw.line([(150, 60), (150, 170)], fill=(0, 0, 0), width=2)
    draw.line([(250, 60), (250, 170)], fill=(0, 0, 0), width=2)
    # a real box beside it
    draw.rectangle([150, 200, 250, 240], outline=(0, 0, 0), width=2)
    rgb = to_array(img)
    raw = build_inventory(rgb, ocr=False)
    strip = [s for s in raw.shapes if s.bbox[1] < 140]
    assert strip and continued_sides(strip[0], raw.ink, raw.scale) >= 2
    box = [s for s in raw.shapes if s.bbox[1] > 190]
    assert box and continued_sides(box[0], raw.ink, raw.scale) == 0
    inv = build_inventory(rgb)
    assert [s.bbox[1] > 190 for s in inv.shapes] == [True]


def _piece(pts, markers=("none", "none")) -> Connector:
    """A straight or bent connector through ``pts`` with outward end directions."""
    pts = np.asarray(pts, float)
    d0 = pts[0] - pts[1]
    d1 = pts[-1] - pts[-2]
    return Connector(points=pts, ends=(
        End(tuple(pts[0]), tuple(d0 / np.linalg.norm(d0)), marker=markers[0]),
        End(tuple(pts[-1]), tuple(d1 / np.linalg.norm(d1)), marker=markers[1])))


def test_line_broken_at_a_corner_is_one_edge():
    # node 0 -> corner (gap of 4 px) -> node 1, head at node 1
    a = _piece([[10, 50], [100, 50]])
    b = _piece([[100, 46], [100, 150]], ("none", "arrow"))
    far = _piece([[300, 10], [300, 90]])  # a loose line elsewhere joins nothing
    ch = chains([a, b, far], [(0, None), (None, 1), (None, 2)], th=12)
    assert len(ch) == 1 and ch[0].pieces == [0, 1]
    (c, e), = _chain_edges(ch[0], [a, b, far], typical=2.0)
    assert (e.source, e.target, e.directed) == ("n1", "n2", True)


def test_forked_line_gives_an_edge_per_head_and_crossing_lines_stay_apart():
    trunk = _piece([[10, 100], [60, 100]])
    up = _piece([[62, 100], [62, 20]], ("none", "arrow"))
    down = _piece([[62, 101], [62, 180]], ("none", "arrow"))
    ch = chains([trunk, up, down], [(0, None), (None, 1), (None, 2)], th=12)
    assert len(ch) == 1
    edges = {(e.source, e.target, e.directed)
             for _, e in _chain_edges(ch[0], [trunk, up, down], typical=2.0)}
    assert edges == {("n1", "n2", True), ("n1", "n3", True)}
    # Loose ends far apart (more than the gap a corner leaves) stay separate.
    apart = chains([trunk, _piece([[90, 100], [90, 20]])], [(0, None), (None, 1)], th=12)
    assert apart == []


def test_gap_between_crossing_lines_with_text_read_in_it_is_no_node():
    img, draw = canvas(420, 300)
    for y in (80, 150):
        draw.line([(20, y), (400, y)], fill=(0, 0, 0), width=2)
    for x in (150, 260):
        draw.line([(x, 20), (x, 280)], fill=(0, 0, 0), width=2)
    draw.text((185, 105), "oF", fill=(0, 0, 0), font=font(16))  # junk read in the gap
    draw.rectangle([20, 200, 120, 250], outline=(0, 0, 0), width=2)
    draw.text((35, 215), "Billing", fill=(0, 0, 0), font=font(16))
    rgb = to_array(img)
    inv = build_inventory(rgb)
    assert any(s.bbox[1] < 150 and s.bbox[0] > 140 for s in inv.shapes)  # the gap is a shape
    assert [n.label for n in topology_nodes(inv)] == ["Billing"]


def test_icon_box_does_not_take_in_a_connector_ending_beside_it():
    img, draw = canvas(460, 200)
    draw.line([(240, 40), (270, 70), (300, 40)], fill=(30, 30, 120), width=3)  # a "V" icon
    draw.line([(240, 70), (300, 70)], fill=(30, 30, 120), width=3)
    draw.text((246, 80), "Relay", fill=(0, 0, 0), font=font(16))
    draw.line([(440, 77), (282, 77)], fill=(0, 0, 0), width=2)  # ends under the icon
    rgb = to_array(img)
    inv = build_inventory(rgb)
    icon = next(n for n in topology_nodes(inv) if n.label == "Relay")
    assert icon.bbox[0] <= 242 and icon.bbox[2] <= 304


def test_lone_letter_in_a_strip_between_lines_is_no_node():
    img, draw = canvas(420, 260)
    draw.line([(20, 100), (400, 100)], fill=(0, 0, 0), width=2)  # two lines running on,
    draw.line([(20, 140), (400, 140)], fill=(0, 0, 0), width=2)
    draw.line([(150, 100), (150, 140)], fill=(0, 0, 0), width=2)  # closed off between
    draw.line([(250, 100), (250, 140)], fill=(0, 0, 0), width=2)
    draw.text((193, 110), "K", fill=(0, 0, 0), font=font(16))
    draw.rectangle([160, 190, 200, 230], outline=(0, 0, 0), width=2)  # a real one-letter box
    draw.text((174, 201), "Q", fill=(0, 0, 0), font=font(16))
    rgb = to_array(img)
    inv = build_inventory(rgb)
    assert any(s.label.strip() == "K" for s in inv.shapes)
    assert [n.label for n in topology_nodes(inv)] == ["Q"]


def test_head_where_a_line_runs_on_through_an_icon_is_read():
    img, draw = canvas(520, 200)
    for x0, label in ((30, "Alpha"), (400, "Gamma")):
        draw.rectangle([x0, 40, x0 + 90, 80], outline=(0, 0, 0), width=2)
        draw.text((x0 + 18, 52), label, fill=(0, 0, 0), font=font(16))
    draw.rectangle([245, 45, 275, 75], outline=(30, 30, 120), width=3)  # an icon
    draw.line([(250, 50), (270, 70)], fill=(30, 30, 120), width=3)
    draw.text((240, 84), "Hub", fill=(0, 0, 0), font=font(16))
    # one straight line through the icon, a head where its left part meets the icon
    draw.line([(120, 60), (400, 60)], fill=(0, 0, 0), width=2)
    draw.polygon([(243, 60), (229, 54), (229, 66)], fill=(0, 0, 0))
    doc = parse(to_array(img), kind="topology").document
    label = {n.id: n.label for n in doc.nodes}
    edges = {(label[e.source], label[e.target], e.directed) for e in doc.edges}
    assert edges == {("Alpha", "Hub", True), ("Hub", "Gamma", False)}


def test_pieces_of_two_crossing_lines_join_by_heading_not_nearness():
    # line A: node 0 -> (95,100) | (105,100) -> node 1; line B: node 2 -> (100,96) |
    # (100,104) -> node 3: all four loose ends lie within a corner gap of each other
    a1 = _piece([[20, 100], [95, 100]])
    a2 = _piece([[105, 100], [180, 100]], ("none", "arrow"))
    b1 = _piece([[100, 20], [100, 96]])
    b2 = _piece([[100, 104], [100, 180]], ("none", "arrow"))
    ch = chains([a1, a2, b1, b2], [(0, None), (None, 1), (2, None), (None, 3)], th=12)
    assert sorted(c.pieces for c in ch) == [[0, 1], [2, 3]]


def test_lost_stretch_of_ink_is_bridged_round_a_corner():
    ink = np.zeros((200, 200), bool)
    ink[99:102, 40:161] = True      # drawn: across at y=100 from x=40 to 160,
    ink[40:101, 159:162] = True     # then up at x=160 to y=40
    a = _piece([[10, 100], [40, 100]])               # node 0 -> loose end at (40,100)
    b = _piece([[160, 40], [160, 10]], ("arrow", "none"))  # loose end (160,40) -> node 1
    ch = chains([a, b], [(0, None), (None, 1)], th=12, ink=ink, stroke=2.0, boxes=[])
    assert len(ch) == 1 and ch[0].pieces == [0, 1]
    # without the ink the two ends are too far apart to join
    assert chains([a, b], [(0, None), (None, 1)], th=12) == []
    gap = ink.copy()
    gap[99:102, 90:100] = False     # a real break in the drawing: no bridge
    assert chains([a, b], [(0, None), (None, 1)], th=12, ink=gap, stroke=2.0, boxes=[]) == []


def test_loose_end_runs_on_over_ink_to_a_node():
    ink = np.zeros((200, 300), bool)
    ink[99:102, 40:201] = True      # across from the loose end to x=200, then down
    ink[100:150, 199:202] = True
    boxes = [[0, 80, 30, 120], [170, 150, 230, 190]]
    a = _piece([[30, 100], [40, 100]])
    conns, ends, moved = probe_ends([a], [(0, None)], ink, boxes, 2.0)
    assert ends == [(0, 1)] and moved == [[False, True]]
    assert conns[0].ends[1].point[1] > 140          # the end now sits at node 1
    ink[99:102, 120:125] = False    # broken ink: the end stays loose
    assert probe_ends([a], [(0, None)], ink, boxes, 2.0)[1] == [(0, None)]


def test_loose_end_of_a_dashed_line_runs_on_over_dash_gaps_only():
    ink = np.zeros((200, 300), bool)
    for x in range(40, 160, 12):    # dashes 8 px long, gaps 4 px
        ink[99:102, x:x + 8] = True
    boxes = [[0, 80, 30, 120], [160, 80, 220, 120]]
    a = replace(_piece([[30, 100], [40, 100]]), style="dashed")
    assert probe_ends([a], [(0, None)], ink, boxes, 2.0, dash_gap=10)[1] == [(0, 1)]
    assert probe_ends([a], [(0, None)], ink, boxes, 2.0, dash_gap=0)[1] == [(0, None)]


def test_headless_edges_run_with_the_chart_flow():
    from cvparse.assembly.graph.assemble import orient_with_flow
    from cvparse.model import Edge

    # a top-down chain: three nodes stacked, two headed edges down, one open edge drawn
    # (traced) from the lower node to the upper one, and one open edge off to the side
    boxes = [[0, 0, 40, 20], [0, 100, 40, 120], [0, 200, 40, 220], [200, 200, 240, 220]]
    edges = [Edge("n1", "n2", extra={"points": [[20, 20], [20, 100]]}),
             Edge("n2", "n3", extra={"points": [[20, 120], [20, 200]]}),
             Edge("n3", "n1", directed=False, extra={"points": [[0, 200], [0, 20]],
                                                     "heads": ["none", "none"]}),
             Edge("n3", "n4", directed=False, extra={"points": [[40, 210], [200, 210]]})]
    out = orient_with_flow(edges, boxes)
    assert [(e.source, e.target) for e in out[:2]] == [("n1", "n2"), ("n2", "n3")]
    assert (out[2].source, out[2].target) == ("n1", "n3")
    assert out[2].extra["points"] == [[0, 20], [0, 200]]
    assert (out[3].source, out[3].target) == ("n3", "n4")  # across the flow: as traced
    # a headed edge against the flow (a back link) stays as its head says
    back = Edge("n3", "n2", extra={"points": []})
    assert orient_with_flow(edges[:2] + [back], boxes)[2].source == "n3"


def test_headless_edges_kept_without_a_clear_flow():
    from cvparse.assembly.graph.assemble import orient_with_flow
    from cvparse.model import Edge

    boxes = [[0, 0, 40, 20], [0, 100, 40, 120]]
    edges = [Edge("n2", "n1", directed=False, extra={"points": []})]
    assert orient_with_flow(edges, boxes)[0].source == "n2"


def _box_shape(box: list[int], label: str = "") -> Shape:
    x1, y1, x2, y2 = box
    filled = np.ones((y2 - y1, x2 - x1), bool)
    region = Region((x1, y1, x2, y2), filled, int(filled.sum()), np.zeros((0, 2), int))
    return Shape("rect", (x1, y1, x2, y2), region, region, label=label)


def test_side_bars_of_a_framed_box_are_part_of_it():
    from cvparse.assembly.graph.assemble import side_parts

    # a subroutine box: two narrow bars either side of the labelled middle, another
    # labelled box and an unlabelled box of its own further off, and an unlabelled box
    # as wide as its labelled neighbour (two steps, not one)
    shapes = [_box_shape([10, 10, 18, 50]), _box_shape([20, 10, 120, 50], "Fix Bug"),
              _box_shape([122, 10, 130, 50]), _box_shape([200, 10, 300, 50], "Log"),
              _box_shape([400, 10, 420, 50]), _box_shape([200, 52, 300, 90])]
    assert side_parts(shapes, stroke=1.0) == [1, 1, 1, 3, 4, 5]


def test_connector_jumping_over_a_node_across_a_bridged_gap_is_cut():
    """A gap bridged by the tracer is one straight step between two points; a node it
    steps over still cuts the line there."""
    pts = np.array([[x, 50] for x in range(131)] + [[x, 50] for x in range(180, 301)],
                   float)
    c = Connector(points=pts, ends=(End((0, 50), (-1.0, 0.0)), End((300, 50), (1.0, 0.0))))
    node = TopoNode("Hub", "icon", [140, 30, 170, 70])
    pieces = split_through([c], [node], Scale(stroke=2, text_height=12))
    assert len(pieces) == 2
    assert pieces[0].ends[1].point[0] < 140 and pieces[1].ends[0].point[0] > 170


def test_a_wrapped_label_whose_last_line_has_only_small_letters_keeps_it():
    """"Voltage" / "sensor": a last line without ascenders stands lower than the
    letter-height cut for marker fragments, but it reads as a word."""
    img, draw = canvas(300, 200)
    draw.line([(133, 58), (146, 56)], fill=(60, 60, 60), width=3)
    draw.text((112, 92), "Voltage", fill=(0, 0, 0), font=font(16))
    draw.text((118, 111), "sensor", fill=(0, 0, 0), font=font(13))  # half a text high
    rgb = to_array(img)
    inv = build_inventory(rgb)
    inv.image = rgb
    assert [n.label.replace(" ", "") for n in topology_nodes(inv)] == ["Voltagesensor"]


@pytest.mark.parametrize("x, label", [(134, "Voltage"), (230, "Voltag")])
def test_a_lone_small_letter_joins_the_label_it_sits_right_under(x, label):
    """"Voltag" / "e" (a label wrapped inside a word): the lone small letter on the
    last line is no line-end fragment, since it sits right under the line it ends; off
    to the side of the label it stays out."""
    img, draw = canvas(300, 200)
    draw.line([(133, 58), (146, 56)], fill=(60, 60, 60), width=3)
    draw.text((112, 92), "Voltag", fill=(0, 0, 0), font=font(16))
    draw.text((x, 111), "e", fill=(0, 0, 0), font=font(16))
    rgb = to_array(img)
    inv = build_inventory(rgb)
    inv.image = rgb
    assert [n.label.replace(" ", "") for n in topology_nodes(inv)] == [label]


def _rect_shape(box: tuple[int, int, int, int], label: str, fill=(255, 255, 255)) -> Shape:
    x1, y1, x2, y2 = box
    filled = np.ones((y2 - y1, x2 - x1), bool)
    region = Region(box, filled, int(filled.sum()), np.zeros((0, 2), int))
    return Shape("rect", box, region, region, fill=fill, label=label)


def _label_page(plate_box: tuple[int, int, int, int], text: str = "Yes"):
    """Two nodes above each other, a line from the first to a grey label plate and on
    from it to the second (arrow at the second); the plate's text is a dark block."""
    from cvparse.primitives.items import Inventory

    rgb = np.full((400, 300, 3), 255, np.uint8)
    x1, y1, x2, y2 = plate_box
    rgb[y1:y2, x1:x2] = (220, 220, 220)
    rgb[185:201, 131:169] = (30, 30, 30)  # the label's letters, against its plate's sides
    shapes = [_rect_shape((100, 20, 200, 80), "A"), _rect_shape((100, 320, 200, 380), "B"),
              _rect_shape(plate_box, text, fill=(220, 220, 220))]
    inv = Inventory(width=300, height=400, scale=Scale(stroke=2, text_height=16),
                    background=(255, 255, 255), shapes=shapes, image=rgb)
    up = np.array([[150, y] for y in range(82, y1 - 1)], float)
    down = np.array([[150, y] for y in range(y2 + 1, 318)], float)
    conns = [Connector(points=up, ends=(End((150, 82), (0.0, -1.0), node=0),
                                        End((150, y1 - 2), (0.0, 1.0), node=2))),
             Connector(points=down, ends=(End((150, y2 + 1), (0.0, -1.0), node=2),
                                          End((150, 317), (0.0, 1.0), node=1,
                                              marker="arrow")))]
    return inv, conns


def test_edge_label_taken_for_a_shape_is_a_label_on_one_edge():
    inv, conns = _label_page((128, 182, 172, 204))
    g = assemble_graph(inv, conns)
    assert [n.label for n in g.nodes] == ["A", "B"]
    assert [(e.source, e.target, e.label) for e in g.edges] == [("n1", "n2", "Yes")]


def test_edge_label_plate_whose_text_went_unread_is_still_a_label():
    inv, conns = _label_page((128, 182, 172, 204), text="")
    g = assemble_graph(inv, conns)
    assert [n.label for n in g.nodes] == ["A", "B"]
    assert [(e.source, e.target) for e in g.edges] == [("n1", "n2")]


def test_roomy_box_between_two_lines_stays_a_node():
    inv, conns = _label_page((110, 170, 190, 215))  # room round its text: a node
    g = assemble_graph(inv, conns)
    assert [n.label for n in g.nodes] == ["A", "B", "Yes"]
    assert len(g.edges) == 2



def _plate_hugs(margin: int, grown: int, side: int = 2, contrast: float | None = None
                ) -> bool:
    """Whether a grey plate round a 10 px high block of light 'letters', ``margin``
    pixels of fill above and below and ``side`` left and right, hugs its text; its
    outer box is ``grown`` pixels wider all round than the fill, as the antialiased ink
    found round a plate's edge makes it."""
    from types import SimpleNamespace

    from cvparse.assembly.graph.assemble import _hugs_text

    h, w = 10 + 2 * margin, 36 + 2 * side
    rgb = np.full((80, 100, 3), 70, np.uint8)
    rgb[20:20 + h, 20:20 + w] = 88
    rgb[20 + margin:30 + margin, 20 + side:56 + side] = 220
    interior = Region(bbox=(20, 20, 20 + w, 20 + h), filled=np.ones((h, w), bool),
                      paper_area=w * h, contour=np.array([[20, 20], [19 + w, 19 + h]]))
    shape = Shape(kind="rect", bbox=(20 - grown, 20 - grown, 20 + w + grown, 20 + h + grown),
                  interior=interior, outer=interior, fill=(88, 88, 88))
    inv = SimpleNamespace(scale=Scale(stroke=2.0, text_height=12.0), image=rgb)
    return _hugs_text(inv, shape) if contrast is None else _hugs_text(inv, shape, contrast)


def test_a_plate_hugs_its_text_measured_to_its_fill_above_and_below():
    # 8 px of fill over and under the letters (0.67 text heights); the ink round its edge
    # grows its outer box by 2 px more, which must not make it a node
    assert _plate_hugs(margin=8, grown=2)
    # a text height of fill above and below: a node
    assert not _plate_hugs(margin=12, grown=0)
    # a tight one-letter node: little fill above and below, but its sides are a node's
    assert not _plate_hugs(margin=4, grown=4, side=7)


def test_the_plate_text_contrast_is_a_tunable():
    from cvparse.params import GraphParams

    # the letters lie 229 off the fill (RGB distance): text at the default, not beyond
    assert GraphParams().plate_text_contrast == 60.0
    assert _plate_hugs(margin=8, grown=2, contrast=GraphParams().plate_text_contrast)
    assert not _plate_hugs(margin=8, grown=2, contrast=240.0)


def test_an_icon_drawn_in_pieces_is_grown_whole():
    # boxes x, y, w, h, area: a head close over a body, a long thin line, a far speck
    pieces = np.array([[160, 20, 40, 40, 900], [140, 63, 80, 100, 3000],
                       [220, 120, 260, 2, 520], [400, 20, 10, 10, 100]])
    label = [158, 178, 190, 194]
    seed = [150, 120, 200, 165]  # the drawing seen in the window above the label
    out = _whole_icon(seed, label, pieces, 14.0, 2.0)
    assert out == [140, 20, 220, 165]


def test_a_line_touching_a_filled_icon_is_cut_off_it():
    img, draw = canvas(520, 260)
    draw.rectangle([140, 70, 220, 170], fill=(240, 120, 20))
    draw.line([(480, 120), (221, 120)], fill=(0, 0, 0), width=2)
    rgb = to_array(img)
    ink = np.abs(rgb.astype(int) - 255).max(axis=2) > 40
    edge = ink & ~(cv2.erode(ink.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0)
    pieces, _ = _pieces_off_lines(edge, rgb, 14.0, 2.0)
    wide = pieces[pieces[:, 4] > 50]
    assert wide[:, 0].min() >= 135 and (wide[:, 0] + wide[:, 2]).max() <= 226


def test_a_line_along_a_label_top_is_no_icon():
    img, draw = canvas(400, 200)
    draw.line([(40, 80), (360, 80)], fill=(0, 0, 0), width=2)
    draw.text((150, 88), "Storage", fill=(0, 0, 0), font=font(16))
    inv = build_inventory(to_array(img))
    assert topology_nodes(inv) == []


def test_a_label_an_arrow_points_at_is_a_text_node():
    img, draw = canvas(460, 160)
    draw.text((30, 70), "alpha", fill=(0, 0, 0), font=font(18))
    draw.text((330, 70), "omega", fill=(0, 0, 0), font=font(18))
    draw.line([(90, 80), (316, 80)], fill=(0, 0, 0), width=2)
    draw.polygon([(326, 80), (312, 73), (312, 87)], fill=(0, 0, 0))
    doc = parse(to_array(img), kind="topology").document
    labels = {n.id: n.label for n in doc.nodes}
    assert sorted(labels.values()) == ["alpha", "omega"]
    assert [(labels[e.source], labels[e.target], e.directed) for e in doc.edges] == [
        ("alpha", "omega", True)]


def test_two_headed_edge_beside_a_one_headed_one_is_the_other_way():
    from cvparse.assembly.graph.assemble import split_mixed_pair
    from cvparse.model import Edge

    # two close curves between n1 and n2, one each way, traced through each other where
    # they touch: one connector got both heads, the other its own head twice
    both = Edge("n2", "n1", directed=False, extra={"points": [[0, 100], [0, 20]],
                                                    "heads": ["arrow", "arrow"]})
    one = Edge("n2", "n1", extra={"points": [[10, 100], [10, 20]],
                                  "heads": ["none", "arrow"]})
    out = split_mixed_pair([both, one])
    assert sorted((e.source, e.target, e.directed) for e in out) == [
        ("n1", "n2", True), ("n2", "n1", True)]
    assert out[0].extra["points"] == [[0, 20], [0, 100]]
    # a two-headed edge alone stays two-headed
    assert split_mixed_pair([both])[0].directed is False


def test_flowchart_line_broken_in_two_is_one_edge():
    from ...primitives.synth import cell, cells_inventory

    # a dashed curve between two nodes traced as two pieces whose loose ends meet
    inv = cells_inventory([cell((10, 10, 60, 40), "top"), cell((10, 200, 60, 230), "low")])
    a = _piece([[35, 41], [80, 90], [90, 118]])
    b = _piece([[92, 124], [80, 160], [35, 199]], ("none", "arrow"))
    a.ends[0].node, b.ends[1].node = 0, 1
    doc = assemble_graph(inv, [a, b])
    assert [(e.source, e.target, e.directed) for e in doc.edges] == [("n1", "n2", True)]
    assert "dangling_connectors" not in doc.extra


def test_lines_crossing_over_a_label_are_no_icon():
    # two slanted lines crossing right above an edge label: one piece of thin ink that
    # runs off on every side, no drawing of the label's own
    img, draw = canvas(400, 240)
    draw.line([(60, 40), (340, 110)], fill=(0, 0, 0), width=2)
    draw.line([(60, 110), (340, 40)], fill=(0, 0, 0), width=2)
    draw.text((165, 118), "uplink", fill=(0, 0, 0), font=font(16))
    inv = build_inventory(to_array(img))
    assert topology_nodes(inv) == []


def _text_node_page(tip: tuple[int, int], frame: bool = False):
    """A plain-text label "gateway" (its letters at y 60-76) and a line from a box far
    below-right ending in a dot at ``tip``, all inside a titled frame if ``frame`` (the
    label then ten px from the frame's left side)."""
    img, draw = canvas(480, 320)
    if frame:
        draw.rounded_rectangle([20, 10, 460, 300], radius=10, outline=(120, 120, 120),
                               width=2)
        draw.text((220, 16), "Site", fill=(0, 0, 0), font=font(16))
    draw.text((30 if frame else 40, 60), "gateway", fill=(0, 0, 0), font=font(16))
    draw.rectangle([300, 200, 420, 250], outline=(0, 0, 0), width=2)
    draw.text((322, 215), "switch", fill=(0, 0, 0), font=font(16))
    draw.line([(300, 205), tip], fill=(0, 0, 0), width=2)
    draw.ellipse([tip[0] - 4, tip[1] - 4, tip[0] + 4, tip[1] + 4], fill=(0, 0, 0))
    return to_array(img)


def _edges(rgb):
    doc = parse(rgb, kind="topology").document
    labels = {n.id: n.label for n in doc.nodes}
    return sorted(labels.values()), [(labels[e.source], labels[e.target]) for e in doc.edges]


def test_a_line_stopping_short_of_a_plain_label_reaches_it():
    # Graphviz stops a line at a plain-text node's invisible box, a text line or more
    # short of its letters, aimed at the label's middle
    start, middle = np.array([300.0, 205.0]), np.array([80.0, 68.0])
    u = (middle - start) / np.linalg.norm(middle - start)
    tip = middle - 70 * u  # the dot, 70 px along the line from the label's middle
    nodes, edges = _edges(_text_node_page((int(tip[0]), int(tip[1]))))
    assert nodes == ["gateway", "switch"]
    assert edges and set(edges[0]) == {"gateway", "switch"}


def test_a_label_near_a_clusters_side_is_no_title():
    # a plain-text node close to a frame's left side is a node; the title is the label
    # under the frame's top
    nodes, _ = _edges(_text_node_page((100, 82), frame=True))
    assert nodes == ["gateway", "switch"]


def test_a_label_a_line_runs_past_is_no_text_node():
    from cvparse.assembly.graph.assemble import _passed_by

    def line(a, b):
        a, b = np.array(a, float), np.array(b, float)
        pts = np.array([a + (b - a) * t for t in np.linspace(0, 1, 60)])
        u = (b - a) / np.linalg.norm(b - a)
        return Connector(points=pts, ends=(End(point=tuple(a), direction=tuple(-u)),
                                           End(point=tuple(b), direction=tuple(u))))

    label = (100, 50, 160, 64)  # an edge label, text height 14
    assert _passed_by(label, [line((20, 70), (300, 66))], 14.0)  # its line, under it
    assert _passed_by(label, [line((90, 20), (170, 90))], 14.0)  # a line crossing it
    # a line ending at it, or passing well clear of it: it may be a plain-text node
    assert not _passed_by(label, [line((300, 120), (162, 66))], 14.0)
    assert not _passed_by(label, [line((20, 100), (300, 100))], 14.0)
