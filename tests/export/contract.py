"""What a document says under the contract (docs/formats.md), without the extra keys: the
part a round trip through another format must keep."""

from __future__ import annotations

GRAPH_NODE = ("id", "label", "shape", "bbox")
GRAPH_EDGE = ("source", "target", "directed", "style", "label", "type")
ENTITY = ("attributes", "primary_keys", "multivalued", "derived", "composite", "weak")
RELATIONSHIP = ("name", "entities", "cardinalities", "weak", "attributes", "superclass",
                "subclasses")
UML_CLASS = ("name", "attributes", "methods", "bbox")
UML_RELATION = ("type", "source", "target", "label")


def contract(doc) -> dict:
    """The contract keys of ``doc`` (a document object).  Defaults are spelled out: an
    association's ``directed`` is true unless false, and a class's ``stereotype`` is one
    of interface / abstract / enum or nothing (``"class"`` is a plain class)."""
    d = doc.to_dict()
    if d["kind"] in ("flowchart", "topology"):
        return {"kind": d["kind"], "width": d.get("width"), "height": d.get("height"),
                "nodes": [{k: n.get(k) for k in GRAPH_NODE} for n in d["nodes"]],
                "edges": [{k: e.get(k) for k in GRAPH_EDGE} for e in d["edges"]]}
    if d["kind"] == "er":
        return {"kind": "er",
                "entities": {name: {k: e[k] for k in ENTITY} for name, e in d["entities"].items()},
                "relationships": [{k: r[k] for k in RELATIONSHIP if k in r}
                                  for r in d["relationships"]]}
    return {"kind": "uml",
            "classes": [{**{k: c.get(k) for k in UML_CLASS},
                         "stereotype": _stereotype(c.get("stereotype"))} for c in d["classes"]],
            "relations": [{**{k: r.get(k) for k in UML_RELATION},
                           "directed": r.get("directed", True)} for r in d["relations"]]}


def _stereotype(value) -> str | None:
    s = str(value or "").lower()
    return s if s in ("interface", "abstract", "enum") else None
