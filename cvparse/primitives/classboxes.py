"""Class boxes: rectangles cut into compartments by straight lines, found once per page.

The family guess counts them and a UML parse clears them out of the connector mask and
reads their compartments; both read the same boxes (:class:`~.items.Facts`).
"""

from __future__ import annotations

import numpy as np

from .boxes import Box, find_boxes
from .items import Inventory
from ..arrays import colour_distance
from .paper import line_ink


def _ink(inv: Inventory) -> np.ndarray:
    if inv.ink is None:
        raise ValueError("class boxes are found in the inventory's ink, and it has none")
    return inv.ink


def dark_ink(inv: Inventory) -> np.ndarray:
    """The page's ink drawn in a strong colour (drop shadows and light tints left out),
    with the thin lines drawn in a light one (see ``paper.line_ink``)."""
    ink = _ink(inv)
    if inv.image is None:
        return ink
    if inv.page is not None:
        return inv.page.line_ink
    return line_ink(inv.image, ink, inv.background)


def class_boxes(inv: Inventory) -> list[Box]:
    """Rectangles with straight sides big enough to hold a class name (shadows ignored).

    Boxes are looked for in the strong ink first, which leaves drop shadows out.  Borders
    drawn in a grey much lighter than the text (current PlantUML: grey sides, black
    names) fall out of the strong ink too, so boxes found in all the ink are added where
    they overlap no box found already (a shadowed box's outline with its shadow does).
    Computed once per inventory (the family guess and the UML stages read them).

    Parameters
    ----------
    inv : Inventory
        The page's inventory (its ink, and its page's strong ink).

    Returns
    -------
    list of Box
        Each box's ``x1, y1, x2, y2`` and its separator rows, in pixels; the list is the
        caller's own.
    """
    return list(inv.facts.get("class_boxes", lambda: _class_boxes(inv)))


def _class_boxes(inv: Inventory) -> list[Box]:
    dark, ink = dark_ink(inv), _ink(inv)
    boxes = find_boxes(dark, inv.scale.stroke, inv.scale.text_height)
    if dark is ink:
        return boxes
    return boxes + [b for b in find_boxes(ink, inv.scale.stroke, inv.scale.text_height)
                    if not any(_overlaps(b.bbox, k.bbox) for k in boxes)]


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


FILL_CONTRAST = 24.0
"""A box drawn as a fill alone differs from the paper by at least this colour distance (the
least contrast page ink has, see ``paper.ink_mask``)."""


def uml_boxes(inv: Inventory) -> list[Box]:
    """The class boxes of a page known to be UML: :func:`class_boxes`, plus rectangles
    drawn as a fill without border lines (pyreverse's colourised look).  A box drawn as a
    fill alone has no separator lines either: it is split into compartments where its
    text leaves a gap (:func:`text_compartments`).  Computed once per inventory.

    The family guess uses :func:`class_boxes` alone: a filled flowchart node with two
    lines of text would look like a class with two compartments.
    """
    return list(inv.facts.get("uml_boxes", lambda: _uml_boxes(inv)))


FILL_KINDS = ("rect", "round_rect", "stadium")
"""Shapes a borderless class box (or one compartment of it) is found as: its corners may
be rounded, and a one-line name compartment is as round as a stadium."""


def stacked_fills(bboxes: list[tuple[int, int, int, int]], stroke: float
                  ) -> list[tuple[int, int, int, int]]:
    """Rectangles that stack into one box joined: the compartments of a borderless class
    box are found as shapes of their own (a rounded name compartment over a rounded body)
    with the same left and right sides, each touching or overlapping the next.

    Sides agree within two strokes; a gap between compartments of up to two strokes
    still joins them (a separator line drawn in the paper's colour)."""
    tol = 2.0 * max(stroke, 1.0)
    groups: list[list[int]] = []
    for b in sorted(bboxes, key=lambda r: (r[1], r[0])):
        for g in groups:
            if abs(g[0] - b[0]) <= tol and abs(g[2] - b[2]) <= tol and b[1] <= g[3] + tol:
                g[:] = [min(g[0], b[0]), g[1], max(g[2], b[2]), max(g[3], b[3])]
                break
        else:
            groups.append(list(b))
    return [(g[0], g[1], g[2], g[3]) for g in groups]


def _uml_boxes(inv: Inventory) -> list[Box]:
    boxes = class_boxes(inv)
    if inv.image is None:
        return boxes
    th = inv.scale.text_height
    cands = [s.bbox for s in inv.shapes if s.kind in FILL_KINDS
             and s.bbox[2] - s.bbox[0] >= th and s.bbox[3] - s.bbox[1] >= 1.2 * th]
    for bbox in stacked_fills(cands, inv.scale.stroke):
        met = [b for b in boxes if _overlaps(bbox, b.bbox)]
        if all(_mark_inside(b.bbox, bbox, th) for b in met) and _fill_alone(
                inv.image, bbox, inv.background, th) is not None:
            boxes = [b for b in boxes if b not in met] + [Box(bbox=bbox, separators=[])]
    out = []
    for b in boxes:
        fill = None if b.separators else _fill_alone(inv.image, b.bbox, inv.background, th)
        if fill is not None:
            bbox = _fill_extent(inv.image, b.bbox, fill)
            b = Box(bbox=bbox, separators=text_compartments(inv.image, bbox, fill, th))
        out.append(b)
    return out


def _mark_inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int],
                 th: float) -> bool:
    """Whether a box found inside a filled box is a mark drawn in it (a class-kind badge,
    an icon) rather than a box of its own: wholly inside and under three text heights
    either way.  A filled package frame holding class boxes keeps them."""
    x1, y1, x2, y2 = inner
    inside = outer[0] <= x1 and outer[1] <= y1 and x2 <= outer[2] and y2 <= outer[3]
    return inside and x2 - x1 < 3 * th and y2 - y1 < 3 * th


def _fill_extent(rgb: np.ndarray, bbox: tuple[int, int, int, int],
                 fill: np.ndarray) -> tuple[int, int, int, int]:
    """The rectangle a borderless box's fill covers within ``bbox``.

    The shape found for such a box may take in a pixel or two of its blend with the paper;
    a text compartment cut from it would then have a blank-and-blend edge that reads as a
    line of text of its own.  A row or column is the fill's where most of it is the fill.
    """
    x1, y1, x2, y2 = bbox
    near = colour_distance(rgb[y1:y2 + 1, x1:x2 + 1], np.asarray(fill, float)) <= FILL_CONTRAST
    rows = np.flatnonzero(near.mean(axis=1) > 0.5)
    cols = np.flatnonzero(near.mean(axis=0) > 0.5)
    if rows.size < 2 or cols.size < 2:
        return bbox
    return x1 + int(cols[0]), y1 + int(rows[0]), x1 + int(cols[-1]), y1 + int(rows[-1])


def _inner(bbox: tuple[int, int, int, int], th: float) -> tuple[int, int, int, int]:
    pad = max(2, int(round(0.2 * th)))  # a fill's anti-aliased edge is no text
    return bbox[0] + pad, bbox[1] + pad, bbox[2] - pad, bbox[3] - pad


def _fill_alone(rgb: np.ndarray, bbox: tuple[int, int, int, int],
                background: tuple[int, int, int], th: float) -> np.ndarray | None:
    """The fill colour of a box drawn as a fill without a border line, else ``None``.

    Most of the box is its fill, which differs from the paper; its edge row is a blend of
    fill and paper where no line is drawn, and a third colour (a border line, darker than
    both or of another hue) where one is.
    """
    x1, y1, x2, y2 = _inner(bbox, th)
    if x2 - x1 < 3 or y2 - y1 < 3:
        return None
    fill = np.median(rgb[y1:y2 + 1, x1:x2 + 1].reshape(-1, 3), axis=0).astype(float)
    paper = np.asarray(background, float)
    apart = float(np.linalg.norm(fill - paper))
    if apart < FILL_CONTRAST:
        return None
    bx1, by1, bx2, by2 = bbox
    edge = np.concatenate([rgb[by1, x1:x2], rgb[by2, x1:x2], rgb[y1:y2, bx1],
                           rgb[y1:y2, bx2]]).astype(float)
    e = np.median(edge, axis=0)
    between = float(np.linalg.norm(e - paper) + np.linalg.norm(e - fill)) - apart
    return fill if between < FILL_CONTRAST else None


def text_compartments(rgb: np.ndarray, bbox: tuple[int, int, int, int],
                      fill: np.ndarray, th: float) -> list[int]:
    """Separator rows of a box whose compartments are drawn without lines: below its first
    text line (the name), and in every later gap between lines clearly wider than the
    spacing of the lines around it."""
    x1, y1, x2, y2 = _inner(bbox, th)
    side = x1 - bbox[0]  # the sides' blend with the paper is no text either
    sub = rgb[y1:y2 + 1, x1 + side:x2 - side + 1]
    inked = (colour_distance(sub, np.asarray(fill, float)) > FILL_CONTRAST).any(axis=1)
    rows = np.flatnonzero(inked)
    if rows.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(rows) > 1)
    starts = np.concatenate([[rows[0]], rows[breaks + 1]])
    ends = np.concatenate([rows[breaks], [rows[-1]]])
    # rows of one text line may split (a dot over an i, a comma): join runs whose blank
    # between is under a fifth of a text height
    lines: list[list[int]] = []
    for a, b in zip(starts, ends):
        if lines and a - lines[-1][1] - 1 < 0.2 * th:
            lines[-1][1] = int(b)
        else:
            lines.append([int(a), int(b)])
    if len(lines) < 2:
        return []
    gaps = [lines[i + 1][0] - lines[i][1] - 1 for i in range(len(lines) - 1)]
    usual = float(np.median(gaps[1:])) if len(gaps) > 1 else 0.0
    seps = [y1 + (lines[0][1] + lines[1][0]) // 2]
    for i in range(1, len(gaps)):
        if gaps[i] > usual + 0.25 * th:
            seps.append(y1 + (lines[i][1] + lines[i + 1][0]) // 2)
    return seps
