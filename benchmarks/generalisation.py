"""The generalisation report: one table per family, a row per source of pictures.

Rows are the project's own dev fixtures, each real-tool source and each knossos-dev domain
(:mod:`benchmarks.suites`); columns are the family's benchmark metrics and a gap column,
the own dev fixtures' headline value minus the source's.  Topology rows are scored by the
Knossos evaluator's protocol (pooled counts; per-image means beside them).

    python -m benchmarks.accuracy --suite all --jobs 2
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

from benchmarks._charts import Series, bar_chart
from benchmarks._common import fmt, format_table, run_metadata
from benchmarks.suites import SourceSet, suite_sets

COLUMNS = {
    "flowchart": ("node_f1", "link_f1", "arrows_acc", "nodes_acc"),
    "er": ("macro_f1", "entities_f1", "attributes_f1", "relationships_f1",
           "primary_keys_f1"),
    "uml": ("class_f1", "link_f1", "relation_f1", "em", "relacc"),
    "topology": ("node_f1", "edge_f1", "typed_edge_f1", "mean_node_f1", "mean_edge_f1"),
}
HEADLINE = {"flowchart": "link_f1", "er": "macro_f1", "uml": "relation_f1",
            "topology": "edge_f1"}
"""The metric of each family's gap column."""
FAMILY_ORDER = ("topology", "er", "uml", "flowchart")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def score_sets(sets: list[SourceSet], out_dir: Path, jobs: int, resume: bool) -> list[dict]:
    """Parse and score every set; one row record per set."""
    from benchmarks.accuracy import parse_items

    rows = []
    for s in sets:
        print(f"[{s.family}] {s.source}: {len(s.items)} images ({s.where})", file=sys.stderr)
        res = parse_items(s.family, s.task, list(s.items),
                          out_dir / s.family / _slug(s.source), jobs, resume, s.where)
        summary = res["report"]["summary"]
        rows.append({"suite": s.suite, "family": s.family, "source": s.source,
                     "task": s.task, "where": s.where, "n": len(s.items),
                     "failed": res["failed"], "invalid": res["report"]["invalid"],
                     "seconds_per_image": res["mean_seconds_per_image"],
                     "kind_guess": res["kind_guess"]["accuracy"],
                     "metrics": {k: summary.get(k) for k in COLUMNS[s.family]},
                     "subsets": {name: {k: g["summary"].get(k) for k in COLUMNS[s.family]}
                                 | {"n": g["n"]}
                                 for name, g in res["report"]["subsets"].items()}})
    return rows


def family_cells(family: str, rows: list[dict]) -> tuple[list[str], list[list[str]]]:
    """Header and cells of a family's table: a row per source, the gap column last (own dev
    headline minus the source's; empty on the dev row)."""
    cols = COLUMNS[family]
    head = HEADLINE[family]
    dev = next((r["metrics"].get(head) for r in rows if r["suite"] == "dev"), None)
    cells = []
    for r in rows:
        val = r["metrics"].get(head)
        gap = (dev - val) if isinstance(dev, float) and isinstance(val, float) else None
        cells.append([r["source"], str(r["n"])] + [fmt(r["metrics"].get(c), c) for c in cols]
                     + ["" if r["suite"] == "dev" else fmt(gap, head)])
    return ["source", "n", *cols, f"gap {head}"], cells


def family_table(family: str, rows: list[dict]) -> str:
    header, cells = family_cells(family, rows)
    title = (f"{family}: scored by the {rows[0]['task']} task; gap = own dev "
             f"{HEADLINE[family]} minus the source's")
    return format_table(header, cells, title=title)


def family_markdown(family: str, rows: list[dict]) -> str:
    """The family's table as Markdown (the cells of :func:`family_table`)."""
    header, cells = family_cells(family, rows)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in cells])


def chart(path: Path, family: str, rows: list[dict]) -> Path:
    cols = COLUMNS[family][:3]
    return bar_chart(path, f"{family}: own dev fixtures vs pictures drawn by others",
                     [r["source"] for r in rows],
                     [Series(c, [r["metrics"].get(c) for r in rows]) for c in cols])


def run(suite: str, families: list[str], limit: int | None, jobs: int, resume: bool,
        out_dir: Path, argv: list[str] | None) -> int:
    """Score the suite, print one table per family, write ``generalisation.json``, the
    tables as Markdown (``generalisation.md``) and one chart per family into ``out_dir``."""
    t0 = time.perf_counter()
    work = out_dir / "generalisation"
    sets = suite_sets(suite, families, limit, work / "knossos-gt")
    if not sets:
        print(f"accuracy: no sets for suite {suite!r} and families {families}",
              file=sys.stderr)
        return 1
    rows = score_sets(sets, work, jobs, resume)
    charts = {}
    markdown = []
    for family in FAMILY_ORDER:
        fam_rows = [r for r in rows if r["family"] == family]
        if not fam_rows:
            continue
        print()
        print(family_table(family, fam_rows))
        markdown += [f"### {family} ({fam_rows[0]['task']} task)", "",
                     family_markdown(family, fam_rows), ""]
        charts[family] = str(chart(out_dir / f"generalisation_{family}.png", family,
                                   fam_rows))
    wall = time.perf_counter() - t0
    print(f"\n{sum(r['n'] for r in rows)} images in {len(rows)} sets, {wall / 60:.1f} min "
          f"(jobs {jobs})")
    from cvparse.evaluate import json_safe

    record = {**run_metadata(argv, prog="benchmarks.accuracy"), "suite": suite,
              "limit": limit, "wall_seconds": round(wall, 1), "rows": rows,
              "charts": charts}
    (out_dir / "generalisation.md").write_text("\n".join(markdown), encoding="utf-8")
    path = out_dir / "generalisation.json"
    path.write_text(json.dumps(json_safe(record), indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    print(f"wrote {path}" + "".join(f"\nchart {c}" for c in charts.values()))
    return 0
