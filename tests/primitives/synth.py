"""Tiny synthetic diagrams drawn in the tests themselves."""

import numpy as np
from PIL import Image, ImageDraw, ImageFont


def canvas(w=320, h=200, bg=(255, 255, 255)):
    img = Image.new("RGB", (w, h), bg)
    return img, ImageDraw.Draw(img)


def font(size=22):
    return ImageFont.load_default(size=size)


def to_array(img):
    return np.asarray(img).copy()
