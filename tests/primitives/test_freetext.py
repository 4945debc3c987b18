"""Free words beside connectors: arrowheads, dashes and dots that touch a label are not
part of it."""

import cv2
import numpy as np

from cvparse.primitives.items import Scale
from cvparse.primitives.freetext import _line_tips_in, free_words, glyph_components, group_words
from cvparse.primitives.inventory import build_inventory

from .synth import canvas, font, to_array


def _words(rgb):
    inv = build_inventory(rgb, ocr=False)
    words, _ = free_words(rgb, inv.ink, inv.shapes, inv.scale, inv.background)
    return words, inv.scale


def _word_at(words, x, y):
    return next(w for w in words if w.bbox[0] <= x <= w.bbox[2] and w.bbox[1] <= y <= w.bbox[3])


def test_filled_head_on_a_dashed_line_is_no_letter():
    img, draw = canvas(360, 200)
    draw.text((160, 80), "Server", fill=(0, 0, 0), font=font(18))
    # a dashed line whose last dash runs into a filled arrowhead, tip at the label
    tip = np.array([157.0, 90.0])
    d = np.array([1.0, -0.6]) / np.hypot(1.0, 0.6)
    n = np.array([-d[1], d[0]])
    for k in range(4, 12, 2):
        a, b = tip - d * (k * 8), tip - d * (k * 8 - 8)
        draw.line([tuple(a), tuple(b)], fill=(60, 60, 60), width=2)
    draw.line([tuple(tip - d * 16), tuple(tip - d * 8)], fill=(60, 60, 60), width=2)
    base = tip - d * 11
    draw.polygon([tuple(tip), tuple(base + n * 5), tuple(base - n * 5)], fill=(60, 60, 60))
    words, scale = _words(to_array(img))
    word = _word_at(words, 170, 90)
    assert word.bbox[0] >= 158  # starts at the S, not at the head left of it
    assert word.bbox[3] - word.bbox[1] <= 1.1 * scale.text_height


def test_dotted_line_under_a_word_does_not_join_it():
    img, draw = canvas(300, 220)
    draw.text((100, 60), "Server", fill=(0, 0, 0), font=font(16))
    draw.line([(20, 200), (280, 200)], fill=(0, 0, 0), width=2)  # a plain line elsewhere
    bottom = int(np.nonzero(to_array(img)[:190, 100:160, 0].min(axis=1) < 128)[0].max())
    for y in range(bottom + 2, 180, 6):  # dots leaving the word's baseline downwards
        draw.rectangle([124, y, 126, y + 2], fill=(80, 40, 120))
    words, scale = _words(to_array(img))
    word = _word_at(words, 110, 70)
    assert word.bbox[3] - word.bbox[1] <= 1.6 * scale.text_height  # no chain of dots


def test_open_head_beyond_the_straight_run_is_taken_with_the_line():
    # the line's straight run stops short of the head's point (its thick last stretch
    # blends into the sides); the head is still taken out with the line
    mask = np.zeros((60, 120), bool)
    mask[29:32, 30:110] = True             # the line, three pixels thick
    for t in range(12):                 # the two sides of an open head at x = 18
        mask[30 - t // 2 - 1:30 - t // 2 + 1, 18 + t] = True
        mask[30 + t // 2:30 + t // 2 + 2, 18 + t] = True
    mask[29:32, 18:30] = True              # the shaft runs on to the point
    glyph = np.zeros((60, 120), bool)
    glyph[24:36, 8:13] = True              # a letter left of the point
    scale = Scale(stroke=3.0, text_height=14.0)
    labels, glyphs, stats, lines, _ = glyph_components(mask | glyph, [], scale)
    words = group_words(glyphs, stats, scale)
    assert lines[30, 20] and lines[25, 28]
    assert [w.bbox for w in words] == [(8, 24, 13, 36)]


def test_head_sides_must_leave_the_line_and_the_point_lies_on_along_it():
    from cvparse.primitives.arrowheads import clear_of_line, run_on

    tip, back = (50, 30), (10, 0)  # the line runs on to the right of its end
    assert not clear_of_line(tip, back, [(57, 31), (57, 29)], clear=3.5)  # in the line
    assert clear_of_line(tip, back, [(60, 36), (60, 24)], clear=3.5)
    assert not clear_of_line(tip, back, [], clear=3.5)
    near = np.zeros((60, 100), bool)
    near[29:32, 40:90] = True
    assert run_on(near, (50, 30), back, reach=20) == (40, 30)
    assert run_on(near, (50, 30), back, reach=4) == (46, 30)


def _dashed(draw, start, d, pitch, dash, slots, colour=(40, 40, 40)):
    """Dashes of a dashed line from ``start`` along unit ``d``, one per slot number."""
    for k in slots:
        a = np.array(start) + d * (k * pitch)
        draw.line([tuple(a), tuple(a + d * dash)], fill=colour, width=2)


def test_dashes_past_a_crossing_and_the_hooked_last_one_are_no_word():
    # a dashed line crosses a solid one: two dashes are lost in the crossing and two are
    # left on the far side (too few for a row of their own); the last dash, with a bit of
    # a border it ran into, is a glyph of its own that reads as letters
    img, draw = canvas(300, 260)
    draw.rectangle([170, 190, 240, 225], outline=(0, 0, 0), width=2)
    d = np.array([0.2, 1.0]) / np.hypot(0.2, 1.0)
    _dashed(draw, (100, 20), d, 15, 9, [0, 1, 2, 3, 6, 7, 8])
    draw.line([(40, 87), (200, 97)], fill=(200, 120, 40), width=2)  # the crossing line
    end = np.array((100, 20)) + d * (8 * 15 + 9)
    draw.line([tuple(end), tuple(end + np.array([-6, 0]))], fill=(40, 40, 40), width=2)
    draw.text((20, 200), "Moss", fill=(0, 0, 0), font=font(16))
    words, scale = _words(to_array(img))
    assert [w.bbox for w in words if w.bbox[0] > 90] == []
    assert any(w.bbox[0] < 50 for w in words)  # a free label stays


def test_a_letter_beyond_a_dashed_line_off_its_pitch_stays():
    # an "l" on the dashed line's axis but not a whole number of pitches on is text
    img, draw = canvas(300, 200)
    d = np.array([1.0, 0.0])
    _dashed(draw, (20, 100), d, 14, 8, [0, 1, 2, 3])
    draw.text((99, 88), "lo", fill=(0, 0, 0), font=font(18))
    words, scale = _words(to_array(img))
    assert any(w.bbox[0] >= 95 and w.bbox[2] <= 125 for w in words)


def _free_text(rgb):
    return [t.text for t in build_inventory(rgb).texts]


def test_line_ends_run_into_letters_are_given_back():
    img, draw = canvas(360, 160)
    draw.text((120, 40), "Edge Node HQ", fill=(0, 0, 0), font=font(18))
    x1, y1, x2, y2 = draw.textbbox((120, 40), "Edge Node HQ", font=font(18))
    draw.line([(x2 - 4, y2 - 4), (340, 140)], fill=(0, 0, 0), width=2)
    draw.line([(x1 + 3, y1 + 2), (20, 120)], fill=(0, 0, 0), width=2)
    assert _free_text(to_array(img)) == ["Edge Node HQ"]


def test_line_tips_in_a_word_box():
    scale = Scale(stroke=2, text_height=12)
    lines = np.zeros((60, 100), bool)
    own = np.zeros((24, 44), bool)  # crop of the word box 30..70 x 20..40, margin 2
    own[4:18, 4:40] = True
    lines[28:32, 10:36] = True  # a line coming in from the left, ending in a letter
    tips = _line_tips_in(own, lines, (30, 20, 70, 40), (28, 18), scale)
    assert tips[10:14, 2:8].all() and not tips[:, :2].any()
    lines[36:38, 20:90] = True  # a line crossing the whole word is no tip
    tips = _line_tips_in(own, lines, (30, 20, 70, 40), (28, 18), scale)
    assert not tips[18:20].any()
    busy = lines.copy()
    busy[8:52, 20:80:3] = True  # line-work all round: an icon's strokes, not a label
    assert not _line_tips_in(own, busy, (30, 20, 70, 40), (28, 18), scale).any()


def test_line_passing_a_word_corner_is_no_tip():
    # a line cutting across the box's corner leaves it again: none of it is given back
    scale = Scale(stroke=2, text_height=12)
    lines = np.zeros((60, 100), np.uint8)
    cv2.line(lines, (22, 34), (40, 12), 1, 2)  # in at the left side, out at the top
    own = np.zeros((24, 44), bool)
    own[4:18, 4:40] = True
    assert not _line_tips_in(own, lines.astype(bool), (30, 20, 70, 40), (28, 18), scale).any()
    lines[:] = 0
    cv2.line(lines, (22, 34), (33, 22), 1, 2)  # the same line ending in the first letter
    assert _line_tips_in(own, lines.astype(bool), (30, 20, 70, 40), (28, 18), scale).any()


def test_wrapped_tail_sits_right_under_a_line_within_its_width():
    from cvparse.primitives.freetext import wrapped_tail

    line = (100, 50, 164, 62)  # "Capacito", text height 13
    assert wrapped_tail((130, 65, 135, 72), [line], 13)  # its "r", one leading under it
    assert not wrapped_tail((130, 90, 135, 97), [line], 13)  # two lines further down
    assert not wrapped_tail((175, 65, 180, 72), [line], 13)  # off to the side
    assert not wrapped_tail((130, 40, 135, 47), [line], 13)  # above it


def _kerned_ea() -> np.ndarray:
    """"EA" run together into one piece, 9 px capitals (an 11 px font), 1-2 px strokes."""
    pair = np.zeros((9, 17), np.uint8)
    pair[:, 0:2] = 1  # the E's stem
    pair[[0, 4], 2:7] = 1  # its bars; the bottom one runs into the A's foot
    pair[8, 2:9] = 1
    cv2.line(pair, (8, 8), (12, 0), 1, 1)  # the A's legs and bar
    cv2.line(pair, (12, 0), (16, 8), 1, 1)
    pair[5, 10:15] = 1
    return pair.astype(bool)


def test_two_kerned_capitals_with_a_stem_are_a_pair_not_a_line():
    from cvparse.primitives.strokes import stemmed_pair

    diagonal = np.zeros((9, 17), bool)  # a piece of a slanted line, as long
    for x in range(17):
        y = int(round(x * 8 / 16))
        diagonal[max(0, y - 1):y + 1, x] = True
    assert stemmed_pair(_kerned_ea(), 11.25)
    assert not stemmed_pair(diagonal, 11.25)
    assert not stemmed_pair(np.ones((9, 30), bool), 11.25)  # wider than two letters


def test_capitals_run_together_at_a_small_size_stay_glyphs():
    ink = np.zeros((40, 80), bool)
    ink[15:24, 20:37] = _kerned_ea()
    ink[15:24, 40:42] = ink[15:24, 46:48] = True  # an H beside it
    ink[19, 42:46] = True
    labels, glyphs, stats, _, _ = glyph_components(ink, [], Scale(stroke=2, text_height=11.25))
    assert labels[19, 20] in glyphs and labels[19, 41] in glyphs
