"""Gaps between points and boxes: the formula every family's assembly measures with."""

import numpy as np

from cvparse.boxes import box_gap, point_gaps


def test_a_point_inside_a_box_is_no_distance_away():
    assert float(point_gaps((5, 5), (0, 0, 10, 10))) == 0.0
    assert float(point_gaps((10, 0), (0, 0, 10, 10))) == 0.0


def test_a_point_beside_a_side_is_as_far_as_that_side_and_off_a_corner_as_the_corner():
    box = (0, 0, 10, 10)
    assert float(point_gaps((-4, 5), box)) == 4.0
    assert float(point_gaps((5, 17), box)) == 7.0
    assert float(point_gaps((13, 14), box)) == 5.0


def test_many_points_to_one_box_and_one_point_to_many_boxes():
    box = (0, 0, 10, 10)
    assert point_gaps(np.array([[5, 5], [5, 12], [-3, -4]]), box).tolist() == [0, 2, 5]
    boxes = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]], float)
    assert point_gaps((15, 5), boxes.T).tolist() == [5, 5, 25]


def test_the_gap_keeps_the_points_float32_precision():
    pts = np.array([[10.5, 0]], np.float32)
    assert point_gaps(pts, (0, 0, 10, 10)).dtype == np.float32


def test_boxes_that_touch_or_overlap_have_no_gap_and_others_the_clear_distance():
    assert box_gap((0, 0, 10, 10), (10, 0, 20, 10)) == 0.0
    assert box_gap((0, 0, 10, 10), (5, 5, 20, 20)) == 0.0
    assert box_gap((0, 0, 10, 10), (13, 14, 20, 20)) == 5.0
    assert box_gap((13, 14, 20, 20), (0, 0, 10, 10)) == 5.0
