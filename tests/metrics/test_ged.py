"""Tests of the bounded graph edit distance (cvparse.metrics.ged)."""

from __future__ import annotations

import time

import networkx as nx
import pytest

from cvparse.metrics.ged import graph_edit_distance, induced_cost, normalized_ged


def labelled(nodes, edges) -> nx.Graph:
    g = nx.Graph()
    for n, lab in nodes.items():
        g.add_node(n, label=lab)
    for u, v, lab in edges:
        g.add_edge(u, v, label=lab)
    return g


def star(center: str, leaves: list[str]) -> nx.Graph:
    return labelled({"c": center, **{f"l{k}": x for k, x in enumerate(leaves)}},
                    [("c", f"l{k}", "has") for k in range(len(leaves))])


def test_identity_is_zero():
    g = star("customer", ["id", "name", "phone"])
    assert graph_edit_distance(g, g.copy()) == 0.0
    assert normalized_ged(g, g.copy()) == 0.0


def test_empty_prediction_costs_the_ground_truth_size():
    g = star("customer", ["id", "name"])
    assert graph_edit_distance(g, nx.Graph()) == 5.0
    assert normalized_ged(g, nx.Graph()) == 1.0


def test_unit_costs_for_a_label_change_and_a_deletion():
    g = star("customer", ["id", "name"])
    relabelled = star("customer", ["id", "nam"])
    assert graph_edit_distance(g, relabelled) == 1.0
    assert graph_edit_distance(g, star("customer", ["id"])) == 2.0
    edge_changed = g.copy()
    edge_changed.edges["c", "l0"]["label"] = "owns"
    assert graph_edit_distance(g, edge_changed) == 1.0


def test_repeated_labels_are_assigned_by_their_neighbourhood():
    # two entities that both have a "name" attribute: the bound must not cross them
    g = labelled({"a": "A", "b": "B", "an": "name", "bn": "name"},
                 [("a", "an", "has"), ("b", "bn", "has")])
    h = labelled({"x": "B", "y": "A", "p": "name", "q": "name"},
                 [("x", "p", "has"), ("y", "q", "has")])
    assert graph_edit_distance(g, h, time_limit=0) == 0.0


def test_induced_cost_of_a_given_map():
    g = star("customer", ["id", "name"])
    h = star("customer", ["id", "name"])
    assert induced_cost(g, h, {"c": "c", "l0": "l0", "l1": "l1"}) == 0.0
    assert induced_cost(g, h, {"c": "c", "l0": "l1", "l1": "l0"}) == 2.0
    assert induced_cost(g, h, {"c": None, "l0": "l0", "l1": "l1"}) == 1 + 1 + 2 + 2


def test_large_graphs_finish_quickly():
    g = nx.Graph()
    for k in range(60):
        g.add_node(("e", k), label=("entity", f"e{k}"))
        for a in range(5):
            g.add_node(("a", k, a), label=("attr", f"x{a}"))
            g.add_edge(("e", k), ("a", k, a), label="has")
    h = g.copy()
    h.remove_node(("a", 3, 2))
    start = time.monotonic()
    assert graph_edit_distance(g, h) == 2.0
    assert time.monotonic() - start < 10.0


def test_normalisation_divides_by_ground_truth_nodes_plus_edges():
    g = star("customer", ["id", "name", "phone"])      # 4 nodes + 3 edges
    h = star("customer", ["id", "name"])
    assert normalized_ged(g, h) == pytest.approx(2 / 7)
    assert normalized_ged(h, star("customer", ["id", "name", "a", "b", "c", "d", "e"])) \
        == pytest.approx(10 / 5)
