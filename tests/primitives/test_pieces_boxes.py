"""Boxes with an end cut off by a line drawn across them at a slant, mended."""

import cv2
import numpy as np
import pytest

from cvparse.primitives.pieces import _closed, crossed_boxes, mended_boxes
from cvparse.primitives.regions import enclosed_regions
from cvparse.primitives.shapes import classify


def _cut_box(line: bool = True) -> tuple[np.ndarray, list]:
    """A 160 x 50 box; with ``line``, a connector crossing its left end at a slant."""
    ink = np.zeros((100, 220), np.uint8)
    cv2.rectangle(ink, (30, 25), (190, 75), 1, 2)
    if line:
        cv2.line(ink, (60, 0), (35, 99), 1, 2)
    return ink, enclosed_regions(ink.astype(bool), 20)


def test_box_with_an_end_cut_off_is_mended_to_a_box():
    ink, regions = _cut_box()
    big = max(regions, key=lambda r: r.area)
    kind, fit = classify(big.filled)
    assert kind != "rect" or fit < 0.97  # the cut leaves a slanted end
    rest = [r for r in regions if r is not big]
    mended, boxes, used = mended_boxes([(big, "parallelogram", fit)], rest, ink.shape, 2,
                                       100, 0.86)
    (i, region, kind, fit), = mended
    assert i == 0 and kind == "rect" and fit > 0.97 and len(used) >= 1 and boxes == []
    x1, y1, x2, y2 = region.bbox
    assert abs(x1 - 32) <= 2 and abs(x2 - 189) <= 2 and abs(y1 - 27) <= 2 and abs(y2 - 74) <= 2


def test_only_shapes_a_cut_leaves_are_mended():
    ink, regions = _cut_box()
    big = max(regions, key=lambda r: r.area)
    rest = [r for r in regions if r is not big]
    assert mended_boxes([(big, "ellipse", 0.9)], rest, ink.shape, 2, 100, 0.86)[:2] == ([], [])


def test_box_cut_into_two_pieces_fitting_nothing_is_found():
    # A line across a corner: neither piece fits a shape; together they are the box.
    ink, _ = _cut_box(line=False)
    cv2.line(ink, (120, 0), (215, 99), 1, 2)
    pieces = enclosed_regions(ink.astype(bool), 20)
    assert all(classify(r.filled)[1] < 0.86 for r in pieces)
    mended, boxes, used = mended_boxes([], pieces, ink.shape, 2, 100, 0.86)
    ((_, kind, fit),) = boxes
    assert mended == [] and kind == "rect" and fit > 0.97 and len(used) == 2


def test_gaps_between_orthogonal_lines_are_not_joined():
    # Two rectangular gaps one line apart are boxes each: no union of them is made.
    ink, _ = _cut_box(line=False)
    cv2.line(ink, (110, 25), (110, 75), 1, 2)
    pieces = enclosed_regions(ink.astype(bool), 20)
    assert mended_boxes([], pieces, ink.shape, 2, 100, 0.86)[:2] == ([], [])


def test_united_box_keeps_its_square_corners():
    # Two halves of a box split by an upright line: the union is the box, corners and all.
    ink, _ = _cut_box(line=False)
    cv2.line(ink, (110, 25), (110, 75), 1, 2)
    halves = enclosed_regions(ink.astype(bool), 20)
    assert len(halves) == 2
    region = _closed(halves, 4)
    kind, fit = classify(region.filled)
    assert kind == "rect" and fit > 0.97
    x1, y1, x2, y2 = region.bbox
    assert x2 - x1 <= 190 - 30 and y2 - y1 <= 75 - 25  # grown, then eroded back fully


def _page() -> np.ndarray:
    """A 160 x 50 box on a page with room around it for lines to run on."""
    ink = np.zeros((160, 300), np.uint8)
    cv2.rectangle(ink, (70, 55), (230, 105), 1, 2)
    return ink


def _crossed(ink: np.ndarray) -> tuple[list, set]:
    pieces = enclosed_regions(ink.astype(bool), 20)
    return crossed_boxes(pieces, ink.astype(bool), 2, 14, 100, 0.86)


def test_box_cut_whole_by_a_line_running_past_it_is_found():
    ink = _page()
    cv2.line(ink, (0, 70), (299, 90), 1, 2)  # a connector drawn straight through
    (region, kind, fit), = _crossed(ink)[0]
    assert kind == "rect" and fit > 0.97
    x1, y1, x2, y2 = region.bbox
    assert abs(x1 - 72) <= 2 and abs(x2 - 229) <= 2 and abs(y1 - 57) <= 2 and abs(y2 - 104) <= 2


def test_box_cut_in_three_by_two_lines_is_found():
    ink = _page()
    cv2.line(ink, (20, 0), (200, 159), 1, 2)
    cv2.line(ink, (299, 20), (120, 159), 1, 2)
    boxes, used = _crossed(ink)
    assert [b[1] for b in boxes] == ["rect"] and len(used) >= 3


def test_wall_between_two_boxes_side_by_side_is_not_a_cut():
    # Two compartments sharing a wall that ends at the outline stay apart.
    ink = _page()
    cv2.line(ink, (150, 55), (150, 105), 1, 2)
    assert _crossed(ink)[0] == []


def test_wall_with_a_connector_leaving_its_end_is_not_a_cut():
    # Ink outside the box at the wall's end, but not in line with the wall.
    ink = _page()
    cv2.line(ink, (150, 55), (150, 105), 1, 2)
    cv2.line(ink, (150, 105), (250, 150), 1, 2)
    assert _crossed(ink)[0] == []


def test_gap_between_lines_with_an_open_side_is_not_a_box():
    # Lines crossing one another close off a gap, a fifth cuts it; a side left open (the
    # lines not meeting) is no border drawn all round.
    ink = np.zeros((160, 300), np.uint8)
    cv2.line(ink, (0, 55), (299, 55), 1, 2)
    cv2.line(ink, (0, 105), (299, 105), 1, 2)
    cv2.line(ink, (70, 0), (70, 159), 1, 2)
    cv2.line(ink, (230, 0), (230, 159), 1, 2)
    cv2.line(ink, (0, 70), (299, 90), 1, 2)
    cv2.rectangle(ink, (228, 58), (232, 66), 0, -1)
    assert _crossed(ink)[0] == []


def _framed_node() -> tuple[np.ndarray, list, int]:
    """A frame round a node, cut in two by slanted lines running in from the page's edges
    to the node (the node fills the notch between the pieces): the pieces and the index
    of the node's inside."""
    ink = np.zeros((200, 400), np.uint8)
    cv2.rectangle(ink, (40, 30), (360, 170), 1, 2)
    cv2.rectangle(ink, (160, 85), (240, 115), 1, 2)
    cv2.line(ink, (0, 60), (160, 100), 1, 2)
    cv2.line(ink, (240, 100), (399, 140), 1, 2)
    pieces = enclosed_regions(ink.astype(bool), 20)
    node = [j for j, r in enumerate(pieces) if r.bbox[0] >= 160 and r.bbox[2] <= 241]
    assert len(node) == 1
    return ink, pieces, node[0]


def test_shape_inside_a_cut_frame_is_no_piece_of_it():
    ink, pieces, node = _framed_node()
    boxes, used = crossed_boxes(pieces, ink.astype(bool), 2, 14, 100, 0.86)
    assert node not in used and len(used) == 2
    assert len(boxes) == 1 and boxes[0][0].bbox[2] - boxes[0][0].bbox[0] > 300  # the frame


def test_cut_frame_round_a_found_shape_stays_apart():
    ink, pieces, node = _framed_node()
    assert crossed_boxes(pieces, ink.astype(bool), 2, 14, 100, 0.86,
                         found=[pieces[node]]) == ([], set())


def test_found_box_with_a_corner_cut_off_keeps_the_line_out():
    ink = _page()
    cv2.line(ink, (40, 110), (140, 10), 1, 2)  # cuts a wedge off the top left corner
    pieces = enclosed_regions(ink.astype(bool), 20)
    big = max(pieces, key=lambda r: r.area)
    args = (pieces, ink.astype(bool), 2, 14, 100, 0.86)
    assert [b[1] for b in crossed_boxes(*args)[0]] == ["rect"]  # the wedge joins alone
    assert crossed_boxes(*args, boxes=[big]) == ([], set())


@pytest.mark.parametrize("line", [(0, 88, 419, 100), (0, 104, 419, 92), (0, 95, 419, 95)])
def test_labelled_box_crossed_by_a_connector_is_found_by_the_inventory(line):
    from cvparse.primitives.inventory import build_inventory

    from .synth import canvas, font, to_array
    img, draw = canvas(420, 200)
    draw.rectangle((145, 70, 285, 116), outline=(0, 0, 0), width=2)
    draw.text((150, 80), "Dependent", fill=(0, 0, 0), font=font(24))
    draw.line(line, fill=(0, 0, 0), width=2)  # straight through the label
    inv = build_inventory(to_array(img), ocr=False)
    boxes = [s for s in inv.shapes if s.kind in ("rect", "round_rect")]
    assert len(boxes) == 1
    x1, y1, x2, y2 = boxes[0].bbox
    assert abs(x1 - 145) <= 3 and abs(x2 - 285) <= 3 and abs(y1 - 70) <= 3 and abs(y2 - 116) <= 3


def test_a_union_left_only_beyond_the_page_is_no_region():
    """``unite`` keeps one pixel of a union that opened away, in the margin it grew into;
    cut to the page, nothing is left (the fuzz reproducer
    ``pieces_union_wholly_past_page_edge.bin`` raised from ``region_from_mask``)."""
    from cvparse.primitives.pieces import _on_page
    from cvparse.primitives.regions import region_from_mask

    beyond = region_from_mask(np.ones((1, 1), bool), -2, 53, 1)
    assert _on_page(beyond, (90, 128)) is None
    below = region_from_mask(np.ones((2, 3), bool), 10, 90, 6)
    assert _on_page(below, (90, 128)) is None
    edge = region_from_mask(np.ones((2, 3), bool), -1, 5, 6)
    assert _on_page(edge, (90, 128)).bbox == (0, 5, 2, 7)


def test_row_wall_with_a_letter_and_a_line_at_its_side_is_not_a_cut():
    # A table's name cell over a row: the wall ends at the outline.  A letter hanging
    # from the wall touches the right side lower down, which splits the seam's run
    # along that side, and a connector leaves the side there: neither the slanted line
    # from the wall's left end to the letter nor the side itself (both ends on it) is a
    # straight cut that runs on.
    ink = _page()
    cv2.line(ink, (70, 80), (230, 80), 1, 2)
    cv2.rectangle(ink, (212, 80), (215, 98), 1, -1)  # the letter: a stem from the wall
    cv2.rectangle(ink, (212, 94), (229, 98), 1, -1)  # and a foot against the side
    for x in range(76, 206, 8):  # the row's text, standing on its bottom border
        cv2.rectangle(ink, (x, 98), (x + 4, 105), 1, -1)
    cv2.line(ink, (230, 96), (299, 103), 1, 2)  # the connector ending at the row
    assert _crossed(ink)[0] == []
