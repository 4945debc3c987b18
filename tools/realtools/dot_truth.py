"""Ground truth of a Graphviz DOT text: the nodes and edges Graphviz draws, read from the input.

The DOT text is parsed with ``pydot``; this module then applies the parts of Graphviz's
semantics that decide what is drawn and that pydot leaves to the renderer: ``node [...]`` and
``edge [...]`` defaults in the scope where they are written (and only for statements after
them), nodes declared only by an edge, ports (``a:p``) that name a node, edges whose end is a
``{a b}`` group, invisible nodes and edges, labels (``\\N``, escaped line breaks, record fields,
HTML-like labels), and the arrow ends of an edge (``dir``, ``arrowhead``, ``arrowtail``).
Clusters are boxes, not nodes.  The result is a FORMATS.md Graph document's nodes and edges.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

SHAPES = {
    "box": "rect", "rect": "rect", "rectangle": "rect", "square": "rect", "record": "rect",
    "mrecord": "round_rect", "ellipse": "ellipse", "oval": "ellipse", "circle": "circle",
    "doublecircle": "circle", "diamond": "diamond", "plaintext": "text", "plain": "text",
    "none": "text", "cylinder": "cylinder", "hexagon": "hexagon",
    "parallelogram": "parallelogram", "triangle": "triangle",
}
"""Graphviz node shapes by the FORMATS.md shape they look like (others are ``other``)."""


@dataclass
class DotNode:
    id: str
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass
class DotEdge:
    source: str
    target: str
    attrs: dict[str, str]


@dataclass
class DotGraph:
    """A parsed DOT graph: nodes in declaration order, edges in statement order."""

    directed: bool
    strict: bool
    nodes: dict[str, DotNode]
    edges: list[DotEdge]
    clusters: list[str]


def unquote(value: str) -> str:
    """A DOT ID as written (``"a b"`` -> ``a b``; escaped quotes kept as quotes)."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('\\"', '"')
    return value


def node_name(endpoint: str) -> str:
    """The node an edge end names, without its port or compass point (``"a":"p":n`` -> a)."""
    endpoint = endpoint.strip()
    if endpoint.startswith('"'):
        i = 1
        while i < len(endpoint):
            if endpoint[i] == "\\":
                i += 2
                continue
            if endpoint[i] == '"':
                return endpoint[1:i].replace('\\"', '"')
            i += 1
        return unquote(endpoint)
    return endpoint.split(":", 1)[0]


def _attrs(raw: dict) -> dict[str, str]:
    return {k.lower(): str(v) for k, v in raw.items()}


def parse(text: str) -> DotGraph:
    """Parse the first graph of a DOT text, applying scoped defaults (see the module doc)."""
    import pydot  # only the builders and tests need it, not the parser package

    graphs = pydot.graph_from_dot_data(text)
    if not graphs:
        raise ValueError("no graph in the DOT text")
    root = graphs[0]
    directed = root.get_type() == "digraph"
    nodes: dict[str, DotNode] = {}
    edges: list[DotEdge] = []
    clusters: list[str] = []

    def declare(name: str, defaults: dict, attrs: dict) -> None:
        if name not in nodes:
            nodes[name] = DotNode(name, dict(defaults))
        nodes[name].attrs.update(attrs)

    def group(point, nd: dict) -> list[str]:
        """The nodes an edge end stands for: one node, or every node of a ``{...}`` group."""
        if isinstance(point, str):
            name = node_name(point)
            declare(name, nd, {})
            return [name]
        obj = point.obj_dict if hasattr(point, "obj_dict") else point
        found: list[str] = []
        walk(obj, nd, {}, found)
        return found

    def walk(obj: dict, node_defaults: dict, edge_defaults: dict,
             members: list[str] | None = None) -> None:
        items = []
        for name, lst in obj.get("nodes", {}).items():
            items += [(od.get("sequence", 0), 0, name, od) for od in lst]
        for key, lst in obj.get("edges", {}).items():
            items += [(od.get("sequence", 0), 1, key, od) for od in lst]
        for name, lst in obj.get("subgraphs", {}).items():
            items += [(od.get("sequence", 0), 2, name, od) for od in lst]
        items.sort(key=lambda t: (t[0], t[1]))
        nd, ed = dict(node_defaults), dict(edge_defaults)
        for _, kind, name, od in items:
            attrs = _attrs(od.get("attributes", {}))
            if kind == 0:
                if name == "node":
                    nd.update(attrs)
                elif name == "edge":
                    ed.update(attrs)
                elif name != "graph":
                    nname = node_name(name)
                    declare(nname, nd, attrs)
                    if members is not None:
                        members.append(nname)
            elif kind == 1:
                src, dst = od["points"]
                sources, targets = group(src, nd), group(dst, nd)
                if members is not None:
                    members += [n for n in sources + targets if n not in members]
                for s in sources:
                    for t in targets:
                        edges.append(DotEdge(s, t, dict(ed) | attrs))
            else:
                sname = unquote(name)
                if sname.startswith("cluster"):
                    clusters.append(sname)
                walk(od, nd, ed, members)

    walk(root.obj_dict, {}, {})
    strict = bool(root.obj_dict.get("strict"))
    return DotGraph(directed, strict, nodes, edges, clusters)


_HTML_BREAK = re.compile(r"<\s*br\s*/?\s*>|</\s*(tr|p)\s*>", re.I)
_HTML_TAG = re.compile(r"<[^>]*>")


def label_lines(raw: str | None, name: str, shape: str = "") -> list[str]:
    """The text lines Graphviz draws for a label attribute (None = the default ``\\N``)."""
    if raw is None:
        raw = "\\N"
    raw = raw.strip()
    if raw.startswith("<") and raw.endswith(">"):  # HTML-like label
        body = _HTML_BREAK.sub("\n", raw[1:-1])
        body = re.sub(r"</\s*td\s*>", "\n", body, flags=re.I)
        text = html.unescape(_HTML_TAG.sub("", body))
        return [ln.strip() for ln in text.split("\n") if ln.strip()]
    text = unquote(raw).replace("\\N", name).replace("\\G", "")
    if shape.lower() in ("record", "mrecord"):
        text = re.sub(r"(?<!\\)<[^>]*>", "", text)          # field ports
        text = re.sub(r"(?<!\\)[{}|]", "\n", text)
        text = re.sub(r"\\([{}|<> ])", r"\1", text)
    text = re.sub(r"\\[nlr]", "\n", text).replace("\\\\", "\\")
    return [ln.strip() for ln in text.split("\n") if ln.strip()]


def _is_invisible(attrs: dict) -> bool:
    return "invis" in unquote(attrs.get("style", "")).lower()


def edge_directed(directed_graph: bool, attrs: dict) -> tuple[bool, bool]:
    """``(directed, reversed)`` of an edge as drawn: directed means exactly one end has an
    arrowhead; reversed means that head is at the edge's tail (``dir=back``)."""
    dir_ = unquote(attrs.get("dir", "forward" if directed_graph else "none")).lower()
    head = unquote(attrs.get("arrowhead", "normal")).lower() != "none"
    tail = unquote(attrs.get("arrowtail", "normal")).lower() != "none"
    if dir_ == "forward":
        return head, False
    if dir_ == "back":
        return tail, True
    return False, False   # both ends or none: an undirected connector for the scorers


def _edge_style(attrs: dict) -> str:
    style = unquote(attrs.get("style", "")).lower()
    for s in ("dashed", "dotted", "bold"):
        if s in style:
            return s
    try:
        if float(unquote(attrs.get("penwidth", "1"))) >= 2.5:
            return "bold"
    except ValueError:
        pass
    return "solid"


def ground_truth(graph: DotGraph) -> dict:
    """FORMATS.md ``nodes`` and ``edges`` of what Graphviz draws for ``graph``, plus
    ``unlabelled``: visible nodes that draw no text (point shapes, empty labels)."""
    nodes, unlabelled, hidden = [], [], set()
    for n in graph.nodes.values():
        shape = unquote(n.attrs.get("shape", "ellipse")).lower()
        if _is_invisible(n.attrs):
            hidden.add(n.id)
            continue
        lines = label_lines(n.attrs.get("label"), n.id, shape)
        if shape == "point" or not lines:
            unlabelled.append(n.id)
            continue
        style = unquote(n.attrs.get("style", "")).lower()
        mapped = SHAPES.get(shape, "other")
        if mapped == "rect" and "rounded" in style:
            mapped = "round_rect"
        node = {"id": n.id, "label": " ".join(lines), "shape": mapped}
        if len(lines) > 1:
            node["lines"] = lines
        nodes.append(node)
    kept = {n["id"] for n in nodes}
    edges, seen = [], set()
    for e in graph.edges:
        if _is_invisible(e.attrs) or e.source not in kept or e.target not in kept:
            continue
        directed, backwards = edge_directed(graph.directed, e.attrs)
        src, dst = (e.target, e.source) if backwards else (e.source, e.target)
        if graph.strict:
            key = (src, dst) if graph.directed else tuple(sorted((src, dst)))
            if key in seen:
                continue
            seen.add(key)
        label = " ".join(label_lines(e.attrs.get("label", e.attrs.get("xlabel", '""')), ""))
        edges.append({"source": src, "target": dst, "directed": directed,
                      "style": _edge_style(e.attrs), "label": label, "type": ""})
    return {"nodes": nodes, "edges": edges, "unlabelled": unlabelled,
            "clusters": list(graph.clusters)}


def graph_document(dot_text: str, kind: str, width: int, height: int) -> dict:
    """The FORMATS.md Graph document (``kind`` flowchart or topology) of a DOT text as
    Graphviz draws it, for an image of ``width`` x ``height`` pixels."""
    truth = ground_truth(parse(dot_text))
    return {"kind": kind, "width": width, "height": height,
            "nodes": truth["nodes"], "edges": truth["edges"]}
