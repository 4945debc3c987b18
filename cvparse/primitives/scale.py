"""Estimate how big things are drawn (stroke width, text height) from the ink itself.

Thresholds throughout cvparse are multiples of these numbers, so the same code reads a
diagram at 1x, 1.5x or 2x and from renderers with other fonts and line widths.
"""

from __future__ import annotations

import cv2
import numpy as np

from .elements import Scale
from .labelling import components

FILLED_LIFT = 1.5
"""Filled pieces (icon parts) are left out of the text height only when they lift it by
more than this factor: then they outnumber the letters of a few short labels; a smaller
lift is within the usual spread of letter and label heights."""


def _run_lengths(mask: np.ndarray) -> np.ndarray:
    """Lengths of all horizontal runs of True in ``mask``."""
    m = mask.astype(np.int8)
    pad = np.zeros((m.shape[0], 1), np.int8)
    d = np.diff(np.hstack([pad, m, pad]), axis=1)
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    return ends - starts


def stroke_width(ink: np.ndarray) -> float:
    """Most common line width: the mode of horizontal and vertical ink run lengths."""
    # OpenCV transposes a mask several times faster than numpy copies a transposed view.
    columns = (cv2.transpose(np.ascontiguousarray(ink).view(np.uint8)) if ink.dtype == bool
               else ink.T)
    runs = np.concatenate([_run_lengths(ink), _run_lengths(columns)])
    runs = runs[runs <= 20]
    if runs.size == 0:
        return 1.0
    counts = np.bincount(runs)
    return float(max(1, counts.argmax()))


def text_height(ink: np.ndarray, stroke: float | None = None) -> float:
    """Typical text line height, from the heights of letter-sized ink components (frames
    around other components and the dots of dotted lines left out, and filled pieces
    thicker than a letter stroke when they outnumber the letters); ``stroke`` is the
    page's line width (measured when not given)."""
    _, labels, stats, _ = components(ink.astype(np.uint8), 8)
    x, y, w, h = (stats[1:, i] for i in range(4))
    limit = max(12, ink.shape[0] // 8)
    ok = (h >= 5) & (h <= limit) & (w <= 3 * h) & (w >= 1)
    # A frame drawn around a letter (a node box of a one-letter label) is not a letter.
    frames = np.zeros(len(h), bool)
    cand = np.flatnonzero(ok)
    for k in range(0, len(cand), 256):  # a block of candidates against every component
        i = cand[k:k + 256, None]
        frames[cand[k:k + 256]] = ((x > x[i]) & (y > y[i]) & (x + w < x[i] + w[i])
                                   & (y + h < y[i] + h[i])).any(axis=1)
    if stroke is None:
        stroke = stroke_width(ink)
    letters = ok & ~frames & ~_line_dots(stats[1:], ok, stroke)
    if letters.sum() < 3:
        return 16.0
    height = float(np.percentile(h[letters], 75) * 1.25)
    thin = letters & ~_thick(ink, labels, len(h), stroke)
    if thin.sum() >= 3:
        thin_height = float(np.percentile(h[thin], 75) * 1.25)
        if height > FILLED_LIFT * thin_height:  # icons outnumber the letters of the labels
            return thin_height
    return height


def _thick(ink: np.ndarray, labels: np.ndarray, n: int, stroke: float) -> np.ndarray:
    """Which components (label - 1) hold ink thicker than any letter stroke (more than one
    and a half line widths from the nearest paper, as for a filled marker): the filled
    parts of icons, which would otherwise outnumber the letters of a few short labels."""
    dist = cv2.distanceTransform(np.pad(ink, 1).astype(np.uint8), cv2.DIST_L2, 3)[1:-1, 1:-1]
    out = np.zeros(n + 1, bool)
    out[labels[dist > 1.5 * stroke + 0.5]] = True
    return out[1:]


def _line_dots(stats: np.ndarray, letter_sized: np.ndarray, stroke: float) -> np.ndarray:
    """Which components (``x, y, w, h, area`` rows) are dots of a dotted line: small
    filled squares a couple of line widths across whose letter-sized neighbours (within
    three dot sizes) are all such dots, at least two of them.

    Drawn with thick lines, a dotted line's dots are letter-sized and can outnumber the
    letters; a filled letter of tiny text ("o", "e") has other letters beside it.
    """
    x, y, w, h, area = (stats[:, i].astype(float) for i in range(5))
    size = np.maximum(w, h)
    dot = (letter_sized & (area >= 0.7 * w * h) & (np.minimum(w, h) >= 0.6 * size)
           & (size <= 2 * stroke + 1))
    out = np.zeros(len(stats), bool)
    cand = np.flatnonzero(letter_sized)
    dots = np.flatnonzero(dot)
    if dots.size < 3:
        return out
    cx, cy = x + w / 2, y + h / 2
    for k in range(0, len(dots), 256):  # a block of dots against every letter-sized piece
        i = dots[k:k + 256, None]
        near = np.hypot(cx[cand] - cx[i], cy[cand] - cy[i]) <= 3 * size[i]
        near &= cand != i
        others = (near & ~dot[cand]).any(axis=1)
        out[dots[k:k + 256]] = ~others & (near.sum(axis=1) >= 2)
    return out


def estimate_scale(ink: np.ndarray) -> Scale:
    """Stroke width and text height of a page, from its ink mask."""
    stroke = stroke_width(ink)
    return Scale(stroke=stroke, text_height=text_height(ink, stroke))
