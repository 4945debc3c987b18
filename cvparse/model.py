"""Typed data model of cvparse's output: the documents fixed by FORMATS.md.

Four kinds of document: a graph (``flowchart`` / ``topology``), an ER schema (``er``) and a
UML model (``uml``).  Each dataclass has ``to_dict``/``from_dict`` and the document classes
``to_json``/``from_json``.  Keys the contract does not name (bbox, confidence, debug data,
fixture metadata such as ``subset``) are kept in ``extra`` so that a document round-trips
exactly.  ``from_dict`` rejects a malformed document with :class:`DocumentError`, whose
message names the offending field path (``edges[3].source``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .vocabulary import FAMILIES, LINE_STYLES, NODE_SHAPES

GRAPH_KINDS = ("flowchart", "topology")
DOC_KINDS = FAMILIES
EDGE_STYLES = LINE_STYLES
UML_RELATION_TYPES = (
    "inheritance", "realization", "composition", "aggregation", "dependency", "association",
)


class DocumentError(ValueError):
    """A document does not follow the FORMATS.md contract; the message names the field."""


# --- field readers: each checks one value and names its path on failure -----------------

def _need(d: dict, key: str, path: str) -> Any:
    if key not in d:
        raise DocumentError(f"{path}{key}: required field is missing")
    return d[key]


def _str(v: Any, path: str) -> str:
    if not isinstance(v, str):
        raise DocumentError(f"{path}: expected a string, got {type(v).__name__}")
    return v


def _bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        raise DocumentError(f"{path}: expected true/false, got {type(v).__name__}")
    return v


def _strlist(v: Any, path: str) -> list[str]:
    if not isinstance(v, list):
        raise DocumentError(f"{path}: expected a list of strings, got {type(v).__name__}")
    return [_str(x, f"{path}[{i}]") for i, x in enumerate(v)]


def _obj(v: Any, path: str) -> dict:
    if not isinstance(v, dict):
        raise DocumentError(f"{path}: expected an object, got {type(v).__name__}")
    return v


def _list(v: Any, path: str) -> list:
    if not isinstance(v, list):
        raise DocumentError(f"{path}: expected a list, got {type(v).__name__}")
    return v


def _bbox(v: Any, path: str) -> list[float] | None:
    if v is None:
        return None
    if (not isinstance(v, list) or len(v) != 4
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)):
        raise DocumentError(f"{path}: expected [x1, y1, x2, y2] numbers")
    return list(v)


def _choice(v: Any, allowed: tuple[str, ...], path: str) -> str:
    s = _str(v, path)
    if s not in allowed:
        raise DocumentError(f"{path}: {s!r} is not one of {', '.join(allowed)}")
    return s


def _extra(d: dict, known: tuple[str, ...]) -> dict:
    return {k: v for k, v in d.items() if k not in known}


# --- graph ------------------------------------------------------------------------------

@dataclass
class Node:
    """A diagram node: a shape or icon with its label."""

    id: str
    label: str = ""
    shape: str = "other"
    bbox: list[float] | None = None
    extra: dict = field(default_factory=dict)

    _KEYS = ("id", "label", "shape", "bbox")

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "label": self.label, "shape": self.shape}
        if self.bbox is not None:
            d["bbox"] = list(self.bbox)
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: Any, path: str = "node") -> Node:
        d = _obj(d, path)
        return cls(
            id=_str(_need(d, "id", path + "."), path + ".id"),
            label=_str(_need(d, "label", path + "."), path + ".label"),
            shape=_choice(d.get("shape", "other"), NODE_SHAPES, path + ".shape"),
            bbox=_bbox(d.get("bbox"), path + ".bbox"),
            extra=_extra(d, cls._KEYS),
        )


@dataclass
class Edge:
    """A connector from ``source`` to ``target`` (node ids)."""

    source: str
    target: str
    directed: bool = True
    style: str = "solid"
    label: str = ""
    type: str = ""
    extra: dict = field(default_factory=dict)

    _KEYS = ("source", "target", "directed", "style", "label", "type")

    def to_dict(self) -> dict:
        d = {"source": self.source, "target": self.target, "directed": self.directed,
             "style": self.style, "label": self.label, "type": self.type}
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: Any, path: str = "edge") -> Edge:
        d = _obj(d, path)
        return cls(
            source=_str(_need(d, "source", path + "."), path + ".source"),
            target=_str(_need(d, "target", path + "."), path + ".target"),
            directed=_bool(d.get("directed", True), path + ".directed"),
            style=_choice(d.get("style", "solid"), EDGE_STYLES, path + ".style"),
            label=_str(d.get("label", ""), path + ".label"),
            type=_str(d.get("type", ""), path + ".type"),
            extra=_extra(d, cls._KEYS),
        )


@dataclass
class Graph:
    """A node-link document: ``kind`` is ``flowchart`` or ``topology``."""

    kind: str = "flowchart"
    width: int | None = None
    height: int | None = None
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    _KEYS = ("kind", "width", "height", "nodes", "edges")

    def node(self, node_id: str) -> Node | None:
        return next((n for n in self.nodes if n.id == node_id), None)

    def to_dict(self) -> dict:
        d: dict = {"kind": self.kind}
        if self.width is not None:
            d["width"] = self.width
        if self.height is not None:
            d["height"] = self.height
        d["nodes"] = [n.to_dict() for n in self.nodes]
        d["edges"] = [e.to_dict() for e in self.edges]
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: Any) -> Graph:
        d = _obj(d, "document")
        kind = _choice(_need(d, "kind", ""), GRAPH_KINDS, "kind")
        for key in ("width", "height"):
            v = d.get(key)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                raise DocumentError(f"{key}: expected a non-negative integer")
        nodes = [Node.from_dict(n, f"nodes[{i}]")
                 for i, n in enumerate(_list(_need(d, "nodes", ""), "nodes"))]
        edges = [Edge.from_dict(e, f"edges[{i}]")
                 for i, e in enumerate(_list(_need(d, "edges", ""), "edges"))]
        ids = set()
        for i, n in enumerate(nodes):
            if n.id in ids:
                raise DocumentError(f"nodes[{i}].id: duplicate node id {n.id!r}")
            ids.add(n.id)
        for i, e in enumerate(edges):
            for end in ("source", "target"):
                if getattr(e, end) not in ids:
                    raise DocumentError(f"edges[{i}].{end}: unknown node id {getattr(e, end)!r}")
        return cls(kind=kind, width=d.get("width"), height=d.get("height"), nodes=nodes,
                   edges=edges, extra=_extra(d, cls._KEYS))

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Graph:
        return cls.from_dict(_loads(text))


# --- ER ---------------------------------------------------------------------------------

@dataclass
class Entity:
    """An entity (or weak entity) with its attributes and their roles."""

    name: str
    attributes: list[str] = field(default_factory=list)
    primary_keys: list[str] = field(default_factory=list)
    multivalued: list[str] = field(default_factory=list)
    derived: list[str] = field(default_factory=list)
    composite: dict[str, list[str]] = field(default_factory=dict)
    weak: bool = False
    extra: dict = field(default_factory=dict)

    _KEYS = ("attributes", "primary_keys", "multivalued", "derived", "composite", "weak")

    def to_dict(self) -> dict:
        d = {"attributes": list(self.attributes), "primary_keys": list(self.primary_keys),
             "multivalued": list(self.multivalued), "derived": list(self.derived),
             "composite": {k: list(v) for k, v in self.composite.items()}, "weak": self.weak}
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, name: str, d: Any, path: str) -> Entity:
        d = _obj(d, path)
        comp = _obj(d.get("composite", {}), path + ".composite")
        return cls(
            name=name,
            attributes=_strlist(d.get("attributes", []), path + ".attributes"),
            primary_keys=_strlist(d.get("primary_keys", []), path + ".primary_keys"),
            multivalued=_strlist(d.get("multivalued", []), path + ".multivalued"),
            derived=_strlist(d.get("derived", []), path + ".derived"),
            composite={k: _strlist(v, f"{path}.composite.{k}") for k, v in comp.items()},
            weak=_bool(d.get("weak", False), path + ".weak"),
            extra=_extra(d, cls._KEYS),
        )


@dataclass
class Relationship:
    """A relationship diamond joining ``entities`` (recursive ones list an entity twice)."""

    name: str
    entities: list[str] = field(default_factory=list)
    cardinalities: list[str] = field(default_factory=list)
    weak: bool = False
    attributes: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    _KEYS = ("name", "entities", "cardinalities", "weak", "attributes")

    def to_dict(self) -> dict:
        d = {"name": self.name, "entities": list(self.entities),
             "cardinalities": list(self.cardinalities), "weak": self.weak,
             "attributes": list(self.attributes)}
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: dict, path: str) -> Relationship:
        ents = _strlist(_need(d, "entities", path + "."), path + ".entities")
        cards = _strlist(d.get("cardinalities", [""] * len(ents)), path + ".cardinalities")
        if len(cards) != len(ents):
            raise DocumentError(f"{path}.cardinalities: has {len(cards)} items for "
                                f"{len(ents)} entities")
        return cls(
            name=_str(d.get("name", ""), path + ".name"),
            entities=ents,
            cardinalities=cards,
            weak=_bool(d.get("weak", False), path + ".weak"),
            attributes=_strlist(d.get("attributes", []), path + ".attributes"),
            extra=_extra(d, cls._KEYS),
        )


@dataclass
class IsA:
    """A specialisation (IS-A triangle): one superclass, its subclasses."""

    superclass: str
    subclasses: list[str] = field(default_factory=list)
    name: str = "ISA"
    extra: dict = field(default_factory=dict)

    _KEYS = ("name", "superclass", "subclasses")

    def to_dict(self) -> dict:
        d = {"name": self.name, "superclass": self.superclass,
             "subclasses": list(self.subclasses)}
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: dict, path: str) -> IsA:
        return cls(
            superclass=_str(d["superclass"], path + ".superclass"),
            subclasses=_strlist(_need(d, "subclasses", path + "."), path + ".subclasses"),
            name=_str(d.get("name", "ISA"), path + ".name"),
            extra=_extra(d, cls._KEYS),
        )


@dataclass
class ERSchema:
    """An ER diagram: entities by name and relationships (including IS-A)."""

    entities: dict[str, Entity] = field(default_factory=dict)
    relationships: list[Relationship | IsA] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    kind = "er"
    _KEYS = ("kind", "entities", "relationships")

    @property
    def isas(self) -> list[IsA]:
        return [r for r in self.relationships if isinstance(r, IsA)]

    @property
    def plain_relationships(self) -> list[Relationship]:
        return [r for r in self.relationships if isinstance(r, Relationship)]

    def to_dict(self) -> dict:
        d = {"kind": "er",
             "entities": {name: e.to_dict() for name, e in self.entities.items()},
             "relationships": [r.to_dict() for r in self.relationships]}
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: Any) -> ERSchema:
        d = _obj(d, "document")
        _choice(_need(d, "kind", ""), ("er",), "kind")
        ents = _obj(_need(d, "entities", ""), "entities")
        entities = {name: Entity.from_dict(name, e, f"entities.{name}")
                    for name, e in ents.items()}
        rels: list[Relationship | IsA] = []
        for i, r in enumerate(_list(_need(d, "relationships", ""), "relationships")):
            path = f"relationships[{i}]"
            r = _obj(r, path)
            rels.append(IsA.from_dict(r, path) if "superclass" in r
                        else Relationship.from_dict(r, path))
        return cls(entities=entities, relationships=rels, extra=_extra(d, cls._KEYS))

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> ERSchema:
        return cls.from_dict(_loads(text))


# --- UML --------------------------------------------------------------------------------

@dataclass
class UMLClass:
    """A class box: name compartment, attributes and methods."""

    name: str
    attributes: list[str] = field(default_factory=list)
    methods: list[str] = field(default_factory=list)
    bbox: list[float] | None = None
    extra: dict = field(default_factory=dict)

    _KEYS = ("name", "attributes", "methods", "bbox")

    def to_dict(self) -> dict:
        d: dict = {"name": self.name, "attributes": list(self.attributes),
                   "methods": list(self.methods)}
        if self.bbox is not None:
            d["bbox"] = list(self.bbox)
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: Any, path: str) -> UMLClass:
        d = _obj(d, path)
        return cls(
            name=_str(_need(d, "name", path + "."), path + ".name"),
            attributes=_strlist(d.get("attributes", []), path + ".attributes"),
            methods=_strlist(d.get("methods", []), path + ".methods"),
            bbox=_bbox(d.get("bbox"), path + ".bbox"),
            extra=_extra(d, cls._KEYS),
        )


@dataclass
class UMLRelation:
    """A typed relation, directed by the FORMATS.md convention table."""

    type: str
    source: str
    target: str
    extra: dict = field(default_factory=dict)

    _KEYS = ("type", "source", "target")

    def to_dict(self) -> dict:
        d = {"type": self.type, "source": self.source, "target": self.target}
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: Any, path: str) -> UMLRelation:
        d = _obj(d, path)
        return cls(
            type=_choice(_need(d, "type", path + "."), UML_RELATION_TYPES, path + ".type"),
            source=_str(_need(d, "source", path + "."), path + ".source"),
            target=_str(_need(d, "target", path + "."), path + ".target"),
            extra=_extra(d, cls._KEYS),
        )


@dataclass
class UMLModel:
    """A UML class diagram."""

    classes: list[UMLClass] = field(default_factory=list)
    relations: list[UMLRelation] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    kind = "uml"
    _KEYS = ("kind", "classes", "relations")

    def to_dict(self) -> dict:
        d = {"kind": "uml", "classes": [c.to_dict() for c in self.classes],
             "relations": [r.to_dict() for r in self.relations]}
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: Any) -> UMLModel:
        d = _obj(d, "document")
        _choice(_need(d, "kind", ""), ("uml",), "kind")
        classes = [UMLClass.from_dict(c, f"classes[{i}]")
                   for i, c in enumerate(_list(_need(d, "classes", ""), "classes"))]
        rels = [UMLRelation.from_dict(r, f"relations[{i}]")
                for i, r in enumerate(_list(_need(d, "relations", ""), "relations"))]
        return cls(classes=classes, relations=rels, extra=_extra(d, cls._KEYS))

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> UMLModel:
        return cls.from_dict(_loads(text))


Document = Graph | ERSchema | UMLModel


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DocumentError(f"not valid JSON: {exc}") from None


def document_from_dict(d: Any) -> Document:
    """Build the right document class from a dict, dispatching on its ``kind``."""
    d = _obj(d, "document")
    kind = _choice(_need(d, "kind", ""), DOC_KINDS, "kind")
    if kind == "er":
        return ERSchema.from_dict(d)
    if kind == "uml":
        return UMLModel.from_dict(d)
    return Graph.from_dict(d)


def document_from_json(text: str) -> Document:
    """Parse a JSON document of any kind.

    Parameters
    ----------
    text : str
        A document as docs/formats.md writes it.

    Returns
    -------
    Graph, ERSchema or UMLModel
        The document of its ``kind``; :class:`DocumentError` names the field at fault.

    Examples
    --------
    >>> doc = document_from_json(
    ...     '{"kind": "flowchart", "nodes": [{"id": "a", "label": "A"}], "edges": []}')
    >>> type(doc).__name__, doc.nodes[0].id
    ('Graph', 'a')
    """
    return document_from_dict(_loads(text))
