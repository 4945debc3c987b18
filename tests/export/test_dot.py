"""DOT export: plausible syntax without Graphviz, and accepted by ``dot`` when installed."""

import re
import shutil
import subprocess

import pytest

from cvparse.export.dot import quote, to_dot

_ID = r'(\w+|"(?:[^"\\]|\\.)*")'
_NODE = re.compile(rf"^\s*{_ID}\s*(?:\[.*\])?;$")
_EDGE = re.compile(rf"^\s*{_ID}\s*(--|->)\s*{_ID}\s*(?:\[.*\])?;$")


def _structure(text: str) -> tuple[set[str], list[tuple[str, str]]]:
    """Declared node ids and edges; fails on a statement that is neither."""
    nodes, edges = set(), []
    body = text.strip().splitlines()
    assert body[-1] == "}" and body[0].endswith("{")
    for line in body[1:-1]:
        if line.strip().startswith("node ["):
            continue
        if m := _EDGE.match(line):
            edges.append((m.group(1), m.group(3)))
        elif m := _NODE.match(line):
            nodes.add(m.group(1))
        else:
            pytest.fail(f"unexpected DOT statement: {line!r}")
    return nodes, edges


def _balanced(text: str) -> bool:
    """Braces and brackets balance outside double-quoted strings."""
    depth = {"{": 0, "[": 0}
    in_str = escaped = False
    for c in text:
        if in_str:
            in_str = not (c == '"' and not escaped)
            escaped = c == "\\" and not escaped
            continue
        if c == '"':
            in_str = True
        elif c in "{[":
            depth[c] += 1
        elif c in "}]":
            depth["{" if c == "}" else "["] -= 1
            if min(depth.values()) < 0:
                return False
    return not in_str and all(v == 0 for v in depth.values())


def test_graph_dot_declares_every_node_it_uses(graph):
    text = to_dot(graph)
    assert text.startswith('digraph "topology" {') and _balanced(text)
    nodes, edges = _structure(text)
    assert len(nodes) == len(graph.nodes) and len(edges) == len(graph.edges)
    assert {n for e in edges for n in e} <= nodes


def test_graph_dot_maps_shapes_styles_and_heads(graph):
    lines = to_dot(graph).splitlines()
    node = {ln.split(" [")[0].strip(): ln for ln in lines if "label=" in ln and "->" not in ln}
    assert 'shape="diamond"' in node['"n4"'] and 'shape="cylinder"' in node['"n9"']
    assert 'style="rounded"' in node['"n2"'] and 'shape="plaintext"' in node['"n12"']
    edges = [ln for ln in lines if "->" in ln]
    assert "dir" not in edges[0] and 'style="dashed"' in edges[1]
    assert 'dir="both"' in edges[2] and 'style="dotted"' in edges[2]
    assert 'dir="none"' in edges[3] and 'style="bold"' in edges[3]
    assert 'dir="both"' in edges[5]


def test_labels_are_escaped():
    assert quote('say "hi" \\N\nnext') == '"say \\"hi\\" \\\\N\\nnext"'


def test_er_dot_uses_chen_notation(schema):
    text = to_dot(schema)
    assert text.startswith("graph ER {") and _balanced(text)
    nodes, edges = _structure(text)
    assert {n for e in edges for n in e} <= nodes
    lines = text.splitlines()

    def node(label: str) -> str:
        return next(ln for ln in lines if f'label="{label}"' in ln or f"<U>{label}</U>" in ln)

    assert 'shape="box"' in node("Customer") and "peripheries" not in node("Customer")
    assert 'peripheries="2"' in node("OrderLine")
    assert 'shape="diamond"' in node("contains") and 'peripheries="2"' in node("contains")
    assert "label=<<U>customer_id</U>>" in node("customer_id")
    assert 'peripheries="2"' in node("phone") and 'style="dashed"' in node("age")
    assert 'shape="triangle"' in node("ISA")
    assert any('label="N"' in ln and "--" in ln for ln in lines)
    # composite components hang off their parent, not off the entity
    parent = node("address").split(" [")[0].strip()
    street = node("street").split(" [")[0].strip()
    assert (parent, street) in edges
    # undeclared IS-A subclass and 10 attribute ellipses + 3 components + 3 rel attributes
    assert any('label="Checking"' in ln for ln in lines)
    assert sum('shape="ellipse"' in ln for ln in lines) == sum(
        len(e.attributes) + sum(len(c) for c in e.composite.values())
        for e in schema.entities.values()) + 3


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz not installed")
@pytest.mark.parametrize("which", ["graph", "schema"])
def test_graphviz_renders_it(which, request):
    doc = request.getfixturevalue(which)
    out = subprocess.run(["dot", "-Tsvg"], input=to_dot(doc), text=True, capture_output=True,
                         timeout=60)
    assert out.returncode == 0 and not out.stderr, out.stderr
    assert "<svg" in out.stdout


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz not installed")
def test_graphviz_sees_the_documents_node_ids(graph):
    import json

    out = subprocess.run(["dot", "-Tjson"], input=to_dot(graph), text=True,
                         capture_output=True, timeout=60, check=True)
    drawn = json.loads(out.stdout)
    assert sorted(o["name"] for o in drawn["objects"]) == sorted(n.id for n in graph.nodes)
    names = {i: o["name"] for i, o in enumerate(drawn["objects"])}
    assert [(names[e["tail"]], names[e["head"]]) for e in drawn["edges"]] == [
        (e.source, e.target) for e in graph.edges]
