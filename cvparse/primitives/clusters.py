"""Clusters: closed boxes drawn round a group of nodes, taken out of the shapes.

A cluster (a subgraph's box, a tinted group frame of an icon diagram) is a closed area,
so perception finds it as a shape and reads everything inside it (the nodes' labels, the
cluster's title, the icons' letters) as one label; the free words inside it are never
looked for.  A node holds text and, at most, small pieces of drawing; a cluster holds a
whole node.  So a shape holding another shape at least a node's size (two text heights
each way) clear of its border is a cluster:
here it leaves the shapes, and the words inside it, outside every shape that stays, are
found and read as free text.  Its border is ink like any other line, left to the line
stages (a group frame, see ``connectors.frames``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

import numpy as np

from .freetext import free_words
from .items import Facts, Inventory, Shape
from .inventory import free_texts
from .ocr import glyph_height

NODE_SIZE = 2.0
"""A held shape at least this many text heights wide and tall is a node (or an icon's
picture): a shape that holds one is a cluster, not a node."""


def cluster_shapes(shapes: list[Shape], stroke: float, text_height: float) -> list[int]:
    """Indices of the shapes that hold a node-sized shape clear of their border."""
    margin = 2 * stroke + 2
    least = NODE_SIZE * text_height
    out = []
    for k, s in enumerate(shapes):
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
    gone = set(cluster_shapes(inv.shapes, inv.scale.stroke, th)) - set(keep)
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
