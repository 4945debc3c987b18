"""Estimate how big things are drawn (stroke width, text height) from the ink itself.

Thresholds throughout cvparse are multiples of these numbers, so the same code reads a
diagram at 1x, 1.5x or 2x and from renderers with other fonts and line widths.
"""

from __future__ import annotations

import cv2
import numpy as np

from .items import Scale
from ..arrays import components
from .strokes import touching_letters

FILLED_LIFT = 1.5
"""Filled pieces (icon parts) are left out of the text height only when they lift it by
more than this factor: then they outnumber the letters of a few short labels; a smaller
lift is within the usual spread of letter and label heights."""

TINY_PAGE_LINES = 3.0
"""A page is at least this many text heights across (a label, the padding of its box and
the margins): caps the default text height on a page too small for it."""


def stroke_width(ink: np.ndarray) -> float:
    """Most common line width: the mode of horizontal and vertical ink run lengths."""
    _, h_lengths, _, v_lengths = _row_and_column_runs(ink)
    return _mode(np.concatenate([h_lengths, v_lengths]))


def _mode(lengths: np.ndarray) -> float:
    """The commonest run length of 20 pixels or less (1 when there is none)."""
    short = lengths[lengths <= 20]
    return float(max(1, int(np.bincount(short).argmax()))) if short.size else 1.0


CROSSING_RATIO = 3.0
"""A run across a line counts as its width only where the ink runs on at least this many
times longer the other way (within about 18 degrees of square to the line); a slanted
line's horizontal and vertical runs are both longer than it is wide."""
MIN_CROSSINGS = 200
"""Fewer square crossings than this are too few to go by: the mode of every run stands."""


def _runs(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Horizontal runs of ``mask``: each run's first pixel (a flat index into ``mask``
    with one blank column added, so that no run wraps round a row end) and its length."""
    h, w = mask.shape
    m = np.zeros((h, w + 1), bool)
    m[:, :w] = mask
    d = np.diff(np.concatenate([[False], m.ravel(), [False]]).astype(np.int8))
    starts = np.flatnonzero(d == 1)
    return starts, np.flatnonzero(d == -1) - starts


def _row_and_column_runs(ink: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_runs` of a mask's rows, then of its columns (runs of its transpose)."""
    ink = np.ascontiguousarray(ink, bool)
    # OpenCV transposes a mask several times faster than numpy copies a transposed view.
    columns = cv2.transpose(ink.view(np.uint8)).view(bool)
    return (*_runs(ink), *_runs(columns))


def _run_through(starts: np.ndarray, lengths: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Length of the run (of :func:`_runs`) holding each flat ``index``, 0 off the runs."""
    if not starts.size:
        return np.zeros(index.shape, np.int64)
    k = np.maximum(np.searchsorted(starts, index, side="right") - 1, 0)
    held = (starts[k] <= index) & (index < starts[k] + lengths[k])
    return np.where(held, lengths[k], 0)


SLANTED_SHARE = 0.5
"""The runs of the most common length are mostly across slanted lines (not square to a
line) when at least this share of them is: only then are they longer than the lines are
wide, and the square crossings give the width instead."""


def line_widths(ink: np.ndarray) -> tuple[float, float]:
    """The mode of every run length (:func:`stroke_width`) and the line width: that mode,
    unless the runs of that length are mostly runs across slanted lines (longer than those
    lines are wide); then the mode of the runs that cross a line square to it (see
    ``CROSSING_RATIO``), when it is thinner by less than half, so a page of slanted
    connectors does not read as drawn with thick lines."""
    h, w = ink.shape
    h_starts, h_lengths, v_starts, v_lengths = _row_and_column_runs(ink)
    lengths = np.concatenate([h_lengths, v_lengths])
    mode = _mode(lengths)
    at_mode = lengths == mode
    if not at_mode.any():
        return mode, mode
    # the run across each run's middle pixel: vertical for a row's run, and the reverse
    h_mid = h_starts + h_lengths // 2
    hy, hx = h_mid // (w + 1), h_mid % (w + 1)
    v_mid = v_starts + v_lengths // 2
    vx, vy = v_mid // (h + 1), v_mid % (h + 1)
    square = np.concatenate([
        _run_through(v_starts, v_lengths, hx * (h + 1) + hy) >= CROSSING_RATIO * h_lengths,
        _run_through(h_starts, h_lengths, vy * (w + 1) + vx) >= CROSSING_RATIO * v_lengths])
    if square[at_mode].mean() > 1 - SLANTED_SHARE:
        return mode, mode
    runs = lengths[square & (lengths <= 20)]
    if runs.size < MIN_CROSSINGS:
        return mode, mode
    width = float(max(1, int(np.bincount(runs).argmax())))
    # Slanted runs only lengthen a line's width, and by less than twice (up to 60 degrees
    # off square); a square mode outside that is other ink (blur, letter strokes).
    return mode, (width if mode / 2 <= width < mode else mode)


def line_width(ink: np.ndarray) -> float:
    """Most common line width (see :func:`line_widths`)."""
    return line_widths(ink)[1]


def text_height(ink: np.ndarray, stroke: float | None = None) -> float:
    """Typical text line height, from the heights of letter-sized ink components (frames
    around other components and the dots of dotted lines left out, and filled pieces
    thicker than a letter stroke when they outnumber the letters; where letters run
    together into words, from the pieces standing in rows, see ``ROW_LIFT``); ``stroke``
    is the page's line width (measured when not given)."""
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
    if letters.sum() < 3:  # too few to measure: a usual size, if the page can hold it
        return min(16.0, min(ink.shape) / TINY_PAGE_LINES)
    height = float(np.percentile(h[letters], 75) * 1.25)
    thin = letters & ~_thick(ink, labels, len(h), stroke)
    if thin.sum() >= 3:
        thin_height = float(np.percentile(h[thin], 75) * 1.25)
        if height > FILLED_LIFT * thin_height:  # icons outnumber the letters of the labels
            return thin_height
    words = _touching_words(labels, stats[1:], (h >= 5) & (h <= limit) & (w > 3 * h), stroke)
    pieces = (letters & thin) | words
    in_rows = _in_rows(stats[1:], pieces)
    # most pieces stand in rows, yet the top quarter of heights is set by the others
    if in_rows.sum() >= max(3, ROW_SHARE * pieces.sum()):
        row_height = float(np.percentile(h[in_rows], 75) * 1.25)
        if height > ROW_LIFT * row_height:  # outline icons and line pieces outnumber them
            return row_height
    return height


ROW_LIFT = 1.5
"""The letters standing in rows (words) set the text height instead when the estimate
from every letter-sized piece is this much higher: the icons and pieces of lines on a
page whose letters run together into words (serif text) then outnumber the letters."""
ROW_SHARE = 0.5
"""... and only when at least this share of the letter-sized pieces stand in rows: a page
with a few scattered letters (most of its text read as larger pieces) keeps its
estimate."""


def _touching_words(labels: np.ndarray, stats: np.ndarray, wide: np.ndarray, stroke: float
                    ) -> np.ndarray:
    """Which ``wide`` components (label - 1) are letters run together into a word: stems
    rise across many of their columns, as along no line or curve."""
    out = np.zeros(len(stats), bool)
    for i in np.flatnonzero(wide).tolist():
        x, y, w, h = (int(v) for v in stats[i, :4])
        out[i] = touching_letters(labels[y:y + h, x:x + w] == i + 1, stroke)
    return out


def _in_rows(stats: np.ndarray, cand: np.ndarray) -> np.ndarray:
    """Which ``cand`` components (``x, y, w, h`` rows) have another of about their height
    beside them on one text line (a letter gap away): letters of a word, not an icon or a
    piece of a line standing alone."""
    x, y, w, h = (stats[:, i].astype(float) for i in range(4))
    out = np.zeros(len(stats), bool)
    idx = np.flatnonzero(cand)
    for k in range(0, len(idx), 256):
        i = idx[k:k + 256, None]
        j = idx[None, :]
        gap = np.maximum(x[j] - (x[i] + w[i]), x[i] - (x[j] + w[j]))
        overlap = np.minimum(y[i] + h[i], y[j] + h[j]) - np.maximum(y[i], y[j])
        alike = np.maximum(h[i], h[j]) <= 2 * np.minimum(h[i], h[j])
        near = ((gap <= 0.6 * np.maximum(h[i], h[j]))
                & (overlap >= 0.5 * np.minimum(h[i], h[j])) & alike & (i != j))
        out[idx[k:k + 256]] = near.any(axis=1)
    return out


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


def measure_scale(ink: np.ndarray) -> tuple[Scale, float]:
    """Line width and text height of a page, from its ink mask, and the plain mode of its
    run lengths (:func:`stroke_width`), which fills thicken every way."""
    mode, stroke = line_widths(ink)
    return Scale(stroke=stroke, text_height=text_height(ink, stroke)), mode


def estimate_scale(ink: np.ndarray) -> Scale:
    """Line width and text height of a page, from its ink mask.

    Parameters
    ----------
    ink : ndarray
        Boolean mask of everything drawn.

    Returns
    -------
    Scale
        ``stroke`` (the commonest line width) and ``text_height`` (a text line's height),
        in pixels.

    Examples
    --------
    >>> import numpy as np
    >>> ink = np.zeros((100, 200), bool)
    >>> ink[40:43, 20:180] = True   # a line three pixels wide
    >>> estimate_scale(ink).stroke
    3.0
    """
    return measure_scale(ink)[0]
