"""Tolerant Mermaid flowchart reader, for the FlowLearn scorer.

:func:`parse_mermaid` reads Mermaid ``flowchart``/``graph`` source into a :class:`MermaidChart`
and never raises: a statement it cannot read is skipped.  :func:`read_answer` first finds the
code inside raw model text (```mermaid fences, inline fences, a ``flowchart`` header inside
prose).  The writer is :func:`cvparse.export.mermaid.to_mermaid`; ``parse_mermaid`` reads
back its output exactly (tests/metrics/test_mermaid.py).

Tolerances beyond Mermaid's own grammar (all seen in VLM answers or the FlowLearn paper):
en/em dashes in arrows (``–>`` = ``-->``), ``->`` and ``→`` as arrows, ``<--`` as a reversed
arrow, ``--`` with no closing arrow as an undirected link, quoted strings as node ids
(``"a b" --> c``), spaces between an id and its shape, and several statements on one line
without separators (the paper prints its answers on one line).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from cvparse.model import Edge, Graph, Node
from cvparse.metrics._extract import MAX_TEXT_CHARS, fenced_blocks

DIRECTIONS = ("TB", "TD", "BT", "RL", "LR")
LINK_KINDS = ("arrow", "open", "both", "circle", "cross")


@dataclass(frozen=True)
class MermaidNode:
    """A node's text and shape; ``labelled`` is False when only its bare id was ever written."""

    text: str
    shape: str = "rect"
    labelled: bool = False


class MermaidLink(NamedTuple):
    """One link ``src -> dst`` as written (node ids).

    ``style`` is ``solid`` | ``bold`` | ``dotted``; ``kind`` is ``arrow`` (head at ``dst``),
    ``open`` (no head), ``both`` (heads at both ends), ``circle`` / ``cross`` (``--o``/``--x``).
    """

    src: str
    dst: str
    style: str = "solid"
    label: str = ""
    kind: str = "arrow"


@dataclass
class MermaidChart:
    """A parsed flowchart: direction, nodes by id (in first-mention order) and links."""

    direction: str = "TB"
    nodes: dict[str, MermaidNode] = field(default_factory=dict)
    links: list[MermaidLink] = field(default_factory=list)
    header: bool = False

    def text_of(self, node_id: str) -> str:
        """The text a link end refers to: the node's text, or the id itself if unknown."""
        node = self.nodes.get(node_id)
        return node.text if node is not None else node_id

    def to_graph(self, kind: str = "flowchart") -> Graph:
        """Convert to a FORMATS.md :class:`Graph` (``dotted`` links keep style ``dotted``)."""
        nodes = [Node(id=i, label=n.text, shape=n.shape) for i, n in self.nodes.items()]
        edges = []
        for ln in self.links:
            extra = {"mermaid_link": ln.kind} if ln.kind not in ("arrow", "open") else {}
            edges.append(Edge(source=ln.src, target=ln.dst,
                              directed=ln.kind in ("arrow", "circle", "cross"),
                              style=ln.style, label=ln.label, extra=extra))
        return Graph(kind=kind, nodes=nodes, edges=edges, extra={"direction": self.direction})

    @classmethod
    def from_graph(cls, graph: Graph) -> MermaidChart:
        """Read a :class:`Graph` as a chart (every node counts as labelled, even if empty)."""
        nodes = {n.id: MermaidNode(n.label, n.shape, True) for n in graph.nodes}
        links = [MermaidLink(e.source, e.target, _mermaid_style(e.style), e.label,
                             _edge_kind(e)) for e in graph.edges]
        direction = str(graph.extra.get("direction", "TB")).upper()
        return cls(direction=direction if direction in DIRECTIONS else "TB",
                   nodes=nodes, links=links, header=True)


# --- finding the code in raw text ------------------------------------------------------

_HEADER = re.compile(r"(?<![\w-])(?:flowchart|graph)(?:-elk)?(?:[ \t]+(?:TB|TD|BT|RL|LR)\b"
                     r"|[ \t]*(?=[\n;]|\Z))", re.I)
_FENCE_HEAD = re.compile(r"```[ \t]*mermaid[ \t]+([^`\n]*\S)[ \t]*\n")
_FRONTMATTER = re.compile(r"\A\s*---[ \t]*\n.*?\n---[ \t]*(?:\n|\Z)", re.S)
_ONE_LINE_FENCE = re.compile(r"```[ \t]*(?:mermaid\b)?([^`\n]*?)(?:```|\Z)", re.I)
_PDF_FENCE = re.compile(r"[“”][‘’]")  # ``` as rendered in the FlowLearn paper's PDF text


def extract_mermaid(text: str) -> tuple[str, bool] | None:
    """Find Mermaid code in raw model text; return ``(code, strict)`` or None if there is none.

    Order: a fence opened and closed on one line (how the paper prints answers), the first
    ```mermaid block, the first other fenced block holding a header or an arrow, then a
    ``flowchart``/``graph`` header or an arrow in prose.  ``strict`` is True when prose may
    surround the code, so the parser keeps only unmistakable statements.
    """
    text = _FRONTMATTER.sub("", _PDF_FENCE.sub("```", text))
    for m in _ONE_LINE_FENCE.finditer(text):
        if _HEADER.search(m.group(1)) or _ARROWISH.search(m.group(1)):
            return m.group(1), False
    blocks = fenced_blocks(text)
    for lang, body in blocks:
        if lang == "mermaid":
            if not _HEADER.search(body):  # fenced_blocks drops the rest of the opening line
                head = _FENCE_HEAD.search(text)
                if head and _HEADER.match(head.group(1)):
                    body = head.group(1) + "\n" + body
            return body, False
    for _, body in blocks:
        if _HEADER.search(body) or _ARROWISH.search(body):
            return body, False
    header = _HEADER.search(text)
    if header:
        return text[header.start():], text[:header.start()].strip() != ""
    if _ARROWISH.search(text):
        return text, True
    return None


_FENCE_MARK = re.compile(r"```")
_FENCE_LANG = re.compile(r"\A[ \t]*mermaid\b", re.I)


def closed_fences(text: str) -> list[str] | None:
    """The bodies of the text's ``` fences, paired in order (1st with 2nd, 3rd with 4th...),
    their ``mermaid`` tag dropped; None when the text has no fence at all.

    A fence left open (an answer cut off by the token limit) encloses nothing: its text is
    not returned.  The PDF rendering of a fence (``“‘``) counts as a fence.
    """
    text = _PDF_FENCE.sub("```", text)
    marks = [m.start() for m in _FENCE_MARK.finditer(text)]
    if not marks:
        return None
    return [_FENCE_LANG.sub("", text[a + 3:b]) for a, b in zip(marks[::2], marks[1::2])]


def read_answer(text: str) -> tuple[MermaidChart, bool]:
    """Parse raw model text; return the chart and whether any Mermaid content was found
    (text over ``MAX_TEXT_CHARS`` is not read: an empty chart, not found)."""
    if len(text) > MAX_TEXT_CHARS:
        return MermaidChart(), False
    found = extract_mermaid(text)
    if found is None:
        return MermaidChart(), False
    chart = parse_mermaid(found[0], strict=found[1])
    return chart, chart.header or bool(chart.nodes)


# --- parsing ---------------------------------------------------------------------------

_ID = re.compile(r"\w+(?:[-.]\w+)*")
_WS = re.compile(r"[ \t]*")
_SEP = re.compile(r"[\n;]")
_MORE_WORD = re.compile(r"[ \t]+(\w+(?:[-.']\w+)*)(?![\w(\[{>@:-])")
_ARROWISH = re.compile(r"-->|==>|-\.+->|[–—]>|---|→")
_DIRECTION = re.compile(r"[ \t]+(TB|TD|BT|RL|LR)\b", re.I)
_SKIP_LINE = {"subgraph", "classDef", "class", "style", "linkStyle", "click", "accTitle",
              "accDescr"}
_HEADERS = {"flowchart", "graph", "flowchart-elk"}

# (opener, [(closer, shape)]), longest openers first.
_SHAPES: list[tuple[str, list[tuple[str, str]]]] = [
    ("(((", [(")))", "circle")]),
    ("((", [("))", "circle")]),
    ("([", [("])", "stadium")]),
    ("[(", [(")]", "cylinder")]),
    ("[[", [("]]", "rect")]),
    ("{{", [("}}", "hexagon")]),
    ("[/", [("/]", "parallelogram"), ("\\]", "other")]),
    ("[\\", [("\\]", "parallelogram"), ("/]", "other")]),
    ("(", [(")", "round_rect")]),
    ("[", [("]", "rect")]),
    ("{", [("}", "diamond")]),
    (">", [("]", "other")]),
]
_OPEN_BR, _CLOSE_BR = "([{", ")]}"

# Link tokens.  Dashes may be en/em dashes, which count as two.
_D = "[-–—]"
_LINK_DOTTED = re.compile(rf"([<ox])?{_D}\.+{_D}([>ox])?")
_LINK_THICK = re.compile(r"([<ox])?(={2,})([>ox])?")
_LINK_SOLID = re.compile(rf"([<ox])?({_D}+)([>ox])?")
_LINK_ARROW = re.compile(r"→")
_LINK_INVISIBLE = re.compile(r"~{3,}")
_LABEL_START = {"solid": re.compile(r"([<ox])?(?:--(?![-–—xo>])|[–—](?=[ \t]))"),
                "bold": re.compile(r"([<ox])?==(?![=xo>])"),
                "dotted": re.compile(rf"([<ox])?{_D}\.(?!\.*{_D})")}
_LABEL_END = {"solid": re.compile(rf"(?:{_D}{{2,}}|[–—])([>ox])|-{{3,}}()"),
              "bold": re.compile(r"={2,}([>ox])|={3,}()"),
              "dotted": re.compile(rf"\.+{_D}([>ox])?")}
_ENTITY = re.compile(r"#(\d+|[A-Za-z]+);")
_BR = re.compile(r"<br\s*/?>", re.I)


def _skip_ws(s: str, i: int) -> int:
    """Where the spaces and tabs from ``i`` end (``_WS`` matches everywhere, maybe empty)."""
    m = _WS.match(s, i)
    return m.end() if m else i



class _Link(NamedTuple):
    style: str
    kind: str
    label: str
    reverse: bool
    skip: bool  # invisible link: parsed, then dropped


def _dash_count(s: str) -> int:
    return sum(2 if c in "–—" else 1 for c in s)


def _decode(text: str) -> str:
    """Mermaid entity codes (``#quot;``, ``#35;``) and ``<br>`` line breaks."""
    text = _BR.sub("\n", text)

    def sub(m: re.Match) -> str:
        code = m.group(1)
        out = html.unescape(f"&#{code};" if code.isdigit() else f"&{code};")
        return m.group(0) if out.startswith("&") else out

    return _ENTITY.sub(sub, text)


class _Parser:
    """Recursive-descent reader over one source string; see :func:`parse_mermaid`."""

    def __init__(self, src: str, strict: bool):
        self.s = src
        self.i = 0
        self.strict = strict
        # Multi-line code keeps one statement a line, so words a space apart there are one
        # bare name; code all on one line separates its statements by spaces.
        self.multiword = not strict and "\n" in src.strip()
        self.chart = MermaidChart()

    # low-level helpers
    def ws(self) -> None:
        self.i = _skip_ws(self.s, self.i)

    def skip_to_eol(self) -> None:
        j = self.s.find("\n", self.i)
        self.i = len(self.s) if j < 0 else j

    def skip_statement(self) -> None:
        m = _SEP.search(self.s, self.i)
        self.i = len(self.s) if m is None else m.start()

    # grammar
    def run(self) -> MermaidChart:
        line: list[tuple[list, list]] = []  # statements read on the current line
        line_bad = False
        while True:
            self.ws()
            if self.i >= len(self.s) or self.s[self.i] == "\n":
                self.commit(line, line_bad)
                line, line_bad = [], False
                if self.i >= len(self.s):
                    return self.chart
                self.i += 1
                continue
            c = self.s[self.i]
            if c in ";\r":
                self.i += 1
                continue
            if self.s.startswith("%%", self.i):
                self.skip_to_eol()
                continue
            if self.keyword():
                continue
            start = self.i
            stmt = self.statement()
            if stmt is None:
                self.i = max(self.i, start + 1)
                self.skip_statement()
                line_bad = True
            else:
                line.append(stmt)

    def commit(self, statements: list[tuple[list, list]], bad: bool) -> None:
        """Add a line's statements; in strict mode drop prose-like lines and bare words."""
        if self.strict and bad:
            return
        for refs, links in statements:
            if self.strict and not links and not any(labelled for _, _, labelled in refs):
                continue
            for node_id, node, _ in refs:
                if node_id not in self.chart.nodes or node.labelled:
                    self.chart.nodes[node_id] = node
            self.chart.links.extend(links)

    def keyword(self) -> bool:
        """Handle header, subgraph/end and ignored directive statements."""
        m = _ID.match(self.s, self.i)
        if not m:
            return False
        word = m.group(0)
        after = m.end()
        if word.lower() in _HEADERS:
            d = _DIRECTION.match(self.s, after)
            if d:
                self.chart.direction = d.group(1).upper()
                self.i = d.end()
            else:
                self.i = after
            self.chart.header = True
            return True
        if word == "end" and (after >= len(self.s) or self.s[after] in " \t\r\n;"):
            self.i = after
            return True
        if word == "direction":
            d = _DIRECTION.match(self.s, after)
            self.i = d.end() if d else after
            return True
        if word in _SKIP_LINE and (after >= len(self.s) or self.s[after] in " \t:"):
            self.skip_to_eol()
            return True
        return False

    def statement(self) -> tuple[list, list] | None:
        """``group (link group)*``; returns (node refs, links) or None on a syntax error."""
        group = self.group()
        if group is None:
            return None
        refs = list(group)
        links: list[MermaidLink] = []
        while True:
            save = self.i
            self.ws()
            link = self.link()
            if link is None:
                self.i = save
                return refs, links
            self.ws()
            nxt = self.group()
            if nxt is None:
                return None
            refs.extend(nxt)
            if not link.skip:
                for a, _, _ in group:
                    for b, _, _ in nxt:
                        src, dst = (b, a) if link.reverse else (a, b)
                        links.append(MermaidLink(src, dst, link.style, link.label, link.kind))
            group = nxt

    def group(self) -> list[tuple[str, MermaidNode, bool]] | None:
        refs = []
        while True:
            ref = self.node_ref()
            if ref is None:
                return None
            refs.append(ref)
            save = self.i
            self.ws()
            if self.i < len(self.s) and self.s[self.i] == "&":
                self.i += 1
                self.ws()
                continue
            self.i = save
            return refs

    def node_ref(self) -> tuple[str, MermaidNode, bool] | None:
        if self.i < len(self.s) and self.s[self.i] == '"':
            j = self.s.find('"', self.i + 1)
            if j < 0 or "\n" in self.s[self.i:j]:
                return None
            node_id = " ".join(_decode(self.s[self.i + 1:j]).split())
            self.i = j + 1
        else:
            m = _ID.match(self.s, self.i)
            if not m:
                return None
            node_id = m.group(0)
            self.i = m.end()
            if self.multiword:
                node_id = self.more_words(node_id)
        node = MermaidNode(node_id, "rect", False)
        save = self.i
        self.ws()
        if self.s.startswith("@{", self.i):
            node = self.shape_object(node_id)
        else:
            shaped = self.shape()
            if shaped is None:
                self.i = save
            else:
                node = MermaidNode(shaped[0], shaped[1], True)
        cls = re.compile(r":::[\w-]+").match(self.s, self.i)
        if cls:
            self.i = cls.end()
        return node_id, node, node.labelled

    def more_words(self, node_id: str) -> str:
        """A bare name written as several words (``a --> denierage reboil``): FlowLearn
        lets a link name its ends by their text, which Mermaid itself would refuse."""
        while True:
            m = _MORE_WORD.match(self.s, self.i)
            if not m or m.group(1) in _HEADERS or m.group(1) == "end":
                return node_id
            node_id = f"{node_id} {m.group(1)}"
            self.i = m.end()

    def shape_object(self, node_id: str) -> MermaidNode:
        """Mermaid 11 ``id@{ shape: ..., label: "..." }``: keep the label, shape as ``other``."""
        j = self.s.find("}", self.i)
        body = self.s[self.i + 2:len(self.s) if j < 0 else j]
        self.i = len(self.s) if j < 0 else j + 1
        m = re.search(r"label\s*:\s*\"([^\"]*)\"", body)
        return MermaidNode(_decode(m.group(1)), "other", True) if m else MermaidNode(node_id)

    def shape(self) -> tuple[str, str] | None:
        for opener, closers in _SHAPES:
            if not self.s.startswith(opener, self.i):
                continue
            start = self.i + len(opener)
            got = self.quoted_text(start, closers) or self.plain_text(start, closers)
            if got is not None:
                return got
        return None

    def quoted_text(self, start: int, closers) -> tuple[str, str] | None:
        j = _skip_ws(self.s, start)
        if j >= len(self.s) or self.s[j] != '"':
            return None
        k = self.s.find('"', j + 1)
        if k < 0:
            return None
        text = self.s[j + 1:k]
        end = _skip_ws(self.s, k + 1)
        for closer, shape in closers:
            if self.s.startswith(closer, end):
                self.i = end + len(closer)
                if len(text) >= 2 and text[0] == text[-1] == "`":  # markdown string
                    text = text[1:-1]
                return _decode(text).strip(), shape  # Mermaid trims quoted text too
        return None

    def plain_text(self, start: int, closers) -> tuple[str, str] | None:
        """Text up to the first closer outside nested brackets (else the first closer)."""
        eol = self.s.find("\n", start)
        eol = len(self.s) if eol < 0 else eol
        depth = 0
        for j in range(start, eol):
            if depth == 0:
                for closer, shape in closers:
                    if self.s.startswith(closer, j):
                        self.i = j + len(closer)
                        return _decode(self.s[start:j]).strip(), shape
            c = self.s[j]
            if c in _OPEN_BR:
                depth += 1
            elif c in _CLOSE_BR:
                depth = max(0, depth - 1)
        best = None
        for closer, shape in closers:
            j = self.s.find(closer, start, eol)
            if j >= 0 and (best is None or j < best[0]):
                best = (j, closer, shape)
        if best is None:
            return None
        j, closer, shape = best
        self.i = j + len(closer)
        return _decode(self.s[start:j]).strip(), shape

    def link(self) -> _Link | None:
        """One link token with its optional ``|label|``; None if there is no link here."""
        s, i = self.s, self.i
        invisible = _LINK_INVISIBLE.match(s, i)
        if invisible:
            self.i = invisible.end()
            return _Link("solid", "open", "", False, True)
        if _LINK_ARROW.match(s, i):
            self.i = i + 1
            return self.pipe_label(_Link("solid", "arrow", "", False, False))
        for style, start_re in _LABEL_START.items():
            m = start_re.match(s, i)
            if not m:
                continue
            end = _LABEL_END[style].search(s, m.end(), self.line_end(m.end()))
            if end is None:
                continue
            label = _decode(s[m.end():end.start()]).strip()
            self.i = end.end()
            return self.pipe_label(self.classify(style, m.group(1), end.group(1) or "", label))
        m = _LINK_DOTTED.match(s, i)
        if m:
            self.i = m.end()
            return self.pipe_label(self.classify("dotted", m.group(1), m.group(2) or "", ""))
        m = _LINK_THICK.match(s, i)
        if m and (m.group(3) or len(m.group(2)) >= 3):
            self.i = m.end()
            return self.pipe_label(self.classify("bold", m.group(1), m.group(3) or "", ""))
        m = _LINK_SOLID.match(s, i)
        if m:
            n = _dash_count(m.group(2))
            head = m.group(3) or ""
            if (n >= 1 and head == ">") or n >= 2:
                self.i = m.end()
                return self.pipe_label(self.classify("solid", m.group(1), head, ""))
        return None

    def line_end(self, j: int) -> int:
        k = self.s.find("\n", j)
        return len(self.s) if k < 0 else k

    @staticmethod
    def classify(style: str, start: str | None, head: str, label: str) -> _Link:
        if start and head:
            return _Link(style, "both", label, False, False)
        if start == "<":
            return _Link(style, "arrow", label, True, False)
        kind = {">": "arrow", "o": "circle", "x": "cross", "": "open"}[head]
        return _Link(style, kind, label, False, False)

    def pipe_label(self, link: _Link) -> _Link:
        save = self.i
        self.ws()
        if self.i >= len(self.s) or self.s[self.i] != "|":
            self.i = save
            return link
        eol = self.line_end(self.i)
        j = self.i + 1
        k = _skip_ws(self.s, j)
        if k < eol and self.s[k] == '"':
            q = self.s.find('"', k + 1, eol)
            if q >= 0:
                after = _skip_ws(self.s, q + 1)
                if after < eol and self.s[after] == "|":
                    self.i = after + 1
                    return link._replace(label=_decode(self.s[k + 1:q]).strip())
        end = self.s.find("|", j, eol)
        if end < 0:
            self.i = save
            return link
        self.i = end + 1
        return link._replace(label=_decode(self.s[j:end]).strip())


def parse_mermaid(source: str, strict: bool = False) -> MermaidChart:
    """Parse Mermaid flowchart source tolerantly; unreadable statements are skipped.

    With ``strict`` (code possibly mixed with prose) a line is kept only if it parses
    completely, and a statement only if it has a link or a bracketed node text.
    A node mentioned only by its bare id gets its id as text; a later bracketed text wins.
    """
    return _Parser(_FRONTMATTER.sub("", source), strict).run()


# --- reading a Graph document as a chart ----------------------------------------------

def _mermaid_style(style: str) -> str:
    return {"dashed": "dotted"}.get(style, style)


def _edge_kind(edge: Edge) -> str:
    marked = edge.extra.get("mermaid_link")
    if edge.directed:
        return marked if marked in ("circle", "cross") else "arrow"
    return "both" if marked == "both" else "open"
