"""Batched OCR: several label crops read in one Tesseract call and mapped back."""

import numpy as np
from PIL import Image, ImageDraw

from cvparse.primitives.ocr import build_sheet, clean_single_glyph, read_labels

from .synth import font


def _crop(text, size=24):
    img = Image.new("L", (16 * len(text) + 20, 40), 255)
    ImageDraw.Draw(img).text((8, 6), text, fill=0, font=font(size))
    return np.asarray(img)


def test_labels_come_back_to_their_crops():
    words = ["Customer", "Order Line", "payment_id", "Q"]
    assert read_labels([_crop(w) for w in words], text_height=28) == words


def test_sheet_keeps_one_scale_for_all_crops():
    _, places = build_sheet([_crop("ab"), _crop("Abc", 30)], text_height=20)
    assert len({p.factor for p in places}) == 1
    assert places[1].y > places[0].y + places[0].h


def test_single_glyph_cleanup():
    assert clean_single_glyph("Cc") == "C"
    assert clean_single_glyph("oO") == "O"
    assert clean_single_glyph("|") == "I"
    assert clean_single_glyph("Y:") == "Y"
    assert clean_single_glyph("AB") == "AB"
