"""FlowLearn Mermaid scoring: node/link P/R/F1 one-to-one, per image, and count accuracies."""

import json

import pytest

from cvparse.metrics import flowlearn as fl
from cvparse.export.mermaid import to_mermaid

GT = """flowchart TB
    entity0(outsteered karite)
    entity1(dihedron cushite)
    entity2(woolweed)
    entity3(kidlike)
    entity4(antiaggressively)
    entity5(unlovable topsmelts)
    entity0 --> entity1
    entity0 --> entity2
    entity0 --> entity3
    entity0 ==> entity4
    entity1 --> entity3
    entity1 -..-> entity5
"""


def run(gt_doc, pred_doc) -> dict:
    gt, gt_ok = fl.load(gt_doc)
    pred, _ = fl.load(pred_doc)
    assert gt_ok
    return fl.score(gt, pred)


def chart_of(nodes: dict, links: str) -> str:
    decl = "\n".join(f"{i}({t})" for i, t in nodes.items())
    return f"flowchart LR\n{decl}\n{links}\n"


def test_interface():
    assert fl.TASK == "flowlearn"
    for key in ("node_f1", "link_f1", "nodes_acc", "arrows_acc", "node_p", "node_r", "link_p",
                "link_r", "directed_link_f1"):
        assert key in fl.SUMMARY_KEYS


def test_identity_scores_one():
    out = run(GT, GT)
    assert all(out[k] == 1.0 for k in fl.SUMMARY_KEYS)


def test_empty_prediction_scores_zero():
    for pred in ("", "I cannot tell.", {}, None, {"kind": "er", "entities": {}}):
        chart, ok = fl.load(pred)
        assert not ok and not chart.nodes
        out = fl.score(fl.load(GT)[0], chart)
        assert all(out[k] == 0.0 for k in fl.SUMMARY_KEYS), pred


def test_empty_sets_convention():
    assert fl.prf(0, 0, 0) == (1.0, 1.0, 1.0)
    assert fl.prf(0, 0, 3) == (0.0, 0.0, 0.0)
    assert fl.prf(0, 2, 0) == (0.0, 0.0, 0.0)


def test_paper_example_hand_computed():
    # Table 14 of the paper: the GeminiProVision answer, with its en-dash arrows.
    pred = ("“‘mermaid flowchart LR entity0(outsteered karite) entity1(woolweed) "
            "entity2(antiaggressively) entity3(dihedron cushtie) entity4(kidlike) "
            "entity5(unlovable topsmelts) entity0 –>entity1 entity0 –>entity2 "
            "entity0 –>entity3 entity1 –>entity4 entity3 –>entity5 “‘")
    out = run(GT, pred)
    # nodes: 5 of 6 texts right ("cushtie" is misspelt)
    assert out["node_p"] == pytest.approx(5 / 6) and out["node_r"] == pytest.approx(5 / 6)
    # links: only karite->woolweed and karite->antiaggressively are right: P 2/5, R 2/6
    assert out["link_p"] == pytest.approx(0.4) and out["link_r"] == pytest.approx(1 / 3)
    assert out["link_f1"] == pytest.approx(4 / 11)
    assert (out["nodes_acc"], out["arrows_acc"]) == (1.0, 0.0)


def test_small_hand_computed_case():
    gt = chart_of({"a": "A", "b": "B", "c": "C", "d": "D"}, "a --> b\nb --> c\nc --> d")
    pred = chart_of({"p": "A", "q": "B", "r": "C", "s": "X", "t": "A"},
                    "p --> q\nq --> r\nr --> s\nt --> q")
    out = run(gt, pred)
    # nodes: pred [A, B, C, X, A] vs gt [A, B, C, D] -> TP 3, P 3/5, R 3/4
    assert (out["node_tp"], out["pred_nodes"], out["gt_nodes"]) == (3, 5, 4)
    assert out["node_f1"] == pytest.approx(2 * 0.6 * 0.75 / 1.35)
    # links: pred [A>B, B>C, C>X, A>B] vs gt [A>B, B>C, C>D] -> TP 2, P 2/4, R 2/3
    assert (out["link_p"], out["link_r"]) == (pytest.approx(0.5), pytest.approx(2 / 3))
    assert out["link_f1"] == pytest.approx(4 / 7)
    assert (out["nodes_acc"], out["arrows_acc"]) == (0.0, 0.0)


def test_duplicated_node_is_a_false_positive():
    pred = GT.replace("entity0 --> entity1", "entity6(woolweed)\nentity0 --> entity1")
    out = run(GT, pred)
    assert out["node_r"] == 1.0 and out["node_p"] == pytest.approx(6 / 7)
    assert out["nodes_acc"] == 0.0 and out["link_f1"] == 1.0


def test_same_id_declared_twice_is_one_node():
    out = run(GT, GT + "entity2(woolweed)\n")
    assert out["node_f1"] == 1.0 and out["nodes_acc"] == 1.0


def test_node_text_must_match_exactly_up_to_whitespace():
    out = run(GT, GT.replace("(kidlike)", "(Kidlike)"))
    assert out["node_tp"] == 5
    assert out["link_tp"] == 4  # both links into "kidlike" are lost with it
    out = run(GT, GT.replace("(kidlike)", '["  kidlike "]').replace(
        "(outsteered karite)", "(outsteered   karite)"))
    assert out["node_f1"] == 1.0 and out["link_f1"] == 1.0


def test_link_direction_matters():
    pred = GT.replace("entity0 --> entity1", "entity1 --> entity0")
    out = run(GT, pred)
    assert out["link_tp"] == 5 and out["link_p"] == pytest.approx(5 / 6)
    assert out["arrows_acc"] == 1.0


def test_arrow_style_and_label_are_ignored():
    pred = (GT.replace("-->", "==>").replace("-..->", "-.->")
            .replace("entity0 ==> entity4", "entity0 -->|maybe| entity4"))
    out = run(GT, pred)
    assert out["link_f1"] == 1.0 and out["directed_link_f1"] == 1.0


def test_links_may_name_nodes_by_id_or_text():
    pred = """flowchart TB
    entity0(outsteered karite)
    e1(dihedron cushite)
    entity2(woolweed)
    k(kidlike)
    entity4(antiaggressively)
    entity5(unlovable topsmelts)
    "outsteered karite" --> e1
    entity0 --> woolweed
    entity0 --> kidlike
    entity0 ==> antiaggressively
    e1 --> k
    e1 --> entity5
    """
    out = run(GT, pred)
    assert out["link_f1"] == 1.0
    assert out["node_f1"] == 1.0 and out["nodes_acc"] == 1.0  # text references add no nodes


def test_chained_and_ampersand_links():
    pred = """flowchart TB
    entity0(outsteered karite) --> entity1(dihedron cushite) --> entity3(kidlike)
    entity0 --> entity2(woolweed) & entity4(antiaggressively) & entity3
    entity1 --> entity5(unlovable topsmelts)
    """
    out = run(GT, pred)
    assert out["node_f1"] == 1.0 and out["link_f1"] == 1.0
    pred2 = "flowchart TB\na(A) & b(B) --> c(C)\n"
    out = run("flowchart TB\na(A) --> c(C)\nb(B) --> c\n", pred2)
    assert out["link_f1"] == 1.0 and out["arrows_acc"] == 1.0


def test_fenced_answer_in_prose():
    ans = f"Sure! Here is the Mermaid code:\n\n```mermaid\n{GT}```\n\nLet me know if you need more."
    chart, ok = fl.load(ans)
    assert ok
    assert fl.score(fl.load(GT)[0], chart)["link_f1"] == 1.0


def test_code_cut_off_inside_an_open_fence_is_not_read():
    # The paper reads statements enclosed by ``` only: an answer stopped by the token limit
    # before its closing fence holds no code, however much of the chart it wrote.
    cut = ("```mermaid\nflowchart TB\nentity0(outsteered karite)\nentity1(dihedron cushite)\n"
           "entity0 --> entity1")
    chart, ok = fl.load(cut)
    assert not ok and not chart.nodes and not chart.links
    out = run(GT, cut)
    assert out["node_r"] == 0.0 and out["link_r"] == 0.0
    chart, ok = fl.load(cut + "\n```")  # the same code, closed
    assert ok and [n.text for n in chart.nodes.values()] == ["outsteered karite",
                                                             "dihedron cushite"]
    # an unfenced answer is still read whole (Mermaid files, cvparse's own .mmd output)
    assert fl.load(cut.replace("```mermaid\n", ""))[1]


def test_every_closed_fence_is_read_and_prose_outside_is_not():
    ans = ("Nodes:\n```mermaid\nflowchart LR\na(one)\nb(two)\n```\nand the links "
           "a --> c(three), as code:\n```\na --> b\nb --> c(three)\n```\nthen ```c --> a")
    chart, ok = fl.load(ans)
    assert ok and chart.direction == "LR"
    assert {i: n.text for i, n in chart.nodes.items()} == {"a": "one", "b": "two",
                                                           "c": "three"}
    assert [(ln.src, ln.dst) for ln in chart.links] == [("a", "b"), ("b", "c")]
    # fences without Mermaid in them: no chart, but a fenced Graph JSON is still read
    assert fl.load("```text\nI cannot read it.\n```")[1] is False
    doc = fl.load(GT)[0].to_graph().to_dict()
    assert fl.load("```json\n" + json.dumps(doc) + "\n```")[1]


def test_directed_link_f1_treats_undirected_and_two_headed_links():
    gt = "flowchart LR\na(A) --> b(B)\nb --> a\nb --> c(C)\n"
    pred = "flowchart LR\na(A) <--> b(B)\nb --- c(C)\n"
    out = run(gt, pred)
    # as written: pred [A>B, B>C] vs gt [A>B, B>A, B>C] -> P 1, R 2/3
    assert (out["link_p"], out["link_r"]) == (1.0, pytest.approx(2 / 3))
    # directed: pred [A>B, B>A, B-C] vs gt [A>B, B>A, B>C] -> TP 2, P 2/3, R 2/3
    assert out["directed_link_f1"] == pytest.approx(2 / 3)
    same = run("flowchart LR\na(A) --- b(B)\n", "flowchart LR\nb(B) --- a(A)\n")
    assert same["directed_link_f1"] == 1.0 and same["link_f1"] == 0.0


def test_load_graph_json_and_mermaid_agree():
    gt_chart, _ = fl.load(GT)
    doc = gt_chart.to_graph().to_dict()
    chart, ok = fl.load(doc)
    assert ok and fl.score(gt_chart, chart)["link_f1"] == 1.0
    chart, ok = fl.load({**doc, "kind": "topology"})
    assert ok and fl.score(gt_chart, chart)["node_f1"] == 1.0
    chart, ok = fl.load(to_mermaid(gt_chart.to_graph()))
    assert ok and fl.score(gt_chart, chart)["directed_link_f1"] == 1.0
    chart, ok = fl.load("The graph as JSON: " + json.dumps(doc))
    assert ok and fl.score(gt_chart, chart)["link_f1"] == 1.0
    bad = {**doc, "edges": [{"source": "entity0", "target": "nope"}]}
    assert fl.load(bad)[1] is False


def test_summarize_averages_per_image():
    gt = fl.load(GT)[0]
    per = [fl.score(gt, gt), fl.score(gt, fl.load("")[0])]
    out = fl.summarize(per)
    assert set(fl.SUMMARY_KEYS) <= set(out)
    assert out["node_f1"] == 0.5 and out["arrows_acc"] == 0.5 and out["link_p"] == 0.5
    assert fl.summarize([])["node_f1"] == 0.0
