"""Attribute ownership: which entity or relationship each attribute ellipse hangs on
(through a composite parent if it is a component), and the marks it carries there
(underlined: key, double: multivalued, dashed: derived)."""

from __future__ import annotations

import numpy as np

from ...model import Entity
from ...primitives.items import Inventory
from .links import Link
from .recovery import covered


def relationship_attribute_boxes(links: list[Link], role: dict[int, str | None],
                                 table_of: dict) -> list[int]:
    """Plain boxes hung on relationships by dashed lines only: relationship attributes
    (Silberschatz style), not entities."""
    out = []
    for i, r in role.items():
        if r != "entity" or i in table_of:
            continue
        mine = [ln for ln in links if i in (ln.a, ln.b)]
        if mine and all(ln.style in ("dashed", "dotted") for ln in mine) and all(
                role.get(ln.b if ln.a == i else ln.a) == "relationship" for ln in mine):
            out.append(i)
    return out


def attribute_owners(inv: Inventory, links: list[Link], role: dict[int, str | None],
                     centres: list[np.ndarray], near_ink: np.ndarray
                     ) -> dict[int, tuple[int, int | None]]:
    """attribute -> (entity or relationship shape, composite parent or None): an
    attribute linked to an entity or relationship hangs on it; one linked only to such an
    attribute is a component of it."""
    adj: dict[int, list[int]] = {}
    for li, ln in enumerate(links):
        adj.setdefault(ln.a, []).append(li)
        adj.setdefault(ln.b, []).append(li)

    def other(li: int, node: int) -> int:
        ln = links[li]
        return ln.b if ln.a == node else ln.a

    attr_ids = [i for i, r in role.items() if r == "attribute"]
    owner: dict[int, tuple[int, int | None]] = {}
    for i in attr_ids:
        owners = [other(li, i) for li in adj.get(i, [])
                  if role.get(other(li, i)) in ("entity", "relationship")]
        if len(owners) > 1:
            # One of them is a tracing slip: the drawn line runs straight between centres.
            owners.sort(key=lambda o: (not covered(inv, near_ink, centres, i, o),
                                       role.get(o) != "entity",
                                       float(np.linalg.norm(centres[o] - centres[i]))))
        if owners:
            owner[i] = (owners[0], None)
    for i in attr_ids:
        if i in owner:
            continue
        parents = [other(li, i) for li in adj.get(i, []) if other(li, i) in owner
                   and owner[other(li, i)][1] is None]
        if parents:
            p = parents[0]
            owner[i] = (owner[p][0], p)
    return owner


def attach_attributes(inv: Inventory, owner: dict[int, tuple[int, int | None]],
                      role: dict[int, str | None], labels: dict[int, str],
                      names: dict[int, str], entities: dict[str, Entity]
                      ) -> dict[int, list[str]]:
    """Add each owned attribute to its entity (with its marks, or as a component of its
    composite parent), top to bottom; returns each relationship's own attributes."""
    shapes = inv.shapes

    def attr_name(i: int) -> str:
        return labels[i] or f"A{i}"

    rel_attrs: dict[int, list[str]] = {i: [] for i, r in role.items() if r == "relationship"}
    attr_ids = [i for i, r in role.items() if r == "attribute"]
    for i in sorted(attr_ids, key=lambda i: (shapes[i].bbox[1], shapes[i].bbox[0])):
        if i not in owner:
            continue
        o, parent = owner[i]
        if role.get(o) == "relationship":
            if parent is None:
                rel_attrs[o].append(attr_name(i))
            continue
        e = entities[names[o]]
        if parent is not None:
            e.composite.setdefault(attr_name(parent), []).append(attr_name(i))
            continue
        s = shapes[i]
        name = attr_name(i)
        e.attributes.append(name)
        if s.underlined:
            e.primary_keys.append(name)
        if s.double:
            e.multivalued.append(name)
        if s.dashed:
            e.derived.append(name)
    return rel_attrs
