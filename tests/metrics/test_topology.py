"""Tests for the Knossos / TopoBench-180 topology metrics."""

import pytest

from cvparse.metrics import topology as topo


def graph(nodes, edges):
    """A Graph document from ``[(id, label)]`` and ``[(src, tgt, directed, type)]``."""
    return {"kind": "topology",
            "nodes": [{"id": i, "label": lab, "shape": "rect"} for i, lab in nodes],
            "edges": [{"source": s, "target": t, "directed": d, "type": ty}
                      for s, t, d, ty in edges]}


GT = graph([("a", "Router"), ("b", "Switch-1"), ("c", "Web Server")],
           [("a", "b", True, "wire"), ("b", "c", False, "signal")])


def rep(doc):
    r, ok = topo.load(doc)
    assert ok
    return r


def test_identity_scores_one():
    s = topo.score(rep(GT), rep(GT))
    for key in topo.SUMMARY_KEYS:
        assert s[key] == 1.0


def test_empty_prediction_scores_zero():
    empty, ok = topo.load("")
    assert not ok
    s = topo.score(rep(GT), empty)
    for key in topo.SUMMARY_KEYS:
        assert s[key] == 0.0


def test_undirected_edge_expands_to_reciprocal_pair():
    r = rep(GT)
    assert sorted(r.edges) == [("router", "switch1", "wire"),
                               ("switch1", "webserver", "signal"),
                               ("webserver", "switch1", "signal")]
    # predicting only one direction of the undirected connector recovers half of it
    pred = rep({"nodes": ["Router", "Switch-1", "Web Server"],
                "edges": [["Router", "Switch-1"], ["Switch-1", "Web Server"]]})
    s = topo.score(r, pred)
    assert s["edge_p"] == 1.0
    assert s["edge_r"] == pytest.approx(2 / 3)


def test_parallel_edges_are_a_multiset():
    two = rep(graph([("a", "A"), ("b", "B")], [("a", "b", True, ""), ("a", "b", True, "")]))
    one = rep(graph([("a", "A"), ("b", "B")], [("a", "b", True, "")]))
    s = topo.score(two, one)
    assert s["edge_p"] == 1.0 and s["edge_r"] == 0.5
    assert s["edge_f1"] == pytest.approx(2 / 3)
    s = topo.score(one, two)
    assert s["edge_p"] == 0.5 and s["edge_r"] == 1.0


def test_duplicate_labels_match_one_to_one():
    gt = rep({"nodes": [{"id": "1", "label": "PC"}, {"id": "2", "label": "PC"}], "edges": []})
    pred = rep({"nodes": ["pc"], "edges": []})
    s = topo.score(gt, pred)
    assert (s["node_p"], s["node_r"]) == (1.0, 0.5)


def test_typed_edges_need_the_type():
    pred = rep({"nodes": ["router", "switch_1", "web-server"],
                "edges": [{"source": "router", "target": "switch_1", "type": "WIRE"},
                          {"from": "switch_1", "to": "web-server", "type": "power",
                           "directed": False}]})
    s = topo.score(rep(GT), pred)
    assert s["node_f1"] == 1.0 and s["edge_f1"] == 1.0
    assert s["typed_edge_f1"] == pytest.approx(1 / 3)


def test_untyped_ground_truth_leaves_typed_f1_out():
    gt = rep(graph([("a", "A"), ("b", "B")], [("a", "b", True, "")]))
    s = topo.score(gt, gt)
    assert s["typed_edge_f1"] is None
    typed = topo.score(rep(GT), rep(GT))
    summary = topo.summarize([s, typed])
    assert summary["typed_edge_f1"] == 1.0 and summary["n_typed"] == 1
    assert summary["n"] == 2


def test_direction_matters():
    gt = rep({"edges": [["A", "B"]]})
    s = topo.score(gt, rep({"edges": [["B", "A"]]}))
    assert s["node_f1"] == 1.0 and s["edge_f1"] == 0.0


def test_summary_is_macro_average():
    gt = rep({"nodes": ["A", "B"], "edges": [["A", "B"]]})
    perfect = topo.score(gt, gt)
    half = topo.score(gt, rep({"nodes": ["A"], "edges": []}))
    summary = topo.summarize([perfect, half])
    assert summary["node_r"] == pytest.approx(0.75)
    assert summary["edge_f1"] == pytest.approx(0.5)


def test_raw_text_with_json_inside():
    text = ('Here is the graph:\n```json\n{"nodes": ["Router", "Switch-1", "Web Server"], '
            '"edges": [{"source": "Router", "target": "Switch-1"}]}\n```\nDone.')
    r = rep(text)
    assert r.nodes == ("router", "switch1", "webserver")
    assert r.edges == (("router", "switch1", ""),)


def test_topobench_canonical_schema_and_arrow_strings():
    canonical = {"Hub": {"relations": [{"source": "Hub", "target": "PC 1", "type": ""}]},
                 "PC 1": {"relations": []}}
    r = rep(canonical)
    assert r.nodes == ("hub", "pc1") and r.edges == (("hub", "pc1", ""),)
    r = rep({"edges": ["Hub -> PC 1", "PC 2 <-> Hub", "PC 3 <- Hub"]})
    assert sorted(r.edges) == sorted([("hub", "pc1", ""), ("pc2", "hub", ""),
                                      ("hub", "pc2", ""), ("hub", "pc3", "")])


def test_mermaid_text():
    r = rep("```mermaid\nflowchart LR\n  a[Router] --> b[Switch-1]\n"
            "  b --- c[Web Server]\n```")
    assert topo.score(rep(GT), r)["edge_f1"] == 1.0


@pytest.mark.parametrize("bad", ["no graph here", "This is not a graph", "{}",
                                 '{"kind": "er", "entities": {}}',
                                 {"kind": "uml", "classes": [], "relations": []}, 42])
def test_unreadable_inputs_are_invalid(bad):
    r, ok = topo.load(bad)
    assert not ok and r.nodes == () and r.edges == ()


def test_label_normalisation():
    assert topo.normalize_label("Web_Server") == topo.normalize_label("web-server")
    assert topo.normalize_label(" WEB  server ") == "webserver"
    assert topo.normalize_label("Router 1") != topo.normalize_label("Router 2")
