"""One-letter labels: found from their ink and read as a row of copies of the glyph."""

import numpy as np

from cvparse.primitives.glyphs import is_single_glyph, tight
from cvparse.primitives.inventory import build_inventory
from tests.primitives.synth import canvas, font, to_array


def _boxes(labels, size):
    img, d = canvas(60 * len(labels) + 20, 80)
    for i, ch in enumerate(labels):
        x = 10 + 60 * i
        d.rounded_rectangle((x, 20, x + 40, 60), 5, outline=(120, 110, 200),
                            fill=(236, 236, 255), width=1)
        d.text((x + 20, 40), ch, fill=(40, 40, 40), font=font(size), anchor="mm")
    return build_inventory(to_array(img))


def test_single_glyph_from_the_tight_ink():
    crop = np.full((30, 60), 255, np.uint8)
    crop[8:22, 20:30] = 0
    assert is_single_glyph(tight(crop)) and not is_single_glyph(crop)
    crop[8:22, 36:46] = 0
    assert not is_single_glyph(tight(crop))


def test_small_capitals_and_digits_in_boxes():
    labels = "PYTZ17"
    inv = _boxes(labels, 13)
    assert [s.label for s in sorted(inv.shapes, key=lambda s: s.bbox[0])] == list(labels)


def test_symbol_lookalikes_of_a_lone_capital():
    from cvparse.primitives.glyphs import one_letter, repeated_letter

    assert repeated_letter("YY¥") == "Y" and repeated_letter("¥Y¥¥") == "Y"
    assert one_letter("¥", "", "") == "Y" and one_letter("|", "", "") == "I"
    assert one_letter("7", "", "") == "7"  # a digit with no other reading stays


def test_one_letter_trusts_a_unanimous_row_of_copies():
    from cvparse.primitives.glyphs import one_letter

    assert one_letter("E", "FFF", "FEF") == "F"  # the lone glyph misread as a capital
    assert one_letter("a", "aa A", "YYY") == "Y"  # grey copies split, binary agree
    assert one_letter("iT", "TTT", "TEE") == "T"
    assert one_letter("E", "FEF", "EFE") == "E"  # no row agrees: the lone capital stays
    assert one_letter("1", "III", "III") == "1"  # a digit read as its look-alike stays
    assert one_letter("1", "TTT", "TTT") == "T"
    assert one_letter("C", "eee", "ccc") == "C"  # "ccc" is a capital's run ("C" alike)
    assert one_letter("C", "eee", "eee") == "C"  # a small letter's run does not outvote


def test_binary_copies_are_black_and_white():
    from cvparse.primitives.glyphs import repeat_glyph

    crop = np.full((12, 10), 255, np.uint8)
    crop[2:10, 4:6] = 120
    crop[2:10, 3] = 200
    grey, binary = repeat_glyph(crop), repeat_glyph(crop, binary=True)
    assert grey.shape == binary.shape
    assert set(np.unique(binary)) == {0, 255} and (grey == 200).any()


def test_a_plain_upright_bar_is_a_capital_i():
    from cvparse.primitives.glyphs import is_bar, one_letter

    bar = np.full((16, 8), 255, np.uint8)
    bar[2:14, 3:5] = 30
    one = bar.copy()
    one[2:5, 1:3] = 30  # a flag
    assert is_bar(bar) and not is_bar(one)
    assert not is_bar(np.full((16, 8), 255, np.uint8))
    assert one_letter("l", "HI", "HI", bar=True) == "I"
