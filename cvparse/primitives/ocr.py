"""Text recognition with Tesseract, batched: all label crops of an image in one call.

pytesseract starts a Tesseract process per call, so every crop is rescaled to the text
size Tesseract reads best, laid out on one tall sheet with white gaps, read once, and the
words are mapped back to their crop by position.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

TARGET_GLYPH_HEIGHT = 26.0
"""Median glyph height (pixels) crops are rescaled to; Tesseract likes ~20-30 px capitals."""


@dataclass
class Word:
    """One recognised word, in the coordinates of the crop it came from."""

    text: str
    bbox: tuple[int, int, int, int]
    confidence: float
    line: int


def glyph_height(crop: np.ndarray) -> float:
    """Median height of the dark connected components (glyphs) of a crop, 0 if none."""
    n, _, stats, _ = cv2.connectedComponentsWithStats((crop < 128).astype(np.uint8), 8)
    h = stats[1:, cv2.CC_STAT_HEIGHT]
    h = h[h >= 3]
    return float(np.median(h)) if h.size else 0.0


@dataclass(frozen=True)
class Placement:
    """Where a rescaled crop sits on the sheet."""

    x: int
    y: int
    w: int
    h: int
    factor: float


def build_sheet(crops: list[np.ndarray], text_height: float, gap: int = 24
                ) -> tuple[np.ndarray, list[Placement]]:
    """Lay out grayscale crops (dark text on white) on one sheet.

    All crops share one scale factor, so letter case stays readable (P vs p, O vs o);
    each crop gets a row of its own (packing short crops side by side was measured worse:
    Tesseract then merges neighbouring words).
    """
    heights = [glyph_height(c) for c in crops if c.size]
    heights = [g for g in heights if g > 0]
    glyph = float(np.median(heights)) if heights else 0.6 * text_height
    factor = float(np.clip(TARGET_GLYPH_HEIGHT / max(glyph, 1.0), 0.5, 5.0))
    scaled = []
    for crop in crops:
        c = crop if crop.size else np.full((2, 2), 255, np.uint8)
        scaled.append(cv2.resize(c, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC))
    places: list[Placement] = []
    y = gap
    width = 0
    for c in scaled:
        places.append(Placement(gap, y, c.shape[1], c.shape[0], factor))
        width = max(width, gap + c.shape[1])
        y += c.shape[0] + gap
    sheet = np.full((max(y, 1), width + gap), 255, np.uint8)
    for c, p in zip(scaled, places):
        sheet[p.y:p.y + p.h, p.x:p.x + p.w] = c
    return sheet, places


def _limit_tesseract_threads() -> None:
    """Tesseract's OpenMP threads oversubscribe small machines: one sheet took 0.64 s with
    the default and 0.22 s with one thread (2 cores).  A user's own setting wins."""
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")


def _tesseract_words(sheet: np.ndarray, psm: int) -> list[tuple[str, tuple, float, tuple]]:
    import pytesseract

    _limit_tesseract_threads()
    # Handed over uncompressed (PGM): pytesseract would spend longer on PNG-encoding the
    # sheet than Tesseract spends decoding the larger file.
    image = Image.fromarray(sheet)
    image.format = "PPM"
    data = pytesseract.image_to_data(
        image, config=f"--psm {psm} -c load_system_dawg=0 -c load_freq_dawg=0",
        output_type=pytesseract.Output.DICT)
    words = []
    for i, text in enumerate(data["text"]):
        text = text.strip()
        if not text:
            continue
        box = (data["left"][i], data["top"][i], data["left"][i] + data["width"][i],
               data["top"][i] + data["height"][i])
        key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
        words.append((text, box, float(data["conf"][i]), key))
    return words


def read_crops(crops: list[np.ndarray], text_height: float, psm: int = 6
               ) -> list[list[Word]]:
    """Recognise the words of every crop with a single Tesseract call."""
    if not crops:
        return []
    sheet, places = build_sheet(crops, text_height)
    result: list[list[Word]] = [[] for _ in crops]
    line_ids: dict[tuple, int] = {}
    tol = TARGET_GLYPH_HEIGHT / 2
    for text, (x1, y1, x2, y2), conf, key in _tesseract_words(sheet, psm):
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        idx = next((i for i, p in enumerate(places)
                    if p.x - tol <= cx <= p.x + p.w + tol and p.y - tol <= cy <= p.y + p.h + tol),
                   None)
        if idx is None:
            continue
        p = places[idx]
        f = p.factor
        box = (int((x1 - p.x) / f), int((y1 - p.y) / f), int((x2 - p.x) / f),
               int((y2 - p.y) / f))
        line = line_ids.setdefault(key, len(line_ids))
        result[idx].append(Word(text, box, conf, line))
    return result


def read_crops_later(crops: list[np.ndarray], text_height: float, psm: int = 6
                     ) -> Callable[[], list[list[Word]]]:
    """Start ``read_crops`` in a worker thread; returns a function that waits for its words.

    Tesseract runs as a child process, so the caller's own work (or a second Tesseract
    call) goes on meanwhile, on another core where there is one.  Same words as
    ``read_crops``.
    """
    if not crops:
        return list
    _limit_tesseract_threads()  # before the thread starts: environ is not thread-safe
    pool = ThreadPoolExecutor(max_workers=1)
    future = pool.submit(read_crops, crops, text_height, psm)
    pool.shutdown(wait=False)
    return future.result


def word_lines(words: list[Word]) -> list[list[Word]]:
    """Words grouped by text line, lines top to bottom, words left to right."""
    lines: dict[int, list[Word]] = {}
    for w in words:
        lines.setdefault(w.line, []).append(w)
    ordered = sorted(lines.values(), key=lambda ws: min(w.bbox[1] for w in ws))
    return [sorted(ws, key=lambda w: w.bbox[0]) for ws in ordered]


def join_words(words: list[Word]) -> str:
    """Words of one label in reading order: lines top to bottom, words left to right."""
    return " ".join(" ".join(w.text for w in ws) for ws in word_lines(words))


def glyph_count(crop: np.ndarray) -> int:
    """Number of dark connected components (glyphs) of at least 3 px height."""
    n, _, stats, _ = cv2.connectedComponentsWithStats((crop < 128).astype(np.uint8), 8)
    return int((stats[1:, cv2.CC_STAT_HEIGHT] >= 3).sum())


def clean_single_glyph(text: str) -> str:
    """Text read from a crop holding one glyph is one character.

    Tesseract's LSTM often doubles a lone letter whose shapes agree across case
    ("Cc", "oO", "Vv"); it can only be that letter, drawn as a capital.  A lone vertical
    bar is the letter I.  Punctuation read beside a lone letter is noise.
    """
    letters = [ch for ch in text if ch.isalnum()]
    if not letters:
        return "I" if text.strip() in ("|", "!", "l") else text
    if len(letters) == 1:
        return letters[0]
    if len({ch.lower() for ch in letters}) == 1:
        upper = [ch for ch in letters if ch.isupper()]
        return upper[0] if upper else letters[0]
    return text


def read_labels(crops: list[np.ndarray], text_height: float) -> list[str]:
    """One label string per crop (one Tesseract call for all of them)."""
    labels = []
    for crop, words in zip(crops, read_crops(crops, text_height)):
        text = join_words(words)
        if glyph_count(crop) == 1:
            text = clean_single_glyph(text)
        labels.append(text)
    return labels
