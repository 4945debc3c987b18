"""Light thin lines join the strong ink; shadows, tints and a strong stroke's fringe do not."""

import numpy as np

from cvparse.primitives.paper import line_ink, strong_ink

WHITE = (255, 255, 255)


def _page():
    rgb = np.full((60, 80, 3), 255, np.uint8)
    rgb[10:12, 5:75] = 20  # black text-like bar: the page's strongest ink
    return rgb


def test_grey_hairline_split_over_two_rows_is_kept():
    rgb = _page()
    rgb[30, 5:75] = 158  # a 1 px grey line drawn between two pixel rows
    rgb[31, 5:75] = 206
    ink = (rgb < 240).any(axis=2)
    assert not strong_ink(rgb, ink, WHITE)[30:32].any()
    assert line_ink(rgb, ink, WHITE)[30, 10:70].all()


def test_light_area_is_left_out():
    rgb = _page()
    rgb[35:45, 20:60] = 190  # a shadow or tint: wider than a line
    ink = (rgb < 240).any(axis=2)
    assert not line_ink(rgb, ink, WHITE)[36:44, 21:59].any()


def test_fringe_of_a_strong_stroke_is_left_out():
    rgb = _page()
    rgb[40, 5:75] = 30   # strong 1 px line with a light anti-aliased row below
    rgb[41, 5:75] = 200
    ink = (rgb < 240).any(axis=2)
    out = line_ink(rgb, ink, WHITE)
    assert out[40, 5:75].all() and not out[41].any()


def test_page_coloured_pixels_in_the_ink_are_no_light_line():
    # the ink may hold a column of page-coloured pixels beside a box fill (the step of a
    # wide paper map a pixel off the border); a light line differs from the page
    rgb = np.full((60, 80, 3), 255, np.uint8)
    rgb[10:50, 40:70] = (236, 236, 255)  # a lavender fill
    rgb[10:50, 40] = (147, 111, 219)  # its purple border
    rgb[30, 5:30] = (200, 200, 200)  # a light grey line
    ink = np.zeros((60, 80), bool)
    ink[10:50, 40] = True
    ink[30, 5:30] = True
    ink[15:25, 38] = True  # page-coloured, yet in the ink
    out = line_ink(rgb, ink, WHITE)
    assert not out[15:25, 38].any()
    assert out[30, 5:30].all()
