"""Attaching connector ends to shapes, and areas closed off by connectors (phantoms)."""

import cv2
import numpy as np

from cvparse.connectors.attach import attach_ends, phantom_shapes
from cvparse.connectors.trace import trace_connectors
from cvparse.primitives.inventory import build_inventory

INK = (0, 0, 0)


def _page(w: int = 300, h: int = 200) -> np.ndarray:
    return np.full((h, w, 3), 255, np.uint8)


def _shape_at(inv, x: int, y: int) -> int:
    hits = [i for i, s in enumerate(inv.shapes)
            if s.bbox[0] <= x <= s.bbox[2] and s.bbox[1] <= y <= s.bbox[3]]
    assert len(hits) == 1
    return hits[0]


def test_line_touching_two_boxes_attaches_to_both():
    rgb = _page()
    cv2.rectangle(rgb, (20, 70), (80, 130), INK, 2)
    cv2.rectangle(rgb, (220, 70), (280, 130), INK, 2)
    cv2.line(rgb, (81, 100), (219, 100), INK, 2)
    inv = build_inventory(rgb, ocr=False)
    conns = trace_connectors(inv)
    attach_ends(inv, conns)
    assert len(conns) == 1
    left, right = _shape_at(inv, 50, 100), _shape_at(inv, 250, 100)
    assert {e.node for e in conns[0].ends} == {left, right}


def test_end_pointing_at_a_box_across_a_gap_attaches_but_not_one_pointing_away():
    rgb = _page()
    cv2.rectangle(rgb, (200, 70), (260, 130), INK, 2)
    cv2.line(rgb, (40, 100), (190, 100), INK, 2)  # stops 10 px short of the box
    inv = build_inventory(rgb, ocr=False)
    conns = trace_connectors(inv)
    attach_ends(inv, conns)
    assert len(conns) == 1
    box = _shape_at(inv, 230, 100)
    by_x = sorted(conns[0].ends, key=lambda e: e.point[0])
    assert by_x[0].node is None
    assert by_x[1].node == box


def test_area_closed_off_by_two_curves_between_boxes_is_a_phantom():
    rgb = _page(400, 260)
    cv2.rectangle(rgb, (20, 110), (70, 150), INK, 2)
    cv2.rectangle(rgb, (330, 110), (380, 150), INK, 2)
    cv2.rectangle(rgb, (175, 110), (225, 150), INK, 2)  # a node inside the closed area
    # two arcs joining the outer boxes above and below close off a big region
    cv2.ellipse(rgb, (200, 130), (150, 110), 0, 180, 360, INK, 2)
    cv2.ellipse(rgb, (200, 130), (150, 110), 0, 0, 180, INK, 2)
    inv = build_inventory(rgb, ocr=False)
    phantoms = phantom_shapes(inv)
    assert len(phantoms) == 1
    big = next(iter(phantoms))
    x1, y1, x2, y2 = inv.shapes[big].bbox
    assert x2 - x1 > 250 and y2 - y1 > 180
    # the three boxes stay nodes and the arcs are traced as connectors
    for x in (45, 200, 355):
        assert _shape_at_live(inv, phantoms, x, 130)
    conns = trace_connectors(inv)
    assert sum(c.length > 200 for c in conns) == 2


def _shape_at_live(inv, phantoms, x, y) -> bool:
    return any(s.bbox[0] <= x <= s.bbox[2] and s.bbox[1] <= y <= s.bbox[3]
               for i, s in enumerate(inv.shapes) if i not in phantoms)


def test_separate_boxes_are_never_phantoms():
    rgb = _page(400, 200)
    for x in (20, 150, 280):
        cv2.rectangle(rgb, (x, 60), (x + 90, 120), INK, 2)
    cv2.line(rgb, (111, 90), (149, 90), INK, 2)
    cv2.line(rgb, (241, 90), (279, 90), INK, 2)
    inv = build_inventory(rgb, ocr=False)
    assert len(inv.shapes) == 3
    assert phantom_shapes(inv) == set()


def _merging_page(tangent: bool) -> np.ndarray:
    """Two boxes joined by a straight line, and a line from a third box running into it,
    either tangentially (a link merging into another) or at a right angle (a T)."""
    rgb = _page(400, 220)
    cv2.rectangle(rgb, (20, 120), (80, 180), INK, 2)
    cv2.rectangle(rgb, (320, 120), (380, 180), INK, 2)
    cv2.rectangle(rgb, (90, 20), (150, 60), INK, 2)
    cv2.line(rgb, (81, 150), (319, 150), INK, 2)
    if tangent:
        t = np.linspace(0, 1, 60)[:, None]
        p0, p1, p2 = np.array([120, 61]), np.array([150, 150]), np.array([260, 150])
        curve = ((1 - t) ** 2 * p0 + 2 * (1 - t) * t * p1 + t ** 2 * p2).round()
        cv2.polylines(rgb, [curve.astype(np.int32)], False, INK, 2)
    else:
        cv2.line(rgb, (120, 61), (120, 100), INK, 2)
        cv2.line(rgb, (120, 100), (200, 100), INK, 2)
        cv2.line(rgb, (200, 100), (200, 149), INK, 2)
    return rgb


def test_line_merging_tangentially_into_another_takes_its_far_end():
    rgb = _merging_page(tangent=True)
    inv = build_inventory(rgb, ocr=False)
    conns = trace_connectors(inv)
    # heads as the marker stage would read them: one on the trunk's right end, and a
    # false one where the two strokes merge
    for c in conns:
        for e in c.ends:
            e.marker = ("arrow" if e.point[0] > 300 else
                        "filled_diamond" if e.on_connector is not None else "none")
    attach_ends(inv, conns)
    top, right = _shape_at(inv, 120, 40), _shape_at(inv, 350, 150)
    branch = [c for c in conns if top in {e.node for e in c.ends}]
    assert len(branch) == 1
    assert {e.node for e in branch[0].ends} == {top, right}
    # the merged end carries the trunk's head, the end at the top box none
    assert {e.node: e.marker for e in branch[0].ends} == {top: "none", right: "arrow"}


def test_line_ending_on_another_at_a_right_angle_takes_no_node():
    rgb = _merging_page(tangent=False)
    inv = build_inventory(rgb, ocr=False)
    conns = trace_connectors(inv)
    attach_ends(inv, conns)
    top = _shape_at(inv, 120, 40)
    branch = [c for c in conns if top in {e.node for e in c.ends}]
    assert len(branch) == 1
    assert None in {e.node for e in branch[0].ends}


def test_line_cut_by_a_crossing_just_before_a_box_still_attaches():
    rgb = _page(400, 220)
    cv2.rectangle(rgb, (200, 100), (260, 160), INK, 2)
    cv2.line(rgb, (40, 130), (199, 130), INK, 2)
    cv2.line(rgb, (186, 20), (186, 200), INK, 2)  # crosses a few px off the box
    inv = build_inventory(rgb, ocr=False)
    conns = trace_connectors(inv)
    attach_ends(inv, conns)
    box = _shape_at(inv, 230, 130)
    horizontal = [c for c in conns if np.ptp(c.points[:, 1]) < 5]
    assert len(horizontal) == 1
    assert box in {e.node for e in horizontal[0].ends}


def test_area_between_two_lines_a_frame_side_and_a_box_is_a_phantom():
    # two parallel arrows from above into a box, crossing a long frame side: the area
    # the two lines, the frame side and the box's top close off is no node
    rgb = _page(400, 260)
    cv2.rectangle(rgb, (120, 150), (280, 220), INK, 2)  # the node
    cv2.line(rgb, (20, 90), (380, 90), INK, 2)  # a frame's top side
    for x in (170, 230):
        cv2.line(rgb, (x, 10), (x, 149), INK, 2)
    inv = build_inventory(rgb, ocr=False)
    gap = _shape_at(inv, 200, 120)
    node = _shape_at(inv, 200, 185)
    assert gap in phantom_shapes(inv) and node not in phantom_shapes(inv)



def test_line_merging_into_another_close_to_its_node_takes_that_node():
    # a curve from a top box runs into a line a little before the line reaches its box
    # (a shared stretch shorter than two text heights): it ends at that box too
    rgb = _page(400, 220)
    cv2.rectangle(rgb, (20, 120), (80, 180), INK, 2)
    cv2.rectangle(rgb, (320, 120), (380, 180), INK, 2)
    cv2.rectangle(rgb, (150, 20), (210, 60), INK, 2)
    cv2.line(rgb, (81, 150), (319, 150), INK, 2)
    t = np.linspace(0, 1, 120)[:, None]
    p0, p1, p2 = np.array([180, 61]), np.array([260, 150]), np.array([318, 150])
    curve = ((1 - t) ** 2 * p0 + 2 * (1 - t) * t * p1 + t ** 2 * p2).round()
    cv2.polylines(rgb, [curve.astype(np.int32)], False, INK, 2)
    inv = build_inventory(rgb, ocr=False)
    conns = trace_connectors(inv)
    attach_ends(inv, conns, close_nodes=True)  # as flowcharts draw their curves
    top, right = _shape_at(inv, 180, 40), _shape_at(inv, 350, 150)
    branch = [c for c in conns if top in {e.node for e in c.ends}]
    assert len(branch) == 1
    assert {e.node for e in branch[0].ends} == {top, right}
