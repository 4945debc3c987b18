"""Ruled and squared paper: the faint page-wide lines a background pattern draws.

A grid or ruled background is drawn as thin light lines running across the whole page at a
regular pitch.  Read as ink they become hundreds of connectors crossing every node and
cut every label in pieces.  They are told from drawn lines by what no diagram line does
all at once: each runs across most of the page that is not covered by a node, in a colour
far lighter than the drawing's ink, one to three pixels thin, and several run parallel at
one pitch.  Erasing them (painting them in the page colour) before anything else is read
leaves the page as if printed on plain paper; where a drawn line crosses a ruling its own
pixels are not faint and stay.
"""

from __future__ import annotations

import numpy as np

from ..arrays import colour_distance
from .paper import background_colour

PAGE_NOISE = 8.0
"""Colour distance from the page colour within which a pixel is the page itself."""
FAINT_SHARE = 0.5
"""A ruling's colour is at most this share of the page's strongest ink contrast away from
the page (grid lines are drawn in a tint, diagram lines in ink)."""
THIN = 3
"""A ruling is at most this many pixels thick: the pixels this far either side are not
faint (a tinted fill is faint all through)."""
ROW_SHARE = 0.5
"""Of a ruling's row, at least this share of the pixels that show the page (or the
ruling) are the ruling: it runs on wherever no node covers it."""
ROW_LENGTH = 0.3
"""A ruling runs at least this share of the page's width (or height)."""
MIN_LINES = 3
"""A pattern has at least this many parallel rulings."""
PITCH_TOLERANCE = 0.1
"""Gaps between neighbouring rulings within this share of the pitch (or of a whole
multiple of it, where a large node hides one) are regular."""


def _ruling_lines(faint: np.ndarray, page: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pixels of the horizontal rulings (the thin faint pixels of the bands of rows
    that hold one) and which rows those bands take; none when the rows found do not
    repeat at one pitch."""
    h, w = faint.shape
    none = np.zeros(faint.shape, bool)
    rows_of = np.zeros(h, bool)
    thin = faint.copy()
    thin[THIN:] &= ~faint[:-THIN]
    thin[:-THIN] &= ~faint[THIN:]
    n_thin = thin.sum(axis=1)
    n_page = page.sum(axis=1)
    rows = (n_thin >= ROW_LENGTH * w) & (n_thin >= ROW_SHARE * (n_thin + n_page))
    ys = np.flatnonzero(rows)
    if not ys.size:
        return none, rows_of
    breaks = np.flatnonzero(np.diff(ys) > 1)
    starts = np.concatenate([[ys[0]], ys[breaks + 1]])
    ends = np.concatenate([ys[breaks], [ys[-1]]]) + 1
    bands = [(int(a), int(b)) for a, b in zip(starts, ends) if b - a <= THIN]
    if len(bands) < MIN_LINES:
        return none, rows_of
    centres = np.array([(a + b) / 2 for a, b in bands])
    gaps = np.diff(centres)
    pitch = float(np.median(gaps))
    if pitch < 2 * THIN + 2:
        return none, rows_of
    multiple = np.maximum(1, np.round(gaps / pitch))
    regular = np.abs(gaps - multiple * pitch) <= np.maximum(1.5, PITCH_TOLERANCE * pitch)
    if regular.sum() < max(MIN_LINES - 1, 0.7 * len(gaps)):
        return none, rows_of
    for a, b in bands:
        none[a:b] = thin[a:b]
        rows_of[a:b] = True
    return none, rows_of


def erase_rulings(rgb: np.ndarray, background: tuple[int, int, int] | None = None
                  ) -> np.ndarray:
    """``rgb`` with the faint rulings of a grid or ruled background painted in the page
    colour (the image itself when it has none)."""
    if rgb.ndim != 3 or min(rgb.shape[:2]) < 8 * THIN:
        return rgb
    bg = background_colour(rgb) if background is None else background
    dist = colour_distance(rgb, bg)
    page = dist <= PAGE_NOISE
    inked = dist[~page]
    if not inked.size:
        return rgb
    strong = float(np.percentile(inked, 99))
    faint = ~page & (dist <= FAINT_SHARE * strong)
    across, rows = _ruling_lines(faint, page)
    down, cols = _ruling_lines(faint.T, page.T)
    # where two rulings cross, neither is thin: a faint pixel on both is theirs
    erase = across | down.T | (faint & rows[:, None] & cols[None, :])
    if not erase.any():
        return rgb
    erase |= _ruling_colour_runs(rgb, faint, erase, rows, cols)
    out = rgb.copy()
    out[erase] = np.asarray(bg, rgb.dtype)
    return out


def _ruling_colour_runs(rgb: np.ndarray, faint: np.ndarray, found: np.ndarray,
                        rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """The faint pixels on the rulings' rows and columns in the rulings' own colour:
    where a ruling runs along the edge of a faint fill (a light tile laid out on the
    grid) it is not thin there, yet it is the ruling, and left standing it closes the
    fill into a box or joins a frame to its neighbours."""
    colour = np.median(rgb[found], axis=0)
    own = faint & (colour_distance(rgb, tuple(int(v) for v in colour)) <= PAGE_NOISE)
    return own & (rows[:, None] | cols[None, :])
