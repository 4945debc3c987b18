"""The JSON Schemas in docs/schema/ describe what cvparse really writes: every committed
ground truth, parser outputs of each family, the node inventory and report.jsonl lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "docs" / "schema"
FIXTURES = ROOT / "fixtures"
FAMILY_SCHEMA = {"flowchart": "graph", "topology": "graph", "er": "er", "uml": "uml"}


def validator(name: str):
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _errors(name: str, doc) -> list[str]:
    return [f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator(name).iter_errors(doc)]


@pytest.mark.parametrize("family", sorted(FAMILY_SCHEMA))
def test_every_ground_truth_validates(family):
    v = validator(FAMILY_SCHEMA[family])
    paths = sorted(FIXTURES.glob(f"{family}/*/{family}_*.json"))
    assert len(paths) >= 30
    for p in paths:
        errors = list(v.iter_errors(json.loads(p.read_text())))
        assert not errors, f"{p}: {errors[0].message}"


@pytest.mark.parametrize("name, doc, where", [
    ("graph", {"kind": "flowchart", "nodes": [{"id": "a"}], "edges": []}, "label"),
    ("graph", {"kind": "flowchart", "nodes": [], "edges": [{"source": "a", "target": "b",
                                                            "style": "wavy"}]}, "wavy"),
    ("er", {"kind": "er", "entities": {"A": {"attributes": "x"}}, "relationships": []}, "x"),
    ("er", {"kind": "er", "entities": {}, "relationships": [{"name": "r"}]}, ""),
    ("uml", {"kind": "uml", "classes": [], "relations": [{"type": "uses", "source": "A",
                                                          "target": "B"}]}, "uses"),
    ("report", {"file": "a.png", "ok": True, "seconds": -1, "error": None}, "-1"),
])
def test_schemas_refuse_what_the_model_refuses(name, doc, where):
    from cvparse.model import DocumentError, document_from_dict

    assert _errors(name, doc) and where in " ".join(_errors(name, doc))
    if name != "report":
        with pytest.raises(DocumentError):
            document_from_dict(doc)


def test_parser_outputs_inventory_and_report_validate(tmp_path):
    """One real parse per family (the first test image of each), run as a batch so its
    report.jsonl is checked too, plus a corrupt file and the nodes stage of one image."""
    from cvparse.batch import run_batch, run_one

    images = [sorted(p for p in (FIXTURES / f / "test").iterdir()
                     if p.suffix in (".png", ".jpg"))[0] for f in FAMILY_SCHEMA]
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    out = tmp_path / "out"
    with open("/dev/null", "w") as sink:
        summary = run_batch(images + [bad], out, "auto", "json", stream=sink)
    assert summary.parsed == 4 and summary.failed == 1
    for img in images:
        doc = json.loads((out / f"{img.stem}.json").read_text())
        family = img.parent.parent.name
        assert doc["kind"] == family or FAMILY_SCHEMA[doc["kind"]] == FAMILY_SCHEMA[family]
        assert not _errors(FAMILY_SCHEMA[doc["kind"]], doc), img
    for line in (out / "report.jsonl").read_text().splitlines():
        assert not _errors("report", json.loads(line)), line
    o = run_one(str(images[0]), "auto", "json", stage="nodes")
    assert o.ok and not _errors("inventory", json.loads(o.text))
