"""Class / table boxes found from their straight border lines."""

import numpy as np
from PIL import Image, ImageDraw

from cvparse.primitives.boxes import find_boxes


def _mask(draw_fn, size=(300, 200)):
    img = Image.new("L", size, 0)
    draw_fn(ImageDraw.Draw(img))
    return np.asarray(img) > 0


def test_box_with_two_separators_has_three_compartments():
    def draw(d):
        d.rectangle((40, 30, 200, 150), outline=255, width=2)
        d.line((40, 70, 200, 70), fill=255, width=2)
        d.line((40, 110, 200, 110), fill=255, width=2)
        d.line((200, 90, 280, 90), fill=255, width=2)  # a relation leaving the box
    boxes = find_boxes(_mask(draw), stroke=2, text_height=16)
    assert len(boxes) == 1
    x1, y1, x2, y2 = boxes[0].bbox
    assert abs(x1 - 40) <= 2 and abs(y1 - 30) <= 2 and abs(x2 - 200) <= 2 and abs(y2 - 150) <= 2
    assert len(boxes[0].compartments) == 3


def test_two_boxes_and_no_box_from_loose_lines():
    def draw(d):
        d.rectangle((10, 10, 100, 60), outline=255, width=1)
        d.rectangle((150, 100, 280, 180), outline=255, width=1)
        d.line((10, 120, 100, 120), fill=255, width=1)  # lone lines make no box
        d.line((10, 120, 10, 190), fill=255, width=1)
    boxes = find_boxes(_mask(draw), stroke=1, text_height=14)
    assert [b.bbox[:2] for b in boxes] == [(10, 10), (150, 100)]


def test_side_by_side_boxes_close_together_stay_apart():
    def draw(d):
        d.rectangle((10, 40, 110, 120), outline=255, width=1)
        d.rectangle((124, 40, 224, 120), outline=255, width=1)
        d.line((111, 80, 123, 80), fill=255, width=1)  # a short relation between them
    boxes = find_boxes(_mask(draw), stroke=1, text_height=12)
    assert [b.bbox[0] for b in boxes] == [10, 124]
    assert all(abs(b.bbox[2] - b.bbox[0] - 100) <= 2 for b in boxes)


def test_drop_shadow_does_not_make_a_second_box():
    def draw(d):
        d.rectangle((44, 34, 204, 154), fill=255)  # shadow, offset down-right
        d.rectangle((40, 30, 200, 150), fill=0, outline=255, width=2)
    boxes = find_boxes(_mask(draw), stroke=2, text_height=16)
    assert len(boxes) == 1
    x1, y1, x2, y2 = boxes[0].bbox
    assert abs(x1 - 40) <= 2 and abs(y1 - 30) <= 2 and abs(x2 - 200) <= 2 and abs(y2 - 150) <= 2


def test_rounded_box_reaches_its_top_and_bottom_lines():
    # current PlantUML rounds class corners: the straight sides start a radius below the
    # top line, but the box (and so what lies outside it) ends at the lines themselves
    def draw(d):
        d.rounded_rectangle((40, 30, 200, 150), radius=6, outline=255, width=1)
        d.line((40, 70, 200, 70), fill=255, width=1)
    boxes = find_boxes(_mask(draw), stroke=1, text_height=14)
    assert len(boxes) == 1
    assert boxes[0].bbox[1] == 30 and boxes[0].bbox[3] == 150
