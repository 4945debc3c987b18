"""Labels of one letter: found from their ink, and read as a row of copies of the glyph.

Tesseract reads lines; a capital standing alone is often misread ("T" as "1" or "+",
"P" as ">)", "Y" as a yen sign), while the same glyph written out a few times reads as a
consistent run of one letter.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..arrays import components

REPEATS = 3
"""A one-letter label is read as a word of this many copies of its glyph."""
SAME_SHAPE = frozenset("cosuvwxzp")
"""Letters whose capital and small forms differ only in size: alone, read as capitals."""
LOOKALIKE = str.maketrans({"0": "O", "1": "I", "2": "Z", "5": "S", "6": "G", "8": "B"})
"""Digits read in place of the letter they resemble."""
SYMBOL_LOOKALIKE = str.maketrans({"¥": "Y", "|": "I"})
"""Symbols read in place of a lone capital (a label of one glyph is a letter or digit)."""
LETTER_SYMBOLS = str.maketrans({"©": "C", "®": "R", "¥": "Y"})
"""Symbols read in place of the capital they are drawn like, in any word."""


INK_LEVEL = 160
"""Grey level below which a pixel of a binary copy is ink. Tesseract misreads some
anti-aliased capitals at some scales ("YYY" as "aa A") and some thin binary ones ("III"
as "HI"), so both copies are read."""


def count_glyphs(crop: np.ndarray) -> int:
    """Letters in a dark-on-white crop: blobs of ink (faint anti-aliasing included, so a
    thin diagonal does not split a letter) at least half as tall as the tallest."""
    _, _, stats, _ = components((crop < 200).astype(np.uint8), 8)
    hs = stats[1:, cv2.CC_STAT_HEIGHT]
    if not hs.size:
        return 0
    return int((hs >= max(3, 0.5 * hs.max())).sum())


def is_single_glyph(crop: np.ndarray) -> bool:
    """Does a tightly cropped label hold one letter (one blob, not much wider than tall)?"""
    h, w = crop.shape
    return count_glyphs(crop) == 1 and w <= 1.3 * h


def is_bar(crop: np.ndarray) -> bool:
    """A tightly cropped glyph that is one plain upright bar: a sans-serif "I" (Tesseract
    reads a row of them as "HI" or nothing). A "1" has a flag and is not a bar."""
    ink = crop < INK_LEVEL
    ys, xs = np.nonzero(ink)
    if len(ys) < 6:
        return False
    h, w = ys.max() - ys.min() + 1, xs.max() - xs.min() + 1
    box = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    return h >= 6 and w <= 0.3 * h and box.mean() >= 0.85


def tight(crop: np.ndarray, margin: int = 2) -> np.ndarray:
    """A dark-on-white crop cut to its ink plus ``margin`` pixels."""
    ys, xs = np.nonzero(crop < 160)
    if not len(ys):
        return crop
    return crop[max(0, ys.min() - margin):ys.max() + margin + 1,
                max(0, xs.min() - margin):xs.max() + margin + 1]


def repeat_glyph(crop: np.ndarray, binary: bool = False) -> np.ndarray:
    """The glyph of a one-letter crop written ``REPEATS`` times, letter-spaced; with
    ``binary``, in clean black and white (see ``INK_LEVEL``)."""
    h = crop.shape[0]
    core = crop[:, 2:-2] if crop.shape[1] > 6 else crop
    if binary:
        core = np.where(core < INK_LEVEL, 0, 255).astype(np.uint8)
    gap = np.full((h, max(2, int(0.25 * h))), 255, np.uint8)
    parts = [core, gap] * REPEATS
    return cv2.copyMakeBorder(np.hstack(parts[:-1]), 0, 0, 2, 2, cv2.BORDER_CONSTANT,
                              value=255)


def _letters(text: str) -> list[str]:
    """The letters and digits of a reading, look-alike digits and symbols mapped to their
    letters and small letters shaped like their capitals made capitals."""
    chars = [ch.translate(LOOKALIKE) for ch in text.translate(SYMBOL_LOOKALIKE)
             if ch.isalnum()]
    return [ch.upper() if ch in SAME_SHAPE else ch for ch in chars]


def repeated_letter(text: str) -> str:
    """The one letter a repeated glyph was read as, or ``""`` if the reading is not
    consistent (most copies read alike and not many more characters than copies)."""
    chars = _letters(text)
    if not chars or len(chars) > REPEATS + 1:
        return ""
    best = max(set(chars), key=lambda ch: (chars.count(ch), -chars.index(ch)))
    return best if chars.count(best) >= REPEATS - 1 else ""


def unanimous(text: str) -> str:
    """The capital or digit every copy of a repeated glyph was read as, with nothing else
    read; else ``""`` (a run of a small letter is a capital misread as often as not)."""
    chars = _letters(text)
    if len(chars) != REPEATS or len(set(chars)) != 1:
        return ""
    return chars[0] if chars[0].isupper() or chars[0].isdigit() else ""


def one_letter(label: str, grey: str, binary: str, bar: bool = False) -> str:
    """The text of a label drawn as one glyph, from its own reading and the readings of
    its grey and binary rows of copies. A unanimous row wins (alone, Tesseract reads an
    "F" as "E" and a "Y" as "a"), then the label read as one capital, then the rows'
    majority letter; a digit stays unless the copies read as a letter other than the
    digit's look-alike ("1" for a "T"). A glyph that is a plain bar (``is_bar``) is "I"."""
    if bar:
        return "I"
    label = label.translate(SYMBOL_LOOKALIKE) if len(label) == 1 else label
    letter = repeated_letter(grey) or repeated_letter(binary)
    if len(label) == 1 and label.isdigit() and letter == label.translate(LOOKALIKE):
        return label
    agreed = unanimous(grey) or unanimous(binary)
    if agreed:
        return agreed
    if len(label) == 1 and label.isupper():
        return label
    return letter or label
