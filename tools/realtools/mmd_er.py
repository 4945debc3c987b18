"""Ground truth of a Mermaid ``erDiagram``, read from its text.

Mermaid draws every entity the text declares or relates, so what it draws follows from the
text alone.  This reader applies the drawing facts of mermaid-cli 11:

* ``NAME { ... }`` is a table whose rows draw, left to right, the type, the attribute
  name, its keys (``PK``, ``FK``, ``UK``, comma-separated) and a quoted comment; ``NAME``
  alone, or a name used only in a relationship, is a table with no rows.
* ``A <l><line><r> B : label`` draws one line from ``A`` to ``B`` with the crow's-foot
  glyphs ``<l>`` (``||``, ``|o``, ``}o``, ``}|``) at ``A`` and ``<r>`` (``||``, ``o|``,
  ``o{``, ``|{``) at ``B``; ``--`` solid, ``..`` dashed; the label (a quoted string or one
  word) is drawn on the line, an empty one is not drawn.
* ``%%`` comments and front matter (its title is drawn above the chart, not as a table)
  draw no entity.

The ground truth is the FORMATS.md ER document: bare attribute names, ``PK`` rows as
primary keys, the type text in ``types``, each end's glyph as ERUnderstand's ``1`` / ``N``
(the glyphs themselves in ``notation``).  A row's ``FK`` mark does not say which table it
references, so ``foreign_keys`` is left out.  A text using anything else is refused with
:class:`Unsupported`: entity aliases (``a["Shown"]``), the word forms of cardinalities,
``direction``, styling (``style``, ``classDef``, ``class``, ``:::``), accessibility
titles, generic types and markup in names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FRONT_MATTER = re.compile(r"\A\s*---[ \t]*\n.*?\n---[ \t]*\n", re.S)
_NAME = r'[A-Za-z_][\w-]*|"[^"<>]+"'
RELATION = re.compile(
    rf"^(?P<a>{_NAME})\s+(?P<l>\|\||\|o|\}}o|\}}\|)(?P<line>--|\.\.)(?P<r>\|\||o\||o\{{|\|\{{)"
    rf'\s+(?P<b>{_NAME})\s*:\s*(?P<label>"[^"]*"|[^\s"]+)\s*$')
ENTITY = re.compile(rf"^(?P<n>{_NAME})\s*(?P<open>\{{)?\s*$")
ATTRIBUTE = re.compile(
    r'^(?P<type>[A-Za-z_][\w\-\[\]()]*)\s+(?P<name>[A-Za-z_][\w\-\[\]()]*)'
    r'(?:\s+(?P<keys>(?:PK|FK|UK)(?:\s*,\s*(?:PK|FK|UK))*))?(?:\s+"(?P<comment>[^"]*)")?\s*$')
REFUSED = re.compile(r"^(direction\b|style\b|classDef\b|class\b|accTitle\b|accDescr\b)")


class Unsupported(ValueError):
    """The text uses a construct whose drawing this reader does not model."""


@dataclass
class _Table:
    attributes: list[str] = field(default_factory=list)
    primary_keys: list[str] = field(default_factory=list)
    types: dict[str, str] = field(default_factory=dict)


def crow_card(marker: str) -> str:
    """A crow's-foot end as ERUnderstand's cardinality: a foot (``{``/``}``) is ``N``."""
    return "N" if "{" in marker or "}" in marker else "1"


def _unquote(name: str) -> str:
    return name[1:-1] if name.startswith('"') else name


def _lines(text: str) -> list[str]:
    body = FRONT_MATTER.sub("", text)
    out = []
    for raw in body.splitlines():
        line = raw.split("%%", 1)[0].strip()
        if line:
            out.append(line)
    if not out or out[0] != "erDiagram":
        raise Unsupported("not an erDiagram")
    return out[1:]


def read(text: str) -> dict:
    """The entities and relationships mermaid-cli draws for an ``erDiagram`` (the
    ``entities`` / ``relationships`` of the ER document); raises :class:`Unsupported` for a
    text outside the constructs this reader knows."""
    tables: dict[str, _Table] = {}
    rels: list[dict] = []
    body: _Table | None = None
    for line in _lines(text):
        if body is not None:
            if line == "}":
                body = None
                continue
            m = ATTRIBUTE.match(line)
            if not m or "~" in line:
                raise Unsupported(f"unread attribute {line[:60]!r}")
            name = m.group("name")
            body.attributes.append(name)
            body.types[name] = m.group("type")
            if "PK" in (m.group("keys") or ""):
                body.primary_keys.append(name)
            continue
        if REFUSED.match(line) or ":::" in line:
            raise Unsupported(f"statement {line[:60]!r}")
        if m := RELATION.match(line):
            a, b = _unquote(m.group("a")), _unquote(m.group("b"))
            tables.setdefault(a, _Table())
            tables.setdefault(b, _Table())
            left, right = m.group("l"), m.group("r")
            rels.append({"name": _unquote(m.group("label")).strip(), "entities": [a, b],
                         "cardinalities": [crow_card(left), crow_card(right)], "weak": False,
                         "attributes": [], "notation": [left, right],
                         "style": "solid" if m.group("line") == "--" else "dashed"})
            continue
        if m := ENTITY.match(line):
            table = tables.setdefault(_unquote(m.group("n")), _Table())
            if m.group("open"):
                body = table
            continue
        raise Unsupported(f"unread statement {line[:60]!r}")
    if body is not None:
        raise Unsupported("unclosed entity block")
    if len(tables) < 2 or not rels:
        raise Unsupported("fewer than two entities or no relationship")
    entities = {name: {"attributes": t.attributes, "primary_keys": t.primary_keys,
                       "multivalued": [], "derived": [], "composite": {}, "weak": False,
                       "types": t.types} for name, t in tables.items()}
    return {"entities": entities, "relationships": rels}


def document(text: str, width: int, height: int) -> dict:
    """The FORMATS.md ER document of an ``erDiagram`` as mermaid-cli draws it."""
    return {"kind": "er", "width": width, "height": height, **read(text)}
