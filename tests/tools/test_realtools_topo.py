"""The real-tool corpus' topology and flowchart sources, without their renderers: DOT ground
truth, the generators' invariants, determinism from the seed, the committed DOT inputs."""

from __future__ import annotations

import ast
import json
import random

import pytest

from tools.realtools import labels
from tools.realtools.corpus import INPUTS

pydot = pytest.importorskip("pydot")

from tools.realtools import dot_truth  # noqa: E402
from tools.realtools.sources import diagrams as diagrams_src  # noqa: E402
from tools.realtools.sources import (  # noqa: E402
    flowlearn, graphviz, graphviz_flow, mermaid11)

needs_words = pytest.mark.skipif(not labels.WORDS_FILE.exists(),
                                 reason="Debian's wamerican word list is not installed")
POOL = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
        "indigo", "juliet", "kilo", "lima", "mike", "november", "oscar")


def truth(text: str) -> dict:
    return dot_truth.ground_truth(dot_truth.parse(text))


def pairs(doc: dict) -> list[tuple[str, str, bool]]:
    label = {n["id"]: n["label"] for n in doc["nodes"]}
    return [(label[e["source"]], label[e["target"]], e["directed"]) for e in doc["edges"]]


# --- DOT -> ground truth ----------------------------------------------------------------

def test_edge_defaults_apply_in_their_scope_and_after_their_statement():
    g = truth("""digraph { a -> b;
        subgraph s { edge [dir=both]; c -> d; }
        e -> f; edge [arrowhead=none]; g -> h; }""")
    assert pairs(g) == [("a", "b", True), ("c", "d", False), ("e", "f", True),
                        ("g", "h", False)]


def test_dir_back_points_at_the_tail_and_undirected_graphs_have_no_heads():
    assert pairs(truth("digraph { a -> b [dir=back]; }")) == [("b", "a", True)]
    assert pairs(truth("graph { a -- b; b -- c }")) == [("a", "b", False), ("b", "c", False)]


def test_ports_groups_and_chains_name_nodes():
    g = truth('digraph { "x":p1 -> y:s; a -> {b c}; m -> n -> o }')
    assert [n["label"] for n in g["nodes"]] == ["x", "y", "a", "b", "c", "m", "n", "o"]
    assert ("a", "b", True) in pairs(g) and ("a", "c", True) in pairs(g)
    assert ("m", "n", True) in pairs(g) and ("n", "o", True) in pairs(g)


def test_labels_records_html_and_escapes():
    g = truth(r'''digraph { node [shape=box];
        r [shape=record, label="{host|<p0> 10.0.0.1}"];
        h [label=<<B>core</B><BR/>switch>];
        e [label="two\nlines"];
        d; }''')
    by_id = {n["id"]: n for n in g["nodes"]}
    assert by_id["r"]["label"] == "host 10.0.0.1"
    assert by_id["h"]["label"] == "core switch"
    assert by_id["e"]["lines"] == ["two", "lines"]
    assert by_id["d"]["label"] == "d" and by_id["d"]["shape"] == "rect"


def test_clusters_invisible_and_unlabelled_nodes_are_not_nodes():
    g = truth("""digraph { subgraph cluster_x { label="Box"; a; b; }
        ghost [style=invis]; a -> ghost; p [shape=point]; p -> a; a -> b [label="ok"]; }""")
    assert [n["label"] for n in g["nodes"]] == ["a", "b"]
    assert g["clusters"] == ["cluster_x"] and g["unlabelled"] == ["p"]
    assert [(e["source"], e["target"], e["label"]) for e in g["edges"]] == [("a", "b", "ok")]


def test_strict_graphs_merge_repeated_edges():
    assert len(truth("strict graph { a -- b; b -- a; a -- c }")["edges"]) == 2


# --- graphviz source ---------------------------------------------------------------------

def test_committed_dot_inputs_are_recorded_and_usable():
    prov = json.loads((INPUTS / "graphviz" / "PROVENANCE.json").read_text())
    files = sorted(p.name for p in (INPUTS / "graphviz").iterdir() if p.suffix in (".dot", ".gv"))
    assert sorted(r["file"] for r in prov["files"]) == files
    for rec in prov["files"]:
        assert rec["repository"].count("/") == 1 and len(rec["commit"]) == 40 and rec["licence"]
        text = (INPUTS / "graphviz" / rec["file"]).read_text()
        assert graphviz.usable(truth(text)) == "", rec["file"]


@needs_words
@pytest.mark.parametrize("engine", graphviz.ENGINES)
def test_generated_dot_round_trips_to_its_spec(engine):
    for j in range(6):
        rng = random.Random(f"7:{engine}:{j}")
        spec = graphviz.make_spec(rng, engine)
        doc = graphviz.document(graphviz.to_dot(spec, rng), 10, 10)
        assert sorted(n["label"] for n in doc["nodes"]) == sorted(spec.labels)
        assert len(doc["edges"]) == len(spec.edges)
        if spec.options["arrowhead"] in ("none", "both") or not spec.directed:
            assert not any(e["directed"] for e in doc["edges"])
        elif spec.options["arrowhead"] != "mixed":
            assert all(e["directed"] for e in doc["edges"])
        if engine not in graphviz.CLUSTER_ENGINES:
            assert not spec.clusters


@needs_words
def test_generated_graphs_follow_the_seed():
    a = graphviz.make_spec(random.Random("s:1"), "dot")
    b = graphviz.make_spec(random.Random("s:1"), "dot")
    c = graphviz.make_spec(random.Random("s:2"), "dot")
    assert a == b and a != c


# --- FlowLearn-style charts --------------------------------------------------------------

@pytest.mark.parametrize("seed", range(40))
def test_flowlearn_links_put_every_node_on_a_link(seed):
    rng = random.Random(seed)
    n = rng.randint(3, 10)
    got = flowlearn.links(rng, n)
    assert {i for p in got for i in p} == set(range(n))
    assert all(a != b for a, b in got) and len(set(got)) == len(got)
    assert [a for a, _ in got] == sorted(a for a, _ in got)
    forward = [p for p in got if p[0] < p[1]]
    assert len(got) - len(forward) <= max(flowlearn.BACK_LINK_COUNTS)


@pytest.mark.parametrize("subset", ["word", "char"])
def test_flowlearn_charts_follow_the_script_and_the_seed(subset):
    for i in range(30):
        chart = flowlearn.make_chart(random.Random(f"3:{subset}:{i}"), subset, POOL)
        again = flowlearn.make_chart(random.Random(f"3:{subset}:{i}"), subset, POOL)
        assert flowlearn.to_mermaid(chart) == flowlearn.to_mermaid(again)
        texts = [n.label for n in chart.nodes]
        assert 3 <= len(texts) <= 10
        if subset == "char":
            assert len(set(texts)) == len(texts)
            assert all(len(t) == 1 and t.isupper() for t in texts)
        else:
            assert all(t and len(t) <= flowlearn.MAX_LABEL_CHARS
                       and 1 <= len(t.split()) <= 5 for t in texts)
        assert chart.orientation in flowlearn.ORIENTATIONS
        bg = chart.background
        assert bg in ("#FFFFFF", "#C0C0C0") or (len(bg) == 7 and int(bg[1:], 16) >= 0)
        code = flowlearn.to_mermaid(chart).splitlines()
        assert code[0] == f"flowchart {chart.orientation}"
        assert code[1] == f"entity0({texts[0]})"
        assert {ln.split()[1] for ln in code[1 + len(texts):]} <= set(flowlearn.LINKS.values())


# --- mermaid-cli 11 charts -------------------------------------------------------------

@pytest.mark.parametrize("subset", mermaid11.SUBSETS)
def test_mermaid11_charts_are_consistent_and_seeded(subset):
    for i in range(8):
        flow = mermaid11.make_flow(random.Random(f"5:{subset}:{i}"), subset)
        code = mermaid11.to_mermaid(flow)
        assert code == mermaid11.to_mermaid(mermaid11.make_flow(random.Random(f"5:{subset}:{i}"),
                                                                subset))
        doc = mermaid11.ground_truth(flow, 1, 1)
        ids = {n["id"] for n in doc["nodes"]}
        assert all(e["source"] in ids and e["target"] in ids for e in doc["edges"])
        assert all(m in ids for g in doc["groups"] for m in g["members"])
        assert all(f"    {n.code}" in code or f"        {n.code}" in code for n in flow.nodes)
        assert ("layout: elk" in code) == (subset == "elk")
        if subset != "elk":
            assert f"theme: {subset.removeprefix('theme-')}" in code


# --- diagrams ------------------------------------------------------------------------------

def test_diagrams_ground_truth_names_icons_in_order():
    dot = '''digraph D { graph [label="Title"];
        subgraph cluster_vpc { label=VPC; "u1" [label="web-01", shape=none, image="x.png"]; }
        "u2" [label="orders db", shape=none, image="y.png"];
        "u1" -> "u2" [dir=forward, label=sql]; "u2" -> "u1" [dir=back]; "u1" -> "u2" [dir=both];
    }'''
    doc = diagrams_src.document(dot, 5, 5)
    assert [(n["id"], n["label"], n["shape"]) for n in doc["nodes"]] == [
        ("n0", "web-01", "icon"), ("n1", "orders db", "icon")]
    assert [(e["source"], e["target"], e["directed"], e["label"]) for e in doc["edges"]] == [
        ("n0", "n1", True, "sql"), ("n0", "n1", True, ""), ("n0", "n1", False, "")]


@needs_words
def test_diagrams_programs_are_python_and_seeded():
    pytest.importorskip("diagrams")
    for i in range(10):
        code, opts = diagrams_src.make_program(random.Random(f"9:{i}"), "LR")
        again, _ = diagrams_src.make_program(random.Random(f"9:{i}"), "LR")
        assert code == again
        ast.parse(code)
        assert opts["direction"] == "LR" and 'direction="LR"' in code


# --- Graphviz flowcharts -------------------------------------------------------------------

@pytest.mark.parametrize("look", graphviz_flow.LOOKS)
def test_graphviz_flowcharts_keep_the_flow(look):
    for i in range(6):
        rng = random.Random(f"11:{look}:{i}")
        flow = mermaid11.make_flow(rng, "theme-default")
        doc = dot_truth.graph_document(graphviz_flow.to_dot(flow, look, rng), "flowchart", 1, 1)
        assert [n["label"] for n in doc["nodes"]] == [n.label for n in flow.nodes]
        assert [(e["source"], e["target"], e["label"], e["directed"]) for e in doc["edges"]] == [
            (e.source, e.target, e.label, mermaid11.LINKS[e.arrow][0]) for e in flow.links]
        assert {doc["nodes"][0]["shape"], doc["nodes"][-1]["shape"]} == {"ellipse"}
