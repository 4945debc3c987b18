"""Label boxes read once more, widened, with the lines that run into them taken out.

A free label read from the ink outside shapes loses the letters a line starting or ending
on it takes along.  :func:`read_widened` reads each box again, widened by two text
heights on both sides: lines crossing it are found outside the box, followed in and
erased with the letter strokes across them drawn back
(:func:`~cvparse.primitives.labelcrop.label_crop`); ink of another colour than the
label's own is no part of it and is blanked first (a label is drawn in one colour, and
the lines running into it are often drawn in others).  The crops are read in one
:meth:`~cvparse.primitives.items.Inventory.read`; which reading to keep is the
assembler's choice (:mod:`cvparse.assembly.graph.iconlabels`).
"""

from __future__ import annotations

import numpy as np

from .items import Inventory
from .labelcrop import label_crop
from .ocr import labels_of
from .regions import Region

WIDEN = 2.0
"""The label box is widened by this many text heights on each side (letters lost at a
label's ends lie outside the box of the letters kept)."""
OFF_BLEND = 0.15
"""A pixel further than this share of the text-to-paper colour distance off the blend of
the two (anti-aliased text lies on it) is of another colour than the label."""


def read_widened(inv: Inventory, boxes: list[list[int]]) -> list[str]:
    """The text of every label box ``x1, y1, x2, y2`` (pixels) read again in the box
    widened by :data:`WIDEN` text heights left and right, lines crossing it taken out and
    ink of another colour than the label's blanked.  The inventory needs its page image
    and ink."""
    assert inv.image is not None and inv.ink is not None
    th, stroke = inv.scale.text_height, inv.scale.stroke
    grow = int(round(WIDEN * th))
    margin = max(2, int(round(0.2 * th)))
    around = int(round(2 * th)) + 1  # where label_crop looks for lines crossing the box
    crops = []
    for x1, y1, x2, y2 in boxes:
        bx = (max(0, x1 - grow), max(0, y1 - margin), min(inv.width, x2 + grow),
              min(inv.height, y2 + margin))
        ox, oy = max(0, bx[0] - around), max(0, bx[1] - around)
        ex, ey = min(inv.width, bx[2] + around), min(inv.height, bx[3] + around)
        rgb = inv.image[oy:ey, ox:ex].copy()
        ink = inv.ink[oy:ey, ox:ex].copy()
        colour = _text_colour(inv, (x1, y1, x2, y2))
        if colour is not None:
            other = _other_colour(rgb, colour, np.asarray(inv.background, float))
            rgb[other] = inv.background
            ink &= ~other
        w, h = bx[2] - bx[0], bx[3] - bx[1]
        local = (bx[0] - ox, bx[1] - oy, bx[2] - ox, bx[3] - oy)
        region = Region(local, np.ones((h, w), bool), w * h, np.zeros((0, 2), np.int32))
        crops.append(label_crop(rgb, ink, inv.background, region, stroke, th))
    return labels_of(crops, inv.read(crops))


def _text_colour(inv: Inventory, box: list[int] | tuple[int, ...]) -> np.ndarray | None:
    """Median colour of the text ink in a label's box, or None where there is none."""
    if inv.text_mask is None or inv.image is None:
        return None
    x1, y1, x2, y2 = box
    own = inv.text_mask[y1:y2, x1:x2]
    if inv.ink is not None:
        own = own & inv.ink[y1:y2, x1:x2]
    if not own.any():
        return None
    return np.median(inv.image[y1:y2, x1:x2][own].astype(float), axis=0)


def _other_colour(rgb: np.ndarray, text: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Pixels of ``rgb`` clearly off paper and off the text-paper blend."""
    v = text - paper
    span = float(np.linalg.norm(v))
    if span < 1:
        return np.zeros(rgb.shape[:2], bool)
    p = rgb.astype(float) - paper
    alpha = (p @ v) / (span * span)
    off = np.linalg.norm(p - alpha[..., None] * v, axis=2)
    return (off > OFF_BLEND * span) & (np.linalg.norm(p, axis=2) > OFF_BLEND * span)
