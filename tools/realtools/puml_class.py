"""Ground truth of a PlantUML class diagram, read from its text.

PlantUML draws every class the text declares or links, so the classes and relations of a
drawing follow from the text alone.  This reader applies the drawing facts of PlantUML
1.2020.02 and 1.2026.8 (the same in both for what it accepts):

* ``class``, ``abstract class`` (or ``abstract``), ``interface`` and ``enum`` declare a
  box; ``class "Shown name" as Alias`` draws ``Shown name`` and links use ``Alias``; a
  name used only in a link is drawn as a plain class.  ``<<text>>`` is drawn above the
  name; a colour after the name changes only the fill.
* A body ``{ ... }`` or ``Name : member`` lines add members: a line with ``(`` is a method
  (``{field}`` / ``{method}`` override), separator lines (``--``, ``..``, ``==``, ``__``)
  are not members.  A leading ``+ - # ~`` is drawn as a visibility icon, not as text,
  unless ``skinparam classAttributeIconSize 0`` is set; ``{static}`` / ``{abstract}`` are
  drawn as underline / italics.  ``hide members`` (``attributes``, ``fields``,
  ``methods``), for every class or one (``hide Name fields``), removes that text.
* Links ``A ARROW B`` with optional ``"multiplicity"`` strings and ``: label`` are typed by
  the FORMATS.md table (:func:`cvparse.metrics.uml.puml_relation`); direction words
  (``-up->``) change the layout only.
* Notes, titles, skin parameters, ``hide`` of circles or empty compartments, layout
  direction and ``package`` frames (their classes keep their own names) draw no class.

A text using anything else is refused with :class:`Unsupported` naming the statement, so
only diagrams whose drawing this reader knows are scored: the preprocessor (``!include``,
``!define``), namespaces and dotted names, generic class names, ``extends`` /
``implements`` clauses, other declarations (``object``, ``entity``, ``struct``,
``exception``, ``annotation``, ...), bracketed arrow styles and hidden links, two-headed or
headless dashed links, association classes, lollipops, ``together`` and ``remove``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cvparse.metrics.uml import puml_relation


class Unsupported(ValueError):
    """The text uses a construct whose drawing this reader does not model."""


_NAME = r'"[^"]+"|[A-Za-z_$][\w$]*'
DECLARE = re.compile(
    rf'^(?P<kw>abstract\s+class|abstract|class|interface|enum)\s+(?P<a>{_NAME})'
    rf'(?:\s+as\s+(?P<b>{_NAME}))?(?P<rest>.*)$', re.I)
LINK = re.compile(
    rf'^(?P<a>{_NAME})(?:\s+|(?=[^o]))(?:"(?P<ma>[^"]*)"\s*)?'
    rf'(?P<arrow>[-.<>|*o]+(?:(?:up|down|left|right|u|d|l|r)[-.]+[>|*o]*)?)'
    rf'(?:(?<=[^o])\s*|\s+)(?:"(?P<mb>[^"]*)"\s*)?(?P<b>{_NAME})\s*(?::(?P<label>.*))?$')
"""``A ARROW B``: an arrow starting or ending in ``o`` (aggregation) needs a space beside
it, so that ``A -- other`` is not read as ``A --o ther``."""
MEMBER_LINE = re.compile(rf"^(?P<a>{_NAME})\s*:\s*(?P<m>.+)$")
IGNORED = re.compile(r"^(skinparam\b|!theme\b|scale\b|title\b|caption\b|header\b|footer\b"
                     r"|left to right direction$|top to bottom direction$|!pragma\b"
                     r"|hide\s+(empty\s+\w+|circle|stereotypes?|empty)$|show\s+stereotypes?$"
                     r"|set\s+namespaceSeparator\s+none$)", re.I)
"""Lines that change the look (or add page decoration), never the classes."""
REFUSED = re.compile(r"^(!|namespace\b|object\b|entity\b|struct\b|protocol\b|exception\b"
                     r"|metaclass\b|annotation\b|circle\b|stereotype\b|together\b|remove\b"
                     r"|restore\b|show\b|newpage\b|usecase\b|actor\b|component\b|node\b"
                     r"|state\b|participant\b|\(|\[|json\b|map\b|diamond\b|<>)")
"""Statements this reader does not model (PlantUML's keywords are lower case; a class
named ``Actor`` is not the ``actor`` keyword)."""
HIDE = re.compile(rf"^hide\s+(?:(?P<who>{_NAME})\s+)?(?P<what>members|attributes|fields|methods)$",
                  re.I)
"""``hide [Class] members``: that compartment's text is not drawn (for every class, or one)."""
SEPARATOR = re.compile(r"^(--|\.\.|==|__)")
MODIFIERS = re.compile(r"\{(static|classifier|abstract|field|method)\}\s*", re.I)


@dataclass
class _Box:
    name: str
    kind: str = "class"
    stereotype: str = ""
    attributes: list[str] = field(default_factory=list)
    methods: list[str] = field(default_factory=list)


@dataclass
class Diagram:
    """Classes (name, attributes, methods, stereotype) and typed relations, as drawn."""

    classes: list[dict] = field(default_factory=list)
    relations: list[dict] = field(default_factory=list)


def _unquote(name: str) -> str:
    return name[1:-1] if name.startswith('"') else name


def _statements(text: str) -> list[str]:
    """The lines between ``@startuml`` and ``@enduml``, comments and notes dropped."""
    low = text.lower()
    if low.count("@startuml") != 1:
        raise Unsupported("not exactly one @startuml")
    body = text[low.index("@startuml"):].split("\n", 1)[1] if "\n" in text else ""
    if "@enduml" in body.lower():
        body = body[:body.lower().index("@enduml")]
    body = re.sub(r"/'.*?'/", "", body, flags=re.S)
    out: list[str] = []
    closing: re.Pattern | None = None
    for raw in body.splitlines():
        line = raw.strip()
        if closing is not None:
            if closing.match(line):
                closing = None
            continue
        if not line or line.startswith("'"):
            continue
        low = line.lower()
        if low.startswith("note") and ":" not in line and not re.match(r'^note\s+"', low):
            out.append(line)  # the reader keeps a floating note's alias
            closing = re.compile(r"^end\s*note$", re.I)
            continue
        if low in ("legend", "title") or re.match(r"^legend\s+(left|right|top|bottom|center)",
                                                    low):
            closing = re.compile(r"^end\s*(legend|title)$", re.I)
            continue
        if low.startswith("skinparam") and line.endswith("{"):
            closing = re.compile(r"^}$")
            continue
        out.append(line)
    if closing is not None:
        raise Unsupported("unterminated block")
    return out


class _Reader:
    """Reads statements one at a time into boxes (by link name) and relations."""

    def __init__(self, icons: bool) -> None:
        self.icons = icons
        self.boxes: dict[str, _Box] = {}
        self.relations: list[dict] = []
        self.notes: set[str] = set()
        self.body: _Box | None = None
        self.packages = 0
        self.hidden: set[tuple[str | None, str]] = set()
        """``hide`` statements: (class link name, or None for every class; compartment)."""

    def box(self, key: str) -> _Box:
        if "." in key or "::" in key:
            raise Unsupported(f"qualified name {key!r}")
        return self.boxes.setdefault(key, _Box(key))

    def member(self, box: _Box, text: str) -> None:
        text = text.strip()
        if not text or SEPARATOR.match(text):
            return
        forced = {f.lower() for f in MODIFIERS.findall(text)}
        text = MODIFIERS.sub("", text).strip()
        if self.icons and text[:1] in "+-#~" and len(text) > 1:
            text = text[1:].strip()
        if "<&" in text or "<$" in text or "<img" in text:
            raise Unsupported(f"icon in member {text!r}")
        is_method = ("(" in text or "method" in forced) and "field" not in forced
        (box.methods if is_method and box.kind != "enum" else box.attributes).append(
            " ".join(text.split()))

    def statement(self, line: str) -> None:
        if self.body is not None:
            if line == "}":
                self.body = None
            elif line.endswith("}") and not line.startswith("{"):
                self.member(self.body, line[:-1])
                self.body = None
            else:
                self.member(self.body, line)
            return
        if line == "}" and self.packages:
            self.packages -= 1
            return
        if IGNORED.match(line):
            return
        if m := HIDE.match(line):
            who = m.group("who")
            self.hidden.add((_unquote(who) if who else None, m.group("what").lower()))
            return
        if m := LINK.match(line):
            self.link(m)
            return
        if REFUSED.match(line):
            raise Unsupported(f"statement {line[:60]!r}")
        if re.match(r"^(package|folder|frame|rectangle|cloud|database)\b", line, re.I):
            if not line.endswith("{"):
                raise Unsupported(f"package without a body {line[:60]!r}")
            self.packages += 1
            return
        if line.lower().startswith("note"):
            if m := re.match(rf"^note\s+(?:\"[^\"]*\"\s+)?as\s+(?P<n>{_NAME})", line, re.I):
                self.notes.add(_unquote(m.group("n")))
            return
        if m := DECLARE.match(line):
            self.declare(m)
            return
        if m := MEMBER_LINE.match(line):
            self.member(self.box(_unquote(m.group("a"))), m.group("m"))
            return
        raise Unsupported(f"unread statement {line[:60]!r}")

    def declare(self, m: re.Match) -> None:
        a, b = m.group("a"), m.group("b")
        shown, key = (b, a) if b and b.startswith('"') else (a, b or a)
        rest = m.group("rest").strip()
        if rest.startswith("<") and not rest.startswith("<<"):
            raise Unsupported(f"generic class {a}{rest[:20]}")
        if re.search(r"\b(extends|implements)\b", rest):
            raise Unsupported(f"clause in {rest[:40]!r}")
        box = self.box(_unquote(key))
        box.name = _unquote(shown)
        kw = m.group("kw").lower().split()[0]
        box.kind = {"abstract": "abstract", "interface": "interface", "enum": "enum"}.get(
            kw, "class")
        if st := re.search(r"<<\s*([^>]+?)\s*>>", rest):
            box.stereotype = st.group(1)
        rest = re.sub(r"<<[^>]*>>", "", rest).strip()
        rest = re.sub(r"^#\S+", "", rest).strip()
        if rest.startswith("{"):
            inner = rest[1:]
            if inner.rstrip().endswith("}"):
                for piece in inner.rstrip()[:-1].split(";"):
                    self.member(box, piece)
            else:
                if inner.strip():
                    self.member(box, inner)
                self.body = box
        elif rest:
            raise Unsupported(f"declaration tail {rest[:40]!r}")

    def link(self, m: re.Match) -> None:
        arrow = m.group("arrow")
        a, b = _unquote(m.group("a")), _unquote(m.group("b"))
        if a in self.notes or b in self.notes:
            return
        core = re.sub(r"(up|down|left|right|u|d|l|r)", "", arrow)
        heads = [h for h in ("<|", "|>", "*", "o", "<", ">") if h in core]
        if "." in core and not heads:
            raise Unsupported(f"headless dashed link {arrow!r}")
        rel = puml_relation(a, arrow, b)
        if rel is None:
            raise Unsupported(f"arrow {arrow!r}")
        self.box(a)
        self.box(b)
        out = {"type": rel.type, "source": rel.source, "target": rel.target}
        if not rel.directed:
            out["directed"] = False
        label = (m.group("label") or "").strip().strip("<>").strip()
        if label:
            out["label"] = " ".join(label.split())
        self.relations.append(out)


def read(text: str) -> Diagram:
    """The classes and relations PlantUML draws for a class diagram; raises
    :class:`Unsupported` for a text outside the constructs this reader knows."""
    icons = not re.search(r"(?im)^\s*skinparam\s+classAttributeIconSize\s+0\s*$", text)
    reader = _Reader(icons)
    for st in _statements(text):
        reader.statement(st)
    if reader.body is not None or reader.packages:
        raise Unsupported("unclosed body")
    if len(reader.boxes) < 2 or not reader.relations:
        raise Unsupported("fewer than two classes or no relation")
    names = {k: box.name for k, box in reader.boxes.items()}

    def gone(key: str, what: set[str]) -> bool:
        return any(who in (None, key) and w in what for who, w in reader.hidden)

    classes = [{"name": box.name,
                "attributes": [] if gone(key, {"members", "attributes", "fields"})
                else box.attributes,
                "methods": [] if gone(key, {"members", "methods"}) else box.methods,
                "stereotype": box.stereotype or box.kind} for key, box in reader.boxes.items()]
    rels = [r | {"source": names[r["source"]], "target": names[r["target"]]}
            for r in reader.relations]
    return Diagram(classes, rels)


def document(text: str, width: int, height: int) -> dict:
    """The FORMATS.md UML document of a class diagram as PlantUML draws it."""
    d = read(text)
    return {"kind": "uml", "width": width, "height": height, "classes": d.classes,
            "relations": d.relations}
