"""Tracer repairs on tiny synthetic drawings: two lines merged in their arrowheads, arrowhead
remains past a label plate, lines brushing past a node."""

import cv2
import numpy as np

from cvparse.connectors.attach import attach_grow, shape_label_map
from cvparse.connectors.lines import Connector, End
from cvparse.connectors.plates import _outlined
from cvparse.connectors.gaps import _through_plates, bridge_gaps, split_hairpins
from cvparse.connectors.joins import join_grazing
from cvparse.connectors.polylines import polyline_direction
from cvparse.primitives.inventory import build_inventory

def _polyline(*corners) -> np.ndarray:
    """Points one pixel apart along straight runs between ``corners``."""
    out = []
    for p, q in zip(corners[:-1], corners[1:]):
        n = int(max(abs(q[0] - p[0]), abs(q[1] - p[1])))
        t = np.linspace(0, 1, n + 1)[:-1, None]
        out.append(np.asarray(p, float) + t * (np.asarray(q, float) - np.asarray(p, float)))
    out.append(np.asarray([corners[-1]], float))
    return np.vstack(out)


def _conn(points: np.ndarray) -> Connector:
    return Connector(points=points,
                     ends=(End(point=tuple(points[0]),
                               direction=tuple(polyline_direction(points, 10))),
                           End(point=tuple(points[-1]),
                               direction=tuple(polyline_direction(points[::-1], 10)))))


def test_two_lines_merged_in_their_heads_by_a_node_are_split_at_the_bend():
    # in along one line, round the two heads, out along the other: a hairpin by a node
    u = _polyline((250, 100), (60, 100), (56, 104), (60, 108), (250, 108))
    near = np.zeros((200, 300), bool)
    near[:, :64] = True
    lines, gaps = split_hairpins([u], [0], 20, near)
    assert len(lines) == 2 and gaps == [0, 0]
    assert all(min(l[0][0], l[-1][0]) < 62 and max(l[0][0], l[-1][0]) >= 249 for l in lines)
    # away from every shape (a loop, a bend in open space) the line stays whole
    assert len(split_hairpins([u], [0], 20, np.zeros_like(near))[0]) == 1
    wide = _polyline((250, 40), (80, 40), (40, 80), (40, 120), (80, 160), (250, 160))
    assert len(split_hairpins([wide], [0], 20, near)[0]) == 1


def test_line_into_a_plate_is_paired_with_the_head_just_past_it():
    plate = (134, 140, 168, 160)
    line = _polyline((150, 20), (150, 138))
    head = _polyline((154, 172), (146, 173))  # a head's skeleton, pruned off its stub
    lines, gaps = bridge_gaps([line, head], 18, 10, 3, text_pad=8.5, text_height=15.0,
                              plates=[plate])
    assert len(lines) == 1 and gaps == [1]
    assert lines[0][-1][1] > 165 and abs(lines[0][-1][0] - 150) <= 4
    # remains before the plate's middle are not what the line runs on into
    pts = np.array([line[0], line[-1], [150.0, 145.0], [152.0, 146.0]])
    dirs = np.array([polyline_direction(line, 10), polyline_direction(line[::-1], 10),
                     [1.0, 0], [-1.0, 0]])
    assert _through_plates(pts, dirs, [plate], 8.5, 15.0, np.array([0, 0, 1, 1], bool)) == []


def test_line_brushing_past_a_node_is_joined_across_the_cleared_margin():
    rgb = np.full((300, 300, 3), 255, np.uint8)
    cv2.rectangle(rgb, (100, 100), (200, 160), (0, 0, 0), 2)
    inv = build_inventory(rgb, ocr=False)
    targets = shape_label_map(inv, attach_grow(inv))
    above = _conn(_polyline((206, 20), (206, 126)))
    below = _conn(_polyline((205, 138), (205, 280)))
    conns = [above, below]
    join_grazing(conns, inv, targets, 20, 6)
    assert len(conns) == 1
    ends = sorted((conns[0].points[0][1], conns[0].points[-1][1]))
    assert ends[0] <= 21 and ends[1] >= 279
    # two lines ending side by side on the node, both heading into it, stay two
    side = [_conn(_polyline((150, 20), (150, 94))), _conn(_polyline((160, 20), (160, 94)))]
    join_grazing(side, inv, targets, 20, 6)
    assert len(side) == 2


def test_dark_outline_inside_a_pale_area_marks_an_icon_not_a_plate():
    outlined = np.zeros((30, 40), bool)
    outlined[:2, :] = outlined[-2:, :] = outlined[:, :2] = outlined[:, -2:] = True
    outlined[10:12, :] = True  # a course of bricks inside
    assert _outlined(outlined, 3)
    letters = np.zeros((30, 40), bool)
    letters[8:22, 6:10] = letters[8:22, 14:18] = letters[8:10, 22:34] = True
    assert not _outlined(letters, 3)
    # a line running past one side of a plate leaves the others clear
    letters[:, -2:] = True
    assert not _outlined(letters, 3)


def test_line_turning_at_its_label_is_joined_across_it():
    # a step line: in from the right along the label's row, out of its bottom
    plate = (100, 100, 140, 120)
    into = _polyline((300, 110), (146, 110))
    out = _polyline((120, 128), (120, 250))
    lines, gaps = bridge_gaps([into, out], 18, 10, 3, text_pad=8.5, text_height=15.0,
                              plates=[plate])
    assert len(lines) == 1 and gaps == [1]
    assert {tuple(lines[0][0]), tuple(lines[0][-1])} == {(300.0, 110.0), (120.0, 250.0)}
    # a third line reaching the label leaves the pairing to the facing rules
    third = _polyline((120, 20), (120, 92))
    lines, _ = bridge_gaps([into, out, third], 18, 10, 3, text_pad=8.5, text_height=15.0,
                           plates=[plate])
    assert not any({tuple(l[0]), tuple(l[-1])} == {(300.0, 110.0), (120.0, 250.0)}
                   for l in lines)
    # ends by a shape are no line through a label
    near = np.zeros((300, 400), bool)
    near[95:135, 95:160] = True
    lines, _ = bridge_gaps([into, out], 18, 10, 3, text_pad=8.5, text_height=15.0,
                           plates=[plate], near_shape=near)
    assert len(lines) == 2
