"""Graph documents and ER schemas as Graphviz DOT.

A graph becomes a ``digraph`` (``dir=none`` for an undirected edge, ``dir=both`` when it has
heads at both ends); an ER schema becomes an undirected ``graph`` in Chen notation.  A
graph's node ids are the document's own, quoted (``"n1"``), so a DOT node is found by its
JSON id; an ER drawing's ids are generated (``e1``, ``a1_2``...), as its ellipses and
diamonds have none.  Labels are escaped for DOT strings or, for underlined primary keys,
HTML labels.  Node positions are not written:
Graphviz lays the drawing out again.
"""

from __future__ import annotations

import html

from ..model import Entity, ERSchema, Graph, IsA
from ._ends import arrowheads

# FORMATS.md shape -> Graphviz node attributes
_SHAPES = {
    "rect": {"shape": "box"},
    "round_rect": {"shape": "box", "style": "rounded"},
    "stadium": {"shape": "box", "style": "rounded"},
    "diamond": {"shape": "diamond"},
    "ellipse": {"shape": "ellipse"},
    "circle": {"shape": "circle"},
    "hexagon": {"shape": "hexagon"},
    "parallelogram": {"shape": "parallelogram"},
    "cylinder": {"shape": "cylinder"},
    "triangle": {"shape": "triangle"},
    "icon": {"shape": "box", "style": "dashed"},
    "text": {"shape": "plaintext"},
    "other": {"shape": "box"},
}
_EDGE_STYLES = {"solid": {}, "dashed": {"style": "dashed"}, "dotted": {"style": "dotted"},
                "bold": {"style": "bold", "penwidth": "2"}}


def quote(text: str) -> str:
    """A DOT double-quoted string holding ``text`` literally (escapes like ``\\N`` disarmed)."""
    esc = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + esc.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n") + '"'


class _HTML(str):
    """An HTML-like label, written ``<...>`` instead of quoted."""


def _attrs(attrs: dict[str, str]) -> str:
    if not attrs:
        return ""
    parts = [f"{k}={v if isinstance(v, _HTML) else quote(v)}" for k, v in attrs.items()]
    return " [" + ", ".join(parts) + "]"


def _graph_dot(graph: Graph) -> list[str]:
    ids = {n.id: quote(n.id) for n in graph.nodes}
    lines = [f"digraph {quote(graph.kind)} {{", "  node [fontsize=12];"]
    for n in graph.nodes:
        attrs = {"label": n.label, **_SHAPES.get(n.shape, _SHAPES["other"])}
        if n.extra.get("double"):
            attrs["peripheries"] = "2"
        lines.append(f"  {ids[n.id]}{_attrs(attrs)};")
    for e in graph.edges:
        for end in (e.source, e.target):  # tolerate a dangling reference: declare it
            if end not in ids:
                ids[end] = quote(end)
                lines.append(f"  {ids[end]}{_attrs({'label': end, 'shape': 'box'})};")
        attrs = dict(_EDGE_STYLES.get(e.style, {}))
        at_source, at_target = arrowheads(e)
        if at_source and at_target:
            attrs["dir"] = "both"
        elif not at_target:
            attrs["dir"] = "none"
        if e.label:
            attrs["label"] = e.label
        if e.type:
            attrs["class"] = e.type
        lines.append(f"  {ids[e.source]} -> {ids[e.target]}{_attrs(attrs)};")
    lines.append("}")
    return lines


def _underlined(text: str) -> _HTML:
    body = html.escape(text, quote=True).replace("\n", "<BR/>") or " "
    return _HTML(f"<<U>{body}</U>>")


def _attribute_nodes(owner: str, e: Entity | None, attrs: list[str], prefix: str,
                     lines: list[str]) -> None:
    """Ellipses for ``attrs`` tied to ``owner``; composite parents get their components."""
    for j, a in enumerate(attrs):
        node = f"{prefix}_{j + 1}"
        style: dict[str, str] = {"shape": "ellipse"}
        if e is not None:
            if a in e.multivalued:
                style["peripheries"] = "2"
            if a in e.derived:
                style["style"] = "dashed"
        label = _underlined(a) if e is not None and a in e.primary_keys else a
        lines.append(f"  {node}{_attrs({'label': label, **style})};")
        lines.append(f"  {owner} -- {node};")
        for k, part in enumerate(e.composite.get(a, []) if e is not None else []):
            sub = f"{node}_{k + 1}"
            lines.append(f"  {sub}{_attrs({'label': part, 'shape': 'ellipse'})};")
            lines.append(f"  {node} -- {sub};")


def _er_dot(schema: ERSchema) -> list[str]:
    lines = ["graph ER {", "  node [fontsize=12];"]
    ids: dict[str, str] = {}

    def entity(name: str) -> str:
        if name not in ids:
            ids[name] = f"e{len(ids) + 1}"
            e = schema.entities.get(name)
            attrs = {"label": name, "shape": "box"}
            if e is not None and e.weak:
                attrs["peripheries"] = "2"
            lines.append(f"  {ids[name]}{_attrs(attrs)};")
            if e is not None:
                _attribute_nodes(ids[name], e, e.attributes, "a" + ids[name][1:], lines)
        return ids[name]

    for name in schema.entities:
        entity(name)
    for i, r in enumerate(schema.relationships):
        if isinstance(r, IsA):
            node = f"isa{i + 1}"
            lines.append(f"  {node}{_attrs({'label': r.name, 'shape': 'triangle'})};")
            lines.append(f"  {entity(r.superclass)} -- {node};")
            lines.extend(f"  {node} -- {entity(sub)};" for sub in r.subclasses)
            continue
        node = f"r{i + 1}"
        attrs = {"label": r.name, "shape": "diamond"}
        if r.weak:
            attrs["peripheries"] = "2"
        lines.append(f"  {node}{_attrs(attrs)};")
        for name, card in zip(r.entities, r.cardinalities):
            target = entity(name)
            e = schema.entities.get(name)
            edge = {"label": card} if card else {}
            if r.weak and e is not None and e.weak:  # total participation: double line
                edge["color"] = "black:invis:black"
            lines.append(f"  {node} -- {target}{_attrs(edge)};")
        _attribute_nodes(node, None, r.attributes, f"ra{i + 1}", lines)
    lines.append("}")
    return lines


def to_dot(doc: Graph | ERSchema) -> str:
    """DOT text of a graph (flowchart / topology) or an ER schema (Chen notation)."""
    if isinstance(doc, Graph):
        return "\n".join(_graph_dot(doc)) + "\n"
    if isinstance(doc, ERSchema):
        return "\n".join(_er_dot(doc)) + "\n"
    raise TypeError(f"to_dot needs a Graph or an ERSchema, not {type(doc).__name__}")
