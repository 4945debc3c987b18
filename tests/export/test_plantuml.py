"""PlantUML export: the FORMATS.md relation table, read back by the UML scorer's reader."""

import shutil
import subprocess
from collections import Counter

import pytest

from cvparse.export.plantuml import to_plantuml
from cvparse.metrics import uml as uml_metric


def test_round_trip_through_the_uml_reader_keeps_relations(uml):
    rep, ok = uml_metric.load(to_plantuml(uml))
    assert ok
    expected = Counter((r.type, r.source, r.target, r.extra.get("directed") is not False)
                       for r in uml.relations)
    assert Counter(tuple(r) for r in rep.relations) == expected
    assert set(rep.classes) == {c.name for c in uml.classes} | {"Bone"}


def test_arrows_follow_the_convention_table(uml):
    lines = to_plantuml(uml).splitlines()
    assert lines[0] == "@startuml" and lines[-1] == "@enduml"
    for expected in ('Dog --|> Animal', 'Animal ..|> Speaker', '"zoo.Kennel" *-- Dog',
                     '"Pet Owner" o-- Dog', 'Dog ..> Bone', '"Pet Owner" --> "zoo.Kennel"',
                     'Animal -- "Pet Owner"'):
        assert expected in lines


def test_class_blocks_hold_members_in_order(uml):
    text = to_plantuml(uml)
    block = text[text.index("class Dog {"):]
    block = block[:block.index("}") + 1].splitlines()
    assert [ln.strip() for ln in block[1:-1]] == ["breed: String", "bark()", "fetch(ball: Ball)"]
    assert 'interface Speaker {' in text and 'class "Pet Owner"\n' in text


def test_members_plantuml_would_misfile_are_marked():
    from cvparse.model import UMLClass, UMLModel

    text = to_plantuml(UMLModel(classes=[UMLClass("A", ["f(x) table"], ["run"])]))
    assert "{field} f(x) table" in text and "{method} run" in text


@pytest.mark.skipif(shutil.which("plantuml") is None, reason="plantuml not installed")
def test_plantuml_accepts_the_text(uml):
    out = subprocess.run(["plantuml", "-syntax"], input=to_plantuml(uml), text=True,
                         capture_output=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("CLASS")
