"""ER schemas as Mermaid ``erDiagram`` text, by the crow's-foot view of :mod:`.ie`.

Rows are ``type name [PK,FK] ["note"]`` with type ``string`` when the schema gives none.
Names Mermaid cannot take bare (spaces, punctuation) become ids ``e<k>`` with the name as
the alias label (``e1["Work Group"]``); an attribute name keeps its word characters, and
the name as drawn then opens its note.
"""

from __future__ import annotations

import re

from ..model import ERSchema
from .ie import ie_view

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _quoted(text: str) -> str:
    return '"' + " ".join(text.replace('"', "'").split()) + '"'


def _word(text: str, fallback: str) -> str:
    w = re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_")
    if not w:
        return fallback
    return w if re.match(r"[A-Za-z_]", w) else "_" + w


def to_mermaid_er(schema: ERSchema) -> str:
    """``erDiagram`` text for ``schema``."""
    view = ie_view(schema)
    ids: dict[str, str] = {}
    labels: dict[str, str] = {}
    for k, e in enumerate(view.entities, 1):
        if _WORD.fullmatch(e.name) and e.name not in ids.values():
            ids[e.key] = e.name
        else:
            j = k
            while f"e{j}" in ids.values() or f"e{j}" in (x.name for x in view.entities):
                j += 1
            ids[e.key] = f"e{j}"
            labels[e.key] = e.name
    lines = ["erDiagram"]
    for e in view.entities:
        alias = f"[{_quoted(labels[e.key])}]" if e.key in labels else ""
        lines.append(f"    {ids[e.key]}{alias} {{")
        for j, a in enumerate(e.attributes, 1):
            name = _word(a.name, f"attr{j}")
            keys = ",".join(k for k, on in (("PK", a.primary), ("FK", a.foreign)) if on)
            notes = ([a.name] if name != a.name else []) + a.notes
            lines.append(f"        {_word(a.type, 'string')} {name}" + (f" {keys}" if keys else "")
                         + (f" {_quoted('; '.join(notes))}" if notes else ""))
        lines.append("    }")
    for link in view.links:
        label = link.label if _WORD.fullmatch(link.label) else _quoted(link.label)
        lines.append(f"    {ids[link.left]} {link.ends} {ids[link.right]} : {label}")
    return "\n".join(lines) + "\n"
