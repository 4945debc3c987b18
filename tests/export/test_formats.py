"""Format dispatch: every format reachable, kind mismatches refused with a clear message."""

import json
import subprocess
import sys

import pytest

from cvparse.export.formats import FORMATS, export
from cvparse.model import document_from_json

WRITERS = {"json": None, "mermaid": "to_mermaid", "plantuml": "to_plantuml", "sql": "to_sql",
           "dot": "to_dot", "graphml": "to_graphml", "drawio": "to_drawio"}


def test_formats_lists_every_writer():
    assert set(FORMATS) == set(WRITERS)


@pytest.mark.parametrize("fmt, kind", [("mermaid", "graph"), ("dot", "graph"),
                                       ("dot", "schema"), ("graphml", "graph"),
                                       ("drawio", "graph"), ("drawio", "schema"),
                                       ("drawio", "uml"), ("sql", "schema"),
                                       ("plantuml", "uml"), ("plantuml", "schema"),
                                       ("mermaid", "schema"), ("mermaid", "uml")])
def test_dispatch_reaches_the_writer(fmt, kind, request):
    import importlib

    doc = request.getfixturevalue(kind)
    writer = getattr(importlib.import_module(f"cvparse.export.{fmt}"), WRITERS[fmt])
    assert export(doc, fmt) == writer(doc)


@pytest.mark.parametrize("kind", ["graph", "schema", "uml"])
def test_json_round_trips(kind, request):
    doc = request.getfixturevalue(kind)
    text = export(doc, "json")
    assert text.endswith("\n") and document_from_json(text).to_dict() == doc.to_dict()
    assert json.loads(text)["kind"] == doc.kind


@pytest.mark.parametrize("fmt, kind, message", [
    ("sql", "graph", "format sql needs an ER diagram, not topology"),
    ("plantuml", "graph", "format plantuml needs an ER diagram or a UML class diagram, "
     "not topology"),
    ("sql", "uml", "format sql needs an ER diagram, not uml"),
    ("graphml", "schema", "format graphml needs a flowchart or topology diagram, not er"),
    ("dot", "uml", "format dot needs a flowchart or topology diagram or an ER diagram, not uml"),
])
def test_kind_mismatch_is_refused(fmt, kind, message, request):
    with pytest.raises(ValueError) as err:
        export(request.getfixturevalue(kind), fmt)
    assert str(err.value) == message


def test_unknown_format_is_refused(graph):
    with pytest.raises(ValueError, match="'svg' is not supported"):
        export(graph, "svg")


def test_export_does_not_import_metrics():
    code = ("import sys, cvparse.export.formats as f, cvparse.export.mermaid, "
            "cvparse.export.plantuml, cvparse.export.sql, cvparse.export.dot, "
            "cvparse.export.graphml, cvparse.export.drawio; "
            "print(sorted(m for m in sys.modules if m.startswith('cvparse.metrics')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_metrics_do_not_import_export():
    code = ("import sys, cvparse.metrics.mermaid, cvparse.metrics.flowlearn, "
            "cvparse.metrics.uml, cvparse.metrics.er; "
            "print(sorted(m for m in sys.modules if m.startswith('cvparse.export')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def _fixture_docs():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "fixtures"
    docs = {}
    for family in ("flowchart", "topology", "er", "uml"):
        path = sorted((root / family / "test").glob(f"{family}_*.json"))[0]
        docs[family] = document_from_json(path.read_text())
    return docs


@pytest.mark.parametrize("fmt", FORMATS)
def test_family_table_says_which_exports_work(fmt):
    """Every pair the table allows writes a fixture's ground truth; every other pair is
    refused with the table's reason."""
    from cvparse.export.formats import FAMILIES

    for family, doc in _fixture_docs().items():
        if family in FAMILIES[fmt]:
            assert export(doc, fmt).endswith("\n")
        else:
            with pytest.raises(ValueError, match=f"format {fmt} needs"):
                export(doc, fmt)


def test_every_graph_format_keeps_the_documents_node_ids():
    """Ids with a gap (n4 deleted, as a parse leaves them) are the same in every format,
    so a person can follow one node from the JSON to the Mermaid, DOT, GraphML and draw.io
    files (DOT once renumbered them n1..n6)."""
    import re
    import xml.etree.ElementTree as ET

    from cvparse.export.formats import FAMILIES
    from cvparse.model import Edge, Graph, Node

    ids = ["n1", "n2", "n3", "n5", "n6", "n7"]
    graph = Graph(kind="flowchart", nodes=[Node(i, f"label {i}", "rect", [0, 0, 9, 9])
                                           for i in ids],
                  edges=[Edge("n1", "n3"), Edge("n3", "n7"), Edge("n5", "n6", directed=False)])
    pairs = [("n1", "n3"), ("n3", "n7"), ("n5", "n6")]
    found = {}
    mmd = export(graph, "mermaid")
    found["mermaid"] = (re.findall(r"^\s*(\w+)\[", mmd, re.M),
                        re.findall(r"^\s*(\w+) -[->]+ (\w+)$", mmd, re.M))
    dot = export(graph, "dot")
    found["dot"] = (re.findall(r'^\s*"(\w+)" \[label', dot, re.M),
                    re.findall(r'^\s*"(\w+)" -> "(\w+)"', dot, re.M))
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    root = ET.fromstring(export(graph, "graphml"))
    found["graphml"] = ([n.get("id") for n in root.iterfind(".//g:node", ns)],
                        [(e.get("source"), e.get("target"))
                         for e in root.iterfind(".//g:edge", ns)])
    cells = ET.fromstring(export(graph, "drawio")).iter("mxCell")
    cells = list(cells)
    found["drawio"] = ([c.get("id") for c in cells if c.get("vertex") == "1"],
                       [(c.get("source"), c.get("target")) for c in cells
                        if c.get("edge") == "1"])
    assert set(found) | {"json"} == {f for f in FORMATS if "flowchart" in FAMILIES[f]}
    for fmt, (nodes, edges) in found.items():
        assert nodes == ids, fmt
        assert [tuple(e) for e in edges] == pairs, fmt
