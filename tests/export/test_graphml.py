"""GraphML export: networkx reads back labels, shapes and the edge multiset."""

import io
from collections import Counter

import networkx as nx

from cvparse.export.graphml import to_graphml


def test_round_trip_keeps_nodes_and_edge_multiset(graph):
    back = nx.read_graphml(io.StringIO(to_graphml(graph)), force_multigraph=True)
    assert back.is_directed() and back.is_multigraph()
    assert {n: d["label"] for n, d in back.nodes(data=True)} == {n.id: n.label
                                                                for n in graph.nodes}
    assert {n: d["shape"] for n, d in back.nodes(data=True)} == {n.id: n.shape
                                                                for n in graph.nodes}
    got = Counter((u, v, d["directed"], d["style"], d["label"], d["type"])
                  for u, v, d in back.edges(data=True))
    assert got == Counter((e.source, e.target, e.directed, e.style, e.label, e.type)
                          for e in graph.edges)
    assert back.graph["kind"] == "topology" and back.graph["width"] == 1400


def test_geometry_is_kept_as_text(graph):
    back = nx.read_graphml(io.StringIO(to_graphml(graph)), force_multigraph=True)
    assert [float(v) for v in back.nodes["n2"]["bbox"].split(",")] == graph.nodes[1].bbox
    assert "bbox" not in back.nodes["no box"]
    first = next(d for u, v, d in back.edges(data=True) if d.get("points"))
    assert first["points"] == "80,30 90,60 95,60 100,30"


def test_booleans_are_xsd_booleans(graph):
    text = to_graphml(graph)
    assert ">True<" not in text and ">False<" not in text and ">false<" in text
