"""Every parse of every test image validates against docs/schema/ (the JSON a user gets
from ``cvparse parse``), not only the committed ground truths."""

import json
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schema"
SCHEMA_OF = {"flowchart": "graph", "topology": "graph", "er": "er", "uml": "uml"}


@pytest.mark.parametrize("family", ["flowchart", "topology", "er", "uml"])
def test_every_test_set_parse_validates(test_set_predictions, family):
    rows = test_set_predictions(family, family)
    assert len(rows) >= 30
    for image, _, doc in rows:
        schema = json.loads((SCHEMAS / f"{SCHEMA_OF[doc.kind]}.schema.json").read_text())
        errors = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in
                  jsonschema.Draft202012Validator(schema).iter_errors(json.loads(doc.to_json()))]
        assert not errors, f"{image}: {errors[:3]}"
