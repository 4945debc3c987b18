"""Line samples in a box: the swatch rows of a legend, found without reading its text.

A legend row is a short horizontal line (solid, dashed or dotted) followed by its text.
Which boxes hold two such rows or more is a fact of the page before lines are traced: a
legend's box holds whole sample lines, yet it is no cluster round a group of nodes
(:func:`~cvparse.primitives.clusters.release_clusters` keeps it).  The rows are found
once per inventory (:func:`legend_rows`); the topology assembler reads them, with their
colours and text, as the legend (:mod:`cvparse.assembly.graph.legend`).
"""

from __future__ import annotations

import cv2
import numpy as np

from .items import Inventory, Scale, Shape
from ..arrays import components
from .strokes import hull_share

LEGEND_KINDS = ("rect", "round_rect")
"""Shapes a legend's box is found as."""

Row = tuple[tuple[int, int, int, int], np.ndarray, str]
"""One swatch: its box and mask in the box's inner ink, and its style."""
LegendRows = tuple[int, np.ndarray, int, int, list[Row]]
"""A legend box: its shape index, its inner ink, the ink's offset ``x, y`` on the page,
and its swatch rows top to bottom."""


def _chains(stats: np.ndarray, flat: list[int], scale: Scale) -> list[list[int]]:
    """Flat components of one height side by side on one horizontal line, small gaps
    between them (the dashes or dots of one line sample, not the letters after it)."""
    cy = {i: stats[i, 1] + stats[i, 3] / 2 for i in flat}
    chains: list[list[int]] = []
    for i in sorted(flat, key=lambda i: stats[i, 0]):
        for ch in chains:
            j = ch[-1]
            gap = stats[i, 0] - (stats[j, 0] + stats[j, 2])
            hi, hj = stats[i, 3], stats[j, 3]
            # one line width, up to a pixel of blur either side (no letter after a bar)
            alike = abs(int(hi) - int(hj)) <= max(2.0, 0.25 * max(hi, hj))
            if (alike and abs(cy[i] - cy[j]) <= scale.stroke + 1
                    and -1 <= gap <= 0.8 * scale.text_height):
                ch.append(i)
                break
        else:
            chains.append([i])
    return chains


def _style(stats: np.ndarray, chain: list[int]) -> str:
    """Solid for one run; dotted when the marks are about as long as they are thick."""
    if len(chain) == 1:
        return "solid"
    lengths = np.median(stats[chain, 2])
    thick = np.median(stats[chain, 3])
    return "dotted" if lengths <= 2.0 * thick else "dashed"


def swatch_rows(ink: np.ndarray, scale: Scale
                ) -> list[tuple[tuple[int, int, int, int], np.ndarray, str]]:
    """Swatches in a box's inner ink (local coordinates): horizontal runs of flat marks
    at least one and a half text heights long with text-high ink right after them.

    Returns ``(bbox, mask, style)`` per swatch, top to bottom.
    """
    th, stroke = scale.text_height, scale.stroke
    n, labels, stats, _ = components(ink.astype(np.uint8), 8)
    def flat(i: int) -> bool:
        w, h = stats[i, 2], stats[i, 3]
        # a bold sample is a long filled bar, still thinner than the text beside it
        bold = w >= 3 * h and h <= 0.6 * th and stats[i, 4] >= 0.8 * w * h
        dash = (h <= 2.5 * stroke + 1 and w >= 1.5 * h) or bold
        small = max(w, h) <= 1.5 * stroke + 1
        # a dot of a thick dotted line grows a pixel of blur on each side; it stays
        # smaller than the letters beside it, however thick their strokes (and fills
        # its outline, below)
        blurred = (max(w, h) <= min(2 * stroke + 2, 0.6 * th)
                   and min(w, h) >= 0.6 * max(w, h))
        if not (dash or small or blurred):
            return _headed(labels, stats, i, scale)
        # Drawn with thick lines, small letters are as small as those marks; a mark
        # thicker than a line fills its outline (a bar, a dot), letters leave counters
        # and notches.
        if min(w, h) <= stroke + 1 and (dash or small):
            return True
        return _filled_dot(labels, stats, i)

    flats = [i for i in range(1, n) if flat(i)]
    tall = [i for i in range(1, n) if stats[i, 3] > 0.35 * th and stats[i, 3] <= 1.5 * th]
    rows = []
    for chain in _chains(stats, flats, scale):
        x1 = int(stats[chain, 0].min())
        x2 = int((stats[chain, 0] + stats[chain, 2]).max())
        y1 = int(stats[chain, 1].min())
        y2 = int((stats[chain, 1] + stats[chain, 3]).max())
        if x2 - x1 < 1.5 * th:
            continue
        cy = (y1 + y2) / 2
        text = [i for i in tall if 0 <= stats[i, 0] - x2 <= 2 * th
                and stats[i, 1] <= cy <= stats[i, 1] + stats[i, 3]]
        if not text:
            continue
        mask = np.isin(labels[y1:y2, x1:x2], chain)
        rows.append(((x1, y1, x2, y2), mask, _style(stats, chain)))
    return sorted(_aligned(rows, th), key=lambda r: (r[0][1], r[0][0]))


def _aligned(rows: list, th: float) -> list:
    """Rows whose samples line up: those on the leftmost column, and those of further
    columns that sit on the line of a row of the first (a legend laid out as a grid); a
    run of small letters lines up with neither."""
    if not rows:
        return rows
    left = min(r[0][0] for r in rows)
    first = [r for r in rows if r[0][0] <= left + 0.5 * th]
    lines = [(r[0][1] + r[0][3]) / 2 for r in first]
    return first + [r for r in rows if r[0][0] > left + 0.5 * th
                    and any(abs((r[0][1] + r[0][3]) / 2 - y) <= 0.5 * th for y in lines)]


def _headed(labels: np.ndarray, stats: np.ndarray, i: int, scale: Scale) -> bool:
    """Component ``i`` is a line sample ending in a filled arrowhead (the sample of a
    directed type): long and low, a line thick along most of its length, the head no
    taller than a text line."""
    x, y, w, h = (int(v) for v in stats[i, :4])
    if w < 3 * h or h > 1.2 * scale.text_height:
        return False
    thick = (labels[y:y + h, x:x + w] == i).sum(axis=0)
    line = float(np.median(thick))
    head = np.flatnonzero(thick >= max(0.5 * h, 1.5 * line))
    # one run of tall columns, within a head's length of one end (the tip tapers): a
    # head, not the teeth of touching letters
    return bool(line <= 2.5 * scale.stroke + 1 and 2 <= head.size <= 0.4 * w
                and head[-1] - head[0] + 1 == head.size
                and (head[0] <= 0.6 * h or head[-1] >= w - 1 - 0.6 * h))


def _filled_dot(labels: np.ndarray, stats: np.ndarray, i: int) -> bool:
    """Component ``i`` fills its convex hull: a dash, or a round dot of a thick dotted line
    (blur makes it wider than a line), not a small letter with a counter ("o", "e", "a")."""
    x, y, w, h = (int(v) for v in stats[i, :4])
    return hull_share(labels[y:y + h, x:x + w] == i) >= 0.8


def _inner_ink(page_ink: np.ndarray, shape: Shape, stroke: float
               ) -> tuple[np.ndarray, int, int]:
    """Ink inside a shape with its border eroded away, and the crop's offset.  Ink that
    touches the eroded edge is what is left of the border, not content."""
    r = shape.interior
    x1, y1, x2, y2 = r.bbox
    inside = cv2.erode(np.pad(r.filled, 1).astype(np.uint8), np.ones((3, 3), np.uint8),
                       iterations=max(1, int(round(stroke))))[1:-1, 1:-1]
    ink = page_ink[y1:y2, x1:x2] & inside.astype(bool)
    n, labels = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)
    rim = inside.astype(bool) & ~cv2.erode(inside, np.ones((3, 3), np.uint8)).astype(bool)
    touching = np.unique(labels[rim & (labels > 0)])
    if touching.size:
        ink &= ~np.isin(labels, touching)
    return ink, x1, y1


def legend_rows(inv: Inventory) -> list[LegendRows]:
    """Every box (``rect`` or ``round_rect``) holding two swatch rows or more, in shape
    order, with its inner ink (:func:`_inner_ink`) and rows (:func:`swatch_rows`).

    Found once per inventory (its fact ``legend_rows``): the cluster release and the
    legend reader both ask; nothing here reads text."""
    ink = inv.ink
    if inv.image is None or ink is None:
        return []
    return list(inv.facts.get("legend_rows", lambda: _legend_rows(inv, ink)))


def _legend_rows(inv: Inventory, page_ink: np.ndarray) -> list[LegendRows]:
    out = []
    for k, shape in enumerate(inv.shapes):
        if shape.kind in LEGEND_KINDS:
            ink, ox, oy = _inner_ink(page_ink, shape, inv.scale.stroke)
            rows = swatch_rows(ink, inv.scale)
            if len(rows) >= 2:
                out.append((k, ink, ox, oy, rows))
    return out


def legend_shapes(inv: Inventory) -> list[int]:
    """Indices of the shapes that may be legends (a box holding two swatch rows or more,
    :func:`legend_rows`), found without reading their text."""
    return [k for k, *_ in legend_rows(inv)]
