"""The Knossos protocol scorer on hand-made predictions (knossos-dev README's rules)."""

from __future__ import annotations

import pytest

from cvparse.metrics import knossos


def _gt() -> dict:
    return {"nodes": [{"id": "n1", "label": "Condition Met?", "bbox": [0, 0, 10, 10]},
                      {"id": "n2", "label": "Merge Branches", "bbox": [20, 0, 30, 10]},
                      {"id": "n3", "label": "Merge Branches", "bbox": [40, 0, 50, 10]},
                      {"id": "n4", "label": "Fan", "bbox": [60, 0, 70, 10]}],
            "edges": [{"source": "n1", "target": "n2", "type": "directed", "directed": True},
                      {"source": "n1", "target": "n3", "type": "directed", "directed": True},
                      {"source": "n4", "target": "n1", "type": "wire", "directed": True},
                      {"source": "n1", "target": "n4", "type": "wire", "directed": True}]}


def _score(pred: dict) -> dict:
    gt, ok = knossos.load(_gt())
    assert ok
    p, ok = knossos.load(pred)
    assert ok
    return knossos.score(gt, p)


def test_labels_keep_only_lowercase_letters_and_digits():
    assert knossos.normalize_label("Conditio" "n Met?") == "conditionmet"
    assert knossos.normalize_label("Zener-Diode #2") == "zenerdiode2"


def test_duplicate_labels_are_told_apart_by_box_overlap():
    # the prediction lists the right-hand "Merge Branches" first: IoU picks n3 for it
    pred = {"nodes": [{"id": "a", "label": "Condition met", "bbox": [0, 0, 10, 10]},
                      {"id": "b", "label": "merge branches", "bbox": [41, 0, 51, 10]},
                      {"id": "c", "label": "Merge Branches", "bbox": [19, 0, 29, 10]}],
            "edges": [{"source": "a", "target": "b", "directed": True}]}
    s = _score(pred)
    assert (s["node_tp"], s["node_pred"], s["node_gt"]) == (3, 3, 4)
    assert knossos.map_nodes(knossos.load(_gt())[0], knossos.load(pred)[0]) == {
        "a": "n1", "b": "n3", "c": "n2"}
    assert (s["edge_tp"], s["edge_pred"], s["edge_gt"]) == (1, 1, 4)
    # an empty type on a directed edge is read as the workflow answer "directed"
    assert s["typed_tp"] == 1


def test_undirected_edge_counts_both_ways_and_type_is_case_sensitive():
    nodes = [{"id": "x", "label": "Condition Met?"}, {"id": "y", "label": "FAN"}]
    right = _score({"nodes": nodes, "edges": [
        {"source": "x", "target": "y", "directed": False, "type": "wire"}]})
    assert (right["edge_tp"], right["typed_tp"], right["typed_pred"]) == (2, 2, 2)
    wrong_case = _score({"nodes": nodes, "edges": [
        {"source": "x", "target": "y", "directed": False, "type": "Wire"}]})
    assert (wrong_case["edge_tp"], wrong_case["typed_tp"]) == (2, 0)


def test_reversed_edge_is_one_false_positive_and_one_miss():
    nodes = [{"id": "x", "label": "Condition Met?"}, {"id": "y", "label": "Fan"}]
    s = _score({"nodes": nodes, "edges": [{"source": "y", "target": "x"},
                                          {"source": "x", "target": "y"}]})
    assert (s["edge_tp"], s["edge_pred"]) == (2, 2)
    s = _score({"nodes": nodes[:1] + [{"id": "y", "label": "Fa"}],
                "edges": [{"source": "x", "target": "y"}]})
    # "Fa" maps to nothing: its edge is a false positive even though "x" maps
    assert (s["node_tp"], s["edge_tp"], s["edge_pred"]) == (1, 0, 1)


def test_summary_pools_counts_over_images():
    a = {"node_tp": 1, "node_pred": 1, "node_gt": 1, "edge_tp": 0, "edge_pred": 0,
         "edge_gt": 0, "node_f1": 1.0, "edge_f1": 1.0}
    b = {"node_tp": 1, "node_pred": 9, "node_gt": 9, "edge_tp": 9, "edge_pred": 9,
         "edge_gt": 10, "node_f1": 1 / 9, "edge_f1": 18 / 19}
    s = knossos.summarize([a, b])
    assert s["node_f1"] == pytest.approx(0.2)  # 2 of 10 predicted, 2 of 10 true
    assert s["mean_node_f1"] == pytest.approx((1 + 1 / 9) / 2)
    assert s["edge_f1"] == pytest.approx(2 * 1 * 0.9 / 1.9)
    assert s["typed_edge_f1"] is None


def test_reads_a_gt_jsonl_row_and_raw_json_text():
    g, ok = knossos.load('the graph: {"nodes": ["A", "B"], "edges": '
                         '[{"source": "A", "target": "B"}]}')
    assert ok and [n.label for n in g.nodes] == ["a", "b"]
    assert g.edges == (("A", "B", "directed"),)
    assert knossos.load("no json here") == (knossos.KGraph(), False)
