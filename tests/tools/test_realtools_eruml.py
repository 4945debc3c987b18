"""The ER and UML real-tool sources' pure steps: DDL -> ER truth, pyreverse .dot -> UML truth,
the diagram texts written from them, and determinism from the seed (no renderer needed)."""

from __future__ import annotations

import json
import random

import pytest

from tools.realtools import schemas
from tools.realtools.pymodels import dot_truth, redraw_kinds
from tools.realtools.sources import mermaid_class, mermaid_er, plantuml_class, plantuml_ie
from tools.realtools.sources import chen_engines, schemaspy

DDL = """
-- a comment; with a semicolon
CREATE TABLE IF NOT EXISTS "owner" (
  id serial PRIMARY KEY,
  name varchar(40) NOT NULL,
  note timestamp with time zone
);
CREATE TABLE pet (
  pet_id INTEGER NOT NULL,
  owner_id INTEGER REFERENCES owner (id),
  kind VARCHAR(10) NOT NULL DEFAULT 'cat',
  CONSTRAINT pet_pk PRIMARY KEY (pet_id),
  CHECK (kind IN ('cat', 'dog'))
);
CREATE TABLE licence (
  pet_id INTEGER NOT NULL,
  issued DATE,
  PRIMARY KEY (pet_id)
);
ALTER TABLE licence ADD CONSTRAINT fk_lic FOREIGN KEY (pet_id) REFERENCES pet (pet_id);
CREATE TABLE lonely (x int);
"""


def _schema() -> schemas.Schema:
    return schemas.Schema("toy", schemas.parse_ddl(DDL), {"repository": "none"})


def test_parse_ddl_reads_columns_keys_and_foreign_keys():
    t = schemas.parse_ddl(DDL)
    assert list(t) == ["owner", "pet", "licence", "lonely"]
    owner = t["owner"]
    assert [(c.name, c.type, c.not_null, c.primary_key) for c in owner.columns] == [
        ("id", "serial", True, True), ("name", "varchar(40)", True, False),
        ("note", "timestamp with time zone", False, False)]
    pet = t["pet"]
    assert pet.primary_keys == ["pet_id"]
    assert [c.name for c in pet.columns] == ["pet_id", "owner_id", "kind"]
    assert [(f.columns, f.ref_table, f.ref_columns) for f in pet.foreign_keys] == [
        (["owner_id"], "owner", ["id"])]
    assert [(f.columns, f.ref_table) for f in t["licence"].foreign_keys] == [(["pet_id"], "pet")]


def test_er_truth_has_bare_names_types_and_crows_foot_cardinalities():
    tables = schemas.parse_ddl(DDL)
    doc = schemas.er_truth({n: tables[n] for n in ("owner", "pet", "licence")})
    pet = doc["entities"]["pet"]
    assert pet["attributes"] == ["pet_id", "owner_id", "kind"]
    assert pet["types"] == {"pet_id": "INTEGER", "owner_id": "INTEGER", "kind": "VARCHAR(10)"}
    assert pet["not_null"] == ["pet_id", "kind"]
    assert pet["foreign_keys"] == {"owner_id": "owner"}
    rels = {tuple(r["entities"]): r["cardinalities"] for r in doc["relationships"]}
    # many pets per owner; a licence's key is its whole primary key: one-to-one
    assert rels == {("pet", "owner"): ["N", "1"], ("licence", "pet"): ["1", "1"]}
    assert all(r["name"] == "" for r in doc["relationships"])
    alone = schemas.er_truth({"pet": tables["pet"]})
    assert alone["relationships"] == [] and alone["entities"]["pet"]["foreign_keys"] == {}


def test_table_subsets_are_connected_bounded_and_seeded():
    schema = _schema()
    a = schemas.table_subsets(schema, random.Random(5), 6, lo=2, hi=3)
    b = schemas.table_subsets(schema, random.Random(5), 6, lo=2, hi=3)
    assert a == b
    for names in a:
        assert 2 <= len(names) <= 3 and "lonely" not in names
        assert names == [n for n in schema.tables if n in names]


def test_committed_schemas_parse_with_provenance():
    loaded = schemas.load_schemas()
    assert len(loaded) >= 4
    for s in loaded:
        assert {"repository", "commit", "path", "licence"} <= set(s.provenance)
        assert len(schemas.fk_edges(s.tables)) >= 2, s.name


def test_mermaid_and_plantuml_er_texts_match_their_truth():
    tables = schemas.parse_ddl(DDL)
    sub = {n: tables[n] for n in ("owner", "pet")}
    text, gt = mermaid_er.chart(sub, {"label": "column"})
    assert '    owner |o..o{ pet : "owner_id"' in text
    assert "        timestamp_with_time_zone note" in text
    assert gt["entities"]["owner"]["types"]["note"] == "timestamp_with_time_zone"
    assert gt["relationships"][0]["cardinalities"] == ["1", "N"]
    assert gt["relationships"][0]["name"] == "owner_id"
    puml, pgt = plantuml_ie.diagram(sub, {"skin": []})
    assert "  * pet_id : INTEGER <<PK>>" in puml and "  owner_id : INTEGER <<FK>>" in puml
    assert "e0 |o..o{ e1" in puml
    assert pgt["entities"]["pet"]["not_null"] == ["pet_id", "kind"]
    dot = schemaspy.dot_source(sub, schemaspy.OPTION_SETS["dot-rl"])
    assert '"pet":"owner_id" -> "owner":"id" [dir="both" arrowtail="crowodot" ' \
           'arrowhead="teeodot"]' in dot


DOT = r'''digraph "classes_page" {
rankdir=BT
charset="utf-8"
"m.Base" [color="black", fontcolor="black", label=<{Base|<br ALIGN="LEFT"/>|<I>run</I>(x: int): None<br ALIGN="LEFT"/>}>, shape="record", style="solid"];
"m.Impl" [color="black", fontcolor="black", label=<{Impl|size : dict[str, int \| None]<br ALIGN="LEFT"/>|run(x: int): None<br ALIGN="LEFT"/>}>, shape="record", style="solid"];
"m.Part" [color="black", fontcolor="red", label=<{Part|<br ALIGN="LEFT"/>|}>, shape="record", style="solid"];
"m.Impl" -> "m.Base" [arrowhead="empty", arrowtail="none"];
"m.Part" -> "m.Impl" [arrowhead="diamond", arrowtail="none", fontcolor="green", label="part", style="solid"];
"m.Part" -> "m.Base" [arrowhead="odiamond", arrowtail="none", fontcolor="green", label="spare", style="solid"];
"m.Impl" -> "m.Part" [arrowhead="vee", arrowtail="none", fontcolor="green", label="&lt;x&gt;", style="solid"];
}
'''


def test_dot_truth_reads_classes_and_typed_directed_relations():
    doc = dot_truth(DOT)
    assert [c["name"] for c in doc["classes"]] == ["Base", "Impl", "Part"]
    impl = doc["classes"][1]
    assert impl["attributes"] == ["size : dict[str, int | None]"]
    assert impl["methods"] == ["run(x: int): None"]
    assert doc["classes"][0]["methods"] == ["run(x: int): None"]
    assert [(r["type"], r["source"], r["target"], r["label"]) for r in doc["relations"]] == [
        ("inheritance", "Impl", "Base", ""), ("composition", "Impl", "Part", "part"),
        ("aggregation", "Base", "Part", "spare"), ("association", "Impl", "Part", "<x>")]


def test_redrawn_models_turn_all_abstract_classes_into_interfaces():
    doc = dot_truth(DOT, details=True)
    kinds, rels = redraw_kinds(doc)
    assert kinds == {"Base": "interface", "Impl": "class", "Part": "exception"}
    assert rels[0]["type"] == "realization"
    puml, gt = plantuml_class.diagram(doc, [])
    assert "interface Base {" in puml and "  {abstract} run(x: int): None" in puml
    assert "Impl ..|> Base" in puml and "Impl *-- Part : part" in puml
    assert "class Part <<exception>> {" in puml
    assert gt["relations"][0]["type"] == "realization"
    mmd, mgt = mermaid_class.chart(doc, {"theme": "default"})
    assert "    Base <|.. Impl" in mmd and "    Impl *-- Part : part" in mmd
    assert "        run(x: int)* None" in mmd
    assert mgt["classes"][1]["methods"] == ["run(x: int) : None"]
    names_only, ngt = plantuml_class.diagram(doc, ["hide members"])
    assert all(not c["attributes"] and not c["methods"] for c in ngt["classes"])
    assert json.loads(json.dumps(ngt)) == ngt


def test_eralchemy_truth_follows_its_model():
    pytest.importorskip("eralchemy")
    from tools.realtools.sources import eralchemy
    tables = schemas.parse_ddl(DDL)
    md = eralchemy.metadata({n: tables[n] for n in ("owner", "pet")})
    ts, rels = eralchemy.intermediary(md, {})
    gt = eralchemy.truth(ts, rels, crowfoot=False)
    assert gt["entities"]["owner"]["types"]["name"] == "VARCHAR(40)"
    assert sorted(gt["entities"]["owner"]["not_null"]) == ["id", "name"]
    assert gt["relationships"] == [{"name": "", "entities": ["owner", "pet"],
                                    "cardinalities": ["{0,1}", "0..N"], "weak": False,
                                    "attributes": [], "foreign_key": ["owner_id"]}]
    crow = eralchemy.truth(ts, rels, crowfoot=True)
    assert crow["relationships"][0]["cardinalities"] == ["N", "1"]
    assert "<FONT> [VARCHAR(40)]</FONT> NOT NULL" in eralchemy.dot_source(ts, rels, {})


CHEN_DDL = """
CREATE TABLE trig (name varchar(9) PRIMARY KEY, state int, job varchar(9) REFERENCES job (id));
CREATE TABLE job (id varchar(9) PRIMARY KEY, info text);
CREATE TABLE cron (name varchar(9) PRIMARY KEY REFERENCES trig (name), expr text);
CREATE TABLE simple (name varchar(9) PRIMARY KEY REFERENCES trig (name), n int);
CREATE TABLE param (job varchar(9) REFERENCES job (id), key text, PRIMARY KEY (job, key));
CREATE TABLE link (a varchar(9) NOT NULL REFERENCES job (id),
                   b varchar(9) NOT NULL REFERENCES trig (name));
"""


def test_chen_model_derives_weak_entities_m_n_and_isa_from_keys():
    doc = chen_engines.chen_model(schemas.parse_ddl(CHEN_DDL), random.Random(1))
    ents = doc["entities"]
    assert set(ents) == {"trig", "job", "cron", "simple", "param"}
    assert ents["param"]["weak"] and ents["param"]["attributes"] == ["key"]
    assert not ents["trig"]["weak"] and ents["trig"]["attributes"] == ["name", "state"]
    rels = {(r["name"], tuple(r.get("entities", [r.get("superclass")]))): r
            for r in doc["relationships"]}
    assert set(rels) == {("link", ("job", "trig")), ("job", ("trig", "job")),
                         ("job", ("param", "job")), ("ISA", ("trig",))}
    assert rels["ISA", ("trig",)]["subclasses"] == ["cron", "simple"]
    assert rels["link", ("job", "trig")]["cardinalities"] == ["M", "N"]
    assert rels["job", ("trig", "job")]["cardinalities"] == ["N", "1"]
    assert not rels["job", ("trig", "job")]["weak"] and rels["job", ("param", "job")]["weak"]
    dot = chen_engines.dot_source(doc, chen_engines.OPTION_SETS["fdp"], "circle")
    assert 'label="d"' in dot and 'color="black:invis:black"' in dot


def test_module_groups_deal_packages_in_turn(monkeypatch):
    from tools.realtools import pymodels
    monkeypatch.setattr(pymodels, "PACKAGES", {"email": "-", "json": "-"})
    groups = pymodels.module_groups(random.Random(3))
    assert groups == pymodels.module_groups(random.Random(3))
    order = [g[0].split(".")[0] for g in reversed(groups)]
    assert order[:4] == ["email", "json", "email", "json"]
    assert all(len({m.split(".")[0] for m in g}) == 1 for g in groups)
