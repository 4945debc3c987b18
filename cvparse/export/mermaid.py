"""Documents as Mermaid: graphs as flowcharts (the FORMATS.md dialect), ER schemas as
``erDiagram`` (:mod:`.mermaid_er`), UML models as ``classDiagram`` (:mod:`.mermaid_uml`).

``cvparse.metrics.mermaid.parse_mermaid(to_mermaid(g))`` gives back the nodes (ids, texts,
shapes) and the links (ends, style, label, kind) of ``g``; tests/metrics/test_mermaid.py
checks the round trip.  This module must not import ``cvparse.metrics`` (layering), so the
direction list and the edge -> link-kind reading, which the reader needs too, exist in both.
"""

from __future__ import annotations

import re

from ..model import Document, Edge, ERSchema, Graph, UMLModel

DIRECTIONS = ("TB", "TD", "BT", "RL", "LR")

_WRITE_SHAPES = {
    "rect": ("[", "]"), "round_rect": ("(", ")"), "stadium": ("([", "])"),
    "diamond": ("{", "}"), "ellipse": ("((", "))"), "circle": ("((", "))"),
    "hexagon": ("{{", "}}"), "parallelogram": ("[/", "/]"), "cylinder": ("[(", ")]"),
    "other": (">", "]"),
}
_WRITE_LINKS = {
    ("solid", "arrow"): "-->", ("solid", "open"): "---", ("solid", "both"): "<-->",
    ("solid", "circle"): "--o", ("solid", "cross"): "--x",
    ("bold", "arrow"): "==>", ("bold", "open"): "===", ("bold", "both"): "<==>",
    ("bold", "circle"): "==o", ("bold", "cross"): "==x",
    ("dotted", "arrow"): "-.->", ("dotted", "open"): "-.-", ("dotted", "both"): "<-.->",
    ("dotted", "circle"): "-.-o", ("dotted", "cross"): "-.-x",
}
_SAFE_TEXT = re.compile(r"\w+(?:[-.,!?'/]\w+)*[.!?]?(?: \w+(?:[-.,!?'/]\w+)*[.!?]?)*")
_SAFE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RESERVED = {"end", "graph", "flowchart", "subgraph", "style", "class", "classDef", "click",
             "linkStyle", "direction", "default", "callback", "call", "href", "o", "x"}


def _link_style(style: str) -> str:
    """Mermaid has no dashed link: dashed edges are written dotted."""
    return {"dashed": "dotted"}.get(style, style)


def _link_kind(edge: Edge) -> str:
    """``arrow`` | ``open`` | ``both`` | ``circle`` | ``cross`` from ``directed`` and the
    ``mermaid_link`` extra a parsed chart leaves on its edges."""
    marked = edge.extra.get("mermaid_link")
    if edge.directed:
        return marked if marked in ("circle", "cross") else "arrow"
    return "both" if marked == "both" else "open"


def quote_text(text: str) -> str:
    """``text`` as Mermaid writes it inside a shape or ``|...|``: bare if safe, else quoted.

    Mermaid trims node and link texts, so leading/trailing whitespace does not survive.
    """
    if _SAFE_TEXT.fullmatch(text):
        return text
    if not text.strip():
        return '" "'  # Mermaid rejects an empty string and trims this one to ""
    esc = (text.replace("#", "#35;").replace('"', "#quot;").replace("<", "#lt;")
           .replace(">", "#gt;").replace("`", "#96;").replace("\n", "<br>"))
    return f'"{esc}"'


def _mermaid_ids(node_ids: list[str]) -> dict[str, str]:
    """Keep ids Mermaid accepts; give the others fresh ``n<k>`` names that clash with none."""
    keep = {i for i in node_ids if _SAFE_ID.fullmatch(i) and i not in _RESERVED}
    out: dict[str, str] = {}
    k = 0
    for i in node_ids:
        if i in keep:
            out[i] = i
            continue
        k += 1
        while f"n{k}" in keep:
            k += 1
        out[i] = f"n{k}"
        keep.add(out[i])
    return out


def to_mermaid(doc: Document, direction: str | None = None) -> str:
    """Mermaid text of any document: a flowchart, an ``erDiagram`` or a ``classDiagram``
    (``direction`` applies to flowcharts)."""
    if isinstance(doc, ERSchema):
        from .mermaid_er import to_mermaid_er
        return to_mermaid_er(doc)
    if isinstance(doc, UMLModel):
        from .mermaid_uml import to_mermaid_uml
        return to_mermaid_uml(doc)
    return to_mermaid_flowchart(doc, direction)


def to_mermaid_flowchart(graph: Graph, direction: str | None = None) -> str:
    """Write ``graph`` as a Mermaid flowchart (FORMATS.md dialect), one statement per line.

    ``direction`` (default: ``graph.extra["direction"]``, else ``TB``) must be one of
    :data:`DIRECTIONS`; anything else gives ``TB``.  Node ids that Mermaid cannot take
    (spaces, reserved words such as ``end``) are renamed ``n<k>``; dashed edges become dotted
    ``-.->``; shapes without a Mermaid form use ``(...)``.
    """
    direction = (direction or str(graph.extra.get("direction", "TB"))).upper()
    if direction not in DIRECTIONS:
        direction = "TB"
    ids = _mermaid_ids([n.id for n in graph.nodes])
    lines = [f"flowchart {direction}"]
    for n in graph.nodes:
        o, c = _WRITE_SHAPES.get(n.shape, ("(", ")"))
        lines.append(f"    {ids[n.id]}{o}{quote_text(n.label)}{c}")
    for e in graph.edges:
        arrow = _WRITE_LINKS[(_link_style(e.style), _link_kind(e))]
        label = f"|{quote_text(e.label)}|" if e.label else ""
        src, dst = ids.get(e.source, e.source), ids.get(e.target, e.target)
        lines.append(f"    {src} {arrow}{label} {dst}")
    return "\n".join(lines) + "\n"
