"""Ground truth of a PlantUML activity diagram (the new ``:action;`` syntax), read from its text.

PlantUML lays an activity diagram out as structured flow, so what it draws follows from the
text alone.  This reader applies the drawing facts of PlantUML 1.2020.02 and 1.2026.8 (the
same in both):

* ``start`` is a filled disc, ``stop`` a ringed disc, ``end`` a crossed disc: unlabelled
  ``circle`` nodes.  After ``stop`` / ``end`` nothing is linked to the next statement.
* ``:text;`` is a rounded box (``round_rect``).
* ``if (c) then (t)`` draws ``c`` in a pointed box (``hexagon``; an empty test is a small
  ``diamond``); ``else (e)`` labels its other exit.  ``endif`` draws an empty ``diamond``
  where two or more branches still run on (an ``if`` without ``else`` runs on along its
  ``no`` side); one branch running on is linked straight to what follows, none leaves
  nothing to link.
* ``while (c) is (y)`` draws ``c`` as a hexagon, the body's end loops back to it and
  ``endwhile (n)`` labels its exit.  ``repeat`` draws an empty diamond (``repeat :a;``
  starts the loop at the box ``a`` instead), ``repeat while (c) is (y) not (n)`` a hexagon
  looping back to that start (``y``) and leaving with ``n``.
* ``-> text;`` labels the next link; ``-[#c,dashed]->`` (dotted, bold) styles it.

Markup in texts (``\\n``, ``**bold**``, ``//italic//``, ``""mono""``, ``__under__``,
``<b>``-like tags) is reduced to the words drawn.  A diagram using anything else is refused
with :class:`Unsupported` naming the statement, so only diagrams whose drawing this reader
knows are scored: swimlanes, notes, fork / split, partitions, switch, ``elseif`` (whose
merge the two releases draw differently), ``#colour:`` before an action (deprecated: the
current release misreads what follows), detach, the other box outlines, sprites, includes
and the legacy ``(*)`` syntax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


class Unsupported(ValueError):
    """The text uses a construct whose drawing this reader does not model."""


IGNORED = re.compile(r"^(skinparam\b|!theme\b|scale\b|title\b|caption\b|header\b|footer\b"
                     r"|hide\b|left to right direction$|top to bottom direction$|allowmixing$"
                     r"|!pragma\b|@startuml\b|@enduml\b)", re.I)
"""Lines that change the look (or add page decoration), never the flow."""
REFUSED = re.compile(r"^(\|.*\||fork\b|end ?fork\b|split\b|end ?split\b|partition\b|group\b"
                     r"|switch\b|case\b|endswitch\b|detach\b|kill\b|break\b|backward\b|note\b"
                     r"|floating note\b|end ?note\b|!include|!define|!procedure|legend\b"
                     r"|\(\*|\"|class\b|package\b|rectangle\b|usecase\b|actor\b|state\b"
                     r"|participant\b|component\b|\[\*\]|label\b|goto\b|connector\b|\(.\)$)",
                     re.I)
ARROW = re.compile(r"^-+(?:\[(?P<style>[^\]]*)\]-+)?>\s*(?P<label>[^;]*);?$")
MARKUP = [(re.compile(r"\\n"), " "), (re.compile(r"<[^>]{1,40}>"), ""),
          (re.compile(r"\*\*|//|\"\"|__|~~|--"), "")]


@dataclass
class Flow:
    """Nodes (id, label, shape) and edges (source, target, label, style) in drawing order."""

    nodes: list[dict] = field(default_factory=list)
    edges: list[dict] = field(default_factory=list)


def clean(text: str) -> str:
    """The words PlantUML draws for a label (line breaks as spaces, markup removed)."""
    for pattern, repl in MARKUP:
        text = pattern.sub(repl, text)
    if "<&" in text or "<$" in text:
        raise Unsupported(f"icon in label {text!r}")
    return " ".join(text.split())


def _statements(text: str) -> list[str]:
    """One statement per item: comments dropped, multi-line ``:...;`` actions joined."""
    text = re.sub(r"/'.*?'/", "", text, flags=re.S)
    out: list[str] = []
    pending: list[str] | None = None
    block = 0
    for raw in text.splitlines():
        line = raw.strip()
        if pending is not None:
            pending.append(line)
            if line.endswith(";"):
                out.append("\n".join(pending))
                pending = None
            continue
        if not line or line.startswith("'"):
            continue
        if block:
            block += line.count("{") - line.count("}")
            continue
        if line.lower().startswith("skinparam") and line.endswith("{"):
            block = 1
            continue
        if line.startswith(":") and not line.endswith(";"):
            if re.search(r"[|<>\]}]$", line):
                raise Unsupported(f"box outline of {line!r}")
            pending = [line]
            continue
        out.append(line)
    if pending is not None:
        raise Unsupported("unterminated action")
    return out


class _Reader:
    def __init__(self) -> None:
        self.flow = Flow()
        self.ends: list[tuple[str, str, str]] = []  # (node id, label, style) still open
        self.stack: list[dict] = []
        self.started = False

    def node(self, label: str, shape: str) -> str:
        nid = f"n{len(self.flow.nodes)}"
        self.flow.nodes.append({"id": nid, "label": label, "shape": shape})
        return nid

    def link(self, source: str, target: str, label: str = "", style: str = "solid") -> None:
        self.flow.edges.append({"source": source, "target": target, "directed": True,
                                "style": style, "label": label, "type": ""})

    def emit(self, label: str, shape: str) -> str:
        nid = self.node(label, shape)
        for src, lab, style in self.ends:
            self.link(src, nid, lab, style)
        self.ends = [(nid, "", "solid")]
        self.started = True
        return nid

    def test(self, condition: str) -> str:
        """A test: its text in a hexagon, or an empty diamond when it has none."""
        label = clean(condition)
        return self.emit(label, "hexagon" if label else "diamond")

    def merge(self, ends: list[tuple[str, str, str]]) -> None:
        """Where branches meet: a diamond if two or more still run on."""
        if len(ends) >= 2:
            self.ends = ends
            self.emit("", "diamond")
        else:
            self.ends = ends

    def statement(self, st: str) -> None:
        low = st.lower()
        if IGNORED.match(st):
            return
        if REFUSED.match(st):
            raise Unsupported(f"statement {st.splitlines()[0][:60]!r}")
        if st.startswith("#"):
            raise Unsupported("colour before an action (deprecated, drawn differently)")
        if st.startswith(":") and st.endswith(";"):
            self.emit(clean(st[1:-1]), "round_rect")
            return
        if low == "start":
            self.ends = []
            self.emit("", "circle")
            return
        if low in ("stop", "end"):
            self.emit("", "circle")
            self.ends = []
            return
        m = ARROW.match(st)
        if m:
            style = (m["style"] or "").lower()
            style = next((s for s in ("dashed", "dotted", "bold") if s in style), "solid")
            if "hidden" in (m["style"] or "").lower():
                raise Unsupported("hidden arrow")
            self.ends = [(s, clean(m["label"]), style) for s, _, _ in self.ends]
            return
        m = re.match(r"^if\s*\((?P<c>.*?)\)\s*(?:then\s*(?:\((?P<t>.*)\))?)?$", st, re.I)
        if m:
            d = self.test(m["c"])
            self.stack.append({"kind": "if", "test": d, "ends": [], "else": False})
            self.ends = [(d, clean(m["t"] or ""), "solid")]
            return
        if re.match(r"^else\s*if\b", low):
            raise Unsupported("elseif (the releases draw its merge differently)")
        m = re.match(r"^else\s*(?:\((?P<e>.*)\))?$", st, re.I)
        if m:
            frame = self._frame("if", st)
            frame["ends"] += self.ends
            frame["else"] = True
            self.ends = [(frame["test"], clean(m["e"] or ""), "solid")]
            return
        if re.match(r"^end\s*if$", low):
            frame = self._frame("if", st)
            self.stack.pop()
            ends = frame["ends"] + self.ends
            if not frame["else"]:
                ends.append((frame["test"], "", "solid"))
            self.merge(ends)
            return
        m = re.match(r"^while\s*\((?P<c>.*?)\)\s*(?:is\s*\((?P<y>.*)\))?$", st, re.I)
        if m:
            d = self.test(m["c"])
            self.stack.append({"kind": "while", "test": d})
            self.ends = [(d, clean(m["y"] or ""), "solid")]
            return
        m = re.match(r"^end\s*while\s*(?:\((?P<n>.*)\))?$", st, re.I)
        if m:
            frame = self._frame("while", st)
            self.stack.pop()
            for src, lab, style in self.ends:
                self.link(src, frame["test"], lab, style)
            self.ends = [(frame["test"], clean(m["n"] or ""), "solid")]
            return
        m = re.match(r"^repeat\s*(?P<a>:.*;)?$", st, re.I | re.S)
        if m and not low.startswith("repeat while") and not low.startswith("repeatwhile"):
            a = m["a"]
            top = self.emit(clean(a[1:-1]), "round_rect") if a else self.emit("", "diamond")
            self.stack.append({"kind": "repeat", "top": top})
            return
        m = re.match(r"^repeat\s*while\s*\((?P<c>.*?)\)\s*(?:is\s*\((?P<y>.*?)\))?\s*"
                     r"(?:not\s*\((?P<n>.*?)\))?$", st, re.I)
        if m:
            frame = self._frame("repeat", st)
            self.stack.pop()
            d = self.test(m["c"])
            self.link(d, frame["top"], clean(m["y"] or ""))
            self.ends = [(d, clean(m["n"] or ""), "solid")]
            return
        raise Unsupported(f"statement {st.splitlines()[0][:60]!r}")

    def _frame(self, kind: str, st: str) -> dict:
        if not self.stack or self.stack[-1]["kind"] != kind:
            raise Unsupported(f"{st!r} outside its block")
        return self.stack[-1]


def read(text: str) -> Flow:
    """The nodes and edges PlantUML draws for an activity diagram; raises
    :class:`Unsupported` for a text outside the constructs this reader knows."""
    if "@startuml" not in text.lower():
        raise Unsupported("no @startuml")
    body = text[text.lower().index("@startuml"):]
    if "@enduml" in body.lower():
        body = body[:body.lower().index("@enduml")]
    reader = _Reader()
    for st in _statements(body):
        reader.statement(st)
    if reader.stack:
        raise Unsupported(f"unclosed {reader.stack[-1]['kind']}")
    if not reader.flow.nodes:
        raise Unsupported("no activity nodes")
    return reader.flow


def document(text: str, width: int, height: int) -> dict:
    """The FORMATS.md flowchart document of an activity diagram as PlantUML draws it."""
    flow = read(text)
    return {"kind": "flowchart", "width": width, "height": height, "nodes": flow.nodes,
            "edges": flow.edges}
