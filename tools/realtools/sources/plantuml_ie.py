"""PlantUML entity (IE) notation of real schemas: ``entity`` boxes, ``*`` mandatory rows,
crow's-foot links; drawn by the current PlantUML jar and by Debian's 1.2020.02.

Each diagram is a connected subset of a committed schema's tables
(:mod:`tools.realtools.schemas`) written in PlantUML's information-engineering style: the
key columns above a ``--`` separator, ``*`` before a NOT NULL column, ``<<PK>>`` /
``<<FK>>`` stereotypes, ``name : type`` rows, and one link per foreign key
(``parent ||--o{ child``, ``|o`` on a nullable key, ``o|`` on a one-to-one key; dotted
``..`` for a non-identifying key).  Ground truth comes from the input: bare column names,
types as written, ``not_null`` the starred rows, the link's label (if any) as its name and
each end's glyph as ERUnderstand's ``1`` / ``N``.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from tools.realtools import render, schemas
from tools.realtools.corpus import BuildResult, Requires
from tools.realtools.sources.mermaid_er import crow_card
from tools.realtools.store import keep, next_stem

NAME = "plantuml_ie"
FAMILY = "er"
REQUIRES = Requires(apt=("plantuml", "default-jre-headless"), npm=("tools/realtools/node",))

OPTION_SETS = {
    "current": {"release": "current", "skin": []},
    "current-ortho-labelled": {"release": "current", "skin": ["skinparam linetype ortho"],
                               "label": True},
    "current-plain": {"release": "current", "skin": ["!theme plain"]},
    "debian": {"release": "debian", "skin": []},
    "debian-monochrome-lr": {"release": "debian",
                             "skin": ["skinparam monochrome true", "left to right direction"],
                             "label": True},
}
PER_SET = 8


def diagram(tables: dict[str, schemas.Table], opts: dict) -> tuple[str, dict]:
    """The PlantUML text of a table subset and its ground truth."""
    alias = {n: f"e{i}" for i, n in enumerate(tables)}
    lines = ["@startuml", "hide circle", *opts["skin"]]
    for t in tables.values():
        fk_cols = {c for fk in t.foreign_keys for c in fk.columns}
        keys = [c for c in t.columns if c.primary_key]
        rest = [c for c in t.columns if not c.primary_key]
        lines.append(f'entity "{t.name}" as {alias[t.name]} {{')
        for part, cols in ((0, keys), (1, rest)):
            if part == 1 and keys:
                lines.append("  --")
            for c in cols:
                marks = " ".join(m for m, on in (("<<PK>>", c.primary_key),
                                                 ("<<FK>>", c.name in fk_cols)) if on)
                star = "* " if c.not_null else ""
                lines.append(f"  {star}{c.name} : {c.type} {marks}".rstrip())
        lines.append("}")
    rels = []
    for owner, fk in schemas.fk_edges(tables):
        table = tables[owner]
        left = "|o" if schemas.fk_optional(table, fk) else "||"
        right = "o|" if schemas.is_one_to_one(table, fk) else "o{"
        pk = {p.lower() for p in table.primary_keys}
        line = "--" if all(c.lower() in pk for c in fk.columns) else ".."
        label = fk.columns[0] if opts.get("label") else ""
        lines.append(f"{alias[fk.ref_table]} {left}{line}{right} {alias[owner]}"
                     + (f" : {label}" if label else ""))
        rels.append({"name": label, "entities": [fk.ref_table, owner],
                     "cardinalities": [crow_card(left), crow_card(right)], "weak": False,
                     "attributes": [], "notation": [left, right],
                     "style": "solid" if line == "--" else "dashed"})
    lines.append("@enduml")
    gt = schemas.er_truth(tables, all_foreign_keys=True)
    gt["relationships"] = rels
    return "\n".join(lines) + "\n", gt


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    rng = random.Random(f"{seed}:{NAME}")
    result = BuildResult(versions={r: render.plantuml_version(r) for r in ("current", "debian")})
    all_schemas = schemas.load_schemas()
    per_set = max(1, round(PER_SET * scale))
    with tempfile.TemporaryDirectory() as tmp:
        for subset_name, opts in OPTION_SETS.items():
            items = []
            for k in range(per_set):
                schema, names, tables = schemas.pick(all_schemas, rng,
                                                     k + len(result.ids) + len(items), hi=9)
                text, gt = diagram(tables, opts)
                gt.update(subset=subset_name, source=NAME, config=opts,
                          input=schemas.provenance(schema, names, diagram=text))
                items.append((text, gt))
            stems = [next_stem(result, NAME, i) for i in range(len(items))]
            pngs = render.plantuml([t for t, _ in items], [Path(tmp) / f"{s}.png" for s in stems],
                                   release=opts["release"])
            for stem, png, (_, gt) in zip(stems, pngs, items):
                keep(result, out_dir, stem, png, gt)
    return result
