"""``cvparse eval``: score predictions against ground truth with a benchmark's own metric.

Ground truth ``G`` and predictions ``P`` are each a directory (files matched by stem:
``.json`` documents, or ``.json`` / ``.mmd`` / ``.txt`` holding raw model output; other
files and ``manifest.json`` are ignored) or a JSONL file of ``{"id": stem, "doc": document
or raw text}`` lines (FORMATS.md section 4).  Each image is scored by the task module of
:mod:`cvparse.metrics`; an image without a prediction scores as an empty prediction, and a
prediction the module cannot read also scores as empty and is counted as invalid.  Results
are printed per subset (the ground truth's top-level ``subset`` key) and for all images.

Inputs are bounded so that no file can make the scoring hang, run for minutes or raise
``RecursionError``: only regular files are read, a document file may hold at most
``MAX_DOCUMENT_BYTES`` (a JSONL file ``MAX_JSONL_BYTES``), raw text at most
:data:`cvparse.metrics._extract.MAX_TEXT_CHARS` characters and JSON at most
:data:`cvparse.metrics._extract.MAX_DEPTH` levels; an input over a limit is one error
naming the file and the limit.  A prediction path with no documents, or none matching a
ground-truth stem, is an error too (a wrong folder, not a model that answered nothing).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

from cvparse.display import printable
from cvparse.files import UnreadableFile, read_regular
from cvparse.metrics import TASKS
from cvparse.metrics._extract import TooComplex, check_depth, check_text, loads

DOC_SUFFIXES = (".json", ".mmd", ".txt")  # preference order when one stem has several
IGNORED_FILES = ("manifest.json", "report.json")
ALL = "all"
MAX_DOCUMENT_BYTES = 16 * 2 ** 20
"""Largest document file, and largest JSONL line, read (bytes)."""
MAX_JSONL_BYTES = 512 * 2 ** 20
"""Largest JSONL file read (bytes)."""


class EvalError(ValueError):
    """An input cannot be read; ``path`` names it and the message says why."""

    def __init__(self, path: str | Path, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


@dataclass
class Scored:
    """One image's result: its subset, whether the prediction was missing / unreadable."""

    subset: str | None
    missing: bool
    valid: bool
    scores: dict


# --- reading inputs ---------------------------------------------------------------------

def _read_text(path: Path, limit: int | None = None) -> str:
    try:
        data = read_regular(path, MAX_DOCUMENT_BYTES if limit is None else limit)
    except UnreadableFile as exc:
        raise EvalError(path, exc.reason) from None
    return data.decode("utf-8", errors="replace")


def _checked(path: Path | str, doc: Any, where: str = "") -> Any:
    """``doc`` (parsed JSON or raw text) if within the limits, else an ``EvalError``."""
    try:
        return check_text(doc) if isinstance(doc, str) else check_depth(doc)
    except TooComplex as exc:
        raise EvalError(path, f"{where}{exc}") from None


def _parse_file(path: Path) -> Any:
    """A ``.json`` file's parsed content, else (or if it is not valid JSON) its raw text."""
    text = _read_text(path)
    if path.suffix == ".json":
        try:
            return loads(text)
        except json.JSONDecodeError:
            pass
        except TooComplex as exc:
            raise EvalError(path, str(exc)) from None
    return _checked(path, text)


def _read_dir(path: Path) -> dict[str, Any]:
    chosen: dict[str, Path] = {}
    for f in sorted(path.iterdir()):
        if not f.is_file() or f.suffix not in DOC_SUFFIXES or f.name in IGNORED_FILES:
            continue
        prev = chosen.get(f.stem)
        if prev is None or DOC_SUFFIXES.index(f.suffix) < DOC_SUFFIXES.index(prev.suffix):
            chosen[f.stem] = f
    return {stem: _parse_file(f) for stem, f in sorted(chosen.items())}


def _read_jsonl(path: Path) -> dict[str, Any]:
    docs: dict[str, Any] = {}
    for lineno, line in enumerate(_read_text(path, MAX_JSONL_BYTES).splitlines(), 1):
        if not line.strip():
            continue
        if len(line) > MAX_DOCUMENT_BYTES:
            raise EvalError(path, f"line {lineno}: {len(line):,} characters (limit "
                            f"{MAX_DOCUMENT_BYTES:,} per document)")
        try:
            item = loads(line)
        except json.JSONDecodeError as exc:
            raise EvalError(path, f"line {lineno}: not valid JSON ({exc.msg})") from None
        except TooComplex as exc:
            raise EvalError(path, f"line {lineno}: {exc}") from None
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or "doc" not in item:
            raise EvalError(path, f'line {lineno}: expected {{"id": "<stem>", "doc": ...}}')
        if item["id"] in docs:
            raise EvalError(path, f"line {lineno}: duplicate id {item['id']!r}")
        docs[item["id"]] = _checked(path, item["doc"], f"line {lineno}: ")
    return docs


def read_documents(path: str | Path) -> dict[str, Any]:
    """Map stem -> document (dict) or raw text from a directory or a JSONL file."""
    p = Path(path)
    if p.is_dir():
        return _read_dir(p)
    if p.is_file():
        return _read_jsonl(p)
    raise EvalError(p, "no such file or directory")


# --- scoring ----------------------------------------------------------------------------

def task_module(task: str) -> ModuleType:
    """The metric module of ``task``, imported only when needed."""
    if task not in TASKS:
        raise EvalError("--task", f"unknown task {task!r} (choose from {', '.join(TASKS)})")
    try:
        return importlib.import_module(f"cvparse.metrics.{task}")
    except ModuleNotFoundError as exc:
        raise EvalError("--task", f"metric module for {task!r} is not available ({exc})") from None


def score_all(mod: ModuleType, gt_docs: dict[str, Any], pred_docs: dict[str, Any],
              gt_path: str | Path) -> dict[str, Scored]:
    """Score every ground-truth image; a missing prediction is scored as empty."""
    empty, _ = mod.load("")
    results: dict[str, Scored] = {}
    for stem, gt_doc in gt_docs.items():
        gt_rep, gt_ok = mod.load(gt_doc)
        if not gt_ok:
            raise EvalError(gt_path, f"{stem}: ground truth is not a readable {mod.TASK} document")
        subset = gt_doc.get("subset") if isinstance(gt_doc, dict) else None
        if stem in pred_docs:
            pred_rep, valid = mod.load(pred_docs[stem])
            missing = False
        else:
            pred_rep, valid, missing = empty, True, True
        results[stem] = Scored(subset=str(subset) if subset is not None else None,
                               missing=missing, valid=valid,
                               scores=mod.score(gt_rep, pred_rep))
    return results


def _group(mod: ModuleType, items: list[Scored]) -> dict:
    return {"n": len(items),
            "invalid": sum(not s.valid for s in items),
            "missing": sum(s.missing for s in items),
            "summary": mod.summarize([s.scores for s in items])}


def build_report(mod: ModuleType, results: dict[str, Scored], n_unmatched: int = 0) -> dict:
    """The ``--json`` report: overall summary, per-subset summaries and per-image scores."""
    items = list(results.values())
    subsets = sorted({s.subset for s in items if s.subset is not None})
    overall = _group(mod, items)
    return {
        "task": mod.TASK,
        "n": overall["n"],
        "summary": overall["summary"],
        "invalid": overall["invalid"],
        "missing": overall["missing"],
        "unmatched_predictions": n_unmatched,
        "subsets": {name: _group(mod, [s for s in items if s.subset == name])
                    for name in subsets},
        "per_image": {stem: {"subset": s.subset, "missing": s.missing, "valid": s.valid,
                             **s.scores} for stem, s in results.items()},
    }


def json_safe(value: Any) -> Any:
    """``value`` with NaN / infinities replaced by ``None`` so the report is strict JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


# --- printing ---------------------------------------------------------------------------

def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) <= 1.0 else f"{value:.2f}"
    return str(value)


def format_table(mod: ModuleType, report: dict) -> str:
    """Plain-text table: one row per subset plus ``all``, the task's summary columns."""
    keys = list(getattr(mod, "TABLE_KEYS", mod.SUMMARY_KEYS))
    header = ["subset", "n", "invalid output", "missing"] + keys
    rows = [[name, g["n"], g["invalid"], g["missing"]] + [g["summary"].get(k) for k in keys]
            for name, g in report["subsets"].items()]
    rows.append([ALL, report["n"], report["invalid"], report["missing"]]
                + [report["summary"].get(k) for k in keys])
    cells = [header] + [[_cell(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(row, widths))) for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join([f"task: {mod.TASK}"] + lines)


# --- entry points -----------------------------------------------------------------------

def run(task: str, gt_path: str | Path, pred_path: str | Path,
        json_path: str | Path | None = None, out: TextIO | None = None) -> dict:
    """Score ``pred_path`` against ``gt_path``, print the tables (to ``out``, default
    stdout), optionally write the JSON report; return the report."""
    mod = task_module(task)
    gt_docs = read_documents(gt_path)
    if not gt_docs:
        raise EvalError(gt_path, "no ground-truth documents found")
    pred_docs = read_documents(pred_path)
    if not pred_docs:
        raise EvalError(pred_path, "no prediction documents found (files ending "
                        f"{', '.join(DOC_SUFFIXES)}, or JSONL lines)")
    if not set(pred_docs) & set(gt_docs):
        raise EvalError(pred_path, f"none of its {len(pred_docs)} document(s) matches a "
                        f"ground-truth stem (e.g. {min(pred_docs)!r}; ground truth has "
                        f"{min(gt_docs)!r})")
    results = score_all(mod, gt_docs, pred_docs, gt_path)
    report = build_report(mod, results, n_unmatched=len(set(pred_docs) - set(gt_docs)))
    print(format_table(mod, report), file=out if out is not None else sys.stdout)
    if json_path is not None:
        try:
            text = json.dumps(json_safe(report), indent=2, ensure_ascii=False, allow_nan=False)
            Path(json_path).write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            raise EvalError(json_path, exc.strerror or str(exc)) from None
    return report


def _write_report(json_path: str | Path | None, report: dict) -> None:
    """Write ``report`` as JSON to ``json_path`` (nothing when None)."""
    if json_path is None:
        return
    try:
        Path(json_path).write_text(json.dumps(json_safe(report), indent=2,
                                              ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise EvalError(json_path, exc.strerror or str(exc)) from None


def run_results_file(path: str | Path, question: str | None,
                     json_path: str | Path | None = None, out: TextIO | None = None) -> dict:
    """Score a FlowLearn results file (``{"<image>": {"prediction", "reference"}}``, answers
    and answer keys together) for its question task, named by ``question`` or the file."""
    from cvparse.metrics import flowlearn_qa

    question = question or flowlearn_qa.question_of(path)
    if question is None:
        raise EvalError(path, "cannot tell the FlowLearn task from the file name; give "
                        f"--question ({', '.join(flowlearn_qa.QUESTIONS)})")
    try:
        items = flowlearn_qa.read_results(path)
    except flowlearn_qa.ResultsError as exc:
        raise EvalError(path, str(exc).split(": ", 1)[-1]) from None
    report = flowlearn_qa.score_results(items, question)
    cells = "  ".join(f"{k} {_cell(v)}" for k, v in report["summary"].items())
    print(f"task: flowlearn ({question}), {Path(path).name}\n{cells}",
          file=out if out is not None else sys.stdout)
    _write_report(json_path, report)
    return report


def run_uml_answers(path: str | Path, json_path: str | Path | None = None,
                    out: TextIO | None = None) -> dict:
    """Score a UML prior-bias answers file (one query a line with its gold label and the
    model's raw answer, :mod:`cvparse.metrics.uml_qa`): RelAcc overall, per condition, gaps."""
    from cvparse.metrics import uml_qa

    p = Path(path)
    if not p.is_file():
        raise EvalError(p, "no such file (without --gt, --pred is a UML answers file)")
    try:
        rows = uml_qa.read_answers(p)
    except uml_qa.AnswersError as exc:
        raise EvalError(p, str(exc)) from None
    except OSError as exc:
        raise EvalError(p, exc.strerror or str(exc)) from None
    report: dict[str, Any] = {"task": uml_qa.TASK, "summary": uml_qa.summarize(rows),
                              "per_query": rows}
    summary = report["summary"]
    cells = "  ".join(f"{k} {_cell(v)}" for k, v in summary.items()
                      if not isinstance(v, dict))
    by_cond = "  ".join(f"{c} {_cell(v)}" for c, v in summary["relacc_by_condition"].items())
    print(f"task: uml relation queries, {p.name}\n{cells}" + (
        f"\nrelacc by condition: {by_cond}" if by_cond else ""),
        file=out if out is not None else sys.stdout)
    _write_report(json_path, report)
    return report


def _is_results_file(path: str) -> bool:
    """A JSON file in FlowLearn's own results layout (checked from its content)."""
    from cvparse.metrics.flowlearn_qa import is_results_layout

    p = Path(path)
    if not p.is_file() or p.suffix != ".json":
        return False
    text = _read_text(p, MAX_JSONL_BYTES)  # EvalError when over the limit or unreadable
    try:
        return is_results_layout(loads(text))
    except json.JSONDecodeError:
        return False
    except TooComplex as exc:
        raise EvalError(p, str(exc)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``cvparse eval`` options to ``parser``."""
    parser.add_argument("--task", required=True, choices=TASKS, help="benchmark task")
    parser.add_argument("--gt", help="ground truth: directory or JSONL file (not needed for "
                        "a FlowLearn results file or a UML answers file, which hold the "
                        "answer keys)")
    parser.add_argument("--pred", required=True, help="predictions: directory or JSONL file, "
                        "or for flowlearn one of the benchmark's results files "
                        '({"<image>": {"prediction", "reference"}}), or for uml without '
                        "--gt a JSONL of relation queries (relation, source, target, label, "
                        "answer)")
    parser.add_argument("--question", choices=("mermaid", "num_nodes", "num_arrows", "ocr",
                                               "true_false", "description"),
                        help="FlowLearn task of a results file (default: from its name)")
    parser.add_argument("--json", dest="json_path", default=None,
                        help="also write the full report (summaries, per image) here")


def main(args: argparse.Namespace) -> int:
    """Run ``cvparse eval``; an unreadable input prints one error line and returns 2."""
    try:
        if args.task == "flowlearn" and args.gt is None and _is_results_file(args.pred):
            run_results_file(args.pred, args.question, json_path=args.json_path)
        elif args.task == "uml" and args.gt is None:
            run_uml_answers(args.pred, json_path=args.json_path)
        elif args.gt is None:
            raise EvalError("--gt", "required (only a FlowLearn results file or a UML "
                            "answers file brings its own answer keys)")
        else:
            run(args.task, args.gt, args.pred, json_path=args.json_path)
    except EvalError as exc:
        print(printable(f"cvparse: error: {exc.path}: {exc.reason}"), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    _parser = argparse.ArgumentParser(prog="cvparse eval")
    add_arguments(_parser)
    sys.exit(main(_parser.parse_args()))
