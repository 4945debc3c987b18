"""The text lines of a table cell, cut from its ink by the row profile.

Perception of a table's rows for the ER assembler (:mod:`cvparse.assembly.er.tables`),
which reads the crops in one batched OCR call: each line's ink as a grayscale crop with
its underline (a primary key) erased, where the line starts (its indentation) and
whether it was underlined.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..arrays import colour_distance
from .items import Shape
from .paper import ink_mask
from .underline import erase_underlines, find_underlines


@dataclass
class TextLine:
    """One text line inside a cell: its grayscale crop and where it starts."""

    crop: np.ndarray
    x: int
    """Left edge of the line's ink, image pixels (indentation)."""
    underlined: bool


def _unlike_fill(rgb: np.ndarray, fill: np.ndarray) -> np.ndarray:
    """Pixels of a cell crop that stand out from the cell's own ``fill`` (its median
    colour).

    The page's ink is measured against the paper, so a tinted fill can count as ink
    where the paper estimate does not follow it (near the corners of a box).
    """
    return ink_mask(rgb, np.broadcast_to(fill.round().astype(np.uint8), rgb.shape))


def _shade(rgb: np.ndarray, fill: np.ndarray, inside: np.ndarray, cell: np.ndarray
           ) -> np.ndarray:
    """A cell's text as grey on white: darkness from the distance to the cell's ``fill``,
    black at the text's own strong ink, kept on the text's pixels and the pixel ring
    around them (anti-aliased edges), white elsewhere."""
    dist = colour_distance(rgb, fill)
    top = max(float(np.percentile(dist[cell], 90)) if cell.any() else 1.0, 30.0)
    grey = 255.0 - np.clip(dist / top, 0, 1) * 255.0
    near = cv2.dilate(cell.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & inside
    return np.where(near, grey, 255.0).astype(np.uint8)


def text_lines(shape: Shape, ink: np.ndarray, stroke: float, text_height: float,
               rgb: np.ndarray | None = None) -> list[TextLine]:
    """The text lines inside a cell, from the rows of its ink (border excluded).

    With the page ``rgb``, only ink that differs from the cell's own fill counts.
    """
    x1, y1, x2, y2 = shape.interior.bbox
    inside = cv2.erode(shape.interior.filled.astype(np.uint8), np.ones((3, 3), np.uint8),
                       iterations=max(1, int(round(stroke)))).astype(bool)
    cell = ink[y1:y2, x1:x2] & inside
    shade = fill = None
    if rgb is not None and inside.any():  # (no inside: no cell ink either)
        fill = np.median(rgb[y1:y2, x1:x2][inside], axis=0)
        cell &= _unlike_fill(rgb[y1:y2, x1:x2], fill)
    rows = cell.any(axis=1)
    runs = []
    y = 0
    while y < len(rows):
        if rows[y]:
            s = y
            while y < len(rows) and rows[y]:
                y += 1
            runs.append([s, y])
        else:
            y += 1
    # An underline (or a lone low stroke) a row or two below its text joins that line.
    merged: list[list[int]] = []
    for r in runs:
        if merged and (r[1] - r[0] < 0.3 * text_height) and r[0] - merged[-1][1] <= 3 * stroke:
            merged[-1][1] = r[1]
        else:
            merged.append(r)
    out = []
    for a, b in merged:
        band = cell[a:b]
        cols = np.flatnonzero(band.any(axis=0))
        if b - a < 0.25 * text_height:
            continue
        if b - a <= 2 * stroke + 2 and cols.size >= 0.8 * cell.shape[1]:
            continue  # a rule across the box (name / attribute separator)
        m = 2
        crop = np.full((b - a + 2 * m, cols[-1] - cols[0] + 1 + 2 * m), 255, np.uint8)
        crop[m:-m, m:-m][band[:, cols[0]:cols[-1] + 1]] = 0
        lines = find_underlines(crop, stroke, text_height)
        if not lines or fill is None:
            out.append(TextLine(erase_underlines(crop, lines), x1 + int(cols[0]), bool(lines)))
            continue
        # Small underlined text: the line's soft edge joins the letters' bottom row in the
        # ink, so the erase tells them apart by the page's grey; OCR then gets the letters
        # in that grey too (ink darkened to keep its weight, anti-aliased rim kept), which
        # holds the round shapes a few pixels tall better than the ink alone.
        assert rgb is not None  # the fill was measured in it
        if shade is None:
            shade = _shade(rgb[y1:y2, x1:x2], fill, inside, cell)
        grey = np.full_like(crop, 255)
        grey[m:-m, m:-m] = shade[a:b, cols[0]:cols[-1] + 1]
        kept = erase_underlines(crop, lines, grey)
        read = np.where(kept == 0, grey // 2, np.where(crop == 0, 255, grey)).astype(np.uint8)
        out.append(TextLine(read, x1 + int(cols[0]), True))
    return out
