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
    style: str = "solid"


def _ink_along(ink: np.ndarray, p: np.ndarray, q: np.ndarray) -> float:
    """Share of the samples on the segment ``p``-``q`` that hit ink (within one pixel)."""
    n = max(2, int(np.linalg.norm(q - p)))
    h, w = ink.shape
    hits = 0
    for t in np.linspace(0, 1, n):
        x, y = (p + (q - p) * t).round().astype(int)
        hits += bool(ink[max(0, y - 1):min(h, y + 2), max(0, x - 1):min(w, x + 2)].any())
    return hits / n


def pass_through_pairs(inv: Inventory, connectors: list[Connector]
                       ) -> dict[tuple[int, int], tuple[int, int]]:
    """Connector ends that meet at a shape only because one line crosses it.

    Two ends on one shape, pointing at each other along one straight line, with that line
    drawn across the inside: the line passes through (a neato layout artefact) and the
    shape is attached to neither piece.  Returns ``(connector, end)`` pairs both ways.
    """
    by_shape: dict[int, list[tuple[int, int]]] = {}
    for ci, c in enumerate(connectors):
        for ei, e in enumerate(c.ends):
            if e.node is not None:
                by_shape.setdefault(e.node, []).append((ci, ei))
    tol = 2 * inv.scale.stroke + 2
    pairs: dict[tuple[int, int], tuple[int, int]] = {}
    for node, ends in by_shape.items():
        if inv.shapes[node].kind == "triangle":
            continue  # IS-A lines are drawn into the triangle, to its centre
        cands = []
        for i, (c1, e1) in enumerate(ends):
            for c2, e2 in ends[i + 1:]:
                if c1 == c2:
                    continue
                a, b = connectors[c1].ends[e1], connectors[c2].ends[e2]
                d1, d2 = np.asarray(a.direction, float), np.asarray(b.direction, float)
                if float(d1 @ d2) > -0.97:
                    continue
                p, q = np.asarray(a.point, float), np.asarray(b.point, float)
                off = q - p
                if abs(off[0] * d1[1] - off[1] * d1[0]) > tol or float(off @ d1) <= 0:
                    continue
                if _ink_along(inv.ink, p, q) >= 0.85:
                    cands.append((float(d1 @ d2), (c1, e1), (c2, e2)))
        for _, x, y in sorted(cands):
            if x not in pairs and y not in pairs:
                pairs[x], pairs[y] = y, x
    return pairs


def shape_links(inv: Inventory, connectors: list[Connector]) -> list[Link]:
    """Shape-to-shape links: connectors whose two ends attach to two different shapes,
    with the pieces of a line that crosses a shape joined back into one."""
    pairs = pass_through_pairs(inv, connectors)
    links = []
    seen: set[int] = set()
    for ci, c in enumerate(connectors):
        for ei in (0, 1):
            if ci in seen or (ci, ei) in pairs:
                continue
            # Walk from a real end through every crossed shape to the far end.
            pts = [np.asarray(c.points, float)[::1 if ei == 0 else -1]]
            start = c.ends[ei].node
            cur, cur_end = ci, 1 - ei
            seen.add(ci)
            while (cur, cur_end) in pairs:
                nxt, nxt_end = pairs[(cur, cur_end)]
                if nxt in seen:
                    break
                seen.add(nxt)
                seq = np.asarray(connectors[nxt].points, float)
                pts.append(seq[::1 if nxt_end == 0 else -1])
                cur, cur_end = nxt, 1 - nxt_end
            end = connectors[cur].ends[cur_end].node
            if start is None or end is None or start == end:
                continue
            links.append(Link(start, end, np.concatenate(pts), c.style))
    return drop_split_duplicates(links, 2 * inv.scale.text_height)


def drop_split_duplicates(links: list[Link], gap: float) -> list[Link]:
    """One line cut in two (where a label box was taken out of it) between the same two
    shapes: keep the longer piece.  The shorter piece lies within ``gap / 2`` of the longer
    line; a recursive relationship's two lines run apart."""
    def length(ln: Link) -> float:
        return float(np.linalg.norm(np.diff(ln.points, axis=0), axis=1).sum())

    drop: set[int] = set()
    for i, a in enumerate(links):
        for j in range(i + 1, len(links)):
            b = links[j]
            if i in drop or j in drop or {a.a, a.b} != {b.a, b.b}:
                continue
            short, long_ = (a, b) if length(a) < length(b) else (b, a)
            # The short piece lies along the long one (its direction is too noisy to use).
            if max(_dist_to_polyline(p, long_.points)[0] for p in short.points) <= gap / 2:
                drop.add(i if short is a else j)
    return [ln for k, ln in enumerate(links) if k not in drop]


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


def cardinality_text(text: str) -> str:
    """A free word as a cardinality: stray dots and quotes OCR adds around it dropped."""
    return text.strip().strip(".,'`:;")


def _text_centre(t: TextItem) -> np.ndarray:
    x1, y1, x2, y2 = t.bbox
    return np.array([(x1 + x2) / 2, (y1 + y2) / 2], float)


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
        out[li] = cardinality_text(texts[ti][1].text)
        if used is not None:
            used.add(texts[ti][0])
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
            links.append(Link(a, b, ln.points, ln.style))
    # A plain box hung on relationships by dashed lines only is a relationship attribute
    # (Silberschatz style), not an entity.
    for i, r in list(role.items()):
        if r != "entity" or i in table_of:
            continue
        mine = [ln for ln in links if i in (ln.a, ln.b)]
        if mine and all(ln.style in ("dashed", "dotted") for ln in mine) and all(
                role.get(ln.b if ln.a == i else ln.a) == "relationship" for ln in mine):
            role[i] = "attribute"
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
    cards_used: set[int] = set()
    cards = assign_cardinalities(inv, oriented, 2.5 * inv.scale.text_height, used=cards_used)
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
    relationships.extend(_edge_relationships(inv, links, role, names, cards_used))
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


def _edge_relationships(inv: Inventory, links: list[Link], role: dict[int, str | None],
                        names: dict[int, str], cards_used: set[int]) -> list[Relationship]:
    """Relationships drawn as a line straight between two entity boxes (schema style):
    the name is the nearest free word that is no cardinality, the cardinalities the
    ones nearest each end."""
    th = inv.scale.text_height
    lines = [ln for ln in links if ln.a in names and ln.b in names
             and role.get(ln.a) == "entity" and role.get(ln.b) == "entity"]
    if not lines:
        return []
    words = [(k, t) for k, t in enumerate(inv.texts)
             if k not in cards_used and not CARDINALITY.match(cardinality_text(t.text))]
    pairs = []
    for wi, (k, t) in enumerate(words):
        c = _text_centre(t)
        for li, ln in enumerate(lines):
            d, _ = _dist_to_polyline(c, ln.points)
            if d <= 3 * th:
                pairs.append((d, wi, li))
    pairs.sort()
    name_of: dict[int, str] = {}
    used: set[int] = set()
    for _, wi, li in pairs:
        if wi in used or li in name_of:
            continue
        used.add(wi)
        name_of[li] = clean_label(words[wi][1].text)
    ends = [Link(ln.a, ln.b, ln.points) for ln in lines] + \
        [Link(ln.b, ln.a, ln.points[::-1]) for ln in lines]
    cards = assign_cardinalities(inv, ends, 2.5 * th, exclude=cards_used)
    out = []
    n = len(lines)
    for li, ln in enumerate(lines):
        out.append(Relationship(name=name_of.get(li, "relates"),
                                entities=[names[ln.a], names[ln.b]],
                                cardinalities=[cards.get(li + n, ""), cards.get(li, "")]))
    return out
