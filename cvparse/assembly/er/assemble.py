"""Assemble a Chen ER schema from shapes, connectors and free text.

Entities are rectangles (double border: weak), relationships diamonds (double: identifying),
attributes ellipses (double: multivalued, dashed: derived, underlined label: primary key),
IS-A triangles join a superclass on the apex side to subclasses on the base side.  The
connectors give the adjacency; a cardinality is the free text nearest a relationship
line's entity end.  This module holds the flow: shape roles, links (traced, then
recovered), entities, then attributes, relationships and IS-A from the modules beside
this one.
Table-like entity boxes (Silberschatz style, relational schemas) are handled by
:mod:`cvparse.assembly.er.tables`.
"""

from __future__ import annotations

from ...connectors.lines import Connector
from ...model import Entity, ERSchema, IsA, Relationship
from ...primitives.items import Inventory
from .arrows import arrow_isas, headed_links
from .attributes import attach_attributes, attribute_owners, relationship_attribute_boxes
from .edges import edge_relationships
from .geometry import shape_centre
from .isa import chen_isas, specialisation_circles, split_diamonds
from .labels import clean_label, snap_header, unique_name
from .links import Link, shape_links
from .ports import loose_end_links, under_text_links
from .recovery import inked_near, straight_links, through_links
from .relationships import diamond_relationships
from .tables import foreign_keys, shadow_pieces, table_entities

ROLE_OF_KIND = {"rect": "entity", "round_rect": "entity", "stadium": "attribute",
                "diamond": "relationship", "ellipse": "attribute", "circle": "attribute",
                "triangle": "isa"}


def assemble_er(inv: Inventory, connectors: list[Connector]) -> ERSchema:
    """The ER schema drawn on a page, from its inventory and attached connectors.

    Parameters
    ----------
    inv : Inventory
        The page's shapes (entities, attributes, relationships, IS-A) and text.
    connectors : list of Connector
        Its lines, ends read and attached.

    Returns
    -------
    ERSchema
        Entities with their attributes and keys, relationships with their cardinalities.
    """
    shapes = inv.shapes
    tables = table_entities(inv)
    in_table = {i for t in tables for i in t.shapes}
    role = {i: ROLE_OF_KIND.get(s.kind) for i, s in enumerate(shapes) if i not in in_table}
    for t in tables:
        for i in t.shapes:
            role[i] = "entity"
    table_of = {i: t for t in tables for i in t.shapes}
    head = {i: t.shapes[0] for t in tables for i in t.shapes}
    for i, h in shadow_pieces(inv, tables).items():
        role[i] = None
        head[i] = h
    links = []
    for ln in shape_links(inv, connectors):
        a, b = head.get(ln.a, ln.a), head.get(ln.b, ln.b)
        if a != b:
            links.append(Link(a, b, ln.points, ln.style))
    if any(t.types for t in tables):  # schema tables: labels sit between line and box
        under, claimed = under_text_links(inv, connectors, head)
        links += under + loose_end_links(inv, connectors, head, claimed, links + under)
    for i in relationship_attribute_boxes(links, role, table_of):
        role[i] = "attribute"
    for i in split_diamonds(inv):
        role[i] = None
    labels = {i: clean_label(s.label) for i, s in enumerate(shapes)}
    for t in tables:
        # A header misread is set right by the words the page writes elsewhere.
        others = [a for u in tables for a in u.attributes] + \
            [u.name for u in tables if u is not t]
        labels[t.shapes[0]] = snap_header(t.name, others)
    centres = [shape_centre(s) for s in shapes]
    near_ink = inked_near(inv)
    links = through_links(inv, links, role, centres, near_ink)
    links += straight_links(inv, links, role, head, centres, near_ink)
    headed = headed_links(inv, connectors, role, head, links, table_of)
    links += headed
    for i in specialisation_circles(inv, links, role):
        role[i] = "isa"

    entity_ids = [i for i, r in role.items() if r == "entity" and head.get(i, i) == i]
    names: dict[int, str] = {}
    taken: set[str] = set()
    for i in sorted(entity_ids, key=lambda i: (shapes[i].bbox[1], shapes[i].bbox[0])):
        names[i] = unique_name(labels[i] or f"E{i}", taken)
        taken.add(names[i])
    entities = {names[i]: Entity(name=names[i], weak=table_of[i].weak if i in table_of
                                 else shapes[i].double)
                for i in entity_ids}
    for i in entity_ids:
        if i in table_of:
            t = table_of[i]
            e = entities[names[i]]
            e.attributes, e.primary_keys = list(t.attributes), list(t.primary_keys)
            e.multivalued, e.derived = list(t.multivalued), list(t.derived)
            e.composite = {k: list(v) for k, v in t.composite.items()}
            if t.types:
                e.extra["types"] = dict(t.types)
            if t.not_null:
                e.extra["not_null"] = list(t.not_null)

    owner = attribute_owners(inv, links, role, centres, near_ink)
    rel_attrs = attach_attributes(inv, owner, role, labels, names, entities)
    relationships: list[Relationship | IsA] = []
    diamonds, cards_used = diamond_relationships(inv, links, connectors, role, names, labels,
                                                 rel_attrs)
    relationships.extend(diamonds)
    relationships.extend(chen_isas(inv, links, role, names, entities))
    arrowed, plain = arrow_isas(inv, links, role, names, table_of, headed)
    relationships.extend(arrowed)
    # A line taken up only for its arrowhead is no relationship when no IS-A came of it.
    plain = [ln for ln in plain if not any(ln is h for h in headed)]
    columns = {a for e in entities.values() for a in e.attributes}
    relationships.extend(edge_relationships(inv, plain, role, names, cards_used, connectors,
                                            columns))
    marked = {names[i]: table_of[i].foreign_keys for i in entity_ids if i in table_of}
    for name, refs in foreign_keys(entities, relationships, marked).items():
        entities[name].extra["foreign_keys"] = refs
    return ERSchema(entities=entities, relationships=relationships)
