"""Underlined text (primary keys): find the underline under a label and erase it for OCR.

An underline is a horizontal ink run, a stroke or two thick, below the middle of the text,
about as long as the text itself; no glyph has a horizontal run that long (an underscore
spans one glyph).  Erasing it keeps Tesseract from reading it as part of the letters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DARK = 200
"""Grey level below which a crop pixel counts as line ink (a one-pixel line drawn between
two pixel rows is only mid-grey in each)."""
LETTER = 128
"""Grey level below which a pixel of a line's soft edge is a letter's stroke instead."""


@dataclass(frozen=True)
class Underline:
    """Rows and columns of an underline inside a crop."""

    y1: int
    y2: int
    """Rows ``y1 .. y2 - 1`` hold the line."""
    x1: int
    x2: int


def longest_runs(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row: length, start and end (exclusive) of the longest horizontal ink run."""
    h, w = ink.shape
    m = ink.astype(np.int8)
    pad = np.zeros((h, 1), np.int8)
    d = np.diff(np.hstack([pad, m, pad]), axis=1)
    length = np.zeros(h, int)
    start = np.zeros(h, int)
    # Runs in reading order: the k-th start and the k-th end belong to one run.
    row, s = np.nonzero(d == 1)
    e = np.nonzero(d == -1)[1]
    if row.size:
        # By row, longest first, and the leftmost of equally long ones (a stable sort).
        order = np.lexsort((-(e - s), row))
        first = order[np.r_[True, row[order][1:] != row[order][:-1]]]
        length[row[first]] = e[first] - s[first]
        start[row[first]] = s[first]
    return length, start, start + length


def find_underlines(gray: np.ndarray, stroke: float, min_length: float) -> list[Underline]:
    """Underlines of a text crop (dark on white), top to bottom.

    A row counts when its longest run is at least ``min_length`` and spans most of the ink
    above it on the same columns (the text it underlines); consecutive rows form one line
    if the band is at most about two strokes thick.
    """
    ink = gray < DARK
    if not ink.size or int(ink.sum(axis=1).max()) < min_length:
        return []  # no row holds that much ink, let alone in one run (most labels)
    length, start, end = longest_runs(ink)
    rows = np.flatnonzero(length >= min_length)
    out: list[Underline] = []
    max_thick = int(round(2 * stroke)) + 2
    i = 0
    while i < rows.size:
        j = i
        while j + 1 < rows.size and rows[j + 1] == rows[j] + 1:
            j += 1
        y1, y2 = int(rows[i]), int(rows[j]) + 1
        x1, x2 = int(start[rows[i:j + 1]].min()), int(end[rows[i:j + 1]].max())
        y1, y2 = _solid_rows(ink, y1, y2, x1, x2)
        above = ink[:y1, x1:x2]
        text_rows = np.flatnonzero(above.any(axis=1))
        if y2 - y1 <= max_thick and text_rows.size:
            cols = np.flatnonzero(ink[:y1][text_rows.min():].any(axis=0))
            covered = (cols.max() - cols.min() + 1) if cols.size else 0
            # The text sits right above and spans most of the line, not a box edge.
            near = y1 - text_rows.max() <= 3 * stroke + 2
            # ... and the line spans most of that text (not the serifs of a few letters),
            # with the text above it, not around it (the bar of an "ff" or "ffi" ligature
            # has the letter bodies below; descenders crossing a line are thin).
            below = int(ink[y2:, x1:x2].sum())
            # An underline runs from the first glyph to the last (baseline serifs of
            # "kill" run together but leave out the "s").
            ends_ok = x1 <= cols.min() + 2 * stroke + 1 and x2 >= cols.max() - 2 * stroke
            if (near and ends_ok and covered >= 0.6 * (x2 - x1) and (x2 - x1) >= 0.7 * covered
                    and below <= 0.3 * int(ink[:y1, x1:x2].sum())
                    and _stands_out(gray, y1, y2, x1, x2)):
                out.append(Underline(y1, y2, x1, x2))
        i = j + 1
    return out


LINE_STEP = 0.6
"""Least share of a line's darkness (its grey below white) that the paper above it is
lighter: a line stands out from what lies over it."""


def _stands_out(gray: np.ndarray, y1: int, y2: int, x1: int, x2: int) -> bool:
    """True if the band ``y1 .. y2`` is clearly darker than the row over it (past a row
    of soft edge), read where that row is lightest (between the letters resting on it): a
    line under text.  The lower rows of a fill shaded from light to dark are each a
    little darker than the one above, and no line."""
    tone = float(np.median(gray[y1:y2, x1:x2]))
    y = y1 - 1
    if y > 0 and _fringe(gray[y, x1:x2]):  # a line drawn between two pixel rows
        y -= 1
    if y < 0:
        return True
    over = float(np.percentile(gray[y, x1:x2], 90))
    return over - tone >= LINE_STEP * (255 - tone)


def _solid_rows(ink: np.ndarray, y1: int, y2: int, x1: int, x2: int) -> tuple[int, int]:
    """The band ``y1 .. y2`` without its end rows that hold the bottoms of several letters
    sitting on the underline (they run long where they touch it, and erasing that row
    would cut the bowls of b, o, a open).  A row with one long run (an underscore resting
    on the line) stays in the band: the label joiner restores erased underscores."""
    band = ink[y1:y2, x1:x2]
    starts = (np.diff(band.astype(np.int8), axis=1, prepend=0) == 1).sum(axis=1)
    keep = (band.mean(axis=1) >= 0.9) | (starts < 3)
    rows = np.flatnonzero(keep)
    if rows.size == 0:
        return y1, y2
    return y1 + int(rows[0]), y1 + int(rows[-1]) + 1


def erase_underlines(gray: np.ndarray, lines: list[Underline],
                     shade: np.ndarray | None = None) -> np.ndarray:
    """A copy of the crop with the underline rows, anti-aliased fringe included, painted
    white, except where a letter stroke crosses them.

    ``shade``: the crop's text in grey (same size), where a thin line drawn between pixel
    rows is lighter than the letters: the pixels of those rows clearly darker than the
    line there stay (in small text the line's soft edge merges with the letters' bottom
    row in the ink, and erasing that row whole cuts every letter off at the baseline).
    """
    out = gray.copy()
    h = gray.shape[0]
    for u in lines:
        y1, y2 = u.y1, u.y2
        while y1 > 0 and _fringe(gray[y1 - 1, u.x1:u.x2]):
            y1 -= 1
        while y2 < h and _fringe(gray[y2, u.x1:u.x2]):
            y2 += 1
        # Keep the columns where a stroke crosses the line (a descender of g, p, y).
        above = gray[max(0, y1 - 1), u.x1:u.x2] < DARK if y1 > 0 else np.zeros(u.x2 - u.x1, bool)
        below = gray[y2, u.x1:u.x2] < DARK if y2 < h else np.zeros(u.x2 - u.x1, bool)
        cross = above & below
        cols = np.arange(u.x1, u.x2)[~cross]
        if shade is None:
            out[u.y1:u.y2, cols] = 255
            # In the soft-edge rows only the light pixels are the line's: the dark ones
            # are letter bottoms resting on it (erased, an E loses its foot, reads F).
            for y in (*range(y1, u.y1), *range(u.y2, y2)):
                row = out[y, cols]
                row[row >= LETTER] = 255
                out[y, cols] = row
            continue
        # Each row's line tone: the grey most of the row has (letters cover less of it).
        tone = np.percentile(shade[y1:y2, u.x1:u.x2], 75, axis=1)[:, None]
        band = out[y1:y2, cols]
        band[shade[y1:y2, cols] >= 0.6 * tone] = 255
        out[y1:y2, cols] = band
    return out


def _fringe(row: np.ndarray) -> bool:
    """A row that is grey (not white) along nearly its whole length: the line's soft edge."""
    return bool((row < 250).mean() >= 0.85)
