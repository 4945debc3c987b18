"""Stroke width and text height read off the ink."""

from __future__ import annotations

import numpy as np
from PIL import ImageDraw

from cvparse.primitives.scale import estimate_scale
from tests.primitives.synth import canvas, font


def _ink(img) -> np.ndarray:
    return np.asarray(img.convert("L")) < 128


def _letters(d: ImageDraw.ImageDraw, boxed: bool, size: int = 20):
    for k in range(8):
        x, y = 30 + 70 * (k % 4), 30 + 80 * (k // 4)
        if boxed:
            d.rectangle((x - 8, y - 10, x + 30, y + 34), outline="black", width=2)
        d.text((x, y), "ABCDEFGH"[k], fill="black", font=font(size))


def test_stroke_and_text_height_of_plain_letters():
    img, d = canvas(320, 200)
    _letters(d, boxed=False)
    d.line((10, 190, 300, 190), fill="black", width=3)
    s = estimate_scale(_ink(img))
    assert s.stroke == 3
    assert 15 <= s.text_height <= 24


def test_frames_around_single_letters_do_not_count_as_text():
    # A tall page, so the frames are within the letter-size limit (an eighth of the height).
    img, d = canvas(320, 400)
    _letters(d, boxed=True)
    plain, framed = canvas(320, 400)
    _letters(framed, boxed=False)
    assert estimate_scale(_ink(img)).text_height == estimate_scale(_ink(plain)).text_height


def _dotted(d: ImageDraw.ImageDraw, y: int, dot: int, step: int) -> None:
    """A row of filled square dots, as a thick dotted connector is drawn."""
    for x in range(10, 310, step):
        d.rectangle((x, y, x + dot - 1, y + dot - 1), fill="black")


def test_dots_of_a_thick_dotted_line_do_not_count_as_text():
    img, d = canvas(320, 200)
    _letters(d, boxed=False)
    for y in (175, 185, 195):  # many more dots than letters, each about letter-stroke size
        _dotted(d, y - 5, 5, 8)
    plain, p = canvas(320, 200)
    _letters(p, boxed=False)
    assert estimate_scale(_ink(img)).text_height == estimate_scale(_ink(plain)).text_height


def test_filled_letters_of_tiny_text_still_count():
    # Solid blobs with a letter of another shape beside them are text ("lool"), not a
    # dotted line: they outnumber the tall letters, so the text height stays small.
    img, d = canvas(320, 200)
    for k in range(10):
        x, y = 20 + 30 * k, 60
        d.rectangle((x, y - 6, x + 1, y + 5), fill="black")  # "l"
        for j in range(3):  # "ooo", each filled at this size
            d.rectangle((x + 5 + 7 * j, y, x + 10 + 7 * j, y + 5), fill="black")
    assert estimate_scale(_ink(img)).text_height < 12


def test_filled_icons_outnumbering_the_labels_do_not_set_the_text_height():
    # A tall page (the icons are within the letter-size limit, an eighth of its height).
    img, d = canvas(320, 400)
    _letters(d, boxed=False)
    for k in range(16):  # filled icons, three letters high, twice as many as letters
        x, y = 10 + 75 * (k % 4), 190 + 50 * (k // 4)
        d.ellipse((x, y, x + 40, y + 40), fill="black")
    plain, p = canvas(320, 400)
    _letters(p, boxed=False)
    assert estimate_scale(_ink(img)).text_height == estimate_scale(_ink(plain)).text_height


def test_a_few_filled_pieces_beside_many_letters_keep_their_say():
    # Filled pieces that do not outnumber the letters leave the estimate as it was: a
    # filled piece among the top quarter of heights lifts it, within the usual spread.
    img, d = canvas(320, 400)
    _letters(d, boxed=False)
    for k in range(3):
        d.ellipse((10 + 60 * k, 300, 32 + 60 * k, 322), fill="black")
    plain, p = canvas(320, 400)
    _letters(p, boxed=False)
    with_fills = estimate_scale(_ink(img)).text_height
    assert with_fills > estimate_scale(_ink(plain)).text_height


def test_words_run_together_set_the_text_height_among_outline_icons():
    # Letters joined into one piece per word (serif feet touching, drawn here as a
    # baseline stroke): the outline icons and line pieces standing alone then outnumber
    # the loose letters, and the words standing in rows set the height instead.
    img, d = canvas(640, 480)
    for k in range(8):
        x, y = 20 + 150 * (k % 4), 50 + 110 * (k // 4)
        d.rectangle((x + 10, y - 20, x + 66, y + 34), outline="black", width=2)  # icon
        d.rectangle((x + 16, y - 14, x + 60, y + 28), outline="black", width=2)
        d.text((x, y + 44), "Gateway A", fill="black", font=font(18))
        x1, _, x2, y2 = d.textbbox((x, y + 44), "Gateway", font=font(18))
        d.line((x1, y2 - 4, x2, y2 - 4), fill="black", width=1)
        d.line((x + 100, y + 10, x + 120, y + 60), fill="black", width=2)  # line pieces
        d.line((x + 130, y + 10, x + 110, y + 70), fill="black", width=2)
    th = estimate_scale(_ink(img)).text_height
    assert 12 <= th <= 1.5 * 18  # 18 px text; the icons alone would give over 50


def _segment(ink: np.ndarray, p, q, width: float) -> None:
    """Ink every pixel within half ``width`` of the segment ``p``-``q`` (its true width
    across, at any angle)."""
    ys, xs = np.mgrid[:ink.shape[0], :ink.shape[1]]
    p, q = np.asarray(p, float), np.asarray(q, float)
    d = q - p
    t = np.clip(((xs - p[0]) * d[0] + (ys - p[1]) * d[1]) / float(d @ d), 0, 1)
    ink |= np.hypot(xs - p[0] - t * d[0], ys - p[1] - t * d[1]) <= width / 2


def test_line_width_of_slanted_connectors_is_their_width_across():
    from cvparse.primitives.scale import line_width, stroke_width

    ink = np.zeros((300, 400), bool)
    for k in range(10):  # lines 3 px wide at about 45 degrees: their row runs are longer
        _segment(ink, (10 + 35 * k, 10), (60 + 35 * k, 60), 3)
        _segment(ink, (10 + 35 * k, 290), (70 + 35 * k, 230), 3)
    for a, b in (((150, 120), (250, 120)), ((150, 180), (250, 180)),
                 ((150, 120), (150, 180)), ((250, 120), (250, 180))):
        _segment(ink, a, b, 3)  # one box, its sides square to the axes
    assert line_width(ink) == 3
    assert estimate_scale(ink).stroke == 3
    assert stroke_width(ink) > 3  # every run, slanted ones included, reads them thicker


def test_too_few_letters_on_a_tiny_page_keep_a_text_height_the_page_can_hold():
    # one boxed letter on a page 38 px wide: the usual 16 px would not fit its box
    img, d = canvas(38, 160)
    d.rectangle((6, 8, 20, 48), outline="black", width=1)
    d.text((9, 14), "F", fill="black", font=font(11))
    s = estimate_scale(_ink(img))
    assert s.text_height <= 38 / 3
    # on a page of usual size the default stands
    big, b = canvas(320, 200)
    b.rectangle((6, 8, 60, 48), outline="black", width=1)
    b.text((20, 14), "F", fill="black", font=font(11))
    assert estimate_scale(_ink(big)).text_height == 16.0
