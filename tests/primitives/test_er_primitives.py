"""Underlines, underscores, dashed borders, double borders, cut shapes and free words."""

import cv2
import numpy as np
import pytest

from cvparse.primitives.dashed import (
    close_border_gaps,
    close_gaps,
    dash_runs,
    dashed_regions,
)
from cvparse.primitives.double import outer_border
from cvparse.primitives.items import Scale
from cvparse.primitives.freetext import group_words
from cvparse.primitives.ocr import Word
from cvparse.primitives.pieces import hull_fits, joined_pieces
from cvparse.primitives.regions import enclosed_regions
from cvparse.primitives.strokes import is_straight_stroke, solid
from cvparse.primitives.underline import Underline, erase_underlines, find_underlines
from cvparse.primitives.wordjoin import join_label, underscore_gaps


def label_crop(underline: bool) -> np.ndarray:
    img = np.full((30, 120), 255, np.uint8)
    cv2.putText(img, "abcdef", (4, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.7, 0, 2)
    if underline:
        img[24:26, 4:100] = 0
    return img


def test_underline_found_under_text_and_erased():
    lines = find_underlines(label_crop(True), stroke=2, min_length=16)
    assert len(lines) == 1 and lines[0].y1 >= 23
    erased = erase_underlines(label_crop(True), lines)
    assert (erased[24:26, 10:90] == 255).all()
    assert (erased[:22] < 128).any()  # the letters stay


def test_no_underline_under_plain_text():
    assert find_underlines(label_crop(False), stroke=2, min_length=16) == []


def _words_crop(underscore: bool) -> tuple[np.ndarray, list[Word]]:
    img = np.full((30, 150), 255, np.uint8)
    img[6:20, 5:45] = 0     # word one (a block standing for letters)
    img[6:20, 70:110] = 0   # word two
    if underscore:
        img[21:23, 48:67] = 0
    words = [Word("one", (5, 6, 45, 20), 90, 0), Word("two", (70, 6, 110, 20), 90, 0)]
    return img, words


def test_underscore_between_words_is_restored():
    img, words = _words_crop(True)
    assert underscore_gaps(img, 14, erased=False) == 1
    assert join_label(words, img, False, 14) == "one_two"


def test_space_between_words_stays_a_space():
    img, words = _words_crop(False)
    assert underscore_gaps(img, 14, erased=False) == 0
    assert join_label(words, img, False, 14) == "one two"
    # Under an erased underline the same gap was an underscore.
    assert join_label(words, img, True, 14) == "one_two"


def _dashed_ellipse(dash: int = 8, gap: int = 9) -> np.ndarray:
    ink = np.zeros((120, 200), np.uint8)
    pts = cv2.ellipse2Poly((100, 60), (70, 35), 0, 0, 360, 1)
    steps = np.cumsum(np.r_[0, np.linalg.norm(np.diff(pts, axis=0), axis=1)])
    period = dash + gap
    for (p, q), s in zip(zip(pts[:-1], pts[1:]), steps[:-1]):
        if s % period < dash:
            cv2.line(ink, tuple(int(v) for v in p), tuple(int(v) for v in q), 1, 2)
    return ink.astype(bool)


def test_dashed_ellipse_is_found_once_gaps_close():
    ink = _dashed_ellipse()
    assert not enclosed_regions(ink, 400)  # leaks: no region before closing
    assert enclosed_regions(close_gaps(ink, 2, 16), 400)
    found = dashed_regions(ink, np.zeros_like(ink), 2, 16, 400, 0.86)
    assert len(found) == 1
    inner, region, kind, fit = found[0]
    assert kind == "ellipse" and fit >= 0.86
    x1, y1, x2, y2 = region.bbox
    assert abs((x1 + x2) / 2 - 100) <= 3 and abs((y1 + y2) / 2 - 60) <= 3


def test_solid_ellipse_is_not_dashed():
    ink = np.zeros((120, 200), np.uint8)
    cv2.ellipse(ink, (100, 60), (70, 35), 0, 0, 360, 1, 2)
    assert dashed_regions(ink.astype(bool), np.zeros((120, 200), bool), 2, 16, 400,
                          0.86) == []


def test_dash_runs_regular_vs_irregular():
    regular = np.tile([1] * 8 + [0] * 8, 10).astype(bool)
    n, longest, spread = dash_runs(regular)
    assert n == 10 and longest < 0.1 and spread < 0.1
    irregular = np.array([1] * 60 + [0] * 5 + [1] * 3 + [0] * 5 + [1] * 20 + [0] * 7, bool)
    assert dash_runs(irregular)[1] > 0.5


def _diamond(ink: np.ndarray, cx: int, cy: int, rx: int, ry: int) -> None:
    pts = np.array([[cx, cy - ry], [cx + rx, cy], [cx, cy + ry], [cx - rx, cy]], np.int32)
    cv2.polylines(ink, [pts], True, 1, 2)


def test_double_diamond_outer_border_found():
    ink = np.zeros((120, 220), np.uint8)
    _diamond(ink, 110, 60, 90, 45)
    _diamond(ink, 110, 60, 78, 39)
    regions = enclosed_regions(ink.astype(bool), 400)
    inner = min(regions, key=lambda r: r.area)  # the ring, filled, is the larger one
    ring = outer_border(inner, ink.astype(bool), 2)
    assert ring is not None and ring.area > inner.area * 1.15
    single = np.zeros((120, 220), np.uint8)
    _diamond(single, 110, 60, 78, 39)
    r = max(enclosed_regions(single.astype(bool), 400), key=lambda r: r.area)
    assert outer_border(r, single.astype(bool), 2) is None


def test_triangle_cut_by_a_line_is_joined():
    ink = np.zeros((140, 200), np.uint8)
    pts = np.array([[100, 20], [170, 120], [30, 120]], np.int32)
    cv2.polylines(ink, [pts], True, 1, 2)
    cv2.line(ink, (0, 0), (199, 139), 1, 2)  # a connector drawn across it
    pieces = enclosed_regions(ink.astype(bool), 20)
    joined = joined_pieces(pieces, ink.shape, 2, 400, 0.86)
    assert len(joined) == 1 and joined[0][1] == "triangle"
    x1, y1, x2, y2 = joined[0][0].bbox
    # Interior of the outline, sharp corners slightly rounded by the spike opening.
    assert x1 <= 40 and x2 >= 160 and y1 <= 30 and y2 >= 115


def test_glyph_tests():
    bar = np.zeros((14, 3), bool)
    bar[:, 1] = True
    ys, xs = np.nonzero(bar)
    assert is_straight_stroke(ys, xs, 2)
    n = np.zeros((14, 12), np.uint8)
    cv2.putText(n, "N", (0, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1, 1)
    ys, xs = np.nonzero(n)
    assert not is_straight_stroke(ys, xs, 1)
    blob = np.zeros((14, 14), np.uint8)
    cv2.fillPoly(blob, [np.array([[0, 0], [13, 7], [0, 13]], np.int32)], 1)
    assert solid(blob.astype(bool), 1) and not solid(n.astype(bool), 1)


def test_group_words_joins_letters_and_underscore():
    # stats rows: x, y, w, h, area (row 0 is the background)
    stats = np.array([[0, 0, 0, 0, 0],
                      [10, 10, 8, 12, 40], [20, 10, 8, 12, 40],   # "ab"
                      [30, 23, 10, 2, 20],                          # "_"
                      [42, 10, 8, 12, 40],                          # "c"
                      [120, 10, 8, 12, 40]])                        # far away
    words = group_words([1, 2, 3, 4, 5], stats, Scale(stroke=2, text_height=16))
    assert sorted(len(w.labels) for w in words) == [1, 4]


def test_triangle_notched_by_its_label_is_restored():
    ink = np.zeros((100, 160), np.uint8)
    pts = np.array([[10, 10], [150, 10], [80, 90]], np.int32)  # apex down, like IS-A
    cv2.polylines(ink, [pts], True, 1, 2)
    ink[10:30, 60:100] = 1  # a label block touching the top edge
    regions = enclosed_regions(ink.astype(bool), 200)
    assert len(regions) == 1
    from cvparse.primitives.shapes import classify
    assert classify(regions[0].filled)[1] < 0.86
    fixed = hull_fits(regions, ink.astype(bool), 200, 0.86)
    assert len(fixed) == 1 and fixed[0][1] == "triangle"


def test_dashed_ellipse_with_a_line_joined_to_one_dash_is_found():
    # A connector ends on a dash: that dash is no longer dash-like, so only the extension
    # of its neighbours along their own axes can close the gaps beside it.
    ink = _dashed_ellipse().astype(np.uint8)
    cv2.line(ink, (100, 95), (100, 119), 1, 2)
    found = dashed_regions(ink.astype(bool), np.zeros(ink.shape, bool), 2, 16, 400, 0.86)
    assert len(found) == 1 and found[0][2] == "ellipse"


def test_letters_inside_a_small_dashed_ellipse_do_not_split_it():
    ink = _dashed_ellipse().astype(np.uint8)
    # Short upright strokes (letters like i, l, t; 0.7 text heights) across the middle.
    for x in range(62, 140, 12):
        cv2.line(ink, (x, 54), (x, 65), 1, 2)
    found = dashed_regions(ink.astype(bool), np.zeros(ink.shape, bool), 2, 16, 400, 0.86)
    assert len(found) == 1
    x1, y1, x2, y2 = found[0][1].bbox
    assert x2 - x1 >= 130 and y2 - y1 >= 60


def test_ligature_bar_and_baseline_serifs_are_no_underline():
    # "ffi": a long bar at x-height with the letter bodies below it.
    bar = np.full((30, 120), 255, np.uint8)
    for x in (10, 30, 50):
        bar[4:24, x:x + 3] = 0          # stems
    bar[10:12, 6:60] = 0                # the joined cross-bar
    bar[14:24, 70:100] = 0              # a letter body beside
    assert find_underlines(bar, stroke=2, min_length=16) == []
    # "skill": serifs run together along the baseline, but not under the first letter.
    serifs = label_crop(False)
    serifs[22:24, 40:110] = 0
    assert find_underlines(serifs, stroke=2, min_length=16) == []


def test_underline_band_leaves_the_letters_sitting_on_it():
    # Letter bottoms touch the line: that row runs long but is not inked across it.
    img = np.full((30, 120), 255, np.uint8)
    for x in range(6, 100, 16):
        cv2.rectangle(img, (x, 8), (x + 10, 21), 0, 2)  # "o"-like rings, bottom row y=21
    img[22:24, 4:104] = 0
    (line,) = find_underlines(img, stroke=2, min_length=16)
    assert line.y1 == 22 and line.y2 == 24
    erased = erase_underlines(img, [line])
    assert (erased[21, 8:14] < 128).all()  # the bowls stay closed
    assert (erased[22:24, 30:36] == 255).all()


def test_fill_shaded_darker_under_the_text_is_no_underline():
    # a node filled with a gradient: under the label every row a little darker
    img = np.full((21, 80), 255, np.uint8)
    for x in range(4, 70, 8):
        cv2.rectangle(img, (x, 2), (x + 5, 11), 0, 1)
    for y in range(12, 21):
        img[y, :] = 235 - 10 * (y - 12)     # 235 .. 155
    assert find_underlines(img, stroke=2, min_length=16) == []


def _label_region(filled: np.ndarray):
    from cvparse.primitives.regions import Region

    h, w = filled.shape
    contour = np.array([[0, 0], [w, 0], [w, h], [0, h]])
    return Region(bbox=(0, 0, w, h), filled=filled, paper_area=int(filled.sum()),
                  contour=contour)


def test_label_letter_outside_a_cut_region_is_kept():
    from cvparse.primitives.labelcrop import label_crop

    rgb = np.full((40, 160, 3), 255, np.uint8)
    for x in range(20, 120, 14):  # a row of glyph-sized blocks, the last at x=118
        rgb[14:26, x:x + 8] = 0
    filled = np.zeros((40, 160), bool)
    filled[4:36, 6:116] = True  # a crossing line cut the region short of the last letter
    crop = label_crop(rgb, rgb.min(axis=2) < 128, (255, 255, 255), _label_region(filled), 2.0,
                      16.0)
    n = cv2.connectedComponents((crop < 128).astype(np.uint8))[0] - 1
    assert n == 8  # 7 letters inside + the one cut off


def test_border_remnant_is_still_dropped_from_a_label():
    from cvparse.primitives.labelcrop import label_crop

    rgb = np.full((40, 160, 3), 255, np.uint8)
    rgb[14:26, 40:48] = 0
    rgb[14:26, 54:62] = 0
    rgb[2:38, 8:10] = 0  # a long stroke along the border: taller than any letter
    filled = np.zeros((40, 160), bool)
    filled[3:37, 6:150] = True
    crop = label_crop(rgb, rgb.min(axis=2) < 128, (255, 255, 255), _label_region(filled), 2.0,
                      16.0)
    assert cv2.connectedComponents((crop < 128).astype(np.uint8))[0] - 1 == 2


@pytest.mark.parametrize("lines", [
    [((20, 110), (180, 10))],  # one connector drawn across it
    [((118, 0), (78, 119)), ((136, 0), (96, 119))],  # two
])
def test_dashed_ellipse_crossed_by_lines_is_found(lines):
    ink = _dashed_ellipse().astype(np.uint8)
    for p, q in lines:
        cv2.line(ink, p, q, 1, 2)
    ink = ink.astype(bool)
    found = dashed_regions(ink, np.zeros_like(ink), 2, 16, 400, 0.86)
    assert len(found) == 1
    _, region, kind, _ = found[0]
    x1, y1, x2, y2 = region.bbox
    assert kind == "ellipse" and x2 - x1 >= 130 and y2 - y1 >= 60


def test_underscore_found_where_a_serif_reaches_into_the_gap():
    img = np.full((30, 150), 255, np.uint8)
    img[6:21, 5:45] = 0     # word one, baseline row 20
    img[20, 45:49] = 0      # its last letter's foot serif, into the gap
    img[23:25, 49:67] = 0   # the underscore, below the baseline
    img[6:21, 70:110] = 0   # word two
    words = [Word("one", (5, 6, 45, 21), 90, 0), Word("two", (70, 6, 110, 21), 90, 0)]
    assert underscore_gaps(img, 14, erased=False) == 1
    assert join_label(words, img, False, 14) == "one_two"


def test_letter_bottom_running_into_the_gap_is_no_underscore():
    img = np.full((30, 150), 255, np.uint8)
    img[6:21, 5:45] = 0     # word one, baseline row 20
    img[20, 45:48] = 0      # a serif
    img[21, 45:66] = 0      # a letter's bottom running on, a pixel under the baseline
    img[6:21, 70:110] = 0   # word two
    assert underscore_gaps(img, 14, erased=False) == 0


def test_bottom_of_a_u_between_its_stems_is_no_underscore():
    # "Is Premium?" a few pixels tall: letters resting on the baseline are few (a P's
    # bowl, an r's arm and a ? end higher), so the u's bottom lies below their median
    img = np.full((13, 40), 255, np.uint8)
    img[3:11, 2] = 0                      # I
    img[3:8, 6:10] = 0                    # P (stem and bowl, ending high)
    img[3:11, 6] = 0
    img[5, 12:15] = 0                     # r's arm
    img[5:11, 12] = 0
    img[3, 17:20] = 0                     # ?'s hook, ending high
    img[3:8, 20] = 0
    img[5:10, 23] = 0                     # u: two stems and a bottom
    img[5:11, 27] = 0
    img[10, 24:28] = 0
    assert underscore_gaps(img, 6, erased=False) == 0


def _small_dashed_ellipse(half_height: int) -> np.ndarray:
    """A dashed ellipse about as tight round its label as Graphviz draws one."""
    ink = np.zeros((120, 200), np.uint8)
    pts = cv2.ellipse2Poly((100, 60), (65, half_height), 0, 0, 360, 1)
    steps = np.cumsum(np.r_[0, np.linalg.norm(np.diff(pts, axis=0), axis=1)])
    for (p, q), s in zip(zip(pts[:-1], pts[1:]), steps[:-1]):
        if s % 15 < 8:
            cv2.line(ink, tuple(int(v) for v in p), tuple(int(v) for v in q), 1, 2)
    return ink


def test_letter_strokes_pointing_at_a_tight_dashed_border_do_not_cut_it():
    # Upright letter strokes (t, l, i) near the ends of the label, whose ends come within
    # a dash gap of both the top and the bottom border: drawn on, they would cut off the
    # ends of the ellipse.
    ink = _small_dashed_ellipse(17)
    for x in (68, 132):
        cv2.line(ink, (x, 53), (x, 66), 1, 2)
    found = dashed_regions(ink.astype(bool), np.zeros(ink.shape, bool), 2, 16, 400, 0.86)
    assert len(found) == 1
    _, region, kind, _ = found[0]
    x1, y1, x2, y2 = region.bbox
    assert kind == "ellipse" and x2 - x1 >= 120


def test_letter_strokes_are_not_border_dashes():
    ink = _small_dashed_ellipse(17)
    cv2.line(ink, (100, 51), (100, 68), 1, 2)
    _, border = close_border_gaps(ink.astype(bool), 2, 16)
    assert not border[52:68, 99:102].any()    # the letter stroke
    assert border[ink.astype(bool)].mean() > 0.8  # most of the dashes


def test_crossed_ellipse_needs_dashes_on_one_ellipse():
    # The pieces between two dashed straight lines and two solid ones fit no ellipse.
    ink = np.zeros((120, 200), np.uint8)
    for x in range(20, 180, 15):
        cv2.line(ink, (x, 30), (x + 7, 30), 1, 2)
        cv2.line(ink, (x, 90), (x + 7, 90), 1, 2)
    cv2.line(ink, (40, 0), (40, 119), 1, 2)
    cv2.line(ink, (150, 0), (150, 119), 1, 2)
    found = dashed_regions(ink.astype(bool), np.zeros(ink.shape, bool), 2, 16, 400, 0.86)
    assert not [f for f in found if f[2] in ("ellipse", "circle")]


def test_settle_closes_hairline_gaps_and_drops_specks():
    from cvparse.primitives.dashed import settle

    dash, gap = [True] * 8, [False] * 9
    hits = np.array((dash + gap) * 6, bool)
    noisy = hits.copy()
    noisy[3] = False          # a hairline gap inside a dash (narrower than a stroke)
    noisy[12] = True          # a speck inside a gap
    assert (settle(noisy, 2) == hits).all()
    assert dash_runs(settle(noisy, 2))[2] < dash_runs(noisy)[2]


def test_dashed_ellipse_with_an_end_cut_off_by_a_line_is_found_whole():
    ink = _dashed_ellipse().astype(np.uint8)
    cv2.line(ink, (44, 0), (74, 119), 1, 2)  # a connector across its left end
    for cut in (False, True):
        if cut:
            cv2.line(ink, (58, 0), (58, 119), 1, 2)  # a second one cuts off a letter more
        found = dashed_regions(ink.astype(bool), np.zeros(ink.shape, bool), 2, 16, 400, 0.86)
        assert len(found) == 1
        _, region, kind, _ = found[0]
        x1, y1, x2, y2 = region.bbox
        assert kind == "ellipse" and x1 <= 40 and x2 - x1 >= 130


def test_underline_erase_keeps_letter_bottoms_darker_than_a_soft_line():
    # Small text: a thin line drawn between pixel rows is light grey, and its soft edge
    # joins the letters' bottom row in the ink; the grey shade tells the two apart.
    shade = np.full((20, 80), 255, np.uint8)
    for x in range(6, 66, 12):
        cv2.rectangle(shade, (x, 5), (x + 7, 12), 0, 1)  # rings, bottom row y=12
    row = shade[12, 4:72]
    row[row == 255] = 170  # the line's soft upper edge between the letters
    shade[13, 4:72] = 170
    ink = np.where(shade < 200, 0, 255).astype(np.uint8)
    (line,) = find_underlines(ink, stroke=1, min_length=16)
    assert (line.y1, line.y2) == (12, 14)
    kept = erase_underlines(ink, [line], shade)
    assert (kept[12, 6:14] == 0).all()  # the ring bottoms stay
    assert (kept[12, 15:18] == 255).all() and (kept[13, 4:72] == 255).all()
    assert (kept[5:12] == ink[5:12]).all()
    assert (erase_underlines(ink, [line])[12, 6:14] == 255).all()  # ink alone: cut off


def test_double_border_ring_cut_in_two_keeps_its_inside():
    """Lines running into the gap of a double border near two corners cut its ring in
    two; one piece then lies within the other's box.  The inside still pairs with a
    ring (the larger piece), and is not taken for the inside of the other piece."""
    from cvparse.primitives.inventory import _merge_double_borders
    from cvparse.primitives.regions import region_from_mask

    def region(mask):
        ys, xs = np.nonzero(mask)
        x1, y1, x2, y2 = xs.min(), ys.min(), xs.max() + 1, ys.max() + 1
        return region_from_mask(mask[y1:y2, x1:x2], int(x1), int(y1), int(mask.sum()))

    inside, c_piece, bar_piece = (np.zeros((60, 100), bool) for _ in range(3))
    inside[10:50, 10:90] = True
    c_piece[6:8, 6:92] = c_piece[52:54, 6:92] = c_piece[6:54, 6:8] = True  # top, bottom, left
    bar_piece[2:58, 92:94] = bar_piece[2:4, 2:6] = True                     # right, a corner
    regions = [region(c_piece), region(bar_piece), region(inside)]
    pairs = _merge_double_borders(regions, stroke=2.0)
    assert [(inner.bbox, outer.bbox) for inner, outer in pairs] == [
        (regions[2].bbox, regions[0].bbox)]


def test_band_between_lines_round_a_node_is_no_second_border():
    """Two lines passing a box close off a thin band of paper that holds the box: it is
    no ring round it (most of it lies far from the box), while a double border round the
    two compartments of a table hugs them both."""
    from cvparse.primitives.inventory import _merge_double_borders
    from cvparse.primitives.regions import region_from_mask

    def region(mask):
        ys, xs = np.nonzero(mask)
        x1, y1, x2, y2 = xs.min(), ys.min(), xs.max() + 1, ys.max() + 1
        return region_from_mask(mask[y1:y2, x1:x2], int(x1), int(y1), int(mask.sum()))

    box = np.zeros((200, 200), bool)
    box[120:150, 120:180] = True
    band = np.zeros((200, 200), bool)                  # an L of paper between two lines
    band[10:16, 10:190] = band[10:190, 184:190] = True
    pairs = _merge_double_borders([region(band), region(box)], stroke=2.0)
    assert sorted(outer.bbox for inner, outer in pairs if inner is outer) == sorted(
        [region(band).bbox, region(box).bbox])

    name, rows, ring = (np.zeros((100, 120), bool) for _ in range(3))
    name[10:40, 10:110] = True
    rows[43:90, 10:110] = True
    ring[5:8, 5:115] = ring[92:95, 5:115] = ring[5:95, 5:8] = ring[5:95, 112:115] = True
    ring[5:8, 60:63] = False                           # a line ending on the inner border
    regions = [region(ring), region(name), region(rows)]
    pairs = _merge_double_borders(regions, stroke=2.0)
    assert (regions[1].bbox, regions[0].bbox) in [(i.bbox, o.bbox) for i, o in pairs]


def test_double_diamond_cut_by_a_line_through_it_keeps_its_second_border():
    """A line drawn right through an identifying relationship cuts its inside in two; the
    pieces are joined back, and the second border round them is found as well."""
    from cvparse.primitives.inventory import build_inventory

    img = np.full((200, 360, 3), 255, np.uint8)
    cx, cy, hw, hh = 180, 100, 110, 36
    for g in (0, 6):
        k = g * np.hypot(hw, hh) / hh  # the same gap along the slanted sides
        pts = np.array([[cx - hw + k, cy], [cx, cy - hh + g], [cx + hw - k, cy],
                        [cx, cy + hh - g]], np.int32)
        cv2.polylines(img, [pts], True, (0, 0, 0), 1, cv2.LINE_AA)
    cv2.line(img, (20, 40), (340, 150), (0, 0, 0), 1, cv2.LINE_AA)
    cv2.putText(img, "has", (160, 108), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 1,
                cv2.LINE_AA)
    shapes = build_inventory(img, ocr=False).shapes
    assert [(s.kind, s.double) for s in shapes] == [("diamond", True)]


def test_erasing_an_underline_keeps_letter_feet_in_its_soft_edge():
    # Letters rest on a one-row line whose anti-aliased upper edge shares their bottom
    # row: erasing that row whole would cut an E's foot off (it then reads F).
    img = np.full((16, 40), 255, np.uint8)
    img[3:12, 4:8] = 0  # a letter stem, its foot in row 11
    img[11, 8:14] = 0   # the foot
    img[11, 14:38] = 230  # the line's soft edge beside it
    img[11, 2:4] = 230
    img[12, 2:38] = 0   # the line
    out = erase_underlines(img, [Underline(12, 13, 2, 38)])
    assert (out[12, 2:38] == 255).all()
    assert (out[11, 4:14] == 0).all()
    assert (out[11, 14:38] == 255).all()


def test_underscore_gap_under_an_erased_line_tolerates_a_serif():
    # "TRIGGER_NAME" in Times: the underscore went with the erased underline, and the
    # leg of the R reaches into the gap at the baseline.
    img = np.full((16, 60), 255, np.uint8)
    img[2:13, 2:20] = 0
    img[10:13, 20:23] = 0   # the serif of the last letter
    img[2:13, 30:48] = 0    # the gap 23..30 is empty in every row
    assert underscore_gaps(img, 11, erased=True) == 1
    img[2:13, 26:30] = 0    # a gap of three columns is a space, not an underscore
    assert underscore_gaps(img, 11, erased=True) == 0
