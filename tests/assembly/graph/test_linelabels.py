"""Free labels next to the graph's own lines: a 'drawing' over a label that is only
connector ink makes no icon (:mod:`cvparse.assembly.graph.linedrawn`), and a label that
traced lines were bridged through, turning there, is a plain-text node
(:mod:`cvparse.assembly.graph.throughlabels`)."""

import cv2
import numpy as np

from cvparse.assembly.graph.assemble import text_nodes, topology_nodes
from cvparse.assembly.graph.linedrawn import line_drawn
from cvparse.assembly.graph.throughlabels import bridged_through
from cvparse.connectors.lines import Connector, End
from cvparse.primitives.inventory import build_inventory

from ...primitives.synth import canvas, font, to_array


def _conn(points) -> Connector:
    pts = np.array(points, float)
    d0 = pts[0] - pts[1]
    d1 = pts[-1] - pts[-2]
    return Connector(points=pts, ends=(End(tuple(pts[0]), tuple(d0 / np.linalg.norm(d0))),
                                       End(tuple(pts[-1]), tuple(d1 / np.linalg.norm(d1)))))


def _dense(corners) -> list[list[float]]:
    """A polyline through ``corners`` with a point every pixel (as traced lines are)."""
    out: list[list[float]] = []
    for a, b in zip(corners, corners[1:]):
        n = int(max(abs(b[0] - a[0]), abs(b[1] - a[1])))
        out += [[a[0] + (b[0] - a[0]) * t / n, a[1] + (b[1] - a[1]) * t / n] for t in range(n)]
    return out + [list(corners[-1])]


LABEL = [80, 100, 120, 112]


def test_a_line_stopping_over_a_label_is_line_drawn():
    ink = np.zeros((200, 200), bool)
    cv2.line(ink.view(np.uint8), (100, 10), (100, 90), 1, 2)
    line = _conn(_dense([(100, 10), (100, 90)]))  # heading on down at the label
    assert line_drawn(ink, [95, 60, 106, 91], LABEL, [line], 2.0, 12.0)


def test_a_line_passing_over_a_label_is_line_drawn():
    ink = np.zeros((200, 200), bool)
    cv2.line(ink.view(np.uint8), (10, 85), (190, 85), 1, 2)
    line = _conn(_dense([(10, 85), (190, 85)]))
    assert line_drawn(ink, [80, 80, 120, 91], LABEL, [line], 2.0, 12.0)


def test_a_picture_a_line_ends_at_is_not_line_drawn():
    ink = np.zeros((200, 200), bool)
    cv2.rectangle(ink.view(np.uint8), (80, 60), (120, 90), 1, -1)  # the picture
    cv2.line(ink.view(np.uint8), (10, 75), (80, 75), 1, 2)  # a line ending at it
    line = _conn(_dense([(10, 75), (80, 75)]))
    assert not line_drawn(ink, [78, 60, 121, 91], LABEL, [line], 2.0, 12.0)


def test_a_stroke_picture_a_line_was_bridged_over_is_not_line_drawn():
    """A tile's picture of one stroke, with lines stopping short of it on both sides:
    the tracer runs one line on through it, bridging the gaps, and ends pointing away."""
    ink = np.zeros((200, 200), bool)
    cv2.line(ink.view(np.uint8), (85, 90), (115, 70), 1, 2)  # the picture
    cv2.line(ink.view(np.uint8), (10, 92), (65, 92), 1, 2)
    cv2.line(ink.view(np.uint8), (135, 68), (190, 40), 1, 2)
    traced = _conn(_dense([(10, 92), (65, 92), (85, 90), (115, 70), (135, 68), (190, 40)]))
    assert not line_drawn(ink, [84, 69, 116, 91], LABEL, [traced], 2.0, 12.0)


def _stacked_labels_page():
    """Two plain labels one over the other with a short line between them, and a line on
    from the upper one: plain-text nodes' lines, not icons' pictures."""
    img, draw = canvas(320, 220)
    draw.line([(150, 4), (150, 30)], fill=(0, 0, 0), width=2)
    draw.text((122, 44), "Alpha", fill=(0, 0, 0), font=font(16))
    draw.line([(150, 78), (150, 114)], fill=(0, 0, 0), width=2)
    draw.text((122, 128), "Relay", fill=(0, 0, 0), font=font(16))
    return to_array(img)


def test_a_line_ending_over_a_label_makes_no_icon():
    inv = build_inventory(_stacked_labels_page())
    bridged = _conn(_dense([(150, 4), (150, 114)]))  # traced on over the upper label
    relay = [n.shape for n in topology_nodes(inv) if n.label == "Relay"]
    assert relay == ["icon"]  # without the lines
    assert [n for n in topology_nodes(inv, connectors=[bridged]) if n.label == "Relay"] == []


BOX = [100, 100, 160, 112]


def test_a_line_turning_through_a_label_is_bridged_through():
    ink = np.zeros((300, 300), bool)
    turn = _conn(_dense([(130, 20), (130, 106), (250, 106)]))  # down, then off right
    assert bridged_through(BOX, [turn], 12.0, 2.0, ink)


def test_a_line_running_straight_through_a_label_is_not():
    ink = np.zeros((300, 300), bool)
    straight = _conn(_dense([(20, 106), (280, 106)]))  # a label sitting on its line
    assert not bridged_through(BOX, [straight], 12.0, 2.0, ink)
    # ...but two lines bridged through it meet at a node
    other = _conn(_dense([(130, 20), (130, 280)]))
    assert bridged_through(BOX, [straight, other], 12.0, 2.0, ink)


def test_a_drawn_line_passing_a_label_is_not_bridged():
    ink = np.zeros((300, 300), bool)
    cv2.line(ink.view(np.uint8), (130, 20), (130, 106), 1, 2)
    cv2.line(ink.view(np.uint8), (130, 106), (250, 106), 1, 2)
    turn = _conn(_dense([(130, 20), (130, 106), (250, 106)]))
    assert not bridged_through(BOX, [turn], 12.0, 2.0, ink)


def _plain_node_page():
    """A plain label with one line stopping short over it and another leaving from its
    right side: the lines of a plain-text node."""
    img, draw = canvas(360, 220)
    draw.line([(150, 10), (150, 112)], fill=(0, 0, 0), width=2)
    draw.text((122, 130), "Relay", fill=(0, 0, 0), font=font(16))
    draw.line([(180, 139), (340, 139)], fill=(0, 0, 0), width=2)
    return to_array(img)


def test_a_label_a_traced_line_turns_through_is_a_text_node():
    inv = build_inventory(_plain_node_page())
    bridged = _conn(_dense([(150, 10), (150, 112), (150, 139), (180, 139), (340, 139)]))
    nodes = text_nodes([bridged], [(None, None)], [], inv)
    assert [n.label for n in nodes] == ["Relay"]
    assert nodes[0].shape == "text"
