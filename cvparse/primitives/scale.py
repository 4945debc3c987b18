"""Estimate how big things are drawn (stroke width, text height) from the ink itself.

Thresholds throughout cvparse are multiples of these numbers, so the same code reads a
diagram at 1x, 1.5x or 2x and from renderers with other fonts and line widths.
"""

from __future__ import annotations

import cv2
import numpy as np

from .elements import Scale


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


def text_height(ink: np.ndarray) -> float:
    """Typical text line height, from the heights of letter-sized ink components (frames
    around other components left out)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
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
    letters = h[ok & ~frames]
    if letters.size < 3:
        return 16.0
    return float(np.percentile(letters, 75) * 1.25)


def estimate_scale(ink: np.ndarray) -> Scale:
    """Stroke width and text height of a page, from its ink mask."""
    return Scale(stroke=stroke_width(ink), text_height=text_height(ink))
