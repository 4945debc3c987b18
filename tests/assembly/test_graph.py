"""Node-link assembly: icon nodes, connectors cut at the nodes they run through, and
empty regions closed off by connectors."""

import numpy as np

from cvparse.assembly.graph import (
    TopoNode,
    _join_line_words,
    _stack_lines,
    split_through,
    topology_nodes,
)
from cvparse.connectors.elements import Connector, End
from cvparse.primitives.elements import Scale
from cvparse.primitives.inventory import build_inventory, continued_sides

from ..primitives.synth import canvas, font, to_array


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
    inv.image = rgb
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
    inv.image = rgb
    assert topology_nodes(inv) == []


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
