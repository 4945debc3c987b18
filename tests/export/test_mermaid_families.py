"""Mermaid for every family: ``erDiagram`` for ER schemas, ``classDiagram`` for UML models,
checked by Mermaid itself when ``mmdc`` is installed."""

import re

from cvparse.export.formats import export
from cvparse.export.mermaid import to_mermaid
from tests.export.consumers import render_mermaid


def test_er_diagram(schema):
    text = to_mermaid(schema)
    lines = text.splitlines()
    assert lines[0] == "erDiagram" and text.endswith("\n")
    assert "        string customer_id PK" in lines
    assert '        string phone "multivalued"' in lines
    assert '    e8["Work Group"] {' in lines and '        string group_name "group name"' in lines
    assert "    OrderLine }o..|| Product : refers_to" in lines
    assert "    Employee ||..o{ Employee : supervises" in lines
    assert "    Savings ||--|| Account : ISA" in lines
    links = [ln for ln in lines if re.search(r" [|}][|o](--|\.\.)[|o][|{] ", ln)]
    assert len(links) == 14


def test_er_diagram_ids_never_collide():
    from cvparse.model import Entity, ERSchema, Relationship

    s = ERSchema(entities={"places": Entity("places", ["a"]), "e1": Entity("e1", ["b"]),
                           "x y": Entity("x y", ["c"])},
                 relationships=[Relationship("places", ["places", "x y"], ["1", "N"],
                                             attributes=["since"])])
    lines = to_mermaid(s).splitlines()
    heads = [ln.split("[")[0].split(" {")[0].strip() for ln in lines if ln.endswith("{")]
    assert len(heads) == len(set(heads)) == 4


def test_class_diagram(uml):
    lines = to_mermaid(uml).splitlines()
    assert lines[0] == "classDiagram"
    for want in ["    Dog --|> Animal", "    Animal ..|> Speaker", "    c5 *-- Dog",
                 "    c3 o-- Dog", "    Dog ..> Bone", "    c3 --> c5", "    Animal -- c3",
                 '    class c3["Pet Owner"] {', "        <<interface>>", "    class Bone"]:
        assert want in lines


def test_every_family_has_mermaid(graph, schema, uml):
    heads = [export(d, "mermaid").split()[0] for d in (graph, schema, uml)]
    assert heads == ["flowchart", "erDiagram", "classDiagram"]


def test_mermaid_draws_the_er_diagram(schema, tmp_path):
    svg = render_mermaid(to_mermaid(schema), tmp_path)
    assert "Work Group" in svg and "customer_id" in svg and "supervises" in svg


def test_mermaid_draws_the_class_diagram(uml, tmp_path):
    svg = render_mermaid(to_mermaid(uml), tmp_path)
    assert "Pet Owner" in svg and "zoo.Kennel" in svg and "fetch(ball: Ball)" in svg


def test_mermaid_draws_the_flowchart(graph, tmp_path):
    svg = render_mermaid(to_mermaid(graph), tmp_path)
    assert "floating" in svg
