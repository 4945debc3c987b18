"""Boxes with an end cut off by a line drawn across them at a slant, mended."""

import cv2
import numpy as np

from cvparse.primitives.pieces import _closed, mended_boxes
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
