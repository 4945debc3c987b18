"""draw.io export: a well-formed mxfile that redraws the detected geometry."""

import xml.etree.ElementTree as ET

import pytest

from cvparse.export.drawio import to_drawio


def _cells(text: str) -> tuple[ET.Element, dict[str, ET.Element], list[ET.Element]]:
    mxfile = ET.fromstring(text)
    assert mxfile.tag == "mxfile"
    root = mxfile.find("./diagram/mxGraphModel/root")
    cells = root.findall("mxCell")
    assert cells[0].attrib == {"id": "0"} and cells[1].attrib == {"id": "1", "parent": "0"}
    ids = [c.get("id") for c in cells]
    assert len(ids) == len(set(ids))
    vertices = {c.get("id"): c for c in cells if c.get("vertex") == "1"}
    edges = [c for c in cells if c.get("edge") == "1"]
    for e in edges:
        assert e.get("source") in vertices and e.get("target") in vertices
    return mxfile, vertices, edges


def _geometry(cell: ET.Element) -> list[float]:
    g = cell.find("mxGeometry")
    x, y, w, h = (float(g.get(k)) for k in ("x", "y", "width", "height"))
    return [x, y, x + w, y + h]


def _waypoints(cell: ET.Element) -> list[tuple[float, float]]:
    return [(float(p.get("x")), float(p.get("y")))
            for p in cell.findall("./mxGeometry/Array[@as='points']/mxPoint")]


def test_graph_vertices_sit_at_their_bboxes(graph):
    mxfile, vertices, edges = _cells(to_drawio(graph))
    assert len(vertices) == len(graph.nodes) and len(edges) == len(graph.edges)
    placed = list(vertices.values())
    for node, cell in zip(graph.nodes, placed):
        if node.bbox is not None:
            assert _geometry(cell) == pytest.approx(node.bbox)
    floating = _geometry(placed[-1])
    assert floating[1] >= max(n.bbox[3] for n in graph.nodes if n.bbox)  # grid below
    model = mxfile.find("./diagram/mxGraphModel")
    assert (model.get("pageWidth"), model.get("pageHeight")) == ("1400", "200")


def test_graph_styles(graph):
    _, vertices, edges = _cells(to_drawio(graph))
    styles = [c.get("style") for c in vertices.values()]
    assert styles[1].startswith("rounded=1") and styles[3].startswith("rhombus")
    assert styles[4].startswith("ellipse") and "shape=cylinder3" in styles[8]
    assert "shape=hexagon" in styles[6] and "shape=parallelogram" in styles[7]
    assert styles[9].startswith("triangle")
    e = [c.get("style") for c in edges]
    assert "endArrow=block" in e[0] and "startArrow=none" in e[0]
    assert "dashed=1" in e[1] and edges[1].get("value") == "again"
    assert "startArrow=block" in e[2] and "endArrow=block" in e[2] and "dashPattern" in e[2]
    assert "endArrow=none" in e[3] and "strokeWidth=3" in e[3]
    assert "startArrow=block" in e[5]


def test_waypoints_are_the_interior_points_oriented_source_to_target(graph):
    _, _, edges = _cells(to_drawio(graph))
    for edge, cell in zip(graph.edges, edges):
        points = edge.extra.get("points", [])
        assert len(_waypoints(cell)) == max(len(points) - 2, 0)
    assert _waypoints(edges[0]) == [(90, 60), (95, 60)]
    assert _waypoints(edges[4]) == [(350, 80)]  # stored target -> source: same interior


def test_labels_are_escaped_for_html_cells(graph):
    _, vertices, _ = _cells(to_drawio(graph))
    assert list(vertices.values())[1].get("value") == 'Say &quot;hi&quot; &amp; &lt;go&gt;\\N'


def test_er_schema(schema):
    _, vertices, edges = _cells(to_drawio(schema))
    by_label = {}
    for c in vertices.values():
        by_label.setdefault(c.get("value"), c)
    assert "double=1" in by_label["OrderLine"].get("style")
    assert "double=1" in by_label["contains"].get("style")
    assert "rhombus" in by_label["places"].get("style")
    assert "fontStyle=4" in by_label["customer_id"].get("style")
    assert "doubleEllipse" in by_label["phone"].get("style")
    assert "dashed=1" in by_label["age"].get("style")
    assert by_label["ISA"].get("style").startswith("triangle")
    assert "Checking" in by_label
    n_attr = sum(len(e.attributes) + sum(len(c) for c in e.composite.values())
                 for e in schema.entities.values()) + 3
    n_rel = len(schema.relationships)
    assert len(vertices) == len(schema.entities) + 1 + n_attr + n_rel
    cards = sorted(c.get("value") for c in edges if c.get("value"))
    assert cards == sorted(c for r in schema.plain_relationships for c in r.cardinalities)


def test_er_uses_bboxes_when_present(schema):
    schema.entities["Customer"].extra["bbox"] = [500, 400, 600, 450]
    _, vertices, _ = _cells(to_drawio(schema))
    cell = next(c for c in vertices.values() if c.get("value") == "Customer")
    assert _geometry(cell) == [500, 400, 600, 450]


def test_uml_markers_and_geometry(uml):
    _, vertices, edges = _cells(to_drawio(uml))
    assert len(vertices) == len(uml.classes) + 1  # "Bone" is only a relation end
    assert _geometry(next(iter(vertices.values()))) == [10, 10, 110, 80]
    style = {r.type + str(r.extra.get("directed", "")): c.get("style")
             for r, c in zip(uml.relations, edges)}
    assert "endArrow=block;endFill=0" in style["inheritance"]
    assert "endArrow=block;endFill=0" in style["realization"] and "dashed=1" in style[
        "realization"]
    assert "startArrow=diamondThin;startFill=1" in style["composition"]
    assert "startArrow=diamondThin;startFill=0" in style["aggregation"]
    assert "endArrow=open" in style["dependency"] and "dashed=1" in style["dependency"]
    assert "endArrow=open" in style["association"]
    assert "endArrow=none" in style["associationFalse"]
    # composition/aggregation: source is the whole, where the diamond (start) is drawn
    comp = edges[2]
    assert vertices[comp.get("source")].get("value").count("zoo.Kennel") == 1
    assert _waypoints(edges[3]) == [(150, 170)]
    assert len(_waypoints(edges[0])) == 0


def test_explicit_page_size(graph):
    mxfile, _, _ = _cells(to_drawio(graph, width=2000, height=900))
    model = mxfile.find("./diagram/mxGraphModel")
    assert (model.get("pageWidth"), model.get("pageHeight")) == ("2000", "900")
