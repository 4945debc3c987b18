"""Words of a label joined: a lone letter Tesseract read in both cases is one letter."""

import numpy as np

from cvparse.primitives.ocr import Word
from cvparse.primitives.wordjoin import join_label


def _crop() -> np.ndarray:
    img = np.full((24, 120), 255, np.uint8)
    for x in (4, 14, 24, 34):
        img[6:18, x:x + 6] = 0       # a word of four glyphs
    img[6:18, 60:68] = 0             # a lone glyph
    img[6:18, 90:96] = 0             # two glyphs
    img[6:18, 100:106] = 0
    return img


def test_a_lone_glyph_read_twice_is_one_capital():
    words = [Word("Join", (4, 6, 40, 18), 90, 0), Word("Cc", (60, 6, 68, 18), 60, 0)]
    assert join_label(words, _crop(), False, 12) == "Join C"


def test_two_glyphs_read_as_a_pair_stay_a_pair():
    words = [Word("Join", (4, 6, 40, 18), 90, 0), Word("Oo", (90, 6, 106, 18), 60, 0)]
    assert join_label(words, _crop(), False, 12) == "Join Oo"
    words = [Word("Join", (4, 6, 40, 18), 90, 0), Word("oo", (60, 6, 68, 18), 60, 0)]
    assert join_label(words, _crop(), False, 12) == "Join oo"   # no case pair: as read
