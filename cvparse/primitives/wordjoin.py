"""Join the OCR words of one label, restoring underscores between them.

Tesseract often drops the low underscore of ``snake_case`` identifiers, reading two words,
or reads it as a word of its own (``end _ time``).  The crop tells which: ink in the bottom
band of the gap between two words is an underscore; so is a gap under an erased underline
(the underline covered it) that is wider than a space.
"""

from __future__ import annotations

import re

import cv2
import numpy as np

from .ocr import Word, clean_single_glyph, glyph_count, word_lines

DARK = 128


def _has_underscore(gray: np.ndarray, left: Word, right: Word) -> bool:
    """Ink in the lowest part of the gap between two words of one line."""
    x1, x2 = left.bbox[2], right.bbox[0]
    if x2 - x1 < 2:
        return False
    top = min(left.bbox[1], right.bbox[1])
    bottom = max(left.bbox[3], right.bbox[3])
    h = bottom - top
    band = gray[max(0, bottom - h // 3):bottom + max(2, h // 4), x1 + 1:x2 - 1]
    if band.size == 0:
        return False
    cols = (band < DARK).any(axis=0)
    return bool(cols.mean() >= 0.5)


def _longest_run(row: np.ndarray) -> int:
    """Length of the longest run of True in a 1-D boolean array."""
    d = np.diff(np.concatenate([[0], row.astype(np.int8), [0]]))
    starts, ends = np.flatnonzero(d == 1), np.flatnonzero(d == -1)
    return int((ends - starts).max()) if starts.size else 0


def underscore_gaps(gray: np.ndarray, glyph: float, erased: bool) -> int:
    """Number of word breaks drawn as an underscore in a one-line crop.

    A break is a run of columns, at least ``0.4 * glyph`` wide, with ink only in the
    bottom rows (the underscore); if an underline was ``erased`` over the underscore,
    runs whose ink-free part is that wide count too.
    """
    ink = gray < DARK
    rows = np.flatnonzero(ink.any(axis=1))
    cols = np.flatnonzero(ink.any(axis=0))
    if rows.size == 0 or cols.size < 2:
        return 0
    low = int(np.ceil(rows[-1] - max(2.0, 0.3 * glyph)))
    span = slice(cols[0], cols[-1] + 1)
    upper = ink[:low, span].any(axis=0)
    bottom = ink[low:, span].any(axis=0)
    sub = ink[:, span]
    inked = sub.any(axis=0)
    lowest = sub.shape[0] - 1 - np.argmax(sub[::-1], axis=0)
    baseline = float(np.median(lowest[inked]))
    mark = ~upper
    d = np.diff(np.concatenate([[0], mark.astype(np.int8), [0]]))
    count = 0
    for s, e in zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1)):
        if e - s < 0.4 * glyph:
            continue
        # Under an erased underline the underscore went with it: the break is a gap
        # with no ink at all, wider than a space, though a serif at the foot of the
        # letter before or after may reach into it (the leg of a Times R).
        if erased and _longest_run(~bottom[s:e]) >= 0.4 * glyph:
            count += 1
            continue
        rows_here = np.flatnonzero(sub[:, s:e].any(axis=1))
        # An underscore sits below the baseline (letter bottoms rest on it, and their
        # serifs may reach into the gap) and is one unbroken stroke (the bottom tips of
        # a w or v are not).
        flat = [y for y in rows_here if _longest_run(sub[y, s:e]) >= 0.6 * (e - s)]
        below = rows_here.size and rows_here[0] > baseline
        # With a serif in the gap, the stroke must lie clearly lower (a u's bottom
        # running into the next letter lies on the baseline).
        if bottom[s:e].mean() >= 0.7 and flat and (
                (below and flat[0] > baseline) or flat[0] >= baseline + 0.15 * glyph) \
                and not _bowl(sub, s, e, flat[0], low):
            count += 1
    return count


def _bowl(ink: np.ndarray, s: int, e: int, row: int, low: int) -> bool:
    """True if the flat stroke in ``row`` between columns ``s`` and ``e`` is the bottom
    of a letter (a u's bowl): one piece of ink with strokes that rise above ``low`` on
    both sides of it.  An underscore is a piece of its own, or touches one letter."""
    _, labels = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)
    for k in set(labels[row, s:e][ink[row, s:e]].tolist()):
        ys, xs = np.nonzero(labels[:low] == k)
        if (xs < s).any() and (xs >= e).any():
            return True
    return False


def _lone_letter(word: Word, gray: np.ndarray) -> str:
    """A word's text, one letter if it was read as a letter in both cases ("Cc", "oO")
    where the crop holds a single glyph: Tesseract's doubling of a lone letter (see
    :func:`~cvparse.primitives.ocr.clean_single_glyph`), here a word of a longer label
    ("Join Tasks C")."""
    text = word.text
    if len(text) != 2 or not text.isalpha() or text[0].lower() != text[1].lower() \
            or text[0] == text[1]:
        return text
    x1, y1, x2, y2 = word.bbox
    box = gray[max(0, y1):max(0, y2), max(0, x1):max(0, x2)]
    return clean_single_glyph(text) if box.size and glyph_count(box) == 1 else text


def join_label(words: list[Word], gray: np.ndarray, underlined: bool, glyph: float) -> str:
    """Words of one crop in reading order, ``_`` restored between words where drawn."""
    if not words:
        return ""
    ordered = word_lines(words)
    # Tesseract's word boxes are unreliable under an erased underline; the crop's own
    # column gaps tell whether every word break is an underscore-wide gap.
    joined_under = (len(ordered) == 1 and len(words) >= 2
                    and underscore_gaps(gray, glyph, underlined) >= len(words) - 1)
    out = []
    for ws in ordered:
        text = _lone_letter(ws[0], gray)
        for a, b in zip(ws, ws[1:]):
            sep = " "
            if joined_under or _has_underscore(gray, a, b):
                sep = "_"
            text += sep + _lone_letter(b, gray)
        out.append(text)
    text = " ".join(out)
    text = re.sub(r"\s*_+\s*", "_", text) if "_" in text else text
    if glyph_count(gray) == 1:
        text = clean_single_glyph(text)
    return text
