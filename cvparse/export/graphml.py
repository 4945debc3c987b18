"""Graph documents as GraphML, written by networkx (readable by networkx, yEd, Gephi, igraph).

Key ids are networkx's ``d0``, ``d1``... (names would collide: nodes and edges both have a
``label``); the key's ``attr.name`` carries the name.

One GraphML edge per document edge, in document order, so two connectors between the same
nodes stay two edges.  Direction is written as GraphML defines a mixed graph: the graph's
``edgedefault`` is ``undirected`` when no edge is directed, else ``directed``, and every
edge carries its own ``directed="true|false"`` attribute (plus the ``directed`` data key,
for readers that only see data).  networkx reads an all-directed file as a
``MultiDiGraph`` and an all-undirected one as a ``MultiGraph``; it has no mixed graph
type and refuses a mixed file (``NetworkXError``) rather than reading it one-way.  GraphML
has no list type, so ``bbox`` is the string ``"x1,y1,x2,y2"`` and ``points`` (the traced
polyline, when present) ``"x,y x,y ..."``.  Graph attributes: ``kind`` and, when known,
``width``/``height``.
"""

from __future__ import annotations

import networkx as nx
from networkx.readwrite.graphml import GraphMLWriter

from ..model import Graph


def _num(v: float) -> str:
    return f"{v:g}"


def to_graphml(graph: Graph) -> str:
    """GraphML text: node attrs ``label``/``shape``/``bbox``, edge attrs
    ``label``/``style``/``type``/``directed`` (and ``points`` when traced)."""
    g = nx.MultiDiGraph(kind=graph.kind)
    for key in ("width", "height"):
        if getattr(graph, key) is not None:
            g.graph[key] = getattr(graph, key)
    for n in graph.nodes:
        attrs: dict[str, str | bool] = {"label": n.label, "shape": n.shape}
        if n.bbox is not None:
            attrs["bbox"] = ",".join(_num(v) for v in n.bbox)
        g.add_node(n.id, **attrs)
    for i, e in enumerate(graph.edges):
        attrs = {"label": e.label, "style": e.style, "type": e.type, "directed": e.directed}
        points = e.extra.get("points")
        if isinstance(points, list) and points:
            attrs["points"] = " ".join(f"{_num(p[0])},{_num(p[1])}" for p in points)
        g.add_edge(e.source, e.target, key=f"e{i + 1}", **attrs)
    writer = GraphMLWriter(graph=g)
    booleans = {k.get("id") for k in writer.xml.iter("key") if k.get("attr.type") == "boolean"}
    for data in writer.xml.iter("data"):  # xsd:boolean is true/false; networkx writes True
        if data.get("key") in booleans:
            data.text = data.text.lower()
    any_directed = any(e.directed for e in graph.edges)
    for element in writer.xml.iter("graph"):
        element.set("edgedefault", "directed" if any_directed else "undirected")
    for element, e in zip(writer.xml.iter("edge"), graph.edges):
        element.set("directed", "true" if e.directed else "false")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + str(writer) + "\n"
