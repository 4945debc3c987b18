"""Clusters: closed boxes drawn round a group of nodes, taken out of the shapes.

A cluster (a subgraph's box, a tinted group frame of an icon diagram) is a closed area,
so perception finds it as a shape and reads everything inside it (the nodes' labels, the
cluster's title, the icons' letters) as one label; the free words inside it are never
looked for.  A node holds text and, at most, small pieces of drawing; a cluster holds a
whole node.  So a shape holding another shape at least a node's size (two text heights
each way) clear of its border is a cluster, and so is a large shape whose inside holds
several things well apart (a title and a plain-text node, two labels, an icon drawn as
no closed shape with its name): one node's label is one compact block of text.
Here it leaves the shapes, and the words inside it, outside every shape that stays, are
found and read as free text.  Its border is no line: the tracer clears it
(:func:`cluster_borders`) as it clears the group frames it finds itself
(``connectors.frames``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

import cv2
import numpy as np

from .freetext import free_words
from .items import Facts, Inventory, Shape
from .inventory import free_texts
from .ocr import glyph_height
from .phantoms import phantom_shapes

NODE_SIZE = 2.0
"""A held shape at least this many text heights wide and tall is a node (or an icon's
picture): a shape that holds one is a cluster, not a node."""


GROUP_GAP = (3.0, 1.0)
"""Ink inside a shape further apart than this many text heights side by side, and
above one another, is two things drawn in it (two nodes' labels, a title and a node); a
label's words (a wide space of a monospaced font included) and lines lie closer."""
CLUSTER_SIZE = 4.0
"""A shape holding two things is a cluster only when it is at least this many text
heights wide and tall (a node's box fits its label, a few lines at most)."""


def holds_groups(ink: np.ndarray, shape: Shape, stroke: float, text_height: float) -> bool:
    """True if the ink inside ``shape`` (its border eroded away) falls into two groups or
    more, ``GROUP_GAP`` text heights apart, each at least half a letter tall: the
    shape holds several labels (the text nodes of a cluster, or a cluster's title and an
    icon with its name), not one node's label."""
    x1, y1, x2, y2 = shape.bbox
    if min(x2 - x1, y2 - y1) < CLUSTER_SIZE * text_height:
        return False
    r = shape.interior
    rx1, ry1, rx2, ry2 = r.bbox
    inside = cv2.erode(np.pad(r.filled, 1).astype(np.uint8), np.ones((3, 3), np.uint8),
                       iterations=int(round(stroke)) + 2)[1:-1, 1:-1].astype(bool)
    crop = ink[ry1:ry2, rx1:rx2] & inside
    if not crop.any():
        return False
    dx, dy = (max(3, int(round(g * text_height))) for g in GROUP_GAP)
    grown = cv2.dilate(crop.astype(np.uint8), np.ones((dy, dx), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(grown, 8)
    tall = int((stats[1:, 3] - (dy - 1) >= 0.5 * text_height).sum())
    return tall >= 2


def cluster_shapes(shapes: list[Shape], stroke: float, text_height: float,
                   ink: np.ndarray | None = None, phantoms: Collection[int] = ()
                   ) -> list[int]:
    """Indices of the shapes that hold a node-sized shape clear of their border, or
    (with the page's ``ink``) several labels apart (:func:`holds_groups`), unless they
    are ``phantoms`` (areas closed off by connectors: their border is lines)."""
    margin = 2 * stroke + 2
    least = NODE_SIZE * text_height
    out = []
    for k, s in enumerate(shapes):
        if (ink is not None and k not in phantoms
                and holds_groups(ink, s, stroke, text_height)):
            out.append(k)
            continue
        x1, y1, x2, y2 = s.bbox
        for j, t in enumerate(shapes):
            a1, b1, a2, b2 = t.bbox
            if (j != k and a2 - a1 >= least and b2 - b1 >= least and a1 - x1 >= margin
                    and b1 - y1 >= margin and x2 - a2 >= margin and y2 - b2 >= margin):
                out.append(k)
                break
    return out


def release_clusters(inv: Inventory, keep: Collection[int] = ()) -> Inventory:
    """``inv`` without its cluster shapes (:func:`cluster_shapes`), with the free words
    inside them added to its text (and text mask) and the clusters kept as its fact
    ``clusters`` (:func:`clusters_of`); ``inv`` itself, its fact saying it has none,
    where it has none or lacks the page image and ink.  The shapes ``keep`` names
    (legends: a box of sample lines, :func:`~cvparse.primitives.swatches.legend_shapes`)
    stay."""
    if inv.image is None or inv.ink is None or inv.text_mask is None:
        inv.facts.values.setdefault("clusters", [])
        return inv
    th = inv.scale.text_height
    gone = set(cluster_shapes(inv.shapes, inv.scale.stroke, th, inv.ink,
                              phantom_shapes(inv))) - set(keep)
    if not gone:
        inv.facts.values.setdefault("clusters", [])
        return inv
    kept = [s for k, s in enumerate(inv.shapes) if k not in gone]
    h, w = inv.ink.shape
    inside = np.zeros((h, w), bool)
    for k in gone:
        r = inv.shapes[k].interior
        x1, y1, x2, y2 = r.bbox
        inside[y1:y2, x1:x2] |= r.filled
    for s in kept:
        x1, y1, x2, y2 = s.outer.bbox
        inside[y1:y2, x1:x2] &= ~s.outer.filled
    text_mask = inv.text_mask & ~inside
    words, crops = free_words(inv.image, inv.ink, kept, inv.scale, inv.background)
    pick = [i for i, wb in enumerate(words)
            if inside[(wb.bbox[1] + wb.bbox[3]) // 2, (wb.bbox[0] + wb.bbox[2]) // 2]]
    texts = list(inv.texts)
    if pick:
        # every word of the page is read on one sheet, as perception reads them: the
        # sheet's scale comes from its median glyph, and a few words alone read worse
        read = inv.read(crops, th)
        own = [glyph_height(c) for c in crops]
        glyph = float(np.median([g for g in own if g > 0] or [0.6 * th]))
        texts += free_texts([words[i] for i in pick], [crops[i] for i in pick],
                            [read[i] for i in pick], [own[i] for i in pick], glyph,
                            inv.scale, inv.ink, text_mask)
    facts = Facts()
    facts.values["clusters"] = [inv.shapes[k] for k in sorted(gone)]
    if "legend_rows" in inv.facts.values:
        # the legends ``keep`` found stay, the same boxes on the same ink: renumbered
        index = {k: n for n, k in enumerate(k for k in range(len(inv.shapes)) if k not in gone)}
        facts.values["legend_rows"] = [(index[k], *rest)
                                       for k, *rest in inv.facts.values["legend_rows"]]
    return replace(inv, shapes=kept, texts=texts, text_mask=text_mask, facts=facts)


def clusters_of(inv: Inventory) -> list[Shape]:
    """The cluster shapes :func:`release_clusters` took out of ``inv`` (none if it was
    not run)."""
    return list(inv.facts.get("clusters", list))


def cluster_borders(inv: Inventory, half: int | None = None, framed: bool = False
                    ) -> np.ndarray:
    """Mask of the borders of the page's clusters (:func:`clusters_of`; the inner and
    the outer one of a cluster nested flush in another), ``half`` pixels wide on either
    side of their outline (a stroke and a pixel by default); lines running in from the
    border stay out of it.  With ``framed``, only of the clusters drawn as a frame: a
    border that runs into a shape of the page is made of the connectors between nodes
    (a ring of lines closing off an area), not drawn round them."""
    h, w = inv.height, inv.width
    out = np.zeros((h, w), bool)
    d = 2 * (int(round(inv.scale.stroke)) + 1) + 1 if half is None else 2 * half + 1
    k = np.ones((d, d), np.uint8)
    # a line running in from the border and ending inside cuts a slit into the area;
    # closed, the slit's sides are no border
    c = 2 * int(round(inv.scale.stroke)) + 3
    slit = np.ones((c, c), np.uint8)
    nodes = None
    if framed:
        nodes = np.zeros((h, w), bool)
        for t in inv.shapes:
            x1, y1, x2, y2 = t.outer.bbox
            nodes[y1:y2, x1:x2] |= t.outer.filled
    for s in clusters_of(inv):
        mine = np.zeros((h, w), bool)
        for r in (s.interior, s.outer):
            x1, y1, x2, y2 = r.bbox
            filled = cv2.morphologyEx(np.pad(r.filled.astype(np.uint8), d),
                                      cv2.MORPH_CLOSE, slit)
            band = cv2.dilate(filled, k) > cv2.erode(filled, k)
            gx1, gy1 = x1 - d, y1 - d
            cx1, cy1, cx2, cy2 = max(0, gx1), max(0, gy1), min(w, x2 + d), min(h, y2 + d)
            mine[cy1:cy2, cx1:cx2] |= band[cy1 - gy1:cy2 - gy1, cx1 - gx1:cx2 - gx1]
        if nodes is None or not (mine & nodes).any():
            out |= mine
    return out
