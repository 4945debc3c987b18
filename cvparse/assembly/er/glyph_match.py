"""Cardinalities drawn across a line or a box border, found by matching the page's own
cardinality glyphs (those OCR read elsewhere on it) against the ink beside each line."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ...boxes import box_gap
from ...connectors.lines import Connector
from ...primitives.items import Inventory
from .geometry import dists_to_polyline, straighten, straightened_lines
from .labels import CARDINALITY, cardinality_text
from .links import Link


GLYPH_RECALL = 0.85
"""Share of a template glyph's ink a match must find inked on the page."""


GLYPH_OWN = 0.25
"""Share of it that must lie off the traced lines and shape borders (a glyph, not a line)."""


GLYPH_EXTRA = 0.25
"""Most ink (off lines and borders) a match may leave unexplained, as a share of the glyph."""


@dataclass
class GlyphMatch:
    """Where a page's own cardinality glyph was found beside a relationship line."""

    line: int
    text: str
    score: float
    box: tuple[int, int, int, int]


def structure_mask(inv: Inventory, connectors: list[Connector]) -> np.ndarray:
    """The ink a label drawn over the diagram may hide under: every traced line (a stroke
    and a bit wide, stubs under one and a half text heights left out: those are most often
    glyph stems) and every shape's border band."""
    th, st = inv.scale.text_height, inv.scale.stroke
    mask = np.zeros((inv.height, inv.width), np.uint8)
    for pts in straightened_lines(connectors, th):
        if np.linalg.norm(np.diff(pts, axis=0), axis=1).sum() >= 1.5 * th:
            cv2.polylines(mask, [pts.round().astype(np.int32).reshape(-1, 1, 2)], False, 1,
                          int(round(st)) + 2)
    pad = int(round(st)) + 1
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pad + 1, 2 * pad + 1))
    for s in inv.shapes:
        x1, y1, x2, y2 = s.outer.bbox
        filled = np.zeros((y2 - y1 + 2 * pad + 2, x2 - x1 + 2 * pad + 2), np.uint8)
        filled[pad + 1:pad + 1 + y2 - y1, pad + 1:pad + 1 + x2 - x1] = s.outer.filled
        band = cv2.dilate(filled, k) & ~cv2.erode(filled, k) & 1
        bx, by = x1 - pad - 1, y1 - pad - 1
        h, w = band.shape
        cx1, cy1 = max(bx, 0), max(by, 0)
        cx2, cy2 = min(bx + w, inv.width), min(by + h, inv.height)
        mask[cy1:cy2, cx1:cx2] |= band[cy1 - by:cy2 - by, cx1 - bx:cx2 - bx]
    return mask.astype(bool)


def glyph_templates(inv: Inventory, structure: np.ndarray, per_text: int = 3
                    ) -> list[tuple[str, np.ndarray]]:
    """The page's cardinality glyphs as ink masks, from the free texts OCR read as one:
    per reading, the ``per_text`` least crossed by lines or borders."""
    th = inv.scale.text_height
    found: dict[str, list[tuple[float, np.ndarray]]] = {}
    for t in inv.texts:
        text = cardinality_text(t.text)
        if not CARDINALITY.match(text):
            continue
        x1, y1, x2, y2 = t.bbox
        ink = inv.ink[y1:y2, x1:x2]
        if not ink.any():
            continue
        crossed = float((ink & structure[y1:y2, x1:x2]).sum()) / float(ink.sum())
        glyph = ink & ~structure[y1:y2, x1:x2]
        ys, xs = np.nonzero(glyph)
        if not ys.size or ys.max() - ys.min() + 1 < 0.5 * th:
            continue
        glyph = glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        found.setdefault(text.upper() if text in "mn" else text, []).append((crossed, glyph))
    return [(text, g) for text, gs in found.items()
            for _, g in sorted(gs, key=lambda x: x[0])[:per_text]]


def match_cardinalities(inv: Inventory, lines: list[Link], cards: dict[int, str],
                        connectors: list[Connector]) -> dict[int, str]:
    """Cardinalities of the relationship lines still without one, found by matching the
    page's own cardinality glyphs (those OCR read elsewhere on it) against the ink beside
    each line.  A label drawn across a line or a box border is no word for OCR, but its
    glyph is still all inked there: the traced lines and shape borders may supply any of
    its pixels, while ink off them must be the glyph's own."""
    missing = [li for li in range(len(lines)) if li not in cards]
    if not missing or inv.ink is None:
        return {}
    th = inv.scale.text_height
    structure = structure_mask(inv, connectors)
    templates = glyph_templates(inv, structure)
    if not templates:
        return {}
    ink = inv.ink.copy()
    for t in inv.texts:  # a glyph read already belongs to its own line
        if CARDINALITY.match(cardinality_text(t.text)):
            x1, y1, x2, y2 = t.bbox
            ink[y1:y2, x1:x2] = False
    own = (ink & ~structure).astype(np.float32)
    inked = ink.astype(np.float32)
    others = [q for q in straightened_lines(connectors, th) if np.linalg.norm(q[-1] - q[0]) >= th]
    found: list[GlyphMatch] = []
    for li in missing:
        pts = straighten(lines[li].points, th)
        best = _best_glyph(li, pts, templates, inked, own, others, th)
        if best is not None:
            found.append(best)
    out: dict[int, str] = {}
    taken: list[tuple[int, int, int, int]] = []
    for m in sorted(found, key=lambda m: -m.score):
        if any(box_gap(np.array(m.box), np.array(b)) <= 0 for b in taken):
            continue
        taken.append(m.box)
        out[m.line] = m.text
    return out


def _best_glyph(li: int, pts: np.ndarray, templates: list[tuple[str, np.ndarray]],
                inked: np.ndarray, own: np.ndarray, others: list[np.ndarray], th: float
                ) -> GlyphMatch | None:
    """The best-scoring template placement within 1.3 text heights of the line ``pts``
    (past its first tenth, nearer to it than to any other traced line)."""
    h_img, w_img = inked.shape
    reach = 1.3 * th
    margin = max(1, int(round(0.25 * th)))
    best: GlyphMatch | None = None
    for text, glyph in templates:
        gh, gw = glyph.shape
        x1 = int(max(0, pts[:, 0].min() - reach - gw))
        y1 = int(max(0, pts[:, 1].min() - reach - gh))
        x2 = int(min(w_img, pts[:, 0].max() + reach + gw))
        y2 = int(min(h_img, pts[:, 1].max() + reach + gh))
        if x2 - x1 < gw + 2 * margin or y2 - y1 < gh + 2 * margin:
            continue
        t = glyph.astype(np.float32)
        n = float(t.sum())
        grown = cv2.dilate(glyph.astype(np.uint8), np.ones((3, 3), np.uint8))
        roi_ink, roi_own = inked[y1:y2, x1:x2], own[y1:y2, x1:x2]
        # Ink left over in a margin around the glyph only ranks the matches: a 1 found
        # in the stem of an N explains less of it than the N does.
        around = _unexplained(roi_own, np.pad(grown, margin)) / n
        eh, ew = around.shape
        inner = (slice(margin, margin + eh), slice(margin, margin + ew))
        recall = (cv2.matchTemplate(roi_ink, t, cv2.TM_CCORR) / n)[inner]
        mine = (cv2.matchTemplate(roi_own, t, cv2.TM_CCORR) / n)[inner]
        extra = (_unexplained(roi_own, grown) / n)[inner]
        ok = (recall >= GLYPH_RECALL) & (mine >= GLYPH_OWN) & (extra <= GLYPH_EXTRA)
        ys, xs = np.nonzero(ok)
        if not ys.size:
            continue
        rank = ((mine - around) * n / th ** 2)[ys, xs]
        ys, xs = ys + margin, xs + margin
        centres = np.column_stack([x1 + xs + gw / 2, y1 + ys + gh / 2])
        d, frac = dists_to_polyline(centres, pts)
        keep = (d <= reach) & (frac >= 0.1)
        for q in others:
            if keep.any() and not _runs_along(q, pts, 0.5 * th):
                dq = dists_to_polyline(centres, q)[0]
                keep &= d <= dq + 1.0
        if not keep.any():
            continue
        score = rank - 0.05 * d / th
        score[~keep] = -np.inf
        k = int(np.argmax(score))
        if best is None or score[k] > best.score:
            bx, by = int(x1 + xs[k]), int(y1 + ys[k])
            best = GlyphMatch(li, text, float(score[k]), (bx, by, bx + gw, by + gh))
    return best


def _unexplained(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """For each placement of ``kernel`` (0/1) on ``image`` (0/1 float), the image's ink in
    the kernel's box that the kernel leaves uncovered."""
    k = kernel.astype(np.float32)
    return (cv2.matchTemplate(image, np.ones_like(k), cv2.TM_CCORR)
            - cv2.matchTemplate(image, k, cv2.TM_CCORR))


def _runs_along(piece: np.ndarray, line: np.ndarray, tol: float) -> bool:
    """Whether a traced piece lies along ``line`` (both its ends within ``tol``): a piece of
    that very line, cut where it crosses a shape or a label."""
    return bool((dists_to_polyline(np.asarray(piece, float)[[0, -1]], line)[0] <= tol).all())
