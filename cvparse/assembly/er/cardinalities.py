"""Cardinalities of relationship lines: the free text nearest each line's entity end,
then, for the lines left without one, the page's glyphs matched beside the line and the
glyph pieces a line cut, read again."""

from __future__ import annotations

import numpy as np

from ...boxes import point_gaps
from ...connectors.lines import Connector
from ...primitives.items import Inventory, Shape
from .cut_glyphs import recover_cardinalities
from .geometry import dist_to_polyline, shape_centre, text_centre
from .glyph_match import match_cardinalities
from .labels import CARDINALITY, cardinality_text
from .links import Link


def assign_cardinalities(inv: Inventory, lines: list[Link], radius: float,
                         exclude: set[int] | None = None, used: set[int] | None = None
                         ) -> dict[int, str]:
    """Cardinality text of each relationship line (index into ``lines``), nearest first.

    Each line is oriented relationship -> entity; a text near the entity end wins over
    one equally near the middle, and each text is used once.
    """
    texts = [(k, t) for k, t in enumerate(inv.texts)
             if CARDINALITY.match(cardinality_text(t.text)) and k not in (exclude or set())]
    pairs = []
    for ti, (_, t) in enumerate(texts):
        c = text_centre(t)
        for li, ln in enumerate(lines):
            d, frac = dist_to_polyline(c, ln.points)
            if d <= radius:
                pairs.append((d + radius * 0.25 * (1 - frac), ti, li))
    pairs.sort()
    used_t: set[int] = set()
    out: dict[int, str] = {}
    for _, ti, li in pairs:
        if ti in used_t or li in out:
            continue
        used_t.add(ti)
        out[li] = cardinality_text(texts[ti][1].text)
        if used is not None:
            used.add(texts[ti][0])
    return out


def spare_cardinality(inv: Inventory, entity: Shape, rel: Shape, used: set[int]) -> str:
    """An unused cardinality text beside ``entity`` (within a few text heights of its box),
    the one nearest the relationship; '' if there is none.  Marks it used."""
    th = inv.scale.text_height
    best = None
    for k, t in enumerate(inv.texts):
        if k in used or not CARDINALITY.match(cardinality_text(t.text)):
            continue
        c = text_centre(t)
        gap = float(point_gaps(c, entity.bbox))
        if gap > 2.5 * th:
            continue
        d = float(np.linalg.norm(c - shape_centre(rel)))
        if best is None or d < best[0]:
            best = (d, k)
    if best is None:
        return ""
    used.add(best[1])
    return cardinality_text(inv.texts[best[1]].text)


def line_cardinalities(inv: Inventory, lines: list[Link], connectors: list[Connector],
                       exclude: set[int] | None = None, used: set[int] | None = None
                       ) -> dict[int, str]:
    """Cardinality of each line (index into ``lines``, each oriented relationship ->
    entity): :func:`assign_cardinalities` within two and a half text heights, then
    :func:`glyph_cardinalities` for the lines still without one."""
    cards = assign_cardinalities(inv, lines, 2.5 * inv.scale.text_height, exclude=exclude,
                                 used=used)
    return glyph_cardinalities(inv, lines, cards, connectors)


def glyph_cardinalities(inv: Inventory, lines: list[Link], cards: dict[int, str],
                        connectors: list[Connector]) -> dict[int, str]:
    """``cards`` (the lines' cardinalities read as text) completed by glyph matching and
    the OCR of cut glyphs for the lines still without one, in place; returns it."""
    cards.update(match_cardinalities(inv, lines, cards, connectors))
    cards.update(recover_cardinalities(inv, lines, cards, connectors))
    return cards
