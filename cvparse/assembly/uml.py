"""UML class-diagram assembler: class boxes, their compartments and typed, directed relations.

Types and directions come only from what is drawn at the line ends (hollow triangle,
diamond, arrowhead) and from the line style, by the FORMATS.md convention table, never
from class names.
"""

from __future__ import annotations

import re

import cv2
import numpy as np

from ..connectors.elements import Connector, End
from ..connectors.markers import read_end_symbol
from ..model import UMLClass, UMLModel, UMLRelation
from ..primitives.boxes import Box, find_boxes
from ..primitives.elements import Inventory
from ..primitives.ocr import clean_single_glyph, glyph_count, read_crops, word_lines
from ..primitives.paper import colour_distance, strong_ink

_STEREOTYPE = re.compile(r"^(«|<<|\(\().*")


def _dark_ink(inv: Inventory) -> np.ndarray:
    if inv.image is None:
        return inv.ink
    return strong_ink(inv.image, inv.ink, inv.background)


def class_boxes(inv: Inventory, dark: np.ndarray | None = None) -> list[Box]:
    """Rectangles with straight sides big enough to hold a class name (shadows ignored).

    ``dark`` is the page's strong ink when the caller has it already.
    """
    dark = _dark_ink(inv) if dark is None else dark
    return find_boxes(dark, inv.scale.stroke, inv.scale.text_height)


def _icon_circles(sub: np.ndarray) -> list[tuple[int, int, int]]:
    """Circled class-kind icons (the "C", "I", "A" badges) in a name compartment.

    A badge is a filled disc in a colour of its own; round letters (C, G, O) are not.
    """
    gray = cv2.cvtColor(sub, cv2.COLOR_RGB2GRAY)
    h, w = gray.shape
    found = cv2.HoughCircles(cv2.GaussianBlur(gray, (3, 3), 0), cv2.HOUGH_GRADIENT, dp=1,
                             minDist=h, param1=100, param2=18,
                             minRadius=max(3, int(0.2 * h)), maxRadius=max(4, int(0.5 * h)))
    if found is None:
        return []
    fill = np.median(sub.reshape(-1, 3), axis=0)
    out = []
    for x, y, r in found[0]:
        if x >= 0.5 * w:
            continue
        disc = np.zeros((h, w), np.uint8)
        cv2.circle(disc, (int(round(x)), int(round(y))), max(1, int(0.8 * r)), 1, -1)
        inside = sub[disc.astype(bool)]
        if inside.size and float(np.linalg.norm(np.median(inside, axis=0) - fill)) > 25:
            out.append((int(round(x)), int(round(y)), int(round(r))))
    return out


def _compartment_crop(rgb: np.ndarray, rect: tuple[int, int, int, int], inset: int,
                      icons: list[tuple[int, int, int, int]], header: bool = False
                      ) -> np.ndarray:
    """Dark-on-white crop of the text in a compartment; coloured marks and icons erased."""
    x1, y1, x2, y2 = rect
    x1, y1, x2, y2 = x1 + inset, y1 + inset, x2 - inset, y2 - inset
    if x2 - x1 < 3 or y2 - y1 < 3:
        return np.full((2, 2), 255, np.uint8)
    sub = rgb[y1:y2, x1:x2]
    circles = _icon_circles(sub) if header else []
    fill = np.median(sub.reshape(-1, 3), axis=0)
    dist = colour_distance(sub, fill)
    top = max(float(np.percentile(dist, 99.5)), 30.0)
    gray = 255.0 - np.clip(dist / top, 0, 1) * 255.0
    hsv = cv2.cvtColor(sub, cv2.COLOR_RGB2HSV)
    gray[(hsv[:, :, 1] > 90) & (hsv[:, :, 2] > 60)] = 255
    for ix1, iy1, ix2, iy2 in icons:
        centre = ((ix1 + ix2) / 2 - x1, (iy1 + iy2) / 2 - y1)
        cv2.ellipse(gray, (centre, (float(ix2 - ix1), float(iy2 - iy1)), 0.0), 255, -1)
    for cx, cy, r in circles:
        cv2.circle(gray, (cx, cy), r + 2, 255, -1)
    # border remnants: long thin strokes along the crop edges
    n, labels, stats, _ = cv2.connectedComponentsWithStats((gray < 160).astype(np.uint8), 8)
    ch, cw = gray.shape
    for i in range(1, n):
        bx, by, bw, bh = stats[i, :4]
        if (bh >= 0.8 * ch and bw <= 3) or (bw >= 0.8 * cw and bh <= 3):
            gray[labels == i] = 255
    ys, xs = np.nonzero(gray < 200)
    if ys.size == 0:
        return np.full((2, 2), 255, np.uint8)
    m = 2
    return gray[max(0, ys.min() - m):ys.max() + m + 1,
                max(0, xs.min() - m):xs.max() + m + 1].astype(np.uint8)


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _identifier(text: str) -> str:
    """A class name is one identifier; marks read from a badge or a border before it
    ("C°Employee", "{-UserService") are dropped by keeping the last identifier."""
    tokens = _IDENT.findall(text)
    return tokens[-1] if tokens else text


def _lines(words) -> list[str]:
    return [" ".join(w.text for w in ws) for ws in word_lines(words)]


def _icons_in(inv: Inventory, rect: tuple[int, int, int, int]) -> list[tuple]:
    """Shapes lying inside a compartment but much smaller than it (the circled class icon)."""
    x1, y1, x2, y2 = rect
    area = (x2 - x1) * (y2 - y1)
    out = []
    pad = 0
    for s in inv.shapes:
        sx1, sy1, sx2, sy2 = s.outer.bbox
        if sx1 >= x1 - pad and sy1 >= y1 - pad and sx2 <= x2 + pad and sy2 <= y2 + pad \
                and (sx2 - sx1) * (sy2 - sy1) < 0.5 * area:
            out.append((sx1 - pad, sy1 - pad, sx2 + pad, sy2 + pad))
    return out


def read_classes(inv: Inventory, boxes: list[Box]) -> list[UMLClass]:
    """Name, attributes and methods of every box, read with one OCR call."""
    inset = int(round(0.5 * inv.scale.stroke)) + 1
    crops, owners = [], []
    for bi, b in enumerate(boxes):
        for ci, rect in enumerate(b.compartments):
            crops.append(_compartment_crop(inv.image, rect, inset, _icons_in(inv, rect),
                                           header=ci == 0))
            owners.append((bi, ci))
    classes = [UMLClass(name="", bbox=[int(v) for v in b.bbox]) for b in boxes]
    for (bi, ci), crop, words in zip(owners, crops, read_crops(crops, inv.scale.text_height)):
        lines = _lines(words)
        cls = classes[bi]
        if ci == 0:
            names = [ln for ln in lines if not _STEREOTYPE.match(ln)] or lines
            cls.name = _identifier("".join(names[-1].split())) if names else ""
            if glyph_count(crop) == 1:
                cls.name = clean_single_glyph(cls.name)
            continue
        for ln in lines:
            (cls.methods if "(" in ln else cls.attributes).append(ln)
    return classes


def _approach(points: np.ndarray, back: float) -> tuple[np.ndarray, np.ndarray]:
    """A point ``back`` pixels before the end of a polyline and the unit direction from it
    to the end: the line's own heading, unbent by whatever marker is drawn at the end."""
    seg = np.linalg.norm(np.diff(points, axis=0), axis=1)
    along = np.concatenate([[0.0], np.cumsum(seg[::-1])])
    k = int(np.searchsorted(along, back))
    far = points[::-1][min(k, len(points) - 1)]
    v = points[-1] - far
    n = float(np.linalg.norm(v))
    if not n:
        return far, np.zeros(2)
    v = v / n
    # Nearly axis-parallel headings are axis-parallel: the skeleton bends into the marker.
    if abs(v[0]) < 0.15:
        v = np.array([0.0, np.sign(v[1])])
    elif abs(v[1]) < 0.15:
        v = np.array([np.sign(v[0]), 0.0])
    return far, v


def _hit_box(start: np.ndarray, direction: np.ndarray, boxes: list[Box], reach: float):
    """First box a ray enters, and the point on its border where it does."""
    for t in range(int(reach) + 1):
        px, py = start + direction * t
        for i, b in enumerate(boxes):
            x1, y1, x2, y2 = b.bbox
            if x1 <= px <= x2 and y1 <= py <= y2:
                return i, (float(px), float(py))
    return None, None


def _bridges(boxes: list[Box], dark: np.ndarray, th: float) -> list[Connector]:
    """Straight connectors across the narrow gap between two facing boxes.

    Between boxes drawn close together a relation line is short enough to vanish in the
    tracer's cleanup (a marker and one dash); a band of ink crossing most of the gap
    between facing sides is such a line.
    """
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            for horizontal in (True, False):
                lo = 0 if horizontal else 1
                (p, q) = (a, b) if a.bbox[lo] < b.bbox[lo] else (b, a)
                start, stop = p.bbox[lo + 2] + 1, q.bbox[lo] - 1
                if not 0 < stop - start <= 6 * th:
                    continue
                o1 = max(p.bbox[1 - lo], q.bbox[1 - lo])
                o2 = min(p.bbox[3 - lo], q.bbox[3 - lo])
                if o2 - o1 < th:
                    continue
                band = dark[o1:o2, start:stop] if horizontal else dark[start:stop, o1:o2].T
                cover = band.mean(axis=1)
                k = int(np.argmax(cover))
                if cover[k] < 0.4:
                    continue
                pos = o1 + k
                if horizontal:
                    pts = np.array([[start, pos], [stop, pos]], float)
                else:
                    pts = np.array([[pos, start], [pos, stop]], float)
                d = (pts[1] - pts[0]) / np.linalg.norm(pts[1] - pts[0])
                style = "solid" if cover[k] > 0.85 else "dashed"
                out.append(Connector(points=pts, ends=(End(tuple(pts[0]), tuple(-d)),
                                                       End(tuple(pts[1]), tuple(d))),
                                     style=style, width=1.0))
    return out


def _near(points: np.ndarray, other: np.ndarray, tol: float) -> bool:
    """True if most of ``points`` lies within ``tol`` of the polyline ``other``."""
    d = np.linalg.norm(points[:, None, :] - other[None, ::max(1, len(other) // 200), :], axis=2)
    return float(np.median(d.min(axis=1))) <= tol


def _relation(style: str, markers: tuple[str, str]) -> tuple[str, int, bool]:
    """``(type, source_end, directed)`` from the two end markers and the line style."""
    dashed = style in ("dashed", "dotted")
    for i in (0, 1):
        if markers[i] == "triangle":
            return ("realization" if dashed else "inheritance"), 1 - i, True
    for i in (0, 1):
        if markers[i] in ("diamond", "filled_diamond"):
            return ("composition" if markers[i] == "filled_diamond" else "aggregation"), i, True
    heads = [m in ("arrow", "open_arrow") for m in markers]
    if heads[0] != heads[1]:
        target = 0 if heads[0] else 1
        return ("dependency" if dashed else "association"), 1 - target, True
    return ("dependency" if dashed else "association"), 0, False


def assemble_uml(inv: Inventory, connectors: list[Connector]) -> UMLModel:
    """A UML model: one class per box, one relation per connector joining two boxes."""
    dark = _dark_ink(inv)
    boxes = class_boxes(inv, dark)
    classes = read_classes(inv, boxes) if inv.image is not None else [
        UMLClass(name="", bbox=[int(v) for v in b.bbox]) for b in boxes]
    stroke, th = inv.scale.stroke, inv.scale.text_height
    back = 2.5 * th
    reach = back + max(2 * th, 8 * stroke)
    relations = []
    kept: dict[frozenset, list[np.ndarray]] = {}
    connectors = list(connectors) + _bridges(boxes, dark, th)
    for c in sorted(connectors, key=lambda c: -c.length):
        hits = []
        for pts in (c.points[::-1], c.points):
            far, u = _approach(pts, back)
            box, tip = _hit_box(far, u, boxes, reach)
            hits.append((box, tip, u))
        (a, pa, ua), (b, pb, ub) = hits
        if a is None or b is None or a == b:
            continue
        pair = frozenset((a, b))
        if any(_near(c.points, other, 1.5 * th) for other in kept.get(pair, [])):
            continue  # a piece of a connector already read (e.g. one side of a triangle)
        kept.setdefault(pair, []).append(c.points)
        markers = []
        half = min(back, 0.6 * float(np.hypot(pa[0] - pb[0], pa[1] - pb[1])))
        for tip, u in ((pa, ua), (pb, ub)):
            markers.append(read_end_symbol(dark, tip, tuple(u), half, 1.2 * th, stroke))
        for end, m in zip(c.ends, markers):
            end.marker = m
        rtype, src, directed = _relation(c.style, (markers[0], markers[1]))
        ends = (a, b)
        rel = UMLRelation(type=rtype, source=classes[ends[src]].name,
                          target=classes[ends[1 - src]].name,
                          extra={"markers": markers} if directed else
                          {"markers": markers, "directed": False})
        relations.append(rel)
    return UMLModel(classes=classes, relations=relations)
