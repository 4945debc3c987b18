"""Cardinalities the free-text pass lost because they touch their line: the glyph pieces
left beside the line once every traced line is taken out, read again by OCR."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ...boxes import box_gap
from ...connectors.lines import Connector
from ...primitives.items import Inventory
from ...primitives.freetext import WordBox, shapes_mask
from ...primitives.ocr import Word
from ...arrays import colour_distance
from ...primitives.strokes import is_straight_stroke
from .geometry import dists_to_polyline, straighten, straightened_lines
from .labels import CARDINALITY, cardinality_text
from .links import Link


LOST_ONE = frozenset("1lI|i!]L")
"""What a lone cardinality 1 reads as once the line it touched is cut away from it."""


def recover_cardinalities(inv: Inventory, lines: list[Link], cards: dict[int, str],
                          connectors: list[Connector]) -> dict[int, str]:
    """Cardinalities of the relationship lines that got none: the free-text pass loses a
    letter that touches its line (the line's removal cuts it) and a lone ``1`` (a bar, like
    a line stub).  The glyph pieces left beside each such line, once every traced line is
    taken out, are read in one batched OCR call."""
    missing = [li for li in range(len(lines)) if li not in cards]
    if not missing or inv.ink is None or inv.image is None:
        return {}
    th = inv.scale.text_height
    labels, boxes, letter_sized = glyph_boxes(inv, straightened_lines(connectors, th))
    ids = np.flatnonzero(letter_sized)
    if not ids.size:
        return {}
    centres = np.column_stack([(boxes[ids, 0] + boxes[ids, 2]) / 2,
                               (boxes[ids, 1] + boxes[ids, 3]) / 2])
    near = {li: dists_to_polyline(centres, straighten(lines[li].points, th)) for li in missing}
    close = np.flatnonzero(np.any([d <= 1.3 * th for d, _ in near.values()], axis=0))
    if not close.size:
        return {}
    # A piece nearer another traced line than to its own is that line's label.
    nearest = np.full(len(ids), np.inf)
    for q in straightened_lines(connectors, th):
        if np.linalg.norm(q[-1] - q[0]) >= th:
            nearest[close] = np.minimum(nearest[close], dists_to_polyline(centres[close], q)[0])
    taken = np.zeros(len(ids), bool)
    words, targets = [], []
    for li in missing:
        d, frac = near[li]
        ok = (d <= 1.3 * th) & (frac >= 0.1) & ~taken & (d <= nearest + 1.0)
        if not ok.any():
            continue
        order = np.flatnonzero(ok)[np.argsort(d[ok])]
        group = [int(order[0])]
        for k in order[1:]:
            if any(box_gap(boxes[ids[k]], boxes[ids[g]]) <= 0.3 * th for g in group):
                group.append(int(k))
        if len(group) > 1:
            group = [g for g in group
                     if not _line_remnant(labels, boxes[ids[g]], int(ids[g]), lines[li].points,
                                          inv.scale.stroke)] or group[:1]
        box = group_box(boxes[ids[group]])
        if box[2] - box[0] > 2.5 * th or box[3] - box[1] < 0.5 * th:
            continue
        taken[group] = True
        words.append(WordBox(box, [int(ids[g]) for g in group]))
        targets.append(li)
    if not words:
        return {}
    out = {}
    for li, word, (_, ws) in zip(targets, words, read_words(inv, labels, boxes, words)):
        text = _lost_cardinality(cardinality_text("".join(w.text for w in ws)), word.bbox, th)
        if text:
            out[li] = text
    return out


def glyph_boxes(inv: Inventory, polylines: list[np.ndarray], free_text: bool = False
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ink outside shapes, free text (unless ``free_text`` keeps it) and the
    ``polylines`` (straightened lines; stubs under one and a half text heights kept):
    component label image, boxes ``x1, y1, x2, y2`` (one row per label) and which of
    them are letter-sized."""
    th, st = inv.scale.text_height, inv.scale.stroke
    rest = inv.ink.copy()
    if inv.text_mask is not None and not free_text:
        rest &= ~inv.text_mask
        # A glyph or two read as no cardinality may be one misread ("L" for a cut "1").
        for t in inv.texts:
            if len(t.text) <= 2 and not CARDINALITY.match(cardinality_text(t.text)):
                x1, y1, x2, y2 = t.bbox
                rest[y1:y2, x1:x2] |= inv.ink[y1:y2, x1:x2]
    rest &= ~shapes_mask(inv.shapes, rest.shape, int(round(2 * st)) + 1)
    lines = np.zeros(rest.shape, np.uint8)
    width = int(round(st)) + 2
    for pts in polylines:
        if np.linalg.norm(np.diff(pts, axis=0), axis=1).sum() < 1.5 * th:
            continue  # a stub: most often the stem of a glyph touching a line, traced
        cv2.polylines(lines, [pts.round().astype(np.int32).reshape(-1, 1, 2)], False, 1, width)
    rest &= ~lines.astype(bool)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(rest.astype(np.uint8), 8)
    boxes = np.column_stack([stats[:, 0], stats[:, 1], stats[:, 0] + stats[:, 2],
                             stats[:, 1] + stats[:, 3]])
    w, h = stats[:, 2], stats[:, 3]
    ok = (np.maximum(w, h) >= 0.2 * th) & (h <= 1.2 * th) & (w <= 1.5 * th)
    ok[0] = False
    return labels, boxes, ok


def group_box(b: np.ndarray) -> tuple[int, int, int, int]:
    """The box around glyph boxes (rows ``x1, y1, x2, y2``)."""
    return (int(b[:, 0].min()), int(b[:, 1].min()), int(b[:, 2].max()), int(b[:, 3].max()))


def read_words(inv: Inventory, labels: np.ndarray, boxes: np.ndarray, words: list[WordBox],
               bands: LineBands | None = None, restore: list[bool] | None = None
               ) -> list[tuple[np.ndarray, list[Word]]]:
    """Each word's glyph crop (:func:`glyph_crop`, with the removed lines' ``bands`` for
    the words ``restore`` flags, all when it is not given) and what OCR reads in it, all
    the words in one batched call."""
    flags = restore if restore is not None else [True] * len(words)
    crops = [glyph_crop(inv, labels, boxes, w, bands if f else None)
             for w, f in zip(words, flags)]
    return list(zip(crops, inv.read(crops, inv.scale.text_height)))


@dataclass(frozen=True)
class LineBands:
    """The band a line's removal clears, split by how its segments run: ``steep`` (more
    upright than flat) and ``flat``, boolean page masks.  A glyph stroke crosses a steep
    band from side to side, a flat one from top to bottom."""

    steep: np.ndarray
    flat: np.ndarray

    def crosses(self, box: tuple[int, int, int, int]) -> bool:
        """Whether a band runs through the box ``x1, y1, x2, y2``."""
        x1, y1, x2, y2 = box
        return bool(self.steep[y1:y2, x1:x2].any() or self.flat[y1:y2, x1:x2].any())


def line_bands(shape: tuple[int, ...], polylines: list[np.ndarray], th: float, st: float
               ) -> LineBands:
    """The bands :func:`glyph_boxes` clears along ``polylines`` (same width, stubs under
    one and a half text heights skipped), split into steep and flat segments."""
    steep = np.zeros(shape[:2], np.uint8)
    flat = np.zeros(shape[:2], np.uint8)
    width = int(round(st)) + 2
    for pts in polylines:
        if np.linalg.norm(np.diff(pts, axis=0), axis=1).sum() < 1.5 * th:
            continue
        p = pts.round().astype(np.int32)
        for a, b in zip(p[:-1], p[1:]):
            dx, dy = b - a
            cv2.line(steep if abs(dy) > abs(dx) else flat, (int(a[0]), int(a[1])),
                     (int(b[0]), int(b[1])), 1, width)
    return LineBands(steep.astype(bool), flat.astype(bool))


def crossing_strokes(own: np.ndarray, ink: np.ndarray, steep: np.ndarray, flat: np.ndarray,
                     reach: int, box: tuple[int, int, int, int]) -> np.ndarray:
    """The ink a line's removal took from the letters of a word it runs through (``box``,
    crop coordinates).  Where a steep band (a line crossing the text row) runs through
    the box, all the box's ink: a letter drawn inside the band (an ``i``, a ``u`` the
    line runs down) is whole again, with the line's short upright run beside it, which
    OCR reads past as it does on a printed page.  Along a flat band only the pixels with
    ``own`` glyph ink on both sides of it, within ``reach`` pixels (the letters' stems):
    a line struck through a word is no letter."""
    x1, y1, x2, y2 = box
    out = np.zeros_like(own)
    if steep[y1:y2, x1:x2].any():
        out[y1:y2, x1:x2] = ink[y1:y2, x1:x2]
    o = own.astype(np.uint8)
    down = cv2.morphologyEx(o, cv2.MORPH_CLOSE, np.ones((reach, 1), np.uint8)).astype(bool)
    return (out | (ink & flat & down)) & ~own


def glyph_crop(inv: Inventory, labels: np.ndarray, boxes: np.ndarray, word: WordBox,
               bands: LineBands | None = None) -> np.ndarray:
    """Grayscale crop (dark on white) of a glyph cut out of a line: its pieces and the
    specks beside them (other ink in its box, the line's included, left out).  With the
    removed lines' ``bands``, the strokes of the word's letters that crossed a line are
    put back (:func:`crossing_strokes`)."""
    th, st = inv.scale.text_height, inv.scale.stroke
    pad = int(round(st)) + 3
    h, w = labels.shape
    x1, y1, x2, y2 = word.bbox
    wx1, wy1, wx2, wy2 = max(0, x1 - pad), max(0, y1 - pad), min(w, x2 + pad), min(h, y2 + pad)
    win = labels[wy1:wy2, wx1:wx2]
    specks = [int(k) for k in np.unique(win) if k and k not in word.labels
              and max(boxes[k, 2] - boxes[k, 0], boxes[k, 3] - boxes[k, 1]) < 0.2 * th]
    own = np.isin(win, list(word.labels) + specks)
    if bands is not None and inv.ink is not None:
        reach = int(round(st)) + 5
        own |= crossing_strokes(own, inv.ink[wy1:wy2, wx1:wx2], bands.steep[wy1:wy2, wx1:wx2],
                                bands.flat[wy1:wy2, wx1:wx2], reach,
                                (x1 - wx1, y1 - wy1, x2 - wx1, y2 - wy1))
    own = cv2.dilate(own.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    dist = colour_distance(inv.image[wy1:wy2, wx1:wx2], inv.background)
    top = max(float(dist[own].max()) if own.any() else 1.0, 30.0)
    gray = 255.0 - np.clip(dist / top, 0, 1) * 255.0
    gray[~own] = 255
    ys, xs = np.nonzero(gray < 200)
    if not ys.size:
        return np.full((2, 2), 255, np.uint8)
    return gray[max(0, ys.min() - 2):ys.max() + 3,
                max(0, xs.min() - 2):xs.max() + 3].astype(np.uint8)


def _lost_cardinality(text: str, box: tuple[int, int, int, int], th: float) -> str:
    """The cardinality a glyph cut out of a line reads as, or ''.

    Line remnants left on it add strokes OCR reads as extra letters: a reading with one
    many-letter (N or M) in it is that letter; bars and marks read for a lone upright
    glyph (no wider than tall) are the digit 1, and for a full-height glyph as wide as
    tall the pieces of a many-letter (a 1 is narrow).
    """
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    bars = bool(text) and all(ch in LOST_ONE for ch in text)
    if bars and h >= 0.6 * th and w >= 0.9 * h:
        return "N"  # a full-height glyph as wide as tall is no 1: a many-letter's pieces
    if CARDINALITY.match(text):
        return text
    many = {ch for ch in text if ch in "NM"}
    if len(many) == 1 and not any(ch.isdigit() for ch in text):
        return many.pop()
    if bars and h >= 0.6 * th and w <= 0.7 * h:
        return "1"
    return ""


def _line_remnant(labels: np.ndarray, box: np.ndarray, k: int, line: np.ndarray,
                  stroke: float) -> bool:
    """A piece of ink that is a straight stroke along ``line`` (what its removal left of
    the line), not part of a letter."""
    x1, y1, x2, y2 = (int(v) for v in box)
    ys, xs = np.nonzero(labels[y1:y2, x1:x2] == k)
    if len(xs) < 3 or not is_straight_stroke(ys, xs, stroke):
        return False
    pts = np.stack([xs, ys], 1).astype(float)
    u = np.linalg.svd(pts - pts.mean(0), full_matrices=False)[2][0]
    c = pts.mean(0) + (x1, y1)
    seg = np.diff(np.asarray(line, float), axis=0)
    mids = np.asarray(line, float)[:-1] + seg / 2
    v = seg[int(np.linalg.norm(mids - c, axis=1).argmin())]
    v = v / max(float(np.linalg.norm(v)), 1e-9)
    return abs(float(u @ v)) >= 0.95
