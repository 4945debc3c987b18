"""Labels of one letter: found from their ink, and read as a row of copies of the glyph.

Tesseract reads lines; a capital standing alone is often misread ("T" as "1" or "+",
"P" as ">)", "Y" as a yen sign), while the same glyph written out a few times reads as a
consistent run of one letter.
"""

from __future__ import annotations

import cv2
import numpy as np

REPEATS = 3
"""A one-letter label is read as a word of this many copies of its glyph."""
SAME_SHAPE = frozenset("cosuvwxzp")
"""Letters whose capital and small forms differ only in size: alone, read as capitals."""
LOOKALIKE = str.maketrans({"0": "O", "1": "I", "2": "Z", "5": "S", "6": "G", "8": "B"})
"""Digits read in place of the letter they resemble."""
SYMBOL_LOOKALIKE = str.maketrans({"¥": "Y", "|": "I"})
"""Symbols read in place of a lone capital (a label of one glyph is a letter or digit)."""


def count_glyphs(crop: np.ndarray) -> int:
    """Letters in a dark-on-white crop: blobs of ink (faint anti-aliasing included, so a
    thin diagonal does not split a letter) at least half as tall as the tallest."""
    _, _, stats, _ = cv2.connectedComponentsWithStats((crop < 200).astype(np.uint8), 8)
    hs = stats[1:, cv2.CC_STAT_HEIGHT]
    if not hs.size:
        return 0
    return int((hs >= max(3, 0.5 * hs.max())).sum())


def is_single_glyph(crop: np.ndarray) -> bool:
    """Does a tightly cropped label hold one letter (one blob, not much wider than tall)?"""
    h, w = crop.shape
    return count_glyphs(crop) == 1 and w <= 1.3 * h


def tight(crop: np.ndarray, margin: int = 2) -> np.ndarray:
    """A dark-on-white crop cut to its ink plus ``margin`` pixels."""
    ys, xs = np.nonzero(crop < 160)
    if not len(ys):
        return crop
    return crop[max(0, ys.min() - margin):ys.max() + margin + 1,
                max(0, xs.min() - margin):xs.max() + margin + 1]


def repeat_glyph(crop: np.ndarray) -> np.ndarray:
    """The glyph of a one-letter crop written ``REPEATS`` times, letter-spaced."""
    h = crop.shape[0]
    core = crop[:, 2:-2] if crop.shape[1] > 6 else crop
    gap = np.full((h, max(2, int(0.25 * h))), 255, np.uint8)
    parts = [core, gap] * REPEATS
    return cv2.copyMakeBorder(np.hstack(parts[:-1]), 0, 0, 2, 2, cv2.BORDER_CONSTANT,
                              value=255)


def repeated_letter(text: str) -> str:
    """The one letter a repeated glyph was read as, or ``""`` if the reading is not
    consistent (most copies read alike and not many more characters than copies)."""
    chars = [ch.translate(LOOKALIKE) for ch in text.translate(SYMBOL_LOOKALIKE)
             if ch.isalnum()]
    chars = [ch.upper() if ch in SAME_SHAPE else ch for ch in chars]
    if not chars or len(chars) > REPEATS + 1:
        return ""
    best = max(set(chars), key=lambda ch: (chars.count(ch), -chars.index(ch)))
    return best if chars.count(best) >= REPEATS - 1 else ""
