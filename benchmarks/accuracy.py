"""Accuracy on the benchmark look-alike fixtures, printed beside the papers' published numbers.

For each family (flowchart -> FlowLearn, er -> ERUnderstand, uml -> UML prior bias,
topology -> Knossos / TopoBench-180) the fixture images are parsed with
:func:`cvparse.batch.run_batch`, scored with :func:`cvparse.evaluate.run` (the benchmarks'
own metrics), and shown in tables whose columns use the papers' metric names, one row for
cvparse and one per published model.  Writes ``<out>/accuracy.json`` and one bar chart per
benchmark (``<out>/<benchmark>.png``).

    python -m benchmarks.accuracy --family flowchart --limit 5 --jobs 2
"""

from __future__ import annotations

import argparse
import io
import json
import math
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._charts import Series, bar_chart
from benchmarks._common import (FAMILY_TASK, POINT_METRICS, PUBLISHED, RESULTS,
                                default_set, fmt, format_table, load_published,
                                run_metadata, select_items)


@dataclass(frozen=True)
class Column:
    """A table column: cvparse's value of ``metric`` on ``subset`` beside the published
    values of ``metric`` on any of ``published`` subsets."""

    header: str
    subset: str
    metric: str
    published: tuple[str, ...] = ()

    def published_subsets(self) -> tuple[str, ...]:
        return self.published or (self.subset,)


@dataclass(frozen=True)
class View:
    title: str
    columns: tuple[Column, ...]
    note: str = ""


# --- what each benchmark's tables show ---------------------------------------------------

FL_METRICS = ("node_f1", "link_f1", "nodes_acc", "arrows_acc", "node_p", "node_r", "link_p",
              "link_r")
ER_TIERS = (("easy", "easy"), ("medium", "medium"), ("hard", "hard"), ("high", "high"),
            ("isa", "isa"), ("silb", "silberschatz"), ("schema", "schema"), ("web", "web"),
            ("web-S", "web-silberschatz"), ("instr", "instructional"),
            ("instr-S", "instructional-silberschatz"), ("all", "all"))
ER_CATEGORIES = ("entities", "relationships", "attributes", "weak_entities",
                 "weak_relationships", "primary_keys", "multivalued", "derived", "composite",
                 "nary", "isa")
UML_CONDITIONS = ("prior-conform", "2-reverse", "3-reverse", "3-mixed", "prior-free")
TOPO_METRICS = ("node_f1", "edge_p", "edge_r", "edge_f1")
DOMAIN_MEAN = "domain-mean"
"""cvparse pseudo-subset: the unweighted mean over the fixture subsets (Knossos averages
images within a domain, then the six domains)."""


def benchmark_views(benchmark: str) -> list[View]:
    """The comparison tables of one benchmark (the first one is also charted)."""
    if benchmark == "flowlearn":
        return [View("FlowLearn simulated flowcharts, word subset (Tables 4 and 7)",
                     tuple(Column(m, "word", m) for m in FL_METRICS),
                     "published: 2,000 test images (Claude/GPT-4V/Step-1V on 100)")]
    if benchmark == "erunderstand":
        return [
            View("ERUnderstand Macro-F1 per tier (Table 2, D.9)",
                 tuple(Column(h, s, "macro_f1") for h, s in ER_TIERS)),
            View("ERUnderstand BLEU per tier (Table 2)",
                 tuple(Column(h, s, "bleu") for h, s in ER_TIERS)),
            View("ERUnderstand per-construct F1 (all images; published: text of Table 3)",
                 tuple(Column(c, "all", f"{c}_f1", ("all", "synthetic")) for c in ER_CATEGORIES)),
            View("ERUnderstand IS-A-only vs Medium (Table 7)",
                 (Column("medium entities", "medium", "entities_f1"),
                  Column("medium isa", "medium", "isa_f1"),
                  Column("isa entities", "isa", "entities_f1"),
                  Column("isa isa", "isa", "isa_f1"))),
            View("ERUnderstand high complexity, 20+ entities (D.9)",
                 (Column("macro_f1", "high", "macro_f1"),
                  Column("entities_f1", "high", "entities_f1"),
                  Column("relationships_f1", "high", "relationships_f1"))),
        ]
    if benchmark == "uml_prior_bias":
        return [View("UML prior bias: RelAcc per condition, conflict gap in points (Sec. 4)",
                     tuple(Column(c, c, "relacc") for c in UML_CONDITIONS)
                     + (Column("gap", "all", "gap"),
                        Column("gap_3rev", "all", "gap_3_reverse"),
                        Column("gap_3mix", "all", "gap_3_mixed"),
                        Column("EM", "all", "em")),
                     "a parser that reads the notation has no prior: gap 0, RelAcc near 1")]
    if benchmark == "knossos":
        return [View("Knossos, mean over domains (Sec. 4.2-4.3)",
                     (Column("node_f1", DOMAIN_MEAN, "node_f1", ("all",)),
                      Column("edge_f1", DOMAIN_MEAN, "edge_f1", ("all",)),
                      Column("typed_edge_f1", DOMAIN_MEAN, "typed_edge_f1",
                             ("typed-domains",))),
                     "cvparse: mean over the fixture domains; published: 6 domains, "
                     "typed over Natural Process, Circuit, Map Route")]
    if benchmark == "topobench180":
        return [View("TopoBench-180 (Table 1; Knossos paper Table 1)",
                     tuple(Column(f"{s} {m}", s, m) for s in ("web", "network")
                           for m in TOPO_METRICS),
                     "no TopoBench-180-like fixtures (real web/network diagrams): cvparse "
                     "not measured; Knossos-paper rows are on its 162-image subset")]
    raise ValueError(f"unknown benchmark {benchmark!r}")


TASK_BENCHMARKS = {"flowlearn": ("flowlearn",), "er": ("erunderstand",),
                   "uml": ("uml_prior_bias",), "topology": ("knossos", "topobench180")}


# --- values ------------------------------------------------------------------------------

def cvparse_value(report: dict | None, subset: str, metric: str, benchmark: str):
    """cvparse's value of ``metric`` on ``subset`` from a ``cvparse.evaluate`` report."""
    if report is None or benchmark == "topobench180":
        return None
    if subset == "all":
        return report["summary"].get(metric)
    if subset == DOMAIN_MEAN:
        if not report["subsets"]:
            return report["summary"].get(metric)
        vals = [g["summary"].get(metric) for g in report["subsets"].values()]
        vals = [v for v in vals if isinstance(v, (int, float)) and not math.isnan(v)]
        return sum(vals) / len(vals) if vals else None
    group = report["subsets"].get(subset)
    return group["summary"].get(metric) if group else None


def view_rows(view: View, benchmark: str, report: dict | None, published: list[dict]
              ) -> list[tuple[str, list]]:
    """(model, values) rows: cvparse first, then every published model with a value."""
    rows = [("cvparse", [cvparse_value(report, c.subset, c.metric, benchmark)
                         for c in view.columns])]
    table: dict[str, list] = {}
    for r in published:
        if r["benchmark"] != benchmark:
            continue
        for i, c in enumerate(view.columns):
            if r["metric"] == c.metric and r["subset"] in c.published_subsets():
                vals = table.setdefault(r["model"], [None] * len(view.columns))
                if vals[i] is None:
                    vals[i] = r["value"]
    rows.extend(table.items())
    return rows


def render_view(view: View, rows: list[tuple[str, list]]) -> str:
    header = ["model"] + [c.header for c in view.columns]
    cells = [[m] + [fmt(v, c.metric) for v, c in zip(vals, view.columns)] for m, vals in rows]
    text = format_table(header, cells, title=view.title)
    return text + (f"\n({view.note})" if view.note else "")


def chart_view(path: Path, view: View, rows: list[tuple[str, list]]) -> Path:
    """cvparse vs the best published model per column (fraction metrics only)."""
    def number(v):
        return v if isinstance(v, (int, float)) and not math.isnan(v) else None

    cols = [i for i, c in enumerate(view.columns) if c.metric not in POINT_METRICS]
    ours = [number(rows[0][1][i]) for i in cols]
    best, names = [], []
    for i in cols:
        cand = [(vals[i], m) for m, vals in rows[1:] if number(vals[i]) is not None]
        v, m = max(cand, key=lambda t: t[0]) if cand else (None, "")
        best.append(v)
        names.append(m)
    return bar_chart(path, view.title, [view.columns[i].header for i in cols],
                     [Series("cvparse", ours), Series("best published", best, names)])


# --- running -----------------------------------------------------------------------------

def parse_items(family: str, task: str, items: list, fam_dir: Path, jobs: int,
                resume: bool, label: str) -> dict:
    """Parse ``items`` as ``family`` into ``fam_dir/pred`` and score them with ``task``;
    returns a result record (``report`` is the ``cvparse.evaluate`` report)."""
    from cvparse import evaluate
    from cvparse.batch import run_batch

    pred_dir, gt_dir = fam_dir / "pred", fam_dir / "gt"
    if not resume and pred_dir.exists():
        shutil.rmtree(pred_dir)
    if gt_dir.exists():
        shutil.rmtree(gt_dir)
    gt_dir.mkdir(parents=True)
    for it in items:
        shutil.copyfile(it.gt, gt_dir / f"{it.stem}.json")
    t0 = time.perf_counter()
    batch = run_batch([it.image for it in items], pred_dir, family, "json", jobs=jobs,
                      resume=resume, stream=sys.stderr)
    outcomes = list(getattr(batch, "outcomes", batch))
    wall = time.perf_counter() - t0
    buf = io.StringIO()
    report = evaluate.run(task, gt_dir, pred_dir, json_path=fam_dir / "eval.json", out=buf)
    secs = [o.seconds for o in outcomes if o.ok]
    stems = {it.image.stem for it in items}
    return {"kind_guess": kind_guesses(pred_dir / "report.jsonl", stems, family),
            "family": family, "task": task, "set": label, "n_images": len(items),
            "parsed": len(outcomes), "failed": sum(not o.ok for o in outcomes),
            "jobs": jobs, "wall_seconds": round(wall, 2),
            "mean_seconds_per_image": round(sum(secs) / len(secs), 3) if secs else None,
            "eval_json": str(fam_dir / "eval.json"), "eval_table": buf.getvalue().rstrip(),
            "report": report}


def parse_family(family: str, set_dir: Path, out_dir: Path, limit: int | None, jobs: int,
                 resume: bool) -> dict:
    """Parse the selected images of one family's set and score them; a result record."""
    task = FAMILY_TASK[family]
    res = parse_items(family, task, select_items(set_dir, limit), out_dir / family, jobs,
                      resume, str(set_dir))
    res["looks"] = look_scores(set_dir, task, res["report"])
    return res


LOOK_METRICS = {"flowlearn": ("node_f1", "link_f1", "arrows_acc"),
                "er": ("macro_f1", "relationships_f1", "attributes_f1"),
                "uml": ("relation_f1", "relacc"),
                "topology": ("node_f1", "edge_f1", "typed_edge_f1")}
"""The metrics averaged per drawing look in a style split."""


def look_scores(set_dir: Path, task: str, report: dict) -> dict[str, dict]:
    """Mean scores per drawing look where the set's manifest names each image's look (the
    style split); empty otherwise.  Metrics an image does not have are left out."""
    manifest = set_dir / "manifest.json"
    if not manifest.is_file():
        return {}
    items = json.loads(manifest.read_text(encoding="utf-8")).get("items", [])
    look_of = {it["id"]: it["style"] for it in items if isinstance(it.get("style"), str)}
    per_look: dict[str, list[dict]] = {}
    for stem, rec in (report.get("per_image") or {}).items():
        if stem in look_of:
            per_look.setdefault(look_of[stem], []).append(rec)
    out = {}
    for look, recs in sorted(per_look.items()):
        row: dict = {"n": len(recs)}
        for m in LOOK_METRICS[task]:
            vals = [r[m] for r in recs if isinstance(r.get(m), (int, float))
                    and not math.isnan(r[m])]
            row[m] = sum(vals) / len(vals) if vals else None
        out[look] = row
    return out


def look_table(res: dict) -> str:
    """The per-look means of a style split as a table ('' for other sets)."""
    if not res.get("looks"):
        return ""
    metrics = LOOK_METRICS[res["task"]]
    rows = [[look, str(r["n"])] + [fmt(r[m], m) for m in metrics]
            for look, r in res["looks"].items()]
    return format_table(["look", "n", *metrics], rows, title="mean per drawing look")


def compare(results: dict[str, dict], published: list[dict], out_dir: Path
            ) -> tuple[dict[str, list], dict[str, str]]:
    """Print each family's score table and its benchmarks' comparison tables; chart the
    first comparison of every benchmark.  Returns the tables and chart paths."""
    tables: dict[str, list] = {}
    charts: dict[str, str] = {}
    for family, res in results.items():
        print(f"\n=== {family}: {res['n_images']} images from {res['set']}, "
              f"{res['failed']} parse failures, {res['mean_seconds_per_image']} s/image ===")
        print(res["eval_table"])
        if res.get("looks"):
            print()
            print(look_table(res))
        for bench in TASK_BENCHMARKS[res["task"]]:
            for k, view in enumerate(benchmark_views(bench)):
                rows = view_rows(view, bench, res["report"], published)
                print()
                print(render_view(view, rows))
                tables.setdefault(bench, []).append(
                    {"title": view.title, "columns": [c.__dict__ for c in view.columns],
                     "rows": [{"model": m, "values": v} for m, v in rows]})
                if k == 0:
                    charts[bench] = str(chart_view(out_dir / f"{bench}.png", view, rows))
    return tables, charts


def kind_guesses(report: Path, stems: set[str], family: str) -> dict:
    """How often ``--kind auto`` would have picked ``family`` (from the batch report)."""
    guesses: dict[str, str] = {}
    if report.is_file():
        for raw in report.read_text(encoding="utf-8").splitlines():
            try:
                line = json.loads(raw)
            except ValueError:
                continue
            stem = Path(line.get("file", "")).stem
            if stem in stems and line.get("guessed_kind"):
                guesses[stem] = line["guessed_kind"]
    wrong: dict[str, int] = {}
    for g in guesses.values():
        if g != family:
            wrong[g] = wrong.get(g, 0) + 1
    n = len(guesses)
    return {"n": n, "correct": n - sum(wrong.values()),
            "accuracy": (n - sum(wrong.values())) / n if n else None, "wrong": wrong}


def kind_table(results: dict[str, dict]) -> str:
    """One line per family: how often ``--kind auto`` picks the right family."""
    rows = []
    tot = ok = 0
    for family, res in results.items():
        k = res["kind_guess"]
        tot, ok = tot + k["n"], ok + k["correct"]
        wrong = ", ".join(f"{g} {n}" for g, n in sorted(k["wrong"].items())) or "-"
        rows.append([family, str(k["n"]), fmt(k["accuracy"], "accuracy"), wrong])
    rows.append(["all", str(tot), fmt(ok / tot if tot else None, "accuracy"), ""])
    return format_table(["family", "images", "auto correct", "guessed instead"], rows,
                        title="--kind auto: family guessed from the drawing")


def family_record(res: dict) -> dict:
    """The part of a family's result kept in ``accuracy.json`` (summaries, not per image)."""
    report = res["report"]
    return ({k: v for k, v in res.items() if k not in ("report", "eval_table")}
            | {"summary": report["summary"],
               "subsets": {s: g["summary"] | {"n": g["n"]} for s, g in report["subsets"].items()},
               "invalid": report["invalid"], "missing": report["missing"]})


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cvparse bench accuracy", description=__doc__.split("\n")[0])
    p.add_argument("--family", action="append", choices=sorted(FAMILY_TASK),
                   help="family to run (repeatable; default: every family with fixtures)")
    p.add_argument("--set", dest="set_dir", default=None,
                   help="fixture folder (only with a single --family)")
    p.add_argument("--split", default="dev", help="default fixture split (default: dev)")
    p.add_argument("--limit", type=int, default=None, help="at most N images per subset")
    p.add_argument("--jobs", type=int, default=1, help="worker processes for parsing")
    p.add_argument("--resume", action="store_true", help="keep predictions already parsed")
    p.add_argument("--out", default=str(RESULTS), help="results folder")
    p.add_argument("--published", default=str(PUBLISHED), help="published numbers (JSON)")
    p.add_argument("--suite", choices=("dev", "realtools", "knossos", "all"), default=None,
                   help="the generalisation report instead: one table per family, a row "
                        "per source (own dev fixtures, each real tool, knossos-dev)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    families = args.family or list(FAMILY_TASK)
    if args.suite:
        from benchmarks import generalisation

        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        return generalisation.run(args.suite, families, args.limit, args.jobs, args.resume,
                                  out, argv)
    if args.set_dir and len(families) != 1:
        print("accuracy: error: --set needs exactly one --family", file=sys.stderr)
        return 2
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    published = load_published(Path(args.published))
    meta = run_metadata(argv, prog="benchmarks.accuracy")
    results: dict[str, dict] = {}
    skipped: dict[str, str] = {}
    for family in families:
        set_dir = Path(args.set_dir) if args.set_dir else default_set(family, args.split)
        if not set_dir.is_dir() or not select_items(set_dir, 1):
            skipped[family] = f"no fixtures with ground truth in {set_dir}"
            print(f"[{family}] skipped: {skipped[family]}")
            continue
        print(f"[{family}] parsing {set_dir} (limit {args.limit}, jobs {args.jobs})",
              file=sys.stderr)
        try:
            results[family] = parse_family(family, set_dir, out_dir, args.limit, args.jobs,
                                           args.resume)
        except Exception as exc:  # noqa: BLE001 - one family failing must not stop the rest
            skipped[family] = f"{type(exc).__name__}: {exc}"
            print(f"[{family}] failed: {skipped[family]}")
    tables, charts = compare(results, published, out_dir)
    if results:
        print()
        print(kind_table(results))
    record = {**meta, "published": str(args.published), "limit": args.limit,
              "skipped": skipped,
              "families": {f: family_record(r) for f, r in results.items()},
              "tables": tables, "charts": charts}
    from cvparse.evaluate import json_safe

    path = out_dir / "accuracy.json"
    path.write_text(json.dumps(json_safe(record), indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    print(f"\nwrote {path}" + "".join(f"\nchart {c}" for c in charts.values()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
