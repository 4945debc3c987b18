"""FlowLearn's question tasks scored from raw answers: counting, OCR, true/false statements
and descriptions (section 4.3 of papers/flowlearn.txt), and the benchmark's own
results-file layout.

The FlowLearn repository keeps one JSON file per model and task, named
``<model>_<task>_<k>-shot.json``, mapping an image name to ``{"prediction": answer,
"reference": answer key}``; :func:`read_results` reads that layout as it is and
:func:`question_of` tells the task from the file name.

Rules, as the paper states them, and what it leaves open, fixed here:

* **Num_Nodes / Num_Arrows.** The first number in the answer, digits or an English number
  word (``zero`` ... ``ninety``, with ``twenty-one`` style compounds), equals the reference;
  an answer without a number is wrong.  Digits inside a word (``node2``) are not numbers; a
  decimal such as ``7.5`` reads as 7 (its first numeric token).
* **OCR.** Correct when the answer contains the reference text exactly (case and
  punctuation as written); only surrounding whitespace of the reference is ignored.
* **True/false statements.** Correct when the answer contains exactly one of ``true`` and
  ``false`` (case-insensitive, as whole words) and it is the reference.  Neither or both
  is wrong.  The paper reports the true and the false statements separately and their mean
  (:func:`statement_table`).
* **Description.** The paper's BLEU, ROUGE-L, BERTScore and Sentence-Transformer
  similarity; the last two need neural models, which cvparse does not carry, so only BLEU
  (corpus-free sentence BLEU-4, uniform weights, brevity penalty, the +1 smoothing of
  Lin and Och for empty higher orders), ROUGE-L (F-measure of the longest common token
  subsequence) and the median word count are computed.  Tokens are lower-cased words and
  punctuation marks.  The paper does not say which BLEU implementation it used, so these
  BLEU values are not comparable to its Table 5.
* **Mermaid.** Scored by :mod:`cvparse.metrics.flowlearn` (Table 7).
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from cvparse.files import UnreadableFile, read_regular
from cvparse.metrics._extract import TooComplex, loads

MAX_RESULTS_BYTES = 512 * 2 ** 20
"""Largest results file read (bytes): it holds every image's answer, like a JSONL file."""

QUESTIONS = ("mermaid", "num_nodes", "num_arrows", "ocr", "true_false", "description")
_FILE_TASKS = (("Flowchart-to-Mermaid", "mermaid"), ("Num_Nodes", "num_nodes"),
               ("Num_Arrows", "num_arrows"), ("_ocr_", "ocr"), ("isTrue", "true_false"),
               ("isFalse", "true_false"), ("Flowchart-to-Description", "description"),
               ("Flowchart-to-Caption", "description"))

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
          "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
          "seventeen", "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_WORDS = {w: i for i, w in enumerate(_UNITS)} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}
_TOKEN = re.compile(r"(?<![A-Za-z0-9_])(\d+)(?![A-Za-z_])|\b([A-Za-z]+)(?:[- ]([A-Za-z]+))?\b")


class ResultsError(ValueError):
    """A file is not in the FlowLearn results layout."""


def question_of(path: str | Path) -> str | None:
    """The task a FlowLearn results file holds, from its name (None if it does not say)."""
    name = Path(path).name
    return next((q for marker, q in _FILE_TASKS if marker in name), None)


def is_results_layout(data: Any) -> bool:
    return (isinstance(data, dict) and bool(data)
            and all(isinstance(v, dict) and "prediction" in v and "reference" in v
                    for v in data.values()))


def read_results(path: str | Path) -> dict[str, tuple[Any, Any]]:
    """``{image: (prediction, reference)}`` from a FlowLearn results file."""
    try:
        data = loads(read_regular(path, MAX_RESULTS_BYTES).decode("utf-8"))
    except UnreadableFile as exc:
        raise ResultsError(f"{path}: {exc.reason}") from None
    except TooComplex as exc:
        raise ResultsError(f"{path}: {exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ResultsError(f"{path}: cannot be read as JSON ({exc})") from None
    if not is_results_layout(data):
        raise ResultsError(f'{path}: expected {{"<image>": {{"prediction", "reference"}}}}')
    return {k: (v["prediction"], v["reference"]) for k, v in data.items()}


def first_number(text: Any) -> int | None:
    """The first numeric token of an answer: digits or an English number word."""
    for m in _TOKEN.finditer(str(text)):
        if m.group(1) is not None:
            return int(m.group(1))
        first, second = m.group(2).lower(), (m.group(3) or "").lower()
        if first in _WORDS:
            value = _WORDS[first]
            if first in _TENS and second in _UNITS[1:10]:
                value += _WORDS[second]
            return value
    return None


def _truth(value: Any) -> bool | None:
    words = set(re.findall(r"[a-z]+", str(value).lower()))
    if ("true" in words) == ("false" in words):
        return None
    return "true" in words


def score_answer(question: str, prediction: Any, reference: Any) -> dict:
    """One answer's scores for a question task (not ``mermaid``)."""
    if question in ("num_nodes", "num_arrows"):
        want = first_number(reference)
        return {"accuracy": float(want is not None and first_number(prediction) == want)}
    if question == "ocr":
        return {"accuracy": float(str(reference).strip() in str(prediction))}
    if question == "true_false":
        want, got = _truth(reference), _truth(prediction)
        return {"accuracy": float(want is not None and got == want), "statement": want}
    if question == "description":
        p, r = tokens(prediction), tokens(reference)
        return {"bleu": bleu(p, r), "rouge_l": rouge_l(p, r),
                "words": len(str(prediction).split())}
    raise ValueError(f"unknown question task {question!r} (one of {', '.join(QUESTIONS)})")


def tokens(text: Any) -> list[str]:
    return re.findall(r"\w+|[^\w\s]", str(text).lower())


def _ngrams(toks: list[str], n: int) -> Counter:
    return Counter(tuple(toks[i:i + n]) for i in range(len(toks) - n + 1))


def bleu(pred: list[str], ref: list[str], max_n: int = 4) -> float:
    """Sentence BLEU-4 with brevity penalty; +1 smoothing for orders above 1."""
    if not pred or not ref:
        return 0.0
    logs = []
    for n in range(1, max_n + 1):
        p, r = _ngrams(pred, n), _ngrams(ref, n)
        hits, total = sum(min(c, r[g]) for g, c in p.items()), max(len(pred) - n + 1, 0)
        if n == 1 and hits == 0:
            return 0.0
        if n > 1:
            hits, total = hits + 1, total + 1
        logs.append(math.log(hits / total) if total else 0.0)
    bp = 1.0 if len(pred) > len(ref) else math.exp(1 - len(ref) / len(pred))
    return bp * math.exp(sum(logs) / max_n)


def rouge_l(pred: list[str], ref: list[str]) -> float:
    """ROUGE-L F1: longest common subsequence of tokens over both lengths."""
    if not pred or not ref:
        return 0.0
    prev = [0] * (len(ref) + 1)
    for a in pred:
        cur = [0]
        for j, b in enumerate(ref):
            cur.append(prev[j] + 1 if a == b else max(prev[j + 1], cur[j]))
        prev = cur
    lcs = prev[-1]
    if not lcs:
        return 0.0
    p, r = lcs / len(pred), lcs / len(ref)
    return 2 * p * r / (p + r)


def summarize(question: str, per_image: list[dict]) -> dict:
    """Mean accuracy (with the true / false statement split), or the description means and
    median word count."""
    n = len(per_image)
    if question == "description":
        return {"n": n, **{k: sum(d[k] for d in per_image) / n if n else 0.0
                           for k in ("bleu", "rouge_l")},
                "median_words": statistics.median(d["words"] for d in per_image) if n else 0}
    out = {"n": n, "accuracy": sum(d["accuracy"] for d in per_image) / n if n else 0.0}
    if question == "true_false":
        for label, want in (("true", True), ("false", False)):
            part = [d["accuracy"] for d in per_image if d["statement"] is want]
            out[f"{label}_accuracy"] = sum(part) / len(part) if part else None
    return out


def statement_table(true_file: dict, false_file: dict) -> dict:
    """The paper's statement rows from its two files (true statements, false statements):
    TRUE, FALSE and their mean."""
    t = summarize("true_false", [score_answer("true_false", p, r) for p, r in true_file.values()])
    f = summarize("true_false", [score_answer("true_false", p, r)
                                 for p, r in false_file.values()])
    return {"true": t["accuracy"], "false": f["accuracy"],
            "average": (t["accuracy"] + f["accuracy"]) / 2}


def score_results(items: dict[str, tuple[Any, Any]], question: str) -> dict:
    """Score a results file's ``{image: (prediction, reference)}``: the report ``cvparse
    eval`` prints and writes (``summary`` plus ``per_image``)."""
    if question == "mermaid":
        from cvparse.metrics import flowlearn

        per_image, invalid = {}, 0
        for image, (pred, ref) in items.items():
            gt, _ = flowlearn.load(ref)
            chart, ok = flowlearn.load(pred)
            invalid += not ok
            per_image[image] = flowlearn.score(gt, chart)
        summary = {"n": len(items), "invalid": invalid,
                   **flowlearn.summarize(list(per_image.values()))}
    else:
        per_image = {image: score_answer(question, p, r) for image, (p, r) in items.items()}
        summary = summarize(question, list(per_image.values()))
    return {"task": "flowlearn", "question": question, "n": len(items), "summary": summary,
            "per_image": per_image}
