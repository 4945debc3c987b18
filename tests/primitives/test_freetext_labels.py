"""Free labels that a connector touches, ends on or runs into stay whole words: the dots
and dashes of the line, and a marker on it, are taken out, not the label."""

import numpy as np

from cvparse.primitives.freetext import free_words, glyph_components
from cvparse.primitives.inventory import build_inventory

from .synth import canvas, font, to_array

INK = (60, 60, 60)


def _words(rgb):
    inv = build_inventory(rgb, ocr=False)
    words, _ = free_words(rgb, inv.ink, inv.shapes, inv.scale, inv.background)
    return words, inv


def _word_at(words, x, y):
    return next(w for w in words if w.bbox[0] <= x <= w.bbox[2] and w.bbox[1] <= y <= w.bbox[3])


def _text_box(rgb):
    """Box of the dark text pixels (the label is drawn black, lines grey-brown)."""
    ys, xs = np.nonzero(rgb.max(axis=2) < 40)
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def _dashes(draw, start, direction, dash, gap, count, width=2):
    """Draw ``count`` dashes ``dash`` long, ``gap`` apart, from ``start`` along
    ``direction``."""
    d = np.asarray(direction, float)
    d /= np.hypot(*d)
    p = np.asarray(start, float)
    for _ in range(count):
        q = p + d * dash
        draw.line([tuple(p), tuple(q)], fill=INK, width=width)
        p = q + d * gap


def _dots(draw, start, direction, pitch, count, size=4):
    """Draw ``count`` round dots ``size`` pixels across, ``pitch`` apart, the first one
    centred at ``start``."""
    d = np.asarray(direction, float)
    d /= np.hypot(*d)
    r = size / 2 - 0.5
    for k in range(count):
        x, y = np.asarray(start, float) + d * pitch * k
        draw.ellipse([x - r, y - r, x + r, y + r], fill=INK)


def test_dotted_line_leaving_the_last_letter_is_no_part_of_the_word():
    img, draw = canvas(320, 200)
    draw.text((60, 60), "Bridge C", fill=(0, 0, 0), font=font(18))
    x1, y1, x2, y2 = _text_box(to_array(img))
    _dots(draw, (x2 + 4, y1 + 4), (1.0, 0.55), 6, 25)  # dots down and to the right
    words, inv = _words(to_array(img))
    word = _word_at(words, (x1 + x2) // 2, (y1 + y2) // 2)
    assert word.bbox[2] <= x2 + 1  # ends at the C: the dots do not chain on
    assert word.bbox[3] - word.bbox[1] <= 1.1 * inv.scale.text_height
    # and no other word is made of the dots
    assert not [w for w in words if w.bbox[0] > x2 + 4]


def test_last_dash_touching_the_first_letter_is_taken_off_it():
    img, draw = canvas(320, 200)
    draw.text((150, 90), "Hub C", fill=(0, 0, 0), font=font(18))
    rgb = to_array(img)
    x1, y1, x2, y2 = _text_box(rgb)
    # a dashed line coming down from the upper left; its last dash ends on the H's top
    d = np.array([1.0, 0.6]) / np.hypot(1.0, 0.6)
    end = np.array([x1 + 1.0, y1 + 1.0])
    start = end - d * (6 * 14 - 6 + 9)
    _dashes(draw, tuple(start), tuple(d), 9, 5, 7)
    rgb = to_array(img)
    assert rgb[int(end[1]), int(end[0])].max() < 200  # the last dash does reach the H
    words, inv = _words(rgb)
    word = _word_at(words, (x1 + x2) // 2, (y1 + y2) // 2)
    assert word.bbox[0] >= x1 - 1  # starts at the H, not at the dash
    assert word.bbox[1] >= y1 - 1
    assert word.bbox[2] <= x2 + 1


def test_short_dash_row_inside_a_word_is_kept():
    # a hyphenated label: one dash in a row of letters is no dashed line
    img, draw = canvas(320, 160)
    draw.text((40, 60), "Wi-Fi Hub-A", fill=(0, 0, 0), font=font(18))
    rgb = to_array(img)
    x1, y1, x2, y2 = _text_box(rgb)
    inv = build_inventory(rgb, ocr=False)
    labels, glyphs, stats, removed, _ = glyph_components(inv.ink, inv.shapes, inv.scale)
    assert not removed[y1:y2, x1:x2].any()


def test_filled_head_touching_the_first_letter_keeps_the_letters():
    img, draw = canvas(360, 200)
    draw.text((160, 80), "Terminal", fill=(0, 0, 0), font=font(18))
    rgb = to_array(img)
    x1, y1, x2, y2 = _text_box(rgb)
    tip = np.array([x1 + 1.0, y1 + 1.0])  # the head's point on the T's bar
    d = np.array([1.0, 0.0])
    n = np.array([0.0, 1.0])
    base = tip - d * 11
    draw.polygon([tuple(tip), tuple(base + n * 5), tuple(base - n * 5)], fill=INK)
    _dots(draw, tuple(base - d * 6), (-1.0, 0.0), 6, 10)  # a dotted line to the head
    draw.line([(20, 185), (340, 185)], fill=INK, width=2)  # a plain line elsewhere
    words, inv = _words(to_array(img))
    word = _word_at(words, (x1 + x2) // 2, (y1 + y2) // 2)
    assert x1 - 2 <= word.bbox[0] <= x1 + 2  # starts at the T: the head is taken off it
    assert word.bbox[2] >= x2 - 1  # and the letters are: the word reaches the last one
    assert len(word.labels) >= 6


def test_dotted_line_ending_at_a_label_reads_the_label():
    img, draw = canvas(360, 220)
    draw.text((140, 100), "Bridge", fill=(0, 0, 0), font=font(18))
    rgb = to_array(img)
    x1, y1, x2, y2 = _text_box(rgb)
    _dots(draw, (x2 + 4, y2 - 4), (1.0, 0.7), 6, 30)
    _dots(draw, (x1 - 4, y1 + 4), (-1.0, -0.5), 6, 30)
    draw.line([(20, 205), (340, 205)], fill=INK, width=2)  # a plain line elsewhere
    inv = build_inventory(to_array(img))
    assert "Bridge" in [t.text for t in inv.texts]


def test_dashed_line_crossing_a_word_through_its_l_keeps_the_l():
    # the l lies in line with the dashes, but it has letters on both sides: no dash
    img, draw = canvas(320, 220)
    f = font(18)
    draw.text((100, 100), "Sunlight", fill=(0, 0, 0), font=f)
    rgb = to_array(img)
    x1, y1, x2, y2 = _text_box(rgb)
    a, b = int(100 + f.getlength("Sun")), int(100 + f.getlength("Sunl")) + 1
    lx = a + int(np.argmax((rgb[y1:y2, a:b].max(axis=2) < 40).sum(axis=0)))  # the l's stem
    _dashes(draw, (lx + 1, y1 - 80), (0.0, 1.0), 9, 6, 5)
    _dashes(draw, (lx + 1, y2 + 4), (0.0, 1.0), 9, 6, 5)
    draw.line([(20, 210), (300, 210)], fill=INK, width=2)  # a plain line elsewhere
    words, inv = _words(to_array(img))
    word = _word_at(words, (x1 + x2) // 2, (y1 + y2) // 2)
    assert word.bbox[0] <= x1 + 1 and word.bbox[2] >= x2 - 1  # one word, l included
    labels, glyphs, stats, removed, _ = glyph_components(inv.ink, inv.shapes, inv.scale)
    assert not removed[y1:y2, lx - 1:lx + 3].any()


def test_small_filled_head_cut_off_its_line_is_no_glyph():
    from cvparse.primitives.freetext import _wedge

    head = np.zeros((9, 9), bool)
    for r in range(9):
        head[r, 4 - r // 2:5 + r // 2] = True  # a filled triangle, apex up
    four = np.zeros((9, 7), bool)
    four[:6, 0] = four[5, :] = four[:, 4] = True  # a "4": strokes with a counter
    bar = np.ones((9, 2), bool)
    assert _wedge(head)
    assert not _wedge(four) and not _wedge(bar)
