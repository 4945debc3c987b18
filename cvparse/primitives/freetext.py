"""Free text outside shapes: cardinalities beside lines, edge labels, IS-A labels.

Ink outside every shape splits into connected components; letter-sized ones that are not
a straight stroke (a connector stub) are glyphs.  Glyphs on one baseline with letter-sized
gaps form words; each word becomes a grayscale crop for the batched OCR call.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .elements import Scale, Shape
from .paper import colour_distance


@dataclass
class WordBox:
    """A group of glyph components read as one word."""

    bbox: tuple[int, int, int, int]
    """``x1, y1, x2, y2`` in image pixels (exclusive ends)."""
    labels: list[int]
    """Component labels (of :func:`glyph_components`) that make the word."""
    touches_line: bool = False
    """Some of its ink touched a connector line (removed before the components were cut)."""


def shapes_mask(shapes: list[Shape], size: tuple[int, int], pad: int) -> np.ndarray:
    """Boolean image of every shape's outer area grown by ``pad`` pixels."""
    h, w = size
    mask = np.zeros((h, w), np.uint8)
    for s in shapes:
        x1, y1, x2, y2 = s.outer.bbox
        mask[y1:y2, x1:x2] |= s.outer.filled.astype(np.uint8)
    if pad > 0:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pad + 1, 2 * pad + 1))
        mask = cv2.dilate(mask, k)
    return mask.astype(bool)


def is_straight_stroke(ys: np.ndarray, xs: np.ndarray, stroke: float) -> bool:
    """Pixels that all lie within about half a stroke of one straight line (a line stub)."""
    pts = np.stack([xs, ys], 1).astype(float)
    if len(pts) < 3:
        return True
    c = pts - pts.mean(0)
    _, _, vt = np.linalg.svd(c, full_matrices=False)
    normal = vt[-1]
    spread = np.abs(c @ normal).max()
    return bool(spread <= 0.5 * stroke + 1.0)


def line_strokes(mask: np.ndarray, scale: Scale) -> np.ndarray:
    """Pixels of the long straight strokes of ``mask`` (connector lines), a little widened.

    Letters are drawn with strokes shorter than a text height, so straight runs longer
    than one are lines, even where a label touches them.
    """
    length = max(8, int(round(1.0 * scale.text_height)))
    m8 = mask.astype(np.uint8)
    segs = cv2.HoughLinesP(m8, 1, np.pi / 180, threshold=length, minLineLength=length,
                           maxLineGap=max(1, int(round(scale.stroke))))
    out = np.zeros(mask.shape, np.uint8)
    width = int(round(scale.stroke)) + 2
    h, w = mask.shape
    near = cv2.dilate(m8, np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)).astype(bool)
    near_wide = cv2.dilate(m8, np.ones((3, 3), np.uint8)).astype(bool)
    for x1, y1, x2, y2 in (segs.reshape(-1, 4) if segs is not None else []):
        # A drawn line is unbroken; a row of letters (serifs on one baseline) is not.
        slanted = abs(int(y2) - int(y1)) > 0.2 * abs(int(x2) - int(x1))
        n = max(abs(int(x2) - int(x1)), abs(int(y2) - int(y1))) + 1
        xs = np.linspace(x1, x2, n).round().astype(int).clip(0, w - 1)
        ys = np.linspace(y1, y2, n).round().astype(int).clip(0, h - 1)
        if (near_wide if slanted else near)[ys, xs].mean() < (0.9 if slanted else 0.97):
            continue
        cv2.line(out, (int(x1), int(y1)), (int(x2), int(y2)), 1, width)
    return out.astype(bool) & mask


def solid(mask: np.ndarray, stroke: float) -> bool:
    """A filled blob (arrowhead, dot marker), not a letter: thicker than letter strokes
    (at most about twice the line width), or thicker than a line and filling its hull."""
    m = np.pad(mask, 1).astype(np.uint8)
    thick = float(cv2.distanceTransform(m, cv2.DIST_L2, 3).max())
    if thick > 1.5 * stroke + 1.5:
        return True
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.contourArea(cv2.convexHull(np.concatenate(contours)))
    return bool(thick >= stroke + 0.5 and hull > 0 and mask.sum() / hull >= 0.75)


def glyph_components(ink: np.ndarray, shapes: list[Shape], scale: Scale
                     ) -> tuple[np.ndarray, list[int], np.ndarray, np.ndarray]:
    """Component label image of the ink outside shapes, the glyph labels, the stats and
    the line strokes taken out."""
    outside = ink & ~shapes_mask(shapes, ink.shape, int(round(scale.stroke)) + 1)
    lines = line_strokes(outside, scale)
    outside &= ~lines
    n, labels, stats, _ = cv2.connectedComponentsWithStats(outside.astype(np.uint8), 8)
    th = scale.text_height
    glyphs = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if h > 1.1 * th or w > 1.5 * th or max(w, h) < 0.2 * th:
            continue
        own = labels[y:y + h, x:x + w] == i
        ys, xs = np.nonzero(own)
        flat = h <= 2 * scale.stroke + 1 and w <= th  # an underscore, kept to join words
        if max(w, h) >= 0.45 * th and not flat and is_straight_stroke(ys, xs, scale.stroke):
            continue
        if solid(own, scale.stroke):
            continue  # a filled arrowhead or dot marker, thicker than any letter stroke
        glyphs.append(i)
    return labels, glyphs, stats, lines


def group_words(glyphs: list[int], stats: np.ndarray, scale: Scale) -> list[WordBox]:
    """Glyphs side by side on one line, gaps under half a text height, as words.

    Pieces of one glyph cut apart by a crossing line (stacked, a line width apart) are
    joined first.
    """
    text_height = scale.text_height
    boxes = {i: [int(stats[i, 0]), int(stats[i, 1]), int(stats[i, 0] + stats[i, 2]),
                 int(stats[i, 1] + stats[i, 3])] for i in glyphs}
    parent = {i: i for i in glyphs}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(glyphs, key=lambda i: boxes[i][0])
    gap = 0.45 * text_height
    for k, i in enumerate(order):
        a = boxes[i]
        for j in order[k + 1:]:
            b = boxes[j]
            if b[0] - a[2] > gap:
                break
            overlap = min(a[3], b[3]) - max(a[1], b[1])
            # Dots and commas overlap a letter's lower half only.
            if overlap >= 0.3 * min(a[3] - a[1], b[3] - b[1]):
                parent[find(j)] = find(i)
            elif _stacked(a, b, scale.stroke + 3, 1.1 * text_height):
                parent[find(j)] = find(i)
            elif _underscore_beside(a, b, scale.stroke, text_height):
                parent[find(j)] = find(i)
    groups: dict[int, list[int]] = {}
    for i in glyphs:
        groups.setdefault(find(i), []).append(i)
    words = []
    for members in groups.values():
        bx = np.array([boxes[i] for i in members])
        bbox = (int(bx[:, 0].min()), int(bx[:, 1].min()), int(bx[:, 2].max()),
                int(bx[:, 3].max()))
        if bbox[3] - bbox[1] < 0.45 * text_height:
            continue  # stray dots and specks
        words.append(WordBox(bbox, members))
    return sorted(words, key=lambda w: (w.bbox[1], w.bbox[0]))


def _underscore_beside(a: list[int], b: list[int], stroke: float, text_height: float
                       ) -> bool:
    """One box is a flat stroke just below the other's baseline: an underscore."""
    for flat, tall in ((a, b), (b, a)):
        if flat[3] - flat[1] <= 2 * stroke + 1 and tall[1] <= flat[1] <= tall[3] + 0.4 * text_height:
            return True
    return False


def _stacked(a: list[int], b: list[int], max_gap: float, max_height: float) -> bool:
    """Two boxes one above the other, a line width apart: one glyph cut by a line."""
    x_overlap = min(a[2], b[2]) - max(a[0], b[0])
    gap = max(a[1], b[1]) - min(a[3], b[3])
    height = max(a[3], b[3]) - min(a[1], b[1])
    return (x_overlap >= 0.5 * min(a[2] - a[0], b[2] - b[0]) and gap <= max_gap
            and height <= max_height)


def word_crop(rgb: np.ndarray, labels: np.ndarray, word: WordBox,
              background: tuple[int, int, int]) -> np.ndarray:
    """Grayscale crop of a word, dark on white, other ink in its box blanked."""
    x1, y1, x2, y2 = word.bbox
    m = 2
    h, w = labels.shape
    cx1, cy1, cx2, cy2 = max(0, x1 - m), max(0, y1 - m), min(w, x2 + m), min(h, y2 + m)
    own = np.isin(labels[cy1:cy2, cx1:cx2], word.labels)
    own = cv2.dilate(own.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    dist = colour_distance(rgb[cy1:cy2, cx1:cx2], background)
    top = max(float(dist[own].max()) if own.any() else 1.0, 30.0)
    gray = 255.0 - np.clip(dist / top, 0, 1) * 255.0
    gray[~own] = 255
    return gray.astype(np.uint8)


def free_words(rgb: np.ndarray, ink: np.ndarray, shapes: list[Shape], scale: Scale,
               background: tuple[int, int, int]) -> tuple[list[WordBox], list[np.ndarray]]:
    """Words of free text on the page and their OCR crops."""
    labels, glyphs, stats, lines = glyph_components(ink, shapes, scale)
    words = group_words(glyphs, stats, scale)
    near_line = cv2.dilate(lines.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    for w in words:
        x1, y1, x2, y2 = w.bbox
        w.touches_line = bool((np.isin(labels[y1:y2, x1:x2], w.labels)
                               & near_line[y1:y2, x1:x2]).any())
    return words, [word_crop(rgb, labels, w, background) for w in words]
