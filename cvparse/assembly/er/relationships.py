"""Relationships drawn as diamonds: the entities on the diamond's lines, each with the
cardinality at its end, a lost second line of a recursive relationship restored and
spurious repeated roles dropped (two roles of one entity are told by their role labels)."""

from __future__ import annotations

import numpy as np

from ...connectors.lines import Connector
from ...model import Relationship
from ...primitives.items import Inventory
from .cardinalities import line_cardinalities, spare_cardinality
from .geometry import box_to_polyline
from .labels import CARDINALITY, cardinality_text, clean_label
from .links import Link


def diamond_relationships(inv: Inventory, links: list[Link], connectors: list[Connector],
                          role: dict[int, str | None], names: dict[int, str],
                          labels: dict[int, str], rel_attrs: dict[int, list[str]]
                          ) -> tuple[list[Relationship], set[int]]:
    """The diamond relationships, top to bottom, and the free texts used as their
    cardinalities."""
    shapes = inv.shapes
    rel_lines = [ln for ln in links
                 if (role.get(ln.a) == "relationship") != (role.get(ln.b) == "relationship")
                 and "entity" in (role.get(ln.a), role.get(ln.b))]
    oriented = [ln if role.get(ln.a) == "relationship" else Link(ln.b, ln.a, ln.points[::-1])
                for ln in rel_lines]
    cards_used: set[int] = set()
    cards = line_cardinalities(inv, oriented, connectors, used=cards_used)
    roles: dict[int, str] | None = None  # read only when an entity repeats
    rel_ids = [i for i, r in role.items() if r == "relationship"]
    out = []
    for r in sorted(rel_ids, key=lambda i: (shapes[i].bbox[1], shapes[i].bbox[0])):
        mine = [k for k, ln in enumerate(oriented) if ln.a == r and ln.b in names]
        ends = [(names[oriented[k].b], cards.get(k, "")) for k in mine]
        if not ends:
            continue
        if len(ends) == 1:
            # A relationship joins two or more entity roles: with one line found, the other
            # is most often the second line of a recursive relationship, lost in tracing.
            ent = oriented[mine[0]].b
            ends.append((ends[0][0], spare_cardinality(inv, shapes[ent], shapes[r],
                                                       cards_used)))
        named = [""] * len(ends)
        if len(ends) >= 3 and len({e for e, _ in ends}) < len(ends):
            if roles is None:
                roles = role_labels(inv, oriented, cards_used)
            named[:len(mine)] = [roles.get(k, "") for k in mine]
        ends = drop_repeated_roles(ends, named)
        out.append(Relationship(
            name=labels[r], entities=[e for e, _ in ends], cardinalities=[c for _, c in ends],
            weak=shapes[r].double, attributes=rel_attrs[r]))
    return out, cards_used


def role_labels(inv: Inventory, lines: list[Link], cards_used: set[int]) -> dict[int, str]:
    """Role names written beside relationship lines (index into ``lines``): each free
    word that is no cardinality goes to the line nearest it, within a text height and a
    half of the line's middle stretch (off its ends, where cardinalities sit)."""
    th = inv.scale.text_height
    out: dict[int, str] = {}
    best: dict[int, float] = {}
    for k, t in enumerate(inv.texts):
        if k in cards_used or CARDINALITY.match(cardinality_text(t.text)) \
                or not any(ch.isalpha() for ch in t.text):
            continue
        near = []
        for li, ln in enumerate(lines):
            pts = np.asarray(ln.points, float)
            if len(pts) < 2:
                continue
            mid = pts[0] + (pts[-1] - pts[0]) * np.linspace(0.2, 0.8, 7)[:, None]
            d = box_to_polyline(t.bbox, mid)
            if d <= 1.5 * th:
                near.append((d, li))
        if near:
            d, li = min(near)
            if li not in best or d < best[li]:
                best[li], out[li] = d, clean_label(t.text)
    return out


def drop_repeated_roles(ends: list[tuple[str, str]], roles: list[str] | None = None
                        ) -> list[tuple[str, str]]:
    """A relationship's (entity, cardinality) ends with the spurious ones of a repeated
    entity dropped.  Among three or more ends, an entity repeats legally only in a
    recursive role of an n-ary relationship: exactly two lines, each labelled with a role
    of its own (``roles``, parallel to ``ends``; '' where none is written).  Any other
    repeat is a line traced twice or one passing by taken up.  Ends go, while three or
    more are left and one entity repeats illegally, in this order: a repeated entity's
    end without a cardinality, any end without one, a repeated (entity, cardinality)
    pair, the last end of a repeated entity."""
    pairs = list(zip(ends, roles if roles is not None else [""] * len(ends), strict=True))
    while len(pairs) >= 3:
        names = [e for (e, _), _ in pairs]
        repeated = [names.count(e) > 1 for e in names]
        if not any(repeated):
            break
        if all(names.count(e) == 2 and r and sum(q == r for (f, _), q in pairs if f == e) == 1
               for ((e, _), r), rep in zip(pairs, repeated) if rep):
            break  # a recursive role: two lines, two role labels
        blank = [not c for (_, c), _ in pairs]
        twice = [[x for x, _ in pairs].count(x) > 1 for x, _ in pairs]
        for marks in ([r and b for r, b in zip(repeated, blank)], blank, twice, repeated):
            if any(marks):
                del pairs[max(k for k, m in enumerate(marks) if m)]
                break
    return [x for x, _ in pairs]
