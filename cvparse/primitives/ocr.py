"""Text recognition with Tesseract, batched: all label crops of an image in one call.

pytesseract starts a Tesseract process per call, so every crop is rescaled to the text
size Tesseract reads best, laid out on one tall sheet with white gaps, read once, and the
words are mapped back to their crop by position.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

TARGET_TEXT_HEIGHT = 40.0
"""Line height (pixels) crops are rescaled to; Tesseract likes ~20-30 px capitals."""


@dataclass
class Word:
    """One recognised word, in the coordinates of the crop it came from."""

    text: str
    bbox: tuple[int, int, int, int]
    confidence: float
    line: int


def _pad(crop: np.ndarray, margin: int) -> np.ndarray:
    return cv2.copyMakeBorder(crop, margin, margin, margin, margin, cv2.BORDER_CONSTANT,
                              value=255)


def build_sheet(crops: list[np.ndarray], text_height: float, gap: int = 24
                ) -> tuple[np.ndarray, list[tuple[int, int, float]]]:
    """Stack grayscale crops (dark text on white) into one sheet.

    Returns the sheet and, per crop, ``(y_offset, x_offset, factor)`` to map words back.
    """
    factor = float(np.clip(TARGET_TEXT_HEIGHT / max(text_height, 1.0), 0.5, 4.0))
    placed, places = [], []
    y = gap
    width = 0
    for crop in crops:
        c = crop
        if c.size == 0:
            c = np.full((2, 2), 255, np.uint8)
        c = cv2.resize(c, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
        c = _pad(c, gap // 2)
        placed.append((y, c))
        places.append((y + gap // 2, gap + gap // 2, factor))
        y += c.shape[0] + gap
        width = max(width, c.shape[1])
    sheet = np.full((max(y, 1), width + 2 * gap), 255, np.uint8)
    for (yy, c) in placed:
        sheet[yy:yy + c.shape[0], gap:gap + c.shape[1]] = c
    return sheet, places


def _tesseract_words(sheet: np.ndarray, psm: int) -> list[tuple[str, tuple, float, tuple]]:
    import pytesseract

    data = pytesseract.image_to_data(
        sheet, config=f"--psm {psm} -c load_system_dawg=0 -c load_freq_dawg=0",
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
    spans = [(oy, oy + int(round(c.shape[0] * f))) for (oy, _, f), c in zip(places, crops)]
    line_ids: dict[tuple, int] = {}
    for text, (x1, y1, x2, y2), conf, key in _tesseract_words(sheet, psm):
        cy = (y1 + y2) / 2
        idx = next((i for i, (a, b) in enumerate(spans) if a - 8 <= cy <= b + 8), None)
        if idx is None:
            continue
        oy, ox, f = places[idx]
        box = (int((x1 - ox) / f), int((y1 - oy) / f), int((x2 - ox) / f), int((y2 - oy) / f))
        line = line_ids.setdefault(key, len(line_ids))
        result[idx].append(Word(text, box, conf, line))
    return result


def join_words(words: list[Word]) -> str:
    """Words of one label in reading order: lines top to bottom, words left to right."""
    if not words:
        return ""
    lines: dict[int, list[Word]] = {}
    for w in words:
        lines.setdefault(w.line, []).append(w)
    ordered = sorted(lines.values(), key=lambda ws: min(w.bbox[1] for w in ws))
    return " ".join(" ".join(w.text for w in sorted(ws, key=lambda w: w.bbox[0]))
                    for ws in ordered)
