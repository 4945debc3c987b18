"""The PlantUML class-diagram reader behind the real-tool corpus's committed class diagrams
(:mod:`tools.realtools.puml_class`) and those committed inputs."""

from __future__ import annotations

import pytest

from tools.realtools import puml_class
from tools.realtools.corpus import committed_inputs

PERMISSIVE = ("MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "Unlicense", "CC0-1.0",
              "0BSD")


def _read(body: str) -> puml_class.Diagram:
    return puml_class.read(f"@startuml\n{body}\n@enduml\n")


def _by_name(d: puml_class.Diagram) -> dict[str, dict]:
    return {c["name"]: c for c in d.classes}


def test_declarations_bodies_and_member_lines():
    d = _read("abstract class Animal <<Entity>> #pink {\n  - name : String\n"
              "  + {abstract} speak() : void\n  --\n  {field} run()\n}\n"
              "interface Pet\nenum Color {\n RED\n GREEN\n}\nDog : +bark()\n"
              "Animal <|-- Dog\nDog ..|> Pet\nDog --> Color")
    c = _by_name(d)
    assert c["Animal"] == {"name": "Animal", "attributes": ["name : String", "run()"],
                           "methods": ["speak() : void"], "stereotype": "Entity"}
    assert c["Pet"]["stereotype"] == "interface"
    assert c["Color"]["attributes"] == ["RED", "GREEN"] and not c["Color"]["methods"]
    assert c["Dog"]["methods"] == ["bark()"] and c["Dog"]["stereotype"] == "class"


def test_visibility_is_text_only_without_icons():
    d = _read("skinparam classAttributeIconSize 0\nclass A {\n  -x : int\n}\nA --> B")
    assert _by_name(d)["A"]["attributes"] == ["-x : int"]


def test_links_are_typed_by_the_formats_table():
    d = _read('A <|-- B\nC ..|> D\nE "1" *-- "many" F : parts >\nG o-- H\nI --> J\n'
              "K ..> L\nM -- N\nO -up-|> P\nQ --* R")
    got = [(r["type"], r["source"], r["target"], r.get("directed", True), r.get("label"))
           for r in d.relations]
    assert got == [("inheritance", "B", "A", True, None),
                   ("realization", "C", "D", True, None),
                   ("composition", "E", "F", True, "parts"),
                   ("aggregation", "G", "H", True, None),
                   ("association", "I", "J", True, None),
                   ("dependency", "K", "L", True, None),
                   ("association", "M", "N", False, None),
                   ("inheritance", "O", "P", True, None),
                   ("composition", "R", "Q", True, None)]


def test_a_name_beginning_with_o_is_not_an_aggregation_head():
    d = _read("Shop -- order\nShop --> owner")
    assert [(r["type"], r["target"]) for r in d.relations] == [("association", "order"),
                                                                ("association", "owner")]


def test_aliases_draw_the_shown_name_and_notes_draw_no_class():
    d = _read('class "Order Line" as OL\nclass Cart as "Shopping Cart"\nOL --> Cart\n'
              "note as N1\n  about carts\nend note\nN1 .. Cart\nnote left of OL : hi\n"
              "package shop {\n  class Till\n}\nTill --> OL")
    assert sorted(_by_name(d)) == ["Order Line", "Shopping Cart", "Till"]
    assert [(r["source"], r["target"]) for r in d.relations] == [
        ("Order Line", "Shopping Cart"), ("Till", "Order Line")]


def test_hide_members_empties_the_compartments():
    d = _read("hide members\nclass A {\n  x : int\n  f()\n}\nA --> B")
    assert _by_name(d)["A"]["attributes"] == [] and _by_name(d)["A"]["methods"] == []


@pytest.mark.parametrize("body", [
    "!include common.puml\nA --> B", "class Box<T>\nBox --> B", "namespace a {\n}\nA --> B",
    "class a.B\na.B --> C", "class A extends B\nA --> C", "object o\nA --> B",
    "A -[#red]-> B", "A .. B\nA --> B", "A <|--|> B", "hide A\nA --> B",
    "together {\nclass A\n}\nA --> B", "class A", "class A {\n  x : int\nA --> B",
])
def test_constructs_it_does_not_model_are_refused(body):
    with pytest.raises(puml_class.Unsupported):
        _read(body)


def test_committed_inputs_have_provenance_and_are_read():
    files = committed_inputs("plantuml_class")
    assert files
    read = 0
    for path, prov in files:
        assert prov["repository"] and len(prov["commit"]) == 40 and prov["path"]
        assert prov["licence"].split()[0] in PERMISSIVE
        read += bool(puml_class.read(path.read_text(encoding="utf-8")).relations)
    assert read == len(files)


def test_hide_of_one_class_empties_only_its_compartment():
    d = _read("class A {\n  x : int\n  f()\n}\nclass B {\n  y : int\n}\nhide A fields\n"
              "hide empty members\nA --> B")
    assert _by_name(d)["A"]["attributes"] == [] and _by_name(d)["A"]["methods"] == ["f()"]
    assert _by_name(d)["B"]["attributes"] == ["y : int"]
