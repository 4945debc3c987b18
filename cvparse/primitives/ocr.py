"""Text recognition with Tesseract, batched: all label crops of an image in one call.

Every crop is rescaled to the text size Tesseract reads best, laid out on one tall sheet
with white gaps, read once, and the words are mapped back to their crop by position.
Sheets are read by the system's libtesseract loaded in this process (kept loaded between
calls: a fresh ``tesseract`` process spends ~0.1-0.2 s loading its model per sheet) and
fall back to the ``tesseract`` program through pytesseract; both give the same words.
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
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
    _, _, stats, _ = cv2.connectedComponentsWithStats((crop < 128).astype(np.uint8), 8)
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


def sheet_factor(crops: list[np.ndarray], text_height: float) -> float:
    """The scale factor a sheet of ``crops`` is drawn at: their median glyph to
    ``TARGET_GLYPH_HEIGHT``."""
    heights = [glyph_height(c) for c in crops if c.size]
    heights = [g for g in heights if g > 0]
    glyph = float(np.median(heights)) if heights else 0.6 * text_height
    return float(np.clip(TARGET_GLYPH_HEIGHT / max(glyph, 1.0), 0.5, 5.0))


SMALL_TEXT_FACTOR = 3.0
"""Sheets enlarged this much or more hold text a few pixels tall, whose strokes are one
antialiased pixel wide: enlarged, they come out as pale, thin, blurred letters that
Tesseract misreads, so such sheets are read a second time darkened (``darkened``)."""
DARKEN_GAMMA = 2.5
"""Exponent of the darkening curve: grey levels between paper and ink move towards ink,
so a letter's antialiased rim becomes part of its stroke."""


def darkened(sheet: np.ndarray, gamma: float = DARKEN_GAMMA) -> np.ndarray:
    """A dark-on-white image with its grey levels pushed towards black (paper stays
    white): thin, pale strokes drawn bolder."""
    lut = (255.0 * (np.arange(256) / 255.0) ** gamma).round().astype(np.uint8)
    return lut[sheet]


def build_sheet(crops: list[np.ndarray], text_height: float, gap: int = 24,
                factor: float | None = None) -> tuple[np.ndarray, list[Placement]]:
    """Lay out grayscale crops (dark text on white) on one sheet.

    All crops share one scale factor, so letter case stays readable (P vs p, O vs o);
    each crop gets a row of its own (packing short crops side by side was measured worse:
    Tesseract then merges neighbouring words).  ``factor`` overrides that scale factor
    (default ``sheet_factor``).
    """
    factor = sheet_factor(crops, text_height) if factor is None else factor
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


TESSERACT_VARS = {"load_system_dawg": "0", "load_freq_dawg": "0",
                  "textord_disable_pitch_test": "1"}
"""Tesseract settings of every read: no dictionary (labels are names, not English), and no
test for fixed-pitch rows: a sheet's rows are single labels, which Tesseract reads as
proportional text anyway (the same words on 226 sheets of all families), and the test took
~4 % of a large sheet's read."""
ENGINE_ENV = "CVPARSE_TESSERACT"
"""Set to ``cli`` to read through the ``tesseract`` program instead of the library."""
_TSV_HEADER = ("level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth"
               "\theight\tconf\ttext\n")
"""The first line of ``tesseract ... tsv`` output (the library's TSV text lacks it)."""


def _tesseract_words(sheet: np.ndarray, psm: int) -> list[tuple[str, tuple, float, tuple]]:
    data = _tesseract_data(sheet, psm)
    words = []
    for i, text in enumerate(data.get("text", [])):
        text = text.strip()
        if not text:
            continue
        box = (data["left"][i], data["top"][i], data["left"][i] + data["width"][i],
               data["top"][i] + data["height"][i])
        key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
        words.append((text, box, float(data["conf"][i]), key))
    return words


def _tesseract_data(sheet: np.ndarray, psm: int) -> dict[str, list]:
    """pytesseract's ``image_to_data`` dictionary of a sheet, from the loaded library when
    it is there, else from the ``tesseract`` program."""
    _limit_tesseract_threads()
    pool = None if os.environ.get(ENGINE_ENV) == "cli" else _engines()
    if pool is not None:
        with pool.engine() as engine:
            if engine is not None:
                return _parse_tsv(engine.read_tsv(sheet, psm))
    return _cli_data(sheet, psm)


def _cli_data(sheet: np.ndarray, psm: int) -> dict[str, list]:
    import pytesseract

    # Handed over uncompressed (PGM): pytesseract would spend longer on PNG-encoding the
    # sheet than Tesseract spends decoding the larger file.
    image = Image.fromarray(sheet)
    image.format = "PPM"
    config = f"--psm {psm} " + " ".join(f"-c {k}={v}" for k, v in TESSERACT_VARS.items())
    return pytesseract.image_to_data(image, config=config,
                                     output_type=pytesseract.Output.DICT)


def _parse_tsv(tsv: str) -> dict[str, list]:
    """The TSV text read as pytesseract reads the program's output (same types)."""
    from pytesseract.pytesseract import file_to_dict

    return file_to_dict(_TSV_HEADER + tsv, "\t", -1)


class _Engine:
    """One initialised Tesseract (C API through ctypes); one thread at a time."""

    def __init__(self, lib: ctypes.CDLL):
        self.lib = lib
        self.handle = lib.TessBaseAPICreate()
        # The settings the program gets from ``-c`` and its ``tsv`` config, given at
        # initialisation (the dictionary switches only work there) and again after.
        names = {**TESSERACT_VARS, "tessedit_create_tsv": "1"}
        keys = (ctypes.c_char_p * len(names))(*[k.encode() for k in names])
        values = (ctypes.c_char_p * len(names))(*[v.encode() for v in names.values()])
        configs = (ctypes.c_char_p * 1)(b"tsv")
        if lib.TessBaseAPIInit4(self.handle, None, b"eng", 3, configs, 1, keys, values,
                                len(names), 0) != 0:
            lib.TessBaseAPIDelete(self.handle)
            raise OSError("libtesseract could not load its English model")
        for k, v in names.items():
            lib.TessBaseAPISetVariable(self.handle, k.encode(), v.encode())

    def read_tsv(self, sheet: np.ndarray, psm: int) -> str:
        """Recognise a grayscale sheet; the TSV rows ``tesseract IMG - tsv`` prints."""
        h, w = sheet.shape
        # Handed over as raw 8-bit rows: Tesseract copies them into the same grey image
        # the program decodes from a file (the same words, boxes and confidences), without
        # Leptonica's byte-by-byte PGM parsing (~5 % of a read).
        data = np.ascontiguousarray(sheet, np.uint8)
        try:
            self.lib.TessBaseAPISetPageSegMode(self.handle, psm)
            self.lib.TessBaseAPISetImage(self.handle, data.ctypes.data, w, h, 1, w)
            if self.lib.TessBaseAPIRecognize(self.handle, None) != 0:
                raise OSError("Tesseract failed to recognise the sheet")
            text = self.lib.TessBaseAPIGetTsvText(self.handle, 0)
            try:
                return ctypes.string_at(text).decode("utf-8") if text else ""
            finally:
                if text:
                    self.lib.TessDeleteText(text)
        finally:
            self.lib.TessBaseAPIClear(self.handle)

    def close(self) -> None:
        self.lib.TessBaseAPIEnd(self.handle)
        self.lib.TessBaseAPIDelete(self.handle)


MAX_ENGINES = 1
"""Engines loaded per process.  Each holds ~20-35 MB; a second one only let the label and
free-word sheets of a page be read at once, which rarely overlapped."""


class _EnginePool:
    """The loaded engines of this process, reused from read to read; a read waits while
    all ``MAX_ENGINES`` are busy.

    A forked child (a batch worker) keeps the idle engines it inherits: they were not in
    use at the fork, so their copies are whole and need no second model load.
    """

    def __init__(self, lib: ctypes.CDLL):
        self.lib = lib
        self.ready = threading.Condition()
        self.idle: list[_Engine] = []
        self.made = 0
        self.broken = False

    @contextmanager
    def engine(self) -> Iterator[_Engine | None]:
        """An idle engine (made when there are fewer than the limit), or None when the
        library cannot read."""
        engine = None
        with self.ready:
            self.ready.wait_for(lambda: self.idle or self.made < MAX_ENGINES or self.broken)
            if self.idle:
                engine = self.idle.pop()
            elif not self.broken:
                self.made += 1
                try:
                    engine = _Engine(self.lib)
                except OSError:
                    self.made -= 1
                    self.broken = True
                    self.ready.notify_all()
        try:
            yield engine
        finally:
            if engine is not None:
                with self.ready:
                    self.idle.append(engine)
                    self.ready.notify()

    def after_fork(self) -> None:
        """In a forked child: engines busy in other threads at the fork are gone with
        them, and those threads may have held the lock."""
        self.ready = threading.Condition()
        self.made = len(self.idle)

    def close(self) -> None:
        with self.ready:
            engines, self.idle = self.idle, []
            self.made -= len(engines)
        for e in engines:
            e.close()


@functools.lru_cache(maxsize=1)
def _engines() -> _EnginePool | None:
    """The process's engine pool, or None without a usable libtesseract."""
    try:
        lib = ctypes.CDLL("libtesseract.so.5")
    except OSError:
        return None
    vp, cp, ci = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    lib.TessBaseAPICreate.restype = vp
    lib.TessBaseAPIInit4.argtypes = [vp, cp, cp, ci, ctypes.POINTER(cp), ci,
                                     ctypes.POINTER(cp), ctypes.POINTER(cp), ctypes.c_size_t, ci]
    lib.TessBaseAPISetVariable.argtypes = [vp, cp, cp]
    lib.TessBaseAPISetPageSegMode.argtypes = [vp, ci]
    lib.TessBaseAPISetImage.argtypes = [vp, vp, ci, ci, ci, ci]
    lib.TessBaseAPIRecognize.argtypes = [vp, vp]
    lib.TessBaseAPIGetTsvText.argtypes = [vp, ci]
    lib.TessBaseAPIGetTsvText.restype = vp
    lib.TessDeleteText.argtypes = [vp]
    for name in ("TessBaseAPIClear", "TessBaseAPIEnd", "TessBaseAPIDelete"):
        getattr(lib, name).argtypes = [vp]
    pool = _EnginePool(lib)
    atexit.register(pool.close)  # else Tesseract prints leak warnings at exit
    os.register_at_fork(after_in_child=pool.after_fork)
    return pool


def read_crops(crops: list[np.ndarray], text_height: float, psm: int = 6,
               factor: float | None = None,
               touch: Callable[[np.ndarray], np.ndarray] | None = None
               ) -> list[list[Word]]:
    """Recognise the words of every crop with a single Tesseract call.

    Parameters
    ----------
    crops : list of ndarray
        Grey or RGB crops of dark text on a light ground, in page pixels.
    text_height : float
        The page's text height in pixels (crops are rescaled from it to Tesseract's size).
    psm : int
        Tesseract's page segmentation mode (6: a block of text).
    factor : float, optional
        The sheet's scale factor (default: from the crops' median glyph).
    touch : callable, optional
        Applied to the laid-out sheet before it is read (e.g. ``darkened``).

    Returns
    -------
    list of list of Word
        One list per crop, each word boxed in that crop's coordinates.
    """
    if not crops:
        return []
    sheet, places = build_sheet(crops, text_height, factor=factor)
    if touch is not None:
        sheet = touch(sheet)
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


def read_crops_later(crops: list[np.ndarray], text_height: float, psm: int = 6,
                     factor: float | None = None,
                     touch: Callable[[np.ndarray], np.ndarray] | None = None
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
    future = pool.submit(read_crops, crops, text_height, psm, factor, touch)
    pool.shutdown(wait=False)
    return future.result


def reading_confidence(words: list[Word]) -> float:
    """How sure Tesseract is of a crop's reading: its words' confidence weighted by their
    length (0 for no words)."""
    n = sum(len(w.text) for w in words)
    return sum(w.confidence * len(w.text) for w in words) / n if n else 0.0


def surer_readings(first: list[list[Word]], second: list[list[Word]]) -> list[list[Word]]:
    """Per crop, the reading of the two Tesseract is surer of (the first on a tie)."""
    return [b if reading_confidence(b) > reading_confidence(a) else a
            for a, b in zip(first, second)]


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
    _, _, stats, _ = cv2.connectedComponentsWithStats((crop < 128).astype(np.uint8), 8)
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
    return labels_of(crops, read_crops(crops, text_height))


def labels_of(crops: list[np.ndarray], words: list[list[Word]]) -> list[str]:
    """One label string per crop from the words read in it (a lone glyph cleaned)."""
    labels = []
    for crop, words_in in zip(crops, words):
        text = join_words(words_in)
        if glyph_count(crop) == 1:
            text = clean_single_glyph(text)
        labels.append(text)
    return labels
