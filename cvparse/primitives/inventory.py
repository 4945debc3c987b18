"""The node inventory: every closed shape with its kind, modifiers and label, plus free text.

Steps: paper and ink (``paper``), scale (``scale``), enclosed regions (``regions``), shape
fitting (``shapes``), double borders merged, then one batched OCR call (``ocr``) for the
labels inside shapes and the free text outside them.
"""

from __future__ import annotations

import cv2
import numpy as np

from .elements import Inventory, Scale, Shape, TextItem
from .ocr import read_labels
from .paper import background_colour, colour_distance, ink_mask, paper_map
from .regions import Region, enclosed_regions, grow_region
from .scale import estimate_scale
from .shapes import classify

MIN_FIT = 0.86
"""Regions fitting no template better than this are gaps between lines, not shapes."""


def page_ink(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, Scale]:
    """Paper map, ink mask, fine ink mask and scale.

    The wide median (twice the text height) erases text and filled arrowheads, so its ink
    holds them whole; the fine median (a few strokes wide) follows the corners of filled
    shapes, so its ink outlines shapes exactly.
    """
    paper = paper_map(rgb, 15)
    scale = estimate_scale(ink_mask(rgb, paper))
    paper = paper_map(rgb, max(15, 2 * scale.text_height))
    ink = ink_mask(rgb, paper)
    scale = estimate_scale(ink)
    fine = ink_mask(rgb, paper_map(rgb, max(7, 4 * scale.stroke + 1)))
    return paper, ink, fine, scale


def _ring_thickness(r: Region) -> float:
    perimeter = max(1.0, len(r.contour))
    return r.paper_area / perimeter


def _merge_double_borders(regions: list[Region], stroke: float
                          ) -> list[tuple[Region, Region]]:
    """Pair a thin ring region with the region it encloses: one shape, double border."""
    inner_of: dict[int, int] = {}
    for i, outer in enumerate(regions):
        if _ring_thickness(outer) > 3 * stroke + 3:
            continue
        ox1, oy1, ox2, oy2 = outer.bbox
        for j, inner in enumerate(regions):
            if i == j:
                continue
            ix1, iy1, ix2, iy2 = inner.bbox
            if not (ox1 <= ix1 and oy1 <= iy1 and ix2 <= ox2 and iy2 <= oy2):
                continue
            if inner.area >= 0.5 * outer.area:
                inner_of[i] = j
                break
    inners = set(inner_of.values())
    out = []
    for i, r in enumerate(regions):
        if i in inners:
            continue
        out.append((regions[inner_of.get(i, i)], r))
    return out


def _outer_bbox(region: Region, ink: np.ndarray, stroke: float) -> tuple[int, int, int, int]:
    pad = int(round(stroke)) + 1
    x1, y1, x2, y2 = region.bbox
    h, w = ink.shape
    return (max(0, x1 - pad), max(0, y1 - pad), min(w, x2 + pad), min(h, y2 + pad))


def _text_crop(rgb: np.ndarray, fill: tuple[int, int, int], region: Region, stroke: float
               ) -> np.ndarray:
    """Grayscale crop of the ink inside a region, dark text on white."""
    x1, y1, x2, y2 = region.bbox
    inside = cv2.erode(region.filled.astype(np.uint8), np.ones((3, 3), np.uint8),
                       iterations=max(1, int(round(stroke)))).astype(bool)
    dist = colour_distance(rgb[y1:y2, x1:x2], fill)
    top = max(float(np.percentile(dist[inside], 99.5)) if inside.any() else 1.0, 30.0)
    gray = 255.0 - np.clip(dist / top, 0, 1) * 255.0
    gray[~inside] = 255
    # Ink touching the border zone is an arrowhead tip or a border remnant, not text.
    n, labels = cv2.connectedComponents((gray < 160).astype(np.uint8), connectivity=8)
    edge = inside & ~cv2.erode(inside.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    touching = np.unique(labels[edge & (labels > 0)])
    if touching.size:
        gray[np.isin(labels, touching)] = 255
    ys, xs = np.nonzero(gray < 200)
    if ys.size == 0:
        return np.full((2, 2), 255, np.uint8)
    m = 2
    crop = gray[max(0, ys.min() - m):ys.max() + m + 1, max(0, xs.min() - m):xs.max() + m + 1]
    return crop.astype(np.uint8)


def _fill_colour(region: Region, rgb: np.ndarray, ink: np.ndarray) -> tuple[int, int, int]:
    x1, y1, x2, y2 = region.bbox
    inner = rgb[y1:y2, x1:x2][region.filled & ~ink[y1:y2, x1:x2]]
    return tuple(int(v) for v in np.median(inner, axis=0)) if inner.size else (255, 255, 255)


def _grow(region: Region, rgb: np.ndarray, ink: np.ndarray, fine_k: int,
          background: tuple[int, int, int]) -> Region:
    fill = _fill_colour(region, rgb, ink)
    contrast = float(np.linalg.norm(np.subtract(fill, background, dtype=float)))
    tolerance = 30.0 if contrast < 1 else float(np.clip(contrast / 2, 6.0, 30.0))
    return grow_region(region, rgb, fill, fine_k // 2 + 1, tolerance)


def build_inventory(rgb: np.ndarray, ocr: bool = True) -> Inventory:
    """Find every closed shape of a page, classify it and read its label."""
    h, w = rgb.shape[:2]
    paper, ink, fine, scale = page_ink(rgb)
    min_area = max(60.0, 1.2 * scale.text_height ** 2)
    fine_k = max(7, int(4 * scale.stroke + 1))
    bg = background_colour(rgb)
    regions = [_grow(r, rgb, ink, fine_k, bg) for r in enclosed_regions(fine, min_area)]
    shapes: list[Shape] = []
    kept: list[Region] = []
    for region, outer in _merge_double_borders(regions, scale.stroke):
        kind, fit = classify(region.filled)
        if fit < MIN_FIT:
            continue
        fill = _fill_colour(region, rgb, ink)
        shapes.append(Shape(kind=kind, bbox=_outer_bbox(outer, ink, scale.stroke),
                            interior=region, outer=outer, fit=fit, double=outer is not region,
                            fill=fill))
        kept.append(region)
    if ocr and shapes:
        crops = [_text_crop(rgb, s.fill, r, scale.stroke) for s, r in zip(shapes, kept)]
        for shape, label in zip(shapes, read_labels(crops, scale.text_height)):
            shape.label = label
    text_mask = np.zeros((h, w), bool)
    for s in shapes:
        x1, y1, x2, y2 = s.interior.bbox
        text_mask[y1:y2, x1:x2] |= s.interior.filled & ink[y1:y2, x1:x2]
    texts: list[TextItem] = []
    return Inventory(width=w, height=h, scale=scale, background=bg,
                     shapes=shapes, texts=texts, ink=ink, text_mask=text_mask)
