"""Assemble a Chen ER schema from shapes, connectors and free text.

Entities are rectangles (double border: weak), relationships diamonds (double: identifying),
attributes ellipses (double: multivalued, dashed: derived, underlined label: primary key),
IS-A triangles join a superclass on the apex side to subclasses on the base side.  The
connectors give the adjacency; a cardinality is the free text nearest a relationship
line's entity end.  Table-like entity boxes (Silberschatz style, relational schemas) are
handled by :mod:`cvparse.assembly.er_tables`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..connectors.elements import Connector
from ..model import Entity, ERSchema, IsA, Relationship
from ..primitives.elements import Inventory, Shape, TextItem

ROLE_OF_KIND = {"rect": "entity", "round_rect": "entity", "stadium": "attribute",
                "diamond": "relationship", "ellipse": "attribute", "circle": "attribute",
                "triangle": "isa"}

CARDINALITY = re.compile(r"^(\d+|[NnMm*]|\d+\.\.(\d+|[NnMm*]))$")
"""Free text that reads as a cardinality: ``1``, ``N``, ``M``, ``*``, ``0..1``, ``1..N``."""


@dataclass
class Link:
    """One connector between two shapes, with the end points at each shape."""

    a: int
    b: int
    points: np.ndarray = field(repr=False)
    """Polyline from the end at ``a`` to the end at ``b``."""


def shape_links(inv: Inventory, connectors: list[Connector]) -> list[Link]:
    """Connectors whose two ends attach to two different shapes."""
    links = []
    for c in connectors:
        a, b = c.ends[0].node, c.ends[1].node
        if a is None or b is None or a == b:
            continue
        links.append(Link(a, b, np.asarray(c.points, float)))
    return links


def clean_label(text: str) -> str:
    """An identifier as drawn: OCR spaces around underscores dropped."""
    text = re.sub(r"\s*_\s*", "_", text.strip())
    return re.sub(r"\s+", " ", text)


def _unique_name(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    k = 2
    while f"{name}#{k}" in taken:
        k += 1
    return f"{name}#{k}"


def _dist_to_polyline(p: np.ndarray, pts: np.ndarray) -> tuple[float, float]:
    """Distance from ``p`` to a polyline and the arc-length fraction of the nearest point."""
    if len(pts) < 2:
        return float(np.linalg.norm(p - pts[0])), 0.0
    a, b = pts[:-1], pts[1:]
    ab = b - a
    L = np.linalg.norm(ab, axis=1)
    t = np.clip(((p - a) * ab).sum(1) / np.maximum(L ** 2, 1e-9), 0, 1)
    proj = a + ab * t[:, None]
    d = np.linalg.norm(proj - p, axis=1)
    i = int(d.argmin())
    total = max(L.sum(), 1e-9)
    return float(d[i]), float((L[:i].sum() + t[i] * L[i]) / total)


def _text_centre(t: TextItem) -> np.ndarray:
    x1, y1, x2, y2 = t.bbox
    return np.array([(x1 + x2) / 2, (y1 + y2) / 2], float)


def assign_cardinalities(inv: Inventory, lines: list[Link], radius: float
                         ) -> dict[int, str]:
    """Cardinality text of each relationship line (index into ``lines``), nearest first.

    Each line is oriented relationship -> entity; a text near the entity end wins over
    one equally near the middle, and each text is used once.
    """
    texts = [t for t in inv.texts if CARDINALITY.match(t.text.strip())]
    pairs = []
    for ti, t in enumerate(texts):
        c = _text_centre(t)
        for li, ln in enumerate(lines):
            d, frac = _dist_to_polyline(c, ln.points)
            if d <= radius:
                pairs.append((d + radius * 0.25 * (1 - frac), ti, li))
    pairs.sort()
    used_t: set[int] = set()
    out: dict[int, str] = {}
    for _, ti, li in pairs:
        if ti in used_t or li in out:
            continue
        used_t.add(ti)
        out[li] = texts[ti].text.strip()
    return out


def _apex_and_base(s: Shape) -> tuple[np.ndarray, np.ndarray]:
    """Apex point and base midpoint of a triangle shape, from its widest and narrowest rows."""
    m = s.interior.filled
    x1, y1 = s.interior.bbox[:2]
    widths = m.sum(axis=1)
    h = len(widths)
    k = max(1, h // 5)
    top, bottom = widths[:k].mean(), widths[-k:].mean()
    cx = x1 + m.shape[1] / 2
    if top < bottom:
        return np.array([cx, y1]), np.array([cx, y1 + h])
    return np.array([cx, y1 + h]), np.array([cx, y1])


def _end_at(link: Link, node: int) -> np.ndarray:
    return link.points[0] if link.a == node else link.points[-1]


def assemble_er(inv: Inventory, connectors: list[Connector]) -> ERSchema:
    """The ER schema drawn on a page, from its inventory and attached connectors."""
    from .er_tables import table_entities

    shapes = inv.shapes
    tables = table_entities(inv)
    in_table = {i for t in tables for i in t.shapes}
    role = {i: ROLE_OF_KIND.get(s.kind) for i, s in enumerate(shapes) if i not in in_table}
    for t in tables:
        for i in t.shapes:
            role[i] = "entity"
    table_of = {i: t for t in tables for i in t.shapes}
    head = {i: t.shapes[0] for t in tables for i in t.shapes}
    links = []
    for ln in shape_links(inv, connectors):
        a, b = head.get(ln.a, ln.a), head.get(ln.b, ln.b)
        if a != b:
            links.append(Link(a, b, ln.points))
    labels = {i: clean_label(s.label) for i, s in enumerate(shapes)}
    for t in tables:
        labels[t.shapes[0]] = t.name

    adj: dict[int, list[int]] = {}
    for li, ln in enumerate(links):
        adj.setdefault(ln.a, []).append(li)
        adj.setdefault(ln.b, []).append(li)

    def other(li: int, node: int) -> int:
        ln = links[li]
        return ln.b if ln.a == node else ln.a

    entity_ids = [i for i, r in role.items() if r == "entity" and head.get(i, i) == i]
    names: dict[int, str] = {}
    taken: set[str] = set()
    for i in sorted(entity_ids, key=lambda i: (shapes[i].bbox[1], shapes[i].bbox[0])):
        names[i] = _unique_name(labels[i] or f"E{i}", taken)
        taken.add(names[i])
    entities = {names[i]: Entity(name=names[i], weak=shapes[i].double and i not in table_of)
                for i in entity_ids}
    for i in entity_ids:
        if i in table_of:
            t = table_of[i]
            e = entities[names[i]]
            e.attributes, e.primary_keys = list(t.attributes), list(t.primary_keys)
            e.multivalued, e.derived = list(t.multivalued), list(t.derived)
            e.composite = {k: list(v) for k, v in t.composite.items()}

    def attr_name(i: int) -> str:
        return labels[i] or f"A{i}"

    def mark(e: Entity, i: int) -> None:
        s = shapes[i]
        name = attr_name(i)
        e.attributes.append(name)
        if s.underlined:
            e.primary_keys.append(name)
        if s.double:
            e.multivalued.append(name)
        if s.dashed:
            e.derived.append(name)

    # Attributes: hop through attribute-attribute links to the owning entity/relationship.
    attr_ids = [i for i, r in role.items() if r == "attribute"]
    owner: dict[int, tuple[int, int | None]] = {}
    """attribute -> (entity or relationship shape, composite parent or None)."""
    for i in attr_ids:
        owners = [other(li, i) for li in adj.get(i, [])
                  if role.get(other(li, i)) in ("entity", "relationship")]
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

    rel_ids = [i for i, r in role.items() if r == "relationship"]
    rel_attrs: dict[int, list[str]] = {i: [] for i in rel_ids}
    for i in sorted(attr_ids, key=lambda i: (shapes[i].bbox[1], shapes[i].bbox[0])):
        if i not in owner:
            continue
        o, parent = owner[i]
        if role.get(o) == "relationship":
            if parent is None:
                rel_attrs[o].append(attr_name(i))
            continue
        e = entities[names[o]]
        if parent is None:
            mark(e, i)
        else:
            e.composite.setdefault(attr_name(parent), []).append(attr_name(i))

    rel_lines = [ln for ln in links
                 if (role.get(ln.a) == "relationship") != (role.get(ln.b) == "relationship")
                 and "entity" in (role.get(ln.a), role.get(ln.b))]
    oriented = [ln if role.get(ln.a) == "relationship" else Link(ln.b, ln.a, ln.points[::-1])
                for ln in rel_lines]
    cards = assign_cardinalities(inv, oriented, 2.5 * inv.scale.text_height)
    relationships: list[Relationship | IsA] = []
    for r in sorted(rel_ids, key=lambda i: (shapes[i].bbox[1], shapes[i].bbox[0])):
        ends = [(names[ln.b], cards.get(k, "")) for k, ln in enumerate(oriented)
                if ln.a == r and ln.b in names]
        if not ends:
            continue
        relationships.append(Relationship(
            name=labels[r], entities=[e for e, _ in ends], cardinalities=[c for _, c in ends],
            weak=shapes[r].double, attributes=rel_attrs[r]))
    relationships.extend(_isas(inv, links, role, names))
    relationships.extend(_edge_relationships(inv, connectors, names, head))
    return ERSchema(entities=entities, relationships=relationships)


def _isas(inv: Inventory, links: list[Link], role: dict[int, str | None],
          names: dict[int, str]) -> list[IsA]:
    """IS-A objects: the entity attached nearest the triangle's apex is the superclass."""
    out = []
    for t, r in role.items():
        if r != "isa":
            continue
        apex, base = _apex_and_base(inv.shapes[t])
        ends = []
        for ln in links:
            if t not in (ln.a, ln.b):
                continue
            o = ln.b if ln.a == t else ln.a
            if o not in names:
                continue
            p = _end_at(ln, t)
            ends.append((float(np.linalg.norm(p - apex)) - float(np.linalg.norm(p - base)),
                         names[o]))
        if len(ends) < 2:
            continue
        ends.sort()
        label = clean_label(inv.shapes[t].label)
        out.append(IsA(superclass=ends[0][1], subclasses=[n for _, n in ends[1:]],
                       name=label if label.replace(" ", "").isalpha() else "ISA"))
    return out


def _edge_relationships(inv: Inventory, connectors: list[Connector], names: dict[int, str],
                        head: dict[int, int]) -> list[Relationship]:
    """Relationships drawn as a labelled line straight between two entity boxes."""
    return []
