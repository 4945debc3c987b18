"""FlowLearn's published VLM results re-scored by cvparse from the models' own answers.

The FlowLearn repository (github.com/Jo-Pan/FlowLearn) keeps every model's raw answers in
``results/<set>/<model>_<task>_2-shot.json`` (``{"<image>": {"prediction", "reference"}}``).
This script scores those files with ``cvparse.metrics`` and prints each value of the
paper's Table 4 (simulated flowcharts: OCR, node and arrow counts, the two kinds of
true/false statements; scientific flowcharts: OCR and statements) and Table 7
(Flowchart-to-Mermaid node and link P/R/F1) beside ours, with the difference, and for
reference Table 5's description word counts, ROUGE-L and BLEU (the paper does not say how
it computed them, so those are not expected to agree).  The
answer files are not part of cvparse: point ``--results`` at a checkout's ``results``
folder.

    python -m benchmarks.flowlearn_answers --results ../FlowLearn/results
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from benchmarks._common import fmt, format_table, load_published
from cvparse.metrics import flowlearn, flowlearn_qa

FILE_PREFIX = {
    "Claude-3 Opus": "claude", "GPT-4V": "gpt4v", "Step-1V": "step-1v",
    "Gemini-Pro-Vision": "gemini-pro-vision", "Gemini-Pro-Vision (CoT)": "gemini-pro-vision",
    "InternLM-XComposer2-VL": "internlm-x2", "LLaVA-1.6-34B": "llava16-34b",
    "Qwen-VL-chat": "qwen-vl-chat", "DeepSeek-VL-7B-chat": "deepseek-vl-7b-chat",
}
"""Paper model name -> file name prefix in the results folders."""
SCIENTIFIC = {  # Table 4, scientific flowcharts (not in published.json, which holds simulated)
    "ocr_acc": [0.44, 0.51, 0.66, 0.43, 0.06, 0.01, 0.08, 0.05],
    "tf_true": [0.69, 0.63, 0.9, 0.55, 0.89, 0.15, 0.18, 0.86],
    "tf_false": [0.53, 0.74, 0.36, 0.7, 0.28, 0, 0, 0.21],
    "tf_acc": [0.61, 0.68, 0.63, 0.62, 0.59, 0.08, 0.09, 0.53],
}
DESCRIPTION = {  # Table 5, simulated flowcharts; BERTScore and SBERT need models cvparse lacks
    "median_words": [28, 34, 35, 33, 58, 19, 200, 32],
    "rouge_l": [0.54, 0.52, 0.52, 0.56, 0.19, 0, 0.13, 0.41],
    "bleu": [0.02, 0.01, 0.01, 0.01, 0.01, 0, 0, 0.02],
}
SCIENTIFIC_MODELS = ["Claude-3 Opus", "GPT-4V", "Step-1V", "Gemini-Pro-Vision",
                     "InternLM-XComposer2-VL", "LLaVA-1.6-34B", "Qwen-VL-chat",
                     "DeepSeek-VL-7B-chat"]


def _file(results: Path, folder: str, model: str, task: str) -> Path:
    cot = "-cot" if model.endswith("(CoT)") else ""
    return results / folder / f"{FILE_PREFIX[model]}_{task}_2-shot{cot}.json"


def _read(path: Path) -> dict | None:
    try:
        return flowlearn_qa.read_results(path)
    except flowlearn_qa.ResultsError:
        return None


def _accuracy(path: Path, question: str) -> float | None:
    items = _read(path)
    if items is None:
        return None
    rows = [flowlearn_qa.score_answer(question, p, r) for p, r in items.values()]
    return flowlearn_qa.summarize(question, rows)["accuracy"]


def _statements(results: Path, folder: str, model: str, suffix: str) -> dict | None:
    t = _read(_file(results, folder, model, f"Flowchart-isTrue{suffix}"))
    f = _read(_file(results, folder, model, f"Flowchart-isFalse{suffix}"))
    return flowlearn_qa.statement_table(t, f) if t and f else None


def _mermaid(path: Path) -> dict | None:
    items = _read(path)
    if items is None:
        return None
    rows = [flowlearn.score(flowlearn.load(ref)[0], flowlearn.load(pred)[0])
            for pred, ref in items.values()]
    return flowlearn.summarize(rows)


def simulated(results: Path, metric: str, model: str) -> float | None:
    """Our value of one published.json FlowLearn metric (simulated, word set)."""
    folder = "SimFlowchart-word"
    if metric in ("ocr_acc", "nodes_acc", "arrows_acc"):
        task, question = {"ocr_acc": ("ocr", "ocr"), "nodes_acc": ("Num_Nodes", "num_nodes"),
                          "arrows_acc": ("Num_Arrows", "num_arrows")}[metric]
        return _accuracy(_file(results, folder, model, task), question)
    if metric.startswith("tf_"):
        kind, _, part = metric[3:].rpartition("_")
        suffix = {"between": "-betweenAB", "a_to_b": "-AtoB"}[kind]
        s = _statements(results, folder, model, suffix)
        return None if s is None else s[{"acc": "average"}.get(part, part)]
    s = _mermaid(_file(results, folder, model, "Flowchart-to-Mermaid"))
    return None if s is None else s[metric]


def compare(results: Path) -> list[dict]:
    """One row per published value: table, metric, model, paper, ours."""
    rows = []
    for r in load_published():
        if r["benchmark"] != "flowlearn" or r["model"] not in FILE_PREFIX:
            continue
        table = "Table 7" if r["metric"].startswith(("node_", "link_")) else "Table 4"
        rows.append({"table": table, "set": "simulated", "metric": r["metric"],
                     "model": r["model"], "paper": r["value"],
                     "ours": simulated(results, r["metric"], r["model"])})
    for metric, values in SCIENTIFIC.items():
        for model, paper in zip(SCIENTIFIC_MODELS, values):
            if metric == "ocr_acc":
                ours = _accuracy(_file(results, "SciFlowchart", model, "ocr"), "ocr")
            else:
                s = _statements(results, "SciFlowchart", model, "")
                ours = None if s is None else s[{"tf_true": "true", "tf_false": "false",
                                                 "tf_acc": "average"}[metric]]
            rows.append({"table": "Table 4", "set": "scientific", "metric": metric,
                         "model": model, "paper": paper, "ours": ours})
    for metric, values in DESCRIPTION.items():
        for model, paper in zip(SCIENTIFIC_MODELS, values):
            items = _read(_file(results, "SimFlowchart-word", model, "Flowchart-to-Description"))
            ours = None
            if items is not None:
                scored = [flowlearn_qa.score_answer("description", p, r) for p, r in items.values()]
                ours = flowlearn_qa.summarize("description", scored)[metric]
            rows.append({"table": "Table 5", "set": "simulated", "metric": metric,
                         "model": model, "paper": paper, "ours": ours})
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.flowlearn_answers",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--results", required=True, type=Path,
                   help="the FlowLearn repository's results/ folder")
    p.add_argument("--json", type=Path, help="also write the rows here")
    args = p.parse_args(argv)
    if not args.results.is_dir():
        print(f"flowlearn_answers: {args.results}: not a folder", file=sys.stderr)
        return 2
    rows = compare(args.results)
    table = [[r["table"], r["set"], r["metric"], r["model"], fmt(r["paper"]), fmt(r["ours"]),
              fmt(None if r["ours"] is None else r["ours"] - r["paper"])] for r in rows]
    print(format_table(["table", "set", "metric", "model", "paper", "ours", "ours-paper"],
                       table, "FlowLearn: published values vs cvparse re-scoring the answers"))
    for name in ("Table 4", "Table 5", "Table 7"):
        scored = [r for r in rows if r["table"] == name and r["metric"] != "median_words"]
        diffs = [abs(r["ours"] - r["paper"]) for r in scored if r["ours"] is not None]
        missing = sum(r["ours"] is None for r in scored)
        worst = f"{max(diffs):.3f}" if diffs else "-"
        print(f"{name}: {len(diffs)} fractions, max |ours-paper| {worst}, "
              f"within .02: {sum(d <= 0.02 + 1e-9 for d in diffs)}, "
              f"within .015: {sum(d <= 0.015 + 1e-9 for d in diffs)}, no answer file: {missing}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
