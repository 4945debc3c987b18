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
