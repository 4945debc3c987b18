"""Lines drawn across a label: found, taken out of its crop, and the letters they cross kept."""

import cv2
import numpy as np

from cvparse.primitives.labelcrop import crossing_lines, erase_lines, label_crop
from cvparse.primitives.regions import Region

STROKE, TEXT = 2.0, 16.0
TOP, BOTTOM, LEFT, RIGHT = 34, 76, 8, 170
"""The label area: the inside of a box drawn on a 110 x 180 page."""


def _page() -> np.ndarray:
    rgb = np.full((110, 180, 3), 255, np.uint8)
    cv2.rectangle(rgb, (LEFT - 2, TOP - 2), (RIGHT + 1, BOTTOM + 1), (0, 0, 0), 2)
    return rgb


def _region() -> Region:
    filled = np.ones((BOTTOM - TOP, RIGHT - LEFT), bool)
    contour = np.array([[LEFT, TOP], [RIGHT, TOP], [RIGHT, BOTTOM], [LEFT, BOTTOM]])
    return Region(bbox=(LEFT, TOP, RIGHT, BOTTOM), filled=filled, paper_area=filled.size,
                  contour=contour)


def _crop(rgb: np.ndarray) -> np.ndarray:
    return label_crop(rgb, rgb.min(axis=2) < 128, (255, 255, 255), _region(), STROKE, TEXT)


def _blocks(rgb: np.ndarray, xs: list[int]) -> None:
    for x in xs:
        rgb[48:60, x:x + 8] = 0


def _window(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Dark ink, the area well inside and the region, over the whole page."""
    dark = rgb.min(axis=2) < 128
    filled = np.zeros(dark.shape, bool)
    filled[TOP:BOTTOM, LEFT:RIGHT] = True
    inside = np.zeros(dark.shape, bool)
    inside[TOP + 2:BOTTOM - 2, LEFT + 2:RIGHT - 2] = True
    return dark, inside, filled


def test_line_crossing_a_label_is_removed_and_its_letters_kept():
    rgb = _page()
    blocks = list(range(24, 124, 14))
    _blocks(rgb, blocks)
    cv2.line(rgb, (30, 0), (90, 109), (0, 0, 0), 2)  # a connector across the label
    crop = _crop(rgb)
    dark = crop < 128
    # The crop starts at the first letter: every block keeps ink in its columns ...
    cols = dark.any(axis=0)
    x0 = blocks[0] - 2
    assert all(cols[x - x0:x - x0 + 8].any() for x in blocks)
    # ... and the line above and below the letters is gone (the crop holds the row only).
    assert crop.shape[0] <= 12 + 5


def test_letter_stroke_crossing_a_line_is_drawn_back_through_it():
    rgb = _page()
    rgb[44:64, 60:62] = 0  # an upright stroke (an "l")
    rgb[44:64, 90:92] = 0  # another, clear of the line
    cv2.line(rgb, (0, 100), (120, 8), (0, 0, 0), 2)  # crosses the first at mid-height
    dark, inside, filled = _window(rgb)
    (line,) = crossing_lines(dark, inside, filled, STROKE, TEXT)
    assert 1 <= line.width <= 3
    erased, band = erase_lines(255.0 - 255.0 * dark, [line])
    assert band[dark].sum() > 50                      # the line's ink is in its band
    stem = erased[44:64, 60:62] < 160
    assert stem.any(axis=1).all()                     # the stroke runs on unbroken
    off_stem = band & inside & ~np.pad(np.ones((20, 2), bool), ((44, 46), (60, 118)))
    assert (erased[off_stem] == 255).all()            # the rest of it in the label is paper
    top = erased[TOP - 2:TOP][band[TOP - 2:TOP]]
    assert (top < 160).mean() > 0.5                   # the box's top side is drawn back too


def test_lines_ending_at_the_border_and_underlines_are_not_crossing_lines():
    rgb = _page()
    _blocks(rgb, [40, 54, 68])
    cv2.line(rgb, (100, 0), (100, TOP - 2), (0, 0, 0), 2)  # a connector ends at the top
    rgb[42:44, 38:80] = 0                                  # an underline under the letters
    cv2.line(rgb, (LEFT + 3, 20), (LEFT + 40, 20), (0, 0, 0), 2)  # a long stroke inside
    dark, inside, filled = _window(rgb)
    assert crossing_lines(dark, inside, filled, STROKE, TEXT) == []


def test_two_lines_crossing_each_other_inside_a_label_are_both_found():
    rgb = _page()
    _blocks(rgb, [30, 44, 100, 114])
    cv2.line(rgb, (40, 0), (100, 109), (0, 0, 0), 2)
    cv2.line(rgb, (49, 0), (89, 109), (0, 0, 0), 2)  # meets the other on the label
    dark, inside, filled = _window(rgb)
    lines = crossing_lines(dark, inside, filled, STROKE, TEXT)
    assert len(lines) == 2
    erased, _ = erase_lines(255.0 - 255.0 * dark, lines)
    left = erased[TOP + 2:BOTTOM - 2, 56:86] < 160
    assert not left.any()  # both lines are gone where they cross the label


def test_letters_beside_one_a_line_runs_through_stay_in_the_label():
    # The line passes through one letter and touches its neighbours: once it is out, the
    # letters it touched no longer touch the border but are still the label's.
    rgb = _page()
    blocks = [30, 42, 54, 120, 132]
    _blocks(rgb, blocks)
    cv2.line(rgb, (10, 109), (88, 0), (0, 0, 0), 3)
    crop = _crop(rgb)
    cols = (crop < 128).any(axis=0)
    x0 = blocks[0] - 2
    assert cols[:4].any() and cols[blocks[-1] - x0:blocks[-1] - x0 + 8].any()
    assert crop.shape[1] >= blocks[-1] + 8 - blocks[0]

