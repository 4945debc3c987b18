"""Shape detection and classification on shapes drawn in the test."""

import numpy as np
import pytest

from cvparse.primitives.inventory import build_inventory
from cvparse.primitives.shapes import classify

from .synth import canvas, font, to_array

W, H = 200, 120


def _draw(kind, draw, box, width=2, **kw):
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    if kind == "rect":
        draw.rectangle(box, outline="black", width=width, **kw)
    elif kind == "round_rect":
        draw.rounded_rectangle(box, radius=8, outline="black", width=width, **kw)
    elif kind == "stadium":
        draw.rounded_rectangle(box, radius=(y2 - y1) // 2, outline="black", width=width, **kw)
    elif kind == "ellipse":
        draw.ellipse(box, outline="black", width=width, **kw)
    elif kind == "circle":
        r = (y2 - y1) / 2
        draw.ellipse((cx - r, y1, cx + r, y2), outline="black", width=width, **kw)
    elif kind == "diamond":
        draw.polygon([(cx, y1), (x2, cy), (cx, y2), (x1, cy)], outline="black", width=width, **kw)
    elif kind == "triangle":
        draw.polygon([(cx, y1), (x2, y2), (x1, y2)], outline="black", width=width, **kw)
    elif kind == "hexagon":
        d = (y2 - y1) / 2
        draw.polygon([(x1 + d, y1), (x2 - d, y1), (x2, cy), (x2 - d, y2), (x1 + d, y2), (x1, cy)],
                     outline="black", width=width, **kw)
    elif kind == "parallelogram":
        d = 25
        draw.polygon([(x1 + d, y1), (x2, y1), (x2 - d, y2), (x1, y2)], outline="black",
                     width=width, **kw)


KINDS = ["rect", "round_rect", "stadium", "ellipse", "circle", "diamond", "triangle",
         "hexagon", "parallelogram"]


@pytest.mark.parametrize("kind", KINDS)
def test_each_shape_kind_is_recognised(kind):
    img, draw = canvas(260, 160)
    _draw(kind, draw, (30, 25, 230, 135))
    inv = build_inventory(to_array(img), ocr=False)
    assert len(inv.shapes) == 1
    assert inv.shapes[0].kind == kind


@pytest.mark.parametrize("kind", ["rect", "diamond", "ellipse"])
def test_shapes_on_coloured_background_with_fill(kind):
    img, draw = canvas(260, 160, bg=(90, 40, 120))
    _draw(kind, draw, (30, 25, 230, 135), fill=(236, 236, 255))
    draw.text((100, 70), "Abc", fill=(50, 50, 50), font=font(18))
    inv = build_inventory(to_array(img), ocr=False)
    assert [s.kind for s in inv.shapes] == [kind]
    assert inv.shapes[0].fill[2] > 240


@pytest.mark.parametrize("kind", ["rect", "ellipse", "diamond"])
def test_double_border_is_one_shape_marked_double(kind):
    img, draw = canvas(260, 160)
    _draw(kind, draw, (30, 20, 230, 140))
    _draw(kind, draw, (38, 28, 222, 132))
    inv = build_inventory(to_array(img), ocr=False)
    assert len(inv.shapes) == 1
    assert inv.shapes[0].double
    assert inv.shapes[0].kind == kind


def test_single_border_is_not_double():
    img, draw = canvas(260, 160)
    _draw("rect", draw, (30, 20, 230, 140))
    inv = build_inventory(to_array(img), ocr=False)
    assert not inv.shapes[0].double


def test_gap_between_crossing_lines_is_not_a_shape():
    img, draw = canvas(300, 200)
    draw.line((10, 10, 290, 190), fill="black", width=2)
    draw.line((10, 190, 290, 10), fill="black", width=2)
    draw.line((10, 100, 290, 120), fill="black", width=2)
    inv = build_inventory(to_array(img), ocr=False)
    assert inv.shapes == []


def test_classify_perfect_masks():
    yy, xx = np.mgrid[0:60, 0:100]
    ellipse = ((xx - 49.5) / 50) ** 2 + ((yy - 29.5) / 30) ** 2 <= 1
    diamond = np.abs(xx - 49.5) / 50 + np.abs(yy - 29.5) / 30 <= 1
    assert classify(np.ones((60, 100), bool))[0] == "rect"
    assert classify(ellipse)[0] == "ellipse"
    assert classify(diamond)[0] == "diamond"
    assert classify(diamond)[1] > 0.9


def test_a_bullseye_of_two_small_rings_is_one_shape():
    # a final node drawn as two concentric rings under a step: the area inside the
    # inner ring and the ring between them must not come out as two nodes
    import cv2

    rgb = np.full((160, 200, 3), 255, np.uint8)
    cv2.rectangle(rgb, (40, 20), (160, 56), (40, 40, 40), 1)
    cv2.putText(rgb, "Send Report", (52, 43), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1,
                cv2.LINE_AA)
    cv2.line(rgb, (100, 57), (100, 100), (40, 40, 40), 1)
    cv2.circle(rgb, (100, 113), 12, (40, 40, 40), 1, cv2.LINE_AA)
    cv2.circle(rgb, (100, 113), 6, (40, 40, 40), 1, cv2.LINE_AA)
    inv = build_inventory(rgb, ocr=False)
    rings = [s for s in inv.shapes if s.bbox[1] >= 90]
    assert len(rings) == 1
    x1, y1, x2, y2 = rings[0].bbox
    assert x1 <= 89 and x2 >= 111 and y1 <= 102 and y2 >= 124
