"""GraphML export: a mixed graph as GraphML defines it, read by networkx where networkx can
(all-directed and all-undirected graphs), labels, shapes and the edge multiset kept."""

import io
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import replace

import networkx as nx
import pytest

from cvparse.export.graphml import to_graphml

NS = "{http://graphml.graphdrawing.org/xmlns}"


def _only(graph, directed: bool):
    return replace(graph, edges=[e for e in graph.edges if e.directed == directed])


def _read(text: str):
    return nx.read_graphml(io.StringIO(text), force_multigraph=True)


def test_directed_graph_reads_as_a_multidigraph(graph):
    g = _only(graph, True)
    back = _read(to_graphml(g))
    assert back.is_directed() and back.is_multigraph()
    assert {n: d["label"] for n, d in back.nodes(data=True)} == {n.id: n.label
                                                                for n in graph.nodes}
    assert {n: d["shape"] for n, d in back.nodes(data=True)} == {n.id: n.shape
                                                                for n in graph.nodes}
    got = Counter((u, v, d["style"], d["label"], d["type"]) for u, v, d in back.edges(data=True))
    assert got == Counter((e.source, e.target, e.style, e.label, e.type) for e in g.edges)
    assert back.graph["kind"] == "topology" and back.graph["width"] == 1400


def test_undirected_graph_reads_as_a_multigraph(graph):
    g = _only(graph, False)
    back = _read(to_graphml(g))
    assert not back.is_directed() and back.is_multigraph()
    assert back.has_edge("n3", "n2") and back.has_edge("n2", "n3")  # both ways, one edge
    got = Counter((frozenset((u, v)), d["style"]) for u, v, d in back.edges(data=True))
    assert got == Counter((frozenset((e.source, e.target)), e.style) for e in g.edges)


def test_mixed_graph_follows_the_graphml_rules(graph):
    """Each edge's direction is its own ``directed`` attribute, else the ``edgedefault``
    (GraphML 1.0 primer, section 2.3); networkx has no mixed graph and refuses the file
    instead of reading undirected edges one-way."""
    root = ET.fromstring(to_graphml(graph))
    [g] = root.iter(NS + "graph")
    assert g.get("edgedefault") == "directed"
    edges = list(g.iter(NS + "edge"))
    read = [(e.get("source"), e.get("target"),
             (e.get("directed") or ("true" if g.get("edgedefault") == "directed" else "false"))
             == "true") for e in edges]
    assert read == [(e.source, e.target, e.directed) for e in graph.edges]
    with pytest.raises(nx.NetworkXError, match="directed=false"):
        _read(to_graphml(graph))


def test_geometry_is_kept_as_text(graph):
    back = _read(to_graphml(_only(graph, True)))
    assert [float(v) for v in back.nodes["n2"]["bbox"].split(",")] == graph.nodes[1].bbox
    assert "bbox" not in back.nodes["no box"]
    first = next(d for u, v, d in back.edges(data=True) if d.get("points"))
    assert first["points"] == "80,30 90,60 95,60 100,30"


def test_booleans_are_xsd_booleans(graph):
    text = to_graphml(graph)
    assert ">True<" not in text and ">False<" not in text and ">false<" in text
