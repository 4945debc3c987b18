"""A Chen ER schema seen as crow's-foot (IE) entities and links, the common ground of
Mermaid's ``erDiagram`` and PlantUML's IE entities (both write the line ends
``|o  ||  }o  }|`` on the left and their mirrors ``o|  ||  o{  |{`` on the right).

IE has entities with attribute rows and binary lines, nothing else, so:

* entity -> entity; each attribute a row with its type (the entity's optional ``types``),
  ``PK`` (``primary_keys``), ``FK`` (keys of ``foreign_keys``) and notes for multivalued,
  derived and composite (the note lists the components).
* binary relationship without attributes -> one link, each end's crow's foot from that
  entity's cardinality; solid when identifying (``weak``), dashed otherwise.
* relationship with attributes or more than two participants -> an associative entity
  named after it, holding its attributes, linked to every participant (the participant's
  end from its cardinality, the associative end "zero or more").
* IS-A -> a one-to-one identifying link from each subclass to the superclass, labelled
  with the IS-A's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model import ERSchema, IsA

_LEFT = {"zero_or_one": "|o", "one": "||", "zero_or_more": "}o", "one_or_more": "}|"}
_RIGHT = {"zero_or_one": "o|", "one": "||", "zero_or_more": "o{", "one_or_more": "|{"}


def multiplicity(card: str) -> str:
    """The IE multiplicity a drawn cardinality means.

    ``1`` (or ``1..1``) is exactly one, ``0..1`` zero or one, ``1..N``/``1..*`` one or
    more; ``N``, ``M``, ``*``, ``0..N`` and any other text are zero or more, as is a
    cardinality that is not drawn (IE has no "unknown" end; "many" claims the least).
    """
    c = re.sub(r"\s+", "", card).lower()
    if c in ("1", "1..1", "one"):
        return "one"
    if c in ("0..1", "0,1"):
        return "zero_or_one"
    if re.fullmatch(r"1\.\.(\*|n|m|many)|1,n|1\+", c):
        return "one_or_more"
    return "zero_or_more"


def ends(left_card: str, right_card: str, identifying: bool) -> str:
    """The link text between two entities, ``left_card`` drawn beside the left one."""
    body = "--" if identifying else ".."
    return _LEFT[multiplicity(left_card)] + body + _RIGHT[multiplicity(right_card)]


@dataclass
class Attribute:
    name: str
    type: str = ""
    primary: bool = False
    foreign: bool = False
    notes: list[str] = field(default_factory=list)


@dataclass
class IEEntity:
    """``key`` is unique in the view (an associative entity may share an entity's name)."""

    key: str
    name: str
    attributes: list[Attribute] = field(default_factory=list)
    weak: bool = False


@dataclass
class Link:
    left: str
    right: str
    ends: str
    label: str


@dataclass
class IEView:
    entities: list[IEEntity]
    links: list[Link]


def ie_view(schema: ERSchema) -> IEView:
    """The IE entities and links of ``schema`` (see the module notes for the mapping)."""
    entities: dict[str, IEEntity] = {}
    links: list[Link] = []
    for name, e in schema.entities.items():
        types = e.extra["types"] if isinstance(e.extra.get("types"), dict) else {}
        fks = e.extra["foreign_keys"] if isinstance(e.extra.get("foreign_keys"), dict) else {}
        attrs = []
        for a in e.attributes:
            notes = ["multivalued"] * (a in e.multivalued) + ["derived"] * (a in e.derived)
            if a in e.composite:
                notes.append("composite: " + ", ".join(e.composite[a]))
            attrs.append(Attribute(a, str(types.get(a, "")), a in e.primary_keys, a in fks,
                                   notes))
        entities[name] = IEEntity(name, name, attrs, e.weak)

    def end(name: str) -> str:
        entities.setdefault(name, IEEntity(name, name))
        return name

    for k, r in enumerate(schema.relationships):
        if isinstance(r, IsA):
            sup = end(r.superclass)
            links.extend(Link(end(sub), sup, ends("1", "1", True), r.name or "ISA")
                         for sub in r.subclasses)
            continue
        label = r.name or "relates"
        if len(r.entities) == 2 and not r.attributes:
            links.append(Link(end(r.entities[0]), end(r.entities[1]),
                              ends(r.cardinalities[0], r.cardinalities[1], r.weak), label))
            continue
        key = f"\0relationship {k}"  # never an entity name
        entities[key] = IEEntity(key, label, [Attribute(a) for a in r.attributes])
        links.extend(Link(key, end(ent), ends("N", card, r.weak), label)
                     for ent, card in zip(r.entities, r.cardinalities))
    return IEView(list(entities.values()), links)
