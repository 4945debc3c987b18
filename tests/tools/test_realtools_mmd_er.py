"""The Mermaid ``erDiagram`` reader behind the real-tool corpus's committed ER charts
(:mod:`tools.realtools.mmd_er`) and those committed inputs."""

from __future__ import annotations

import pytest

from tools.realtools import mmd_er
from tools.realtools.corpus import committed_inputs
from tools.realtools.sources import mermaid_er

PERMISSIVE = ("MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "Unlicense", "CC0-1.0",
              "0BSD")


def test_tables_rows_and_relationships():
    doc = mmd_er.read('---\ntitle: Shop\n---\nerDiagram\n  %% the customers\n'
                      '  CUSTOMER ||--o{ ORDER : places\n'
                      '  CUSTOMER {\n    string name PK "full name"\n    int age\n  }\n'
                      '  ORDER {\n    int id PK, FK\n    varchar(20) note UK\n  }\n'
                      '  ORDER }|..|| "LINE-ITEM" : "is made of"\n  PRODUCT\n')
    ents = doc["entities"]
    assert list(ents) == ["CUSTOMER", "ORDER", "LINE-ITEM", "PRODUCT"]
    assert ents["CUSTOMER"]["attributes"] == ["name", "age"]
    assert ents["CUSTOMER"]["primary_keys"] == ["name"]
    assert ents["ORDER"]["types"] == {"id": "int", "note": "varchar(20)"}
    assert ents["ORDER"]["primary_keys"] == ["id"] and ents["PRODUCT"]["attributes"] == []
    got = [(r["name"], r["entities"], r["cardinalities"], r["style"])
           for r in doc["relationships"]]
    assert got == [("places", ["CUSTOMER", "ORDER"], ["1", "N"], "solid"),
                   ("is made of", ["ORDER", "LINE-ITEM"], ["N", "1"], "dashed")]


def test_the_generated_source_and_the_reader_agree_on_glyphs():
    assert mermaid_er.crow_card is mmd_er.crow_card
    assert [mmd_er.crow_card(g) for g in ("||", "|o", "}o", "}|", "o|", "o{", "|{")] == [
        "1", "1", "N", "N", "1", "N", "N"]


@pytest.mark.parametrize("body", [
    'A["Shown"] ||--o{ B : has', "A one or more--one or more B : has",
    "direction LR\nA ||--o{ B : x",
    "style A fill:#f9f", "A ||--o{ B : x\nA:::hot", "A {\n  List~int~ xs\n}\nA ||--o{ B : x",
    "A {\n  int id\nA ||--o{ B : x", "A\nB", "A ||--o{ B : x\nC --> D",
])
def test_constructs_it_does_not_model_are_refused(body):
    with pytest.raises(mmd_er.Unsupported):
        mmd_er.read(f"erDiagram\n{body}\n")


def test_not_an_er_chart_is_refused():
    with pytest.raises(mmd_er.Unsupported):
        mmd_er.read("flowchart TD\nA --> B\n")


def test_committed_inputs_have_provenance_and_are_read():
    files = committed_inputs("mermaid_er")
    assert files
    for path, prov in files:
        assert prov["repository"] and len(prov["commit"]) == 40 and prov["path"]
        assert prov["licence"].split()[0] in PERMISSIVE
        assert mmd_er.read(path.read_text(encoding="utf-8"))["relationships"]
