"""SchemaSpy-style relationship diagrams: Graphviz HTML tables, crow's-foot ends at row ports.

The look of SchemaSpy's table diagrams (the facts of its output, not its code): one HTML
table per database table with the table name in a shaded header, one row per column with
its name, its type and key marks, and a line per foreign key from the key column's row to
the referenced column's row, ending in crow's-foot arrow shapes (``crowodot`` on the many
side, ``tee``/``teeodot`` on the one side).  Tables are connected subsets of real schemas
(:mod:`tools.realtools.schemas`); the layout engine and marks vary by option set.  The
ground truth comes from the schema: bare column names, declared types as written, PK and
FK marks, relationships unnamed (none is drawn) with ERUnderstand's ``1`` / ``N`` read from
the glyphs at each end.
"""

from __future__ import annotations

import html
import random
import tempfile
from pathlib import Path

from tools.realtools import render, schemas
from tools.realtools.corpus import BuildResult, Requires
from tools.realtools.imagesize import graph_size_attr
from tools.realtools.store import keep, next_stem

NAME = "schemaspy"
FAMILY = "er"
REQUIRES = Requires(apt=("graphviz",))

OPTION_SETS = {
    "dot-rl": {"engine": "dot", "rankdir": "RL", "marks": "text", "header": "#9bab96",
               "rows": "#f4f7da"},
    "dot-tb-mono": {"engine": "dot", "rankdir": "TB", "marks": "text", "header": "#ffffff",
                    "rows": "#ffffff"},
    "dot-lr-bold-keys": {"engine": "dot", "rankdir": "LR", "marks": "bold", "header": "#bfd8f0",
                         "rows": "#ffffff"},
    "fdp": {"engine": "fdp", "marks": "text", "header": "#9bab96", "rows": "#f4f7da"},
    "neato": {"engine": "neato", "marks": "text", "header": "#e0e0e0", "rows": "#ffffff"},
}
PER_SET = 12


def _mark(col: schemas.Column, fk_cols: set[str]) -> str:
    return " ".join(m for m, on in (("PK", col.primary_key), ("FK", col.name in fk_cols)) if on)


def table_label(table: schemas.Table, look: dict) -> str:
    """The HTML-table label of one table: header, then name / type / marks rows."""
    fk_cols = {c for fk in table.foreign_keys for c in fk.columns}
    esc = html.escape
    rows = [f'<TR><TD COLSPAN="3" BGCOLOR="{look["header"]}" ALIGN="CENTER">'
            f'<B>{esc(table.name)}</B></TD></TR>']
    for c in table.columns:
        name = esc(c.name)
        if look["marks"] == "bold" and c.primary_key:
            name = f"<B>{name}</B>"
        mark = _mark(c, fk_cols) if look["marks"] == "text" else (
            "FK" if c.name in fk_cols else "")
        rows.append(f'<TR><TD PORT="{esc(c.name)}" ALIGN="LEFT" BGCOLOR="{look["rows"]}">'
                    f'{name}</TD><TD ALIGN="LEFT" BGCOLOR="{look["rows"]}">'
                    f'<FONT COLOR="#555555">{esc(c.type)}</FONT></TD>'
                    f'<TD ALIGN="RIGHT" BGCOLOR="{look["rows"]}">{mark}</TD></TR>')
    body = "".join(rows)
    return (f'<<TABLE BORDER="1" CELLBORDER="1" CELLSPACING="0" CELLPADDING="3" '
            f'BGCOLOR="#ffffff">{body}</TABLE>>')


def dot_source(tables: dict[str, schemas.Table], look: dict) -> str:
    """The Graphviz text of a table subset in one look."""
    lines = ['digraph "schema" {', graph_size_attr(96).rstrip(),
             f'  graph [rankdir="{look.get("rankdir", "RL")}" nodesep="0.3" ranksep="0.6" '
             'overlap="false" splines="true" sep="+12" fontname="Helvetica"];',
             '  node [shape="plaintext" fontname="Helvetica" fontsize="11"];',
             '  edge [arrowsize="0.9" color="#333333"];']
    for t in tables.values():
        lines.append(f'  "{t.name}" [label={table_label(t, look)}];')
    for owner, fk in schemas.fk_edges(tables):
        table = tables[owner]
        many = "teeodot" if schemas.is_one_to_one(table, fk) else "crowodot"
        one = "teeodot" if schemas.fk_optional(table, fk) else "teetee"
        ref = fk.ref_columns[0] if fk.ref_columns else ""
        head = f'"{fk.ref_table}":"{ref}"' if ref else f'"{fk.ref_table}"'
        lines.append(f'  "{owner}":"{fk.columns[0]}" -> {head} '
                     f'[dir="both" arrowtail="{many}" arrowhead="{one}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def truth(tables: dict[str, schemas.Table], look: dict) -> dict:
    return schemas.er_truth(tables, drawn_not_null=False,
                            all_foreign_keys=True)


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    rng = random.Random(f"{seed}:{NAME}")
    result = BuildResult(versions={"graphviz": render.graphviz_version()})
    all_schemas = schemas.load_schemas()
    per_set = max(1, round(PER_SET * scale))
    with tempfile.TemporaryDirectory() as tmp:
        for subset_name, look in OPTION_SETS.items():
            for k in range(per_set):
                schema, names, tables = schemas.pick(all_schemas, rng, k + len(result.ids))
                stem = next_stem(result, NAME)
                png = render.graphviz(dot_source(tables, look), Path(tmp) / f"{stem}.png",
                                      engine=look["engine"])
                gt = truth(tables, look)
                gt.update(subset=subset_name, source=NAME, config=look,
                          input=schemas.provenance(schema, names))
                keep(result, out_dir, stem, png, gt)
    return result
