"""UML prior-bias relation queries scored from a model's raw answers (the paper's own task).

The benchmark (papers/uml_prior_bias.txt, section 3) asks one query per instance: "does
relation r hold from c_i to c_j?", answered with one label of {True, False, Unknown};
abstentions count as wrong.  An answers file is JSONL, one instance a line, with the
instance's fields as the paper names them: ``relation``, ``source`` (c_i), ``target``
(c_j), the gold ``label`` (true/false) and the model's raw ``answer``, plus ``condition``
(``prior-conform``, ``2-reverse``, ...) and ``image`` when known.

Reading an answer (the paper's "deterministic parser", whose rules it does not list):
wrappers (quotes, asterisks, brackets, a trailing full stop) are ignored and the words are
matched case-insensitively: ``true`` / ``yes`` mean True, ``false`` / ``no`` mean False,
``unknown`` means Unknown.  An answer with words of both True and False, or with none of
them, is Unknown (the paper maps unresolvable answers to Unknown).  A "not true"-style
negation is not undone: it holds both kinds of word and is Unknown.

:func:`summarize` gives ``relacc`` (the fraction of instances answered right) overall and
per condition, and the conflict gaps of :mod:`cvparse.metrics.uml` in points.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from cvparse.metrics._extract import check_depth
from cvparse.metrics.uml import _GAPS

TASK = "uml_qa"
LABELS = ("true", "false", "unknown")
FIELDS = ("relation", "source", "target", "label", "answer")
MAX_FILE_BYTES = 512 * 2 ** 20
_WORD = re.compile(r"[a-z]+")
_TRUE, _FALSE = {"true", "yes"}, {"false", "no"}


class AnswersError(ValueError):
    """An answers file that cannot be read as the layout above; the message says why."""


def read_label(text: Any) -> str:
    """``"true"``, ``"false"`` or ``"unknown"`` for one raw answer (see the module doc)."""
    if isinstance(text, bool):
        return "true" if text else "false"
    words = set(_WORD.findall(str(text).lower()))
    t, f = bool(words & _TRUE), bool(words & _FALSE)
    if t != f:
        return "true" if t else "false"
    return "unknown"


def _gold(value: Any) -> bool:
    label = read_label(value)
    if label == "unknown":
        raise AnswersError(f"gold label {value!r} is neither true nor false")
    return label == "true"


def read_answers(path: str | Path) -> list[dict]:
    """The instances of a JSONL answers file, each with ``gold`` (bool) and ``pred``
    (a label); :class:`AnswersError` for a file that is not in this layout."""
    path = Path(path)
    if path.stat().st_size > MAX_FILE_BYTES:
        raise AnswersError(f"file over {MAX_FILE_BYTES // 2 ** 20} MB")
    rows = []
    with path.open(encoding="utf-8", errors="replace") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                item = check_depth(json.loads(line))
            except (json.JSONDecodeError, RecursionError, ValueError) as exc:
                raise AnswersError(f"line {n}: not a JSON object ({exc})") from None
            missing = [k for k in FIELDS if not isinstance(item, dict) or k not in item]
            if missing:
                raise AnswersError(f"line {n}: no {', '.join(missing)}")
            try:
                gold = _gold(item["label"])
            except AnswersError as exc:
                raise AnswersError(f"line {n}: {exc}") from None
            rows.append({"image": str(item.get("image", "")),
                         "condition": str(item.get("condition", "")),
                         "relation": str(item["relation"]), "source": str(item["source"]),
                         "target": str(item["target"]), "gold": gold,
                         "pred": read_label(item["answer"])})
    return rows


def summarize(rows: list[dict]) -> dict:
    """``n``, ``relacc``, ``unknown`` (share of abstentions), ``relacc_by_condition`` and
    the gaps (points) whose two conditions both have instances."""
    def acc(items: list[dict]) -> float:
        right = sum((r["pred"] == "true") == r["gold"] and r["pred"] != "unknown"
                    for r in items)
        return right / len(items) if items else 0.0

    by_condition: dict[str, list[dict]] = {}
    for r in rows:
        by_condition.setdefault(r["condition"], []).append(r)
    accs = {c: acc(items) for c, items in by_condition.items() if c}
    out = {"n": len(rows), "relacc": acc(rows),
           "unknown": sum(r["pred"] == "unknown" for r in rows) / len(rows) if rows else 0.0,
           "relacc_by_condition": accs}
    conform = accs.get("prior-conform")
    for key, cond in _GAPS.items():
        if conform is not None and cond in accs:
            out[key] = 100.0 * (conform - accs[cond])
    return out
