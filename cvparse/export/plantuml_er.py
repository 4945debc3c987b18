"""ER schemas as PlantUML IE entity diagrams, by the crow's-foot view of :mod:`.ie`.

Each entity is an ``entity "Name" as e<k>`` block: key attributes first, marked ``*`` and
``<<PK>>``, then a ``--`` rule and the other attributes; a type, when the schema gives
one, follows the name (``name : TYPE``); ``<<FK>>`` and the notes (multivalued, derived,
composite parts) are stereotypes after it.  Weak entities carry ``<<weak>>``.
"""

from __future__ import annotations

from ..model import ERSchema
from .ie import Attribute, ie_view


def _text(s: str) -> str:
    return " ".join(s.replace('"', "'").split())


def _row(a: Attribute) -> str:
    row = ("* " if a.primary else "") + (_text(a.name) or "_")
    if a.type:
        row += f" : {_text(a.type)}"
    marks = ["PK"] * a.primary + ["FK"] * a.foreign + a.notes
    return row + "".join(f" <<{_text(m)}>>" for m in marks)


def to_plantuml_er(schema: ERSchema) -> str:
    """PlantUML text (``@startuml`` ... ``@enduml``) drawing ``schema`` as IE entities."""
    view = ie_view(schema)
    ids = {e.key: f"e{k}" for k, e in enumerate(view.entities, 1)}
    lines = ["@startuml", "hide circle", "hide empty members"]
    for e in view.entities:
        keys = [a for a in e.attributes if a.primary]
        rest = [a for a in e.attributes if not a.primary]
        head = f'entity "{_text(e.name) or "_"}" as {ids[e.key]}' + (" <<weak>>" * e.weak)
        body = [_row(a) for a in keys] + (["--"] if keys and rest else []) + [_row(a) for a in rest]
        lines.extend([head + " {", *(f"  {r}" for r in body), "}"])
    lines.extend(f"{ids[k.left]} {k.ends} {ids[k.right]} : {_text(k.label)}"
                 for k in view.links)
    lines.append("@enduml")
    return "\n".join(lines) + "\n"
