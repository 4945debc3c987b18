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


def cell(box, label="", kind="rect"):
    """A shape of ``kind`` filling ``box`` (its interior and outer region the whole box)."""
    from cvparse.primitives.items import Shape
    from cvparse.primitives.regions import Region

    x1, y1, x2, y2 = box
    r = Region(bbox=box, filled=np.ones((y2 - y1, x2 - x1), bool),
               paper_area=(y2 - y1) * (x2 - x1),
               contour=np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]]))
    return Shape(kind=kind, bbox=box, interior=r, outer=r, label=label)


def cells_inventory(shapes, width=400, height=300):
    """An inventory of ``shapes`` alone: no page, ink or text (stroke 1, text 16 px)."""
    from cvparse.primitives.items import Inventory, Scale

    return Inventory(width=width, height=height, scale=Scale(stroke=1, text_height=16),
                     background=(255, 255, 255), shapes=list(shapes), texts=[])
