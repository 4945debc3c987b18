"""Chen diagrams of real schemas laid out by Graphviz's dot, fdp, sfdp and neato; IS-A drawn
as a triangle and as a circle with ``d``.

Each diagram is a connected subset of 3-7 tables of a committed schema
(:mod:`tools.realtools.schemas`), read the way a Chen model is derived from relational
DDL: a table is an entity with its own (non-key-reference) columns as attribute ellipses,
at most ``MAX_ATTRS`` of them, key columns underlined; a table whose primary key takes in
a foreign key next to its own columns is a weak entity (double box) owned through an
identifying relationship (double diamond); a table made only of foreign keys to two drawn
tables is an M:N relationship; two or more tables whose whole primary key is a foreign
key to the same table are its subclasses (IS-A, drawn as an ``ISA`` triangle or as a
circle with ``d`` joined to the superclass by a double line); every other foreign key is
a 1:N relationship named after its column.  Ground truth is that derived model.
"""

from __future__ import annotations

import html
import random
import re
import tempfile
from pathlib import Path

from tools.realtools import render, schemas
from tools.realtools.corpus import BuildResult, Requires
from tools.realtools.imagesize import graph_size_attr
from tools.realtools.store import keep, next_stem

NAME = "chen_engines"
FAMILY = "er"
REQUIRES = Requires(apt=("graphviz",))

OPTION_SETS = {
    "dot": {"engine": "dot", "font": "Times", "rankdir": "LR"},
    "fdp": {"engine": "fdp", "font": "Helvetica"},
    "sfdp": {"engine": "sfdp", "font": "Times"},
    "neato": {"engine": "neato", "font": "Helvetica"},
}
PER_SET = 10
MAX_ATTRS = 5


def _rel_name(fk: schemas.ForeignKey) -> str:
    """A relationship named after its key column (``parent_id`` -> ``parent``)."""
    if len(fk.columns) != 1:
        return "has"
    return re.sub(r"(?i)_id$", "", fk.columns[0]) or "has"


def _identifying(table: schemas.Table, fk: schemas.ForeignKey) -> bool:
    """The key lies wholly inside the table's primary key, next to columns of its own."""
    pk = {p.lower() for p in table.primary_keys}
    cols = {c.lower() for c in fk.columns}
    return cols <= pk and bool(pk - cols)


def chen_model(tables: dict[str, schemas.Table], rng: random.Random) -> dict:
    """The Chen ER document of a table subset (see the module docstring)."""
    edges = schemas.fk_edges(tables)
    fk_cols = {t: {c.lower() for fk in tables[t].foreign_keys for c in fk.columns}
               for t in tables}
    whole_key = {}
    for owner, fk in edges:
        if owner != fk.ref_table and schemas.is_one_to_one(tables[owner], fk) and \
                sorted(c.lower() for c in fk.columns) == \
                sorted(p.lower() for p in tables[owner].primary_keys):
            whole_key.setdefault(fk.ref_table, []).append(owner)
    isa = {sup: subs for sup, subs in whole_key.items() if len(subs) >= 2}
    sub_of = {s: sup for sup, subs in isa.items() for s in subs}
    assoc = {t for t in tables if t not in sub_of and tables[t].columns
             and all(c.name.lower() in fk_cols[t] for c in tables[t].columns)
             and len([fk for o, fk in edges if o == t]) == 2}
    entities = {}
    for t in tables.values():
        if t.name in assoc:
            continue
        own = [c for c in t.columns if c.name.lower() not in fk_cols[t.name]]
        keys = [c for c in own if c.primary_key]
        rest = [c for c in own if not c.primary_key]
        rng.shuffle(rest)
        cols = (keys + rest)[:max(MAX_ATTRS, len(keys))]
        cols = [c for c in t.columns if c in cols]
        pk_has_fk = any(_identifying(t, fk) for fk in t.foreign_keys)
        entities[t.name] = {"attributes": [c.name for c in cols],
                            "primary_keys": [c.name for c in cols if c.primary_key],
                            "multivalued": [], "derived": [], "composite": {},
                            "weak": pk_has_fk and bool(keys) and t.name not in sub_of}
    rels: list[dict] = []
    for t in sorted(assoc, key=list(tables).index):
        a, b = [fk.ref_table for o, fk in edges if o == t]
        rels.append({"name": t, "entities": [a, b], "cardinalities": ["M", "N"],
                     "weak": False, "attributes": []})
    for owner, fk in edges:
        if owner in assoc or sub_of.get(owner) == fk.ref_table:
            continue
        one = schemas.is_one_to_one(tables[owner], fk)
        rels.append({"name": _rel_name(fk), "entities": [owner, fk.ref_table],
                     "cardinalities": ["1" if one else "N", "1"],
                     "weak": entities[owner]["weak"] and _identifying(tables[owner], fk)
                     and owner != fk.ref_table,
                     "attributes": []})
    for sup, subs in isa.items():
        rels.append({"name": "ISA", "superclass": sup, "subclasses": subs})
    return {"kind": "er", "entities": entities, "relationships": rels}


def dot_source(doc: dict, opts: dict, isa_form: str) -> str:
    """Graphviz text of a Chen document; ``isa_form`` is ``triangle`` or ``circle``."""
    esc = html.escape
    lines = ["graph chen {", graph_size_attr(96).rstrip(),
             f'  graph [overlap="false" splines="true" sep="+10" nodesep="0.4" '
             f'rankdir="{opts.get("rankdir", "TB")}" fontname="{opts["font"]}"];',
             f'  node [fontname="{opts["font"]}" fontsize="13"];',
             f'  edge [fontname="{opts["font"]}" fontsize="13" len="1.3"];']
    ids: dict[str, str] = {}
    for k, (name, e) in enumerate(doc["entities"].items()):
        ids[name] = f"E{k}"
        lines.append(f'  E{k} [shape="box" label="{esc(name)}"'
                     + (' peripheries="2"' if e["weak"] else "") + "];")
        for j, a in enumerate(e["attributes"]):
            label = f"<<U>{esc(a)}</U>>" if a in e["primary_keys"] else f'"{esc(a)}"'
            lines.append(f'  A{k}_{j} [shape="ellipse" label={label}];')
            lines.append(f"  E{k} -- A{k}_{j};")
    for k, r in enumerate(doc["relationships"]):
        if "superclass" in r:
            if isa_form == "triangle":
                lines.append(f'  I{k} [shape="invtriangle" label="ISA" margin="0.02"];')
                lines.append(f"  {ids[r['superclass']]} -- I{k};")
            else:
                lines.append(f'  I{k} [shape="circle" label="d" width="0.35" fixedsize="true"];')
                lines.append(f'  {ids[r["superclass"]]} -- I{k} [color="black:invis:black"];')
            lines += [f"  I{k} -- {ids[s]};" for s in r["subclasses"]]
            continue
        lines.append(f'  R{k} [shape="diamond" label="{esc(r["name"])}"'
                     + (' peripheries="2"' if r["weak"] else "") + "];")
        for ent, card in zip(r["entities"], r["cardinalities"]):
            lines.append(f'  R{k} -- {ids[ent]} [label="{card}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    rng = random.Random(f"{seed}:{NAME}")
    result = BuildResult(versions={"graphviz": render.graphviz_version()})
    all_schemas = schemas.load_schemas()
    per_set = max(1, round(PER_SET * scale))
    with tempfile.TemporaryDirectory() as tmp:
        for subset_name, opts in OPTION_SETS.items():
            for k in range(per_set):
                schema, names, tables = schemas.pick(all_schemas, rng, k + len(result.ids), hi=7)
                doc = chen_model(tables, rng)
                isa_form = "triangle" if k % 2 == 0 else "circle"
                for r in doc["relationships"]:
                    if "superclass" in r:
                        r["name"] = "ISA" if isa_form == "triangle" else "d"
                stem = next_stem(result, NAME)
                png = render.graphviz(dot_source(doc, opts, isa_form), Path(tmp) / f"{stem}.png",
                                      engine=opts["engine"])
                doc.update(subset=subset_name, source=NAME,
                           config=dict(opts, isa=isa_form),
                           input=schemas.provenance(schema, names))
                keep(result, out_dir, stem, png, doc)
    return result
