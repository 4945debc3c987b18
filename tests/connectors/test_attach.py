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
