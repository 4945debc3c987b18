"""Guess the diagram family from what perception found, before any line is traced.

The guess reads the notation, not the words: Chen ER mixes relationship diamonds with
attribute ellipses or draws IS-A triangles; Silberschatz and schema-style ER draw tables
(boxes split into one row per attribute) joined through diamonds or cardinality text;
UML draws class boxes with at most three compartments; topology diagrams label icons from
below.  Any other node-link diagram is ``flowchart`` until its lines are traced
(:func:`cvparse.assembly.kind.graph_kind` settles flowchart or topology).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np
from scipy import ndimage

from .classboxes import class_boxes
from .items import Inventory
from ..params import FamilyParams
from .strokes import inked_along

if TYPE_CHECKING:
    from ..vocabulary import Family


def _big(inv: Inventory, kind: str, p: FamilyParams, labelled: bool = False) -> int:
    """Shapes of ``kind`` big enough to be a node (not a line-end marker), optionally
    only those with a label."""
    th = inv.scale.text_height
    return sum(s.kind == kind and s.bbox[2] - s.bbox[0] >= p.big_symbol * th
               and (not labelled or any(ch.isalnum() for ch in s.label)) for s in inv.shapes)


def _drawn_triangles(inv: Inventory, p: FamilyParams) -> int:
    """Big triangles drawn as such: three lines that cross each other also close a
    triangle, but run on past at least two of its corners."""
    th = inv.scale.text_height
    reach = max(1, int(round(inv.scale.stroke)))  # ink within about a stroke of a point
    count = 0
    for s in inv.shapes:
        if s.kind != "triangle" or s.bbox[2] - s.bbox[0] < p.big_symbol * th:
            continue
        contour = s.outer.contour.astype(np.float32).reshape(-1, 1, 2)
        corners = cv2.approxPolyDP(contour, 0.1 * cv2.arcLength(contour, True), True)
        corners = corners.reshape(-1, 2).astype(float)
        if len(corners) != 3 or inv.ink is None:
            count += 1
            continue
        crossings = 0
        for k in range(3):
            v = corners[k]
            beyond = 0
            for other in (corners[k - 1], corners[(k + 1) % 3]):
                u = (v - other) / max(float(np.hypot(*(v - other))), 1e-6)
                beyond += all(inked_along(inv.ink, q, q, reach)
                              for q in (v + f * th * u for f in (1.0, 1.5, 2.0)))
            crossings += beyond == 2
        count += crossings < 2
    return count


def _holds_text(inv: Inventory, bbox) -> bool:
    """A class box or table has text inside (a drawn icon split by lines has none)."""
    if inv.text_mask is None:
        return True
    x1, y1, x2, y2 = (int(v) for v in bbox)
    return bool(inv.text_mask[y1:y2 + 1, x1:x2 + 1].any())


def guess_kind(inv: Inventory, params: FamilyParams | None = None) -> Family:
    """``er``, ``uml``, ``topology`` (labelled icons) or ``flowchart`` (any other node-link
    diagram, which :func:`~cvparse.assembly.kind.graph_kind` settles once connectors are
    traced).

    Parameters
    ----------
    inv : Inventory
        The page's shapes and text.
    params : FamilyParams, optional
        The thresholds (the defaults of :class:`cvparse.params.FamilyParams`).

    Returns
    -------
    str
        The family its notation belongs to.

    Examples
    --------
    >>> import cv2, numpy as np
    >>> from cvparse.primitives.inventory import build_inventory
    >>> rgb = np.full((120, 200, 3), 255, np.uint8)
    >>> _ = cv2.rectangle(rgb, (40, 30), (160, 90), (0, 0, 0), 2)
    >>> guess_kind(build_inventory(rgb, ocr=False))
    'flowchart'
    """
    p = params or FamilyParams()
    kinds = [s.kind for s in inv.shapes]
    n = max(len(kinds), 1)
    ellipses = sum(k in ("ellipse", "circle") for k in kinds)
    diamonds = sum(k == "diamond" for k in kinds)
    if ellipses >= 3 and diamonds >= 1 and ellipses / n >= 0.25:
        return "er"
    th = inv.scale.text_height
    boxes = [b for b in class_boxes(inv) if _holds_text(inv, b.bbox) and (
        b.bbox[2] - b.bbox[0] >= p.name_width * th or len(b.compartments) >= 3)]
    wide = [b for b in boxes if b.bbox[2] - b.bbox[0] >= p.big_symbol * th]
    if wide and 2 * sum(_badge(inv, b.bbox) for b in wide) >= len(wide):
        return "uml"  # classes drawn without members still carry their kind badge
    if _icon_labels(inv) >= 2:
        return "topology"
    triangles = _drawn_triangles(inv, p)
    split = [b for b in boxes if len(b.compartments) >= 2]
    if triangles and (len(inv.shapes) - triangles >= 2 or split):
        return "er"
    if split and len(split) >= max(1, len(boxes) // 2):
        tables = sum(len(b.compartments) >= p.table_rows for b in split)
        if tables * 2 > len(split) or _big(inv, "diamond", p, labelled=True):
            return "er"
        return "uml"
    return "flowchart"


def _badge(inv: Inventory, bbox) -> bool:
    """The box's name row starts with a round badge (the class-kind circle of UML tools):
    a roundish closed shape in the left part of the box, about a text line high."""
    x1, y1, x2, y2 = bbox
    th = inv.scale.text_height
    for s in inv.shapes:
        sx1, sy1, sx2, sy2 = s.bbox
        w, h = sx2 - sx1, sy2 - sy1
        if s.kind not in ("circle", "ellipse", "stadium") or not 0.75 * h <= w <= 1.33 * h:
            continue
        inside = sx1 >= x1 - 2 and sy1 >= y1 - 2 and sx2 <= x2 + 2 and sy2 <= y2 + 2
        if inside and h >= th and (sx1 + sx2) / 2 <= x1 + 0.4 * (x2 - x1):
            return True
    return False


def _icon_labels(inv: Inventory) -> int:
    """Free text lines with a compact drawing (an icon) or an empty shape right above them."""
    if inv.ink is None or not inv.texts:
        return 0
    th = inv.scale.text_height
    ink = inv.ink.copy()
    if inv.text_mask is not None:
        ink &= ~inv.text_mask
    for s in inv.shapes:
        x1, y1, x2, y2 = s.bbox
        ink[y1:y2 + 1, x1:x2 + 1] = False
    k = 2 * int(round(inv.scale.stroke)) + 1  # opening drops lines, keeps solid drawings
    ink = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN,
                           cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    lab, _ = ndimage.label(ink, np.ones((3, 3), bool))
    boxes = ndimage.find_objects(lab)
    sizes = np.bincount(lab.ravel())
    blank = [s.bbox for s in inv.shapes if not any(ch.isalnum() for ch in s.label)]
    count = 0
    for t in inv.texts:
        x1, y1, x2, y2 = t.bbox
        if any(0 <= y1 - b[3] <= 1.5 * th and b[0] <= (x1 + x2) / 2 <= b[2] for b in blank):
            count += 1  # an icon drawn as a closed outline, found as an empty shape
            continue
        ids = np.unique(lab[max(0, int(y1 - 1.5 * th)):y1, x1:x2 + 1])
        for i in ids[ids > 0]:
            ys, xs = boxes[i - 1]
            h, w = ys.stop - ys.start, xs.stop - xs.start
            if min(w, h) >= 1.2 * th and max(w, h) <= 8 * th and sizes[i] >= 0.25 * w * h:
                count += 1
                break
    return count
