"""The tolerant Mermaid reader handles the flowchart syntax VLMs write; the writer round-trips."""

import pytest

from cvparse.export.mermaid import to_mermaid
from cvparse.metrics.mermaid import (MermaidChart, MermaidLink, extract_mermaid, parse_mermaid,
                                     read_answer)
from cvparse.model import Edge, Graph, Node


def edges(chart: MermaidChart) -> list[tuple[str, str]]:
    return [(ln.src, ln.dst) for ln in chart.links]


@pytest.mark.parametrize("header,direction", [
    ("flowchart TB", "TB"), ("flowchart BT", "BT"), ("flowchart LR", "LR"),
    ("flowchart RL", "RL"), ("flowchart TD", "TD"), ("graph LR", "LR"), ("graph", "TB"),
])
def test_header_directions(header, direction):
    chart = parse_mermaid(f"{header}\n  a --> b\n")
    assert chart.header and chart.direction == direction
    assert edges(chart) == [("a", "b")]


def test_missing_header_still_parses():
    chart = parse_mermaid("a(x) --> b(y)")
    assert not chart.header
    assert {i: n.text for i, n in chart.nodes.items()} == {"a": "x", "b": "y"}
    assert edges(chart) == [("a", "b")]


@pytest.mark.parametrize("decl,text,shape", [
    ("n(text)", "text", "round_rect"), ("n[text]", "text", "rect"),
    ("n{text}", "text", "diamond"), ("n((text))", "text", "circle"),
    ("n([text])", "text", "stadium"), ("n[(text)]", "text", "cylinder"),
    ("n{{text}}", "text", "hexagon"), ("n>text]", "text", "other"),
    ("n[/text/]", "text", "parallelogram"), ("n[\\text\\]", "text", "parallelogram"),
    ("n[[text]]", "text", "rect"), ('n["a b"]', "a b", "rect"),
    ('n("a (b) [c]")', "a (b) [c]", "round_rect"), ("n(foo (bar))", "foo (bar)", "round_rect"),
    ('n["say #quot;hi#quot; #35;1"]', 'say "hi" #1', "rect"), ("n(a<br>b)", "a\nb", "round_rect"),
    ("n", "n", "rect"),
])
def test_node_shapes_and_texts(decl, text, shape):
    node = parse_mermaid(f"flowchart TB\n{decl}\n").nodes["n"]
    assert (node.text, node.shape) == (text, shape)
    assert node.labelled == (decl != "n")


@pytest.mark.parametrize("arrow,style,kind", [
    ("-->", "solid", "arrow"), ("--->", "solid", "arrow"), ("==>", "bold", "arrow"),
    ("====>", "bold", "arrow"), ("-.->", "dotted", "arrow"), ("-..->", "dotted", "arrow"),
    ("---", "solid", "open"), ("===", "bold", "open"), ("-.-", "dotted", "open"),
    ("<-->", "solid", "both"), ("<==>", "bold", "both"), ("--o", "solid", "circle"),
    ("--x", "solid", "cross"), ("–>", "solid", "arrow"), ("—>", "solid", "arrow"),
])
def test_link_styles_and_kinds(arrow, style, kind):
    for src in (f"a {arrow} b", f"a{arrow}b"):
        chart = parse_mermaid(f"flowchart LR\n{src}\n")
        assert chart.links == [MermaidLink("a", "b", style, "", kind)], src


def test_reversed_arrow_is_read_backwards():
    assert edges(parse_mermaid("a <-- b")) == [("b", "a")]


@pytest.mark.parametrize("src,style", [
    ("a -->|yes| b", "solid"), ("a -->|\"yes\"| b", "solid"), ("a -- yes --> b", "solid"),
    ("a == yes ==> b", "bold"), ("a -. yes .-> b", "dotted"), ("a ==>|yes| b", "bold"),
])
def test_link_labels(src, style):
    assert parse_mermaid(src).links == [MermaidLink("a", "b", style, "yes", "arrow")]


def test_label_with_hyphen_is_not_cut():
    assert parse_mermaid("a -- well-known --> b").links[0].label == "well-known"
    assert parse_mermaid("a --text--> b").links == [MermaidLink("a", "b", "solid", "text")]


def test_double_dash_without_arrow_is_an_undirected_link():
    assert parse_mermaid("a -- b").links == [MermaidLink("a", "b", "solid", "", "open")]


def test_chains_and_ampersand():
    chart = parse_mermaid("flowchart TB\na --> b ==> c\nd & e --> f & g\n")
    assert edges(chart) == [("a", "b"), ("b", "c"), ("d", "f"), ("d", "g"), ("e", "f"),
                            ("e", "g")]
    assert [ln.style for ln in chart.links[:2]] == ["solid", "bold"]


def test_separators_comments_and_ignored_statements():
    src = """graph TD;
    %% a comment --> ignored
    %%{init: {"theme": "dark"}}%%
    a(A);b(B);a-->b
    subgraph one [Group]
      direction LR
      c --> d
    end
    classDef red fill:#f00,stroke:#333;
    class a red
    style b fill:#fff
    click a callback "tooltip"
    linkStyle 0 stroke:#ff3
    e:::red --> f
    g ~~~ h
    """
    chart = parse_mermaid(src)
    assert edges(chart) == [("a", "b"), ("c", "d"), ("e", "f")]
    assert set(chart.nodes) == {"a", "b", "c", "d", "e", "f", "g", "h"}
    assert chart.nodes["a"].text == "A"


def test_later_bracket_text_wins_and_bare_reference_keeps_it():
    chart = parse_mermaid("a --> b\na(first)\nb(x)\na(second)\na --> b")
    assert chart.nodes["a"].text == "second" and chart.nodes["b"].text == "x"
    assert list(chart.nodes) == ["a", "b"]


def test_link_ends_named_by_several_words_are_one_name():
    # Node text in place of an id (FlowLearn's protocol allows it), words a space apart.
    chart = parse_mermaid("flowchart TD\nskimos ext --> turfen hexapodiums\n"
                          "a --> denierage reboil & b\nc -- lab el --> d[x y]\n")
    assert edges(chart) == [("skimos ext", "turfen hexapodiums"), ("a", "denierage reboil"),
                            ("a", "b"), ("c", "d")]
    assert chart.links[-1].label == "lab el" and chart.nodes["d"].text == "x y"
    assert "end" not in chart.nodes and "ext" not in chart.nodes


def test_code_on_one_line_keeps_spaces_between_statements():
    chart = parse_mermaid("flowchart LR a --> b b --> c")
    assert edges(chart) == [("a", "b"), ("b", "c")]


def test_paper_answer_on_one_line_with_en_dashes():
    # Table 2 of the FlowLearn paper, as its PDF text renders it (fences, dashes, one line).
    ans = ("“‘mermaid flowchart LR entity0(pythagoreanly) entity1(monotrochal) "
           "entity2(pennames vesuviate) entity0 ==>entity2 entity0 –>entity1 "
           "entity1 –>entity0 entity2 –>entity0 “‘")
    chart, ok = read_answer(ans)
    assert ok and chart.direction == "LR"
    assert [n.text for n in chart.nodes.values()] == ["pythagoreanly", "monotrochal",
                                                     "pennames vesuviate"]
    assert [(chart.text_of(a), chart.text_of(b)) for a, b in edges(chart)] == [
        ("pythagoreanly", "pennames vesuviate"), ("pythagoreanly", "monotrochal"),
        ("monotrochal", "pythagoreanly"), ("pennames vesuviate", "pythagoreanly")]
    assert [ln.style for ln in chart.links] == ["bold", "solid", "solid", "solid"]


def test_fenced_code_inside_prose():
    ans = ("Here is the Mermaid code for the flowchart:\n\n```mermaid\nflowchart TB\n"
           "    A(Start here) --> B(Next)\n```\n\nThis chart shows two steps.")
    chart, ok = read_answer(ans)
    assert ok and edges(chart) == [("A", "B")] and set(chart.nodes) == {"A", "B"}


def test_header_on_the_fence_line_is_kept():
    chart, ok = read_answer("```mermaid flowchart RL\nA --> B\n```")
    assert ok and chart.direction == "RL" and edges(chart) == [("A", "B")]


def test_one_line_fence_followed_by_prose():
    chart, ok = read_answer("Answer:\n```mermaid flowchart LR a(x) --> b(y) ```\nDone.")
    assert ok and chart.direction == "LR" and set(chart.nodes) == {"a", "b"}


def test_front_matter_is_skipped():
    chart, ok = read_answer("---\ntitle: Flow\n---\nflowchart LR\n  a --> b\n")
    assert ok and set(chart.nodes) == {"a", "b"} and edges(chart) == [("a", "b")]


def test_unlabelled_fence_and_header_in_prose():
    chart, _ = read_answer("Sure:\n```\ngraph LR\nx --> y\n```")
    assert edges(chart) == [("x", "y")]
    chart, ok = read_answer("The code is flowchart LR\nA[Go] --> B[Stop]\nIt has two nodes.")
    assert ok and edges(chart) == [("A", "B")]
    assert set(chart.nodes) == {"A", "B"}  # the prose line added no nodes


def test_text_without_mermaid_is_invalid():
    chart, ok = read_answer("I am sorry, I cannot read this flowchart.")
    assert not ok and not chart.nodes and not chart.links
    assert extract_mermaid("no code here") is None


def test_to_graph():
    g = parse_mermaid("flowchart LR\na(A) ==>|go| b{B}\nb --- c\nc <--> a").to_graph()
    assert g.kind == "flowchart" and g.extra["direction"] == "LR"
    assert [(n.id, n.label, n.shape) for n in g.nodes] == [
        ("a", "A", "round_rect"), ("b", "B", "diamond"), ("c", "c", "rect")]
    assert [(e.source, e.target, e.directed, e.style, e.label) for e in g.edges] == [
        ("a", "b", True, "bold", "go"), ("b", "c", False, "solid", ""),
        ("c", "a", False, "solid", "")]
    Graph.from_dict(g.to_dict())  # a valid FORMATS.md document


def _graph() -> Graph:
    labels = ["Validate Input", 'Say "hi" (loud)', "a | b", "#1 <br> x", "", "end",
              "x -> y", "inner  spaces", "two\nlines", "ünïcode ✓"]
    shapes = ["round_rect", "rect", "diamond", "stadium", "circle", "hexagon",
              "parallelogram", "cylinder", "other", "round_rect"]
    nodes = [Node(f"n{i + 1}", lab, shp) for i, (lab, shp) in enumerate(zip(labels, shapes))]
    specs = [("solid", True, ""), ("bold", True, "yes"), ("dotted", True, "a|b"),
             ("solid", False, ""), ("bold", False, "x"), ("dotted", True, "")]
    edges_ = [Edge(f"n{i % 10 + 1}", f"n{(i * 3 + 1) % 10 + 1}", d, s, lab)
              for i, (s, d, lab) in enumerate(specs * 2)]
    edges_.append(Edge("n1", "n2", False, "solid", "", extra={"mermaid_link": "both"}))
    return Graph(nodes=nodes, edges=edges_)


def test_write_uses_formats_dialect():
    g = Graph(nodes=[Node("n1", "Validate Input", "round_rect"), Node("n2", "Done", "round_rect")],
              edges=[Edge("n1", "n2"), Edge("n2", "n1", style="bold"),
                     Edge("n1", "n2", style="dashed"), Edge("n1", "n2", directed=False),
                     Edge("n2", "n1", directed=False, extra={"mermaid_link": "both"})])
    assert to_mermaid(g).splitlines() == [
        "flowchart TB", "    n1(Validate Input)", "    n2(Done)", "    n1 --> n2",
        "    n2 ==> n1", "    n1 -.-> n2", "    n1 --- n2", "    n2 <--> n1"]


def test_write_then_parse_round_trips():
    g = _graph()
    back = parse_mermaid(to_mermaid(g, "LR")).to_graph()
    assert back.extra["direction"] == "LR"
    assert [(n.id, n.label, n.shape) for n in back.nodes] == [
        (n.id, n.label, n.shape) for n in g.nodes]
    assert [(e.source, e.target, e.directed, e.style, e.label, e.extra) for e in back.edges] == [
        (e.source, e.target, e.directed, e.style, e.label, e.extra) for e in g.edges]


def test_write_renames_ids_mermaid_cannot_take():
    g = Graph(nodes=[Node("end", "End"), Node("my node", "Mine"), Node("n1", "One")],
              edges=[Edge("end", "my node"), Edge("my node", "n1")])
    chart = parse_mermaid(to_mermaid(g))
    assert len(chart.nodes) == 3
    assert [(chart.text_of(a), chart.text_of(b)) for a, b in edges(chart)] == [
        ("End", "Mine"), ("Mine", "One")]
