"""Reading draw.io files back: every committed ground truth survives document -> draw.io ->
document, and the edits a person makes in diagrams.net become the document."""

from __future__ import annotations

import base64
import re
import zlib
from pathlib import Path
from urllib.parse import quote

import pytest

from cvparse.export.drawio import to_drawio
from cvparse.export.drawio_read import DrawioError, label_text, read_drawio
from cvparse.model import document_from_json
from tests.export.contract import contract

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
FAMILIES = ("flowchart", "topology", "er", "uml")


@pytest.mark.parametrize("family", FAMILIES)
def test_every_ground_truth_round_trips(family):
    paths = sorted(FIXTURES.glob(f"{family}/*/{family}_*.json"))
    assert len(paths) >= 30
    for p in paths:
        doc = document_from_json(p.read_text())
        back, warnings = read_drawio(to_drawio(doc))
        assert contract(back) == contract(doc), p
        assert warnings == []


@pytest.mark.parametrize("kind", ["graph", "schema", "uml"])
def test_exporter_test_documents_round_trip(kind, request):
    doc = request.getfixturevalue(kind)
    if kind == "graph":  # a node without a box is placed on a grid and read back without one
        assert doc.nodes[-1].bbox is None
    back, _ = read_drawio(to_drawio(doc))
    want = contract(doc)
    if kind == "schema":  # 'Checking' is only an IS-A end: still no entity of its own
        assert "Checking" not in contract(back)["entities"]
    if kind == "graph":  # the drawing's page is the image size
        want["height"] = back.height
    assert contract(back) == want


def test_label_text():
    assert label_text("a &amp; b<br>c&nbsp;d") == "a & b\nc d"
    assert label_text("<div>one</div><div>two</div>") == "one\ntwo"


def _edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_a_persons_graph_edits_become_the_document(graph):
    """Relabel a node, delete one, reverse an arrow, add a shape and a line with
    diagrams.net's default styles, and give one cell a property (an <object> wrapper)."""
    text = to_drawio(graph)
    text = _edit(text, 'value="ellipse 4"', 'value="Check&lt;br&gt;stock"')
    text = re.sub(r'\s*<mxCell id="n13"[^>]*>\s*<mxGeometry[^>]*/>\s*</mxCell>', "", text)
    text = text.replace('edgeStyle=none;rounded=0;html=1;endArrow=block;endFill=1;'
                        'startArrow=none;cvparseType=flow;',
                        'edgeStyle=none;rounded=0;html=1;endArrow=none;'
                        'startArrow=block;startFill=1;cvparseType=flow;')
    added = ('<mxCell id="Xk2-9" value="New step" style="rounded=0;whiteSpace=wrap;html=1;" '
             'vertex="1" parent="1"><mxGeometry x="10" y="300" width="120" height="60" '
             'as="geometry"/></mxCell>'
             '<mxCell id="Xk2-10" style="edgeStyle=orthogonalEdgeStyle;rounded=0;'
             'orthogonalLoop=1;jettySize=auto;html=1;" edge="1" parent="1" source="n1" '
             'target="Xk2-9"><mxGeometry relative="1" as="geometry"/></mxCell>'
             '<mxCell id="dangling" style="html=1;" edge="1" parent="1" source="n1">'
             '<mxGeometry relative="1" as="geometry"/></mxCell>')
    text = text.replace("</root>", added + "</root>")
    text = re.sub(r'<mxCell id="n1" value="rect 0" (style="[^"]*") vertex="1" parent="1">'
                  r'(.*?)</mxCell>',
                  r'<object label="rect 0" owner="me" id="n1"><mxCell \1 vertex="1" '
                  r'parent="1">\2</mxCell></object>', text, flags=re.S)
    doc, warnings = read_drawio(text)
    nodes = {n.id: n for n in doc.nodes}
    assert nodes["n5"].label == "Check\nstock" and "n13" not in nodes
    assert nodes["n1"].label == "rect 0"
    assert (nodes["Xk2-9"].label, nodes["Xk2-9"].shape, nodes["Xk2-9"].bbox) == (
        "New step", "rect", [10, 300, 130, 360])
    flow = next(e for e in doc.edges if e.type == "flow")
    assert (flow.source, flow.target, flow.directed) == ("n4", "n5", True)  # reversed
    new = doc.edges[-1]
    assert (new.source, new.target, new.directed, new.style) == ("n1", "Xk2-9", True, "solid")
    assert warnings == ["line dangling is not joined at both ends: left out"]
    assert {e.source for e in doc.edges} | {e.target for e in doc.edges} <= set(nodes)


def test_a_persons_er_edits_become_the_document(schema):
    text = to_drawio(schema)
    # an attribute drawn by hand on Product, underlined (a key); 'since' renamed
    product = re.search(r'<mxCell id="(v\d+)" value="Product"', text).group(1)
    text = text.replace("</root>", (
        '<mxCell id="a1" value="barcode" style="ellipse;whiteSpace=wrap;html=1;fontStyle=4;" '
        'vertex="1" parent="1"><mxGeometry x="0" y="0" width="80" height="40" as="geometry"/>'
        f'</mxCell><mxCell id="a2" edge="1" parent="1" source="{product}" target="a1" '
        'style="endArrow=none;html=1;"><mxGeometry relative="1" as="geometry"/></mxCell>'
        "</root>"))
    text = _edit(text, 'value="since"', 'value="placed_on"')
    doc, _ = read_drawio(text)
    assert doc.entities["Product"].attributes == ["sku", "title", "barcode"]
    assert doc.entities["Product"].primary_keys == ["sku", "barcode"]
    places = doc.relationships[0]
    assert places.attributes == ["placed_on"] and places.cardinalities == ["1", "N"]


def test_a_persons_uml_edits_become_the_document(uml):
    text = to_drawio(uml)
    # the dependency Dog ..> Bone redrawn as a realization (hollow triangle, dashed)
    text = _edit(text, "endArrow=open;endSize=12;dashed=1;",
                 "endArrow=block;endFill=0;endSize=12;dashed=1;")
    doc, _ = read_drawio(text)
    r = doc.relations[4]
    assert (r.type, r.source, r.target) == ("realization", "Dog", "Bone")
    assert [c.name for c in doc.classes] == [c.name for c in uml.classes]  # Bone undeclared
    assert doc.classes[3].extra == {"stereotype": "interface"}


def test_compressed_files_are_read(uml):
    import xml.etree.ElementTree as ET

    text = to_drawio(uml)
    root = ET.fromstring(text)
    diagram = root.find("diagram")
    model = diagram.find("mxGraphModel")
    raw = quote(ET.tostring(model, encoding="unicode"), safe="")
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    diagram.remove(model)
    diagram.text = base64.b64encode(packer.compress(raw.encode()) + packer.flush()).decode()
    doc, _ = read_drawio(ET.tostring(root, encoding="unicode"))
    assert contract(doc) == contract(read_drawio(text)[0])


@pytest.mark.parametrize("text", ["not xml", "<mxfile><diagram/></mxfile>"])
def test_unreadable_files_are_refused(text):
    with pytest.raises(DrawioError):
        read_drawio(text)
