"""UML models as Mermaid ``classDiagram`` text.

Relations are written by the FORMATS.md table, source first, so each arrow points where
the drawing's does: ``Dog --|> Animal`` (inheritance), ``Impl ..|> Iface`` (realization),
``Whole *-- Part`` (composition), ``Whole o-- Part`` (aggregation), ``Client ..> Supplier``
(dependency), ``A --> B`` (association; ``A -- B`` when undirected).  A class name Mermaid
cannot take as an id gets the id ``c<k>`` and the name as its label (``c1["Pet Owner"]``);
members are written one per line, ``{`` and ``}`` (Mermaid's block marks) as ``(`` ``)``.
Interfaces, abstract classes and enums get their ``<<stereotype>>`` line.
"""

from __future__ import annotations

import re

from ..model import UMLModel

_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ARROWS = {"inheritance": "--|>", "realization": "..|>", "composition": "*--",
           "aggregation": "o--", "dependency": "..>", "association": "-->"}
_STEREOTYPES = ("interface", "abstract", "enum")


def _member(text: str) -> str:
    return " ".join(text.replace("{", "(").replace("}", ")").split())


def _label(text: str) -> str:
    return " ".join(text.replace('"', "'").split())


def to_mermaid_uml(model: UMLModel) -> str:
    """``classDiagram`` text for ``model``: one block per class, one line per relation."""
    ids: dict[str, str] = {}
    labels: dict[str, str] = {}

    def ident(name: str) -> str:
        if name not in ids:
            if _ID.fullmatch(name) and name not in ids.values():
                ids[name] = name
            else:
                k = len(ids) + 1
                while f"c{k}" in ids.values():
                    k += 1
                ids[name] = f"c{k}"
                labels[ids[name]] = _label(name)
        return ids[name]

    lines = ["classDiagram"]
    for c in model.classes:
        cid = ident(c.name)
        head = cid + (f'["{labels[cid]}"]' if cid in labels else "")
        body = [_member(m) for m in [*c.attributes, *c.methods] if m.strip()]
        stereotype = str(c.extra.get("stereotype", "")).lower()
        if stereotype in _STEREOTYPES:
            body.insert(0, f"<<{stereotype}>>")
        lines.append(f"    class {head} {{")
        lines.extend(f"        {m}" for m in body)
        lines.append("    }")
    for r in model.relations:
        for end in (r.source, r.target):
            if end not in ids:
                cid = ident(end)
                lines.append(f"    class {cid}" + (f'["{labels[cid]}"]' if cid in labels else ""))
    for r in model.relations:
        arrow = _ARROWS[r.type]
        if r.type == "association" and r.extra.get("directed") is False:
            arrow = "--"
        label = _label(str(r.extra.get("label", "")))
        lines.append(f"    {ids[r.source]} {arrow} {ids[r.target]}"
                     + (f" : {label}" if label else ""))
    return "\n".join(lines) + "\n"
