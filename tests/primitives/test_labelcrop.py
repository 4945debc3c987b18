"""Lines drawn across a label: found, taken out of its crop, and the letters they cross kept."""

import cv2
import numpy as np

from cvparse.primitives.labelcrop import (_TextLook, crossing_lines, erase_lines, label_area,
                                          label_crop)
from cvparse.primitives.regions import Region, fill_holes, region_from_mask

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



def _paper_region(rgb: np.ndarray) -> Region:
    """The enclosed paper of the box as the page shows it (ink joined to the border cuts
    into it), with its holes filled."""
    paper = (rgb.min(axis=2) >= 128).astype(np.uint8)
    _, labels = cv2.connectedComponents(paper, connectivity=4)
    mask = fill_holes(labels == labels[TOP + 4, LEFT + 4])
    return region_from_mask(mask, 0, 0, int(mask.sum()))


def test_a_last_line_touching_the_border_zone_stays_in_the_label():
    # Text filling its box: the second line's letters come within a stroke of the bottom
    # side, centred under the first line; they are the label's, not border remnants.
    rgb = _page()
    for x in (50, 62, 74, 86):
        rgb[40:52, x:x + 8] = 0
    for x in (58, 70, 82):
        rgb[60:BOTTOM - 1, x:x + 8] = 0
    crop = _crop(rgb)
    rows = (crop < 128).any(axis=1)
    assert crop.shape[0] >= BOTTOM - 1 - 40
    assert rows[:6].any() and rows[-6:].any()


def test_letters_joined_to_the_border_by_an_arrowhead_stay_in_the_label():
    # A filled arrowhead drawn over the bottom side touches the second line: those
    # letters join the border and are no part of the enclosed paper, but of the label;
    # the head itself is not.
    rgb = _page()
    for x in (50, 62, 74, 86):
        rgb[40:52, x:x + 8] = 0
    rgb[56:66, 58:90] = 0  # two pairs of joined letters, the head tip between them
    rgb[56:66, 74] = 255
    rgb[57:65, 59:90:3] = 255  # its strokes two pixels wide
    head = np.array([[74, 64], [64, BOTTOM + 12], [84, BOTTOM + 12]], np.int32)
    cv2.fillPoly(rgb, [head], (0, 0, 0))
    region = _paper_region(rgb)
    assert not region.filled[60 - region.bbox[1], 60 - region.bbox[0]]  # cut off
    ink = rgb.min(axis=2) < 128
    area = label_area(region, ink, STROKE)
    x1, y1 = region.bbox[:2]
    assert area[60 - y1, 59 - x1] and area[60 - y1, 88 - x1]    # the letters are back
    assert not area[BOTTOM - 6 - y1, 74 - x1]                   # the head is not
    crop = label_crop(rgb, ink, (255, 255, 255), region, STROKE, TEXT)
    assert crop.shape[0] >= 66 - 40


def test_a_concave_region_keeps_its_own_outline():
    # An L-shaped area is a shape of its own, not a box with a bay cut in.
    filled = np.zeros((60, 60), bool)
    filled[:, :20] = True
    filled[40:, :] = True
    region = region_from_mask(filled, 10, 10, int(filled.sum()))
    area = label_area(region, np.zeros((100, 100), bool), STROKE)
    assert not area[10, 40]


def _thin_letters(rgb: np.ndarray, y: int, xs: tuple[int, ...], h: int = 12) -> None:
    """Letters drawn with a two-pixel pen ("H"-like glyphs, 8 wide, ``h`` tall)."""
    for x in xs:
        rgb[y:y + h, x:x + 2] = 0
        rgb[y:y + h, x + 6:x + 8] = 0
        rgb[y + h // 2 - 1:y + h // 2 + 1, x:x + 8] = 0


def _paper_crop(rgb: np.ndarray) -> np.ndarray:
    ink = rgb.min(axis=2) < 128
    return label_crop(rgb, ink, (255, 255, 255), _paper_region(rgb), STROKE, TEXT)


def test_a_line_touching_the_border_with_the_letters_pen_stays():
    # The wrapped label's second line runs into the bottom side: joined to the border,
    # it is cut out of the enclosed paper, but it is drawn as the first line is.
    rgb = _page()
    _thin_letters(rgb, 40, (50, 62, 74, 86))
    _thin_letters(rgb, 60, (58, 70, 82), BOTTOM + 1 - 60)
    assert _paper_crop(rgb).shape[0] >= BOTTOM - 40


def test_only_ink_drawn_like_the_letters_and_off_the_border_reads_as_text():
    # A thin letter reaching the border zone, a solid blob (a head's tip) and a run
    # along the side, beside thin letters clear of the border.
    img = np.zeros((40, 120), np.uint8)
    for x in (10, 22, 34):                               # letters clear of the border
        img[6:18, x:x + 2] = 1
        img[6:18, x + 6:x + 8] = 1
        img[11:13, x:x + 8] = 1
    img[24:40, 50:52] = 1                                 # a thin letter stroke
    img[24:40, 56:58] = 1
    img[31:33, 50:58] = 1
    img[28:40, 70:80] = 1                                 # solid
    img[37:40, 90:118] = 1                                # along the bottom side
    n, labels, stats, _ = cv2.connectedComponentsWithStats(img, connectivity=8)
    outline = np.ones(img.shape, bool)
    at = {(int(stats[j, 0]), int(stats[j, 1])): j for j in range(1, n)}
    looks = _TextLook(labels, stats, [at[(10, 6)], at[(22, 6)], at[(34, 6)]], outline, STROKE)
    assert looks.text_like(at[(50, 24)])
    assert not looks.text_like(at[(70, 28)])
    assert not looks.text_like(at[(90, 37)])


def test_a_remnant_lying_along_the_border_is_no_line_of_the_label():
    # A spur of the border under a label (an L of border ink, letter-sized, centred
    # under the text) lies along the side: it is no wrapped line.
    rgb = _page()
    _thin_letters(rgb, 40, (50, 62, 74, 86))
    rgb[BOTTOM - 8:BOTTOM + 1, 60:62] = 0
    rgb[BOTTOM - 3:BOTTOM + 1, 60:84] = 0
    assert _paper_crop(rgb).shape[0] <= 12 + 5
