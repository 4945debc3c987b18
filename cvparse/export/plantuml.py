"""UML models as PlantUML class diagrams (ER schemas go to IE entities, :mod:`.plantuml_er`).

Relations follow the FORMATS.md convention table, so ``cvparse.metrics.uml.load`` reads the
text back to the same typed, directed relations.  Names PlantUML cannot take bare (spaces,
punctuation, a leading digit) are quoted; a ``"`` inside a name becomes ``'`` because
PlantUML has no escape for it.  ``set namespaceSeparator none`` keeps dotted names whole.
"""

from __future__ import annotations

import re

from ..model import ERSchema, UMLClass, UMLModel, UMLRelation

_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_ARROWS = {
    "inheritance": "--|>", "realization": "..|>", "composition": "*--",
    "aggregation": "o--", "dependency": "..>", "association": "-->",
}
_KEYWORDS = {"interface": "interface", "abstract": "abstract class", "enum": "enum"}


def _name(name: str) -> str:
    name = " ".join(name.replace('"', "'").split()) or "_"
    return name if _BARE.fullmatch(name) else f'"{name}"'


def _member(text: str, method: bool) -> str:
    """One compartment line; ``{field}``/``{method}`` where PlantUML would guess wrong."""
    text = " ".join(text.split())
    if method != ("(" in text):
        return ("{method} " if method else "{field} ") + text
    return text


def _class_lines(c: UMLClass) -> list[str]:
    keyword = _KEYWORDS.get(str(c.extra.get("stereotype", "")).lower(), "class")
    head = f"{keyword} {_name(c.name)}"
    members = ([_member(a, False) for a in c.attributes if a.strip()]
               + [_member(m, True) for m in c.methods if m.strip()])
    if not members:
        return [head]
    return [head + " {"] + [f"  {m}" for m in members] + ["}"]


def _relation_line(r: UMLRelation) -> str:
    arrow = _ARROWS[r.type]
    if r.type == "association" and r.extra.get("directed") is False:
        arrow = "--"
    line = f"{_name(r.source)} {arrow} {_name(r.target)}"
    label = " ".join(str(r.extra.get("label", "")).split())
    return f"{line} : {label}" if label else line


def to_plantuml(model: UMLModel | ERSchema) -> str:
    """PlantUML text (``@startuml`` ... ``@enduml``): for UML class blocks, then one line per
    relation; for an ER schema its IE entity diagram."""
    if isinstance(model, ERSchema):
        from .plantuml_er import to_plantuml_er
        return to_plantuml_er(model)
    lines = ["@startuml", "set namespaceSeparator none"]
    for c in model.classes:
        lines.extend(_class_lines(c))
    lines.extend(_relation_line(r) for r in model.relations)
    lines.append("@enduml")
    return "\n".join(lines) + "\n"
