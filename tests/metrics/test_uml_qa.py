"""UML prior-bias relation queries scored from raw answers: labels, RelAcc, gaps, the CLI."""

import json
import subprocess
import sys

import pytest

from cvparse.metrics import uml_qa


@pytest.mark.parametrize("answer,label", [
    ("True", "true"), ("**False**.", "false"), ("yes", "true"), ('"No"', "false"),
    ("Unknown", "unknown"), ("The answer is: TRUE", "true"), ("", "unknown"),
    ("True or False?", "unknown"), ("not true, false", "unknown"), (True, "true"),
])
def test_read_label(answer, label):
    assert uml_qa.read_label(answer) == label


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _row(cond, gold, answer):
    return {"image": "d.png", "relation": "inheritance", "source": "Dog", "target": "Animal",
            "label": gold, "answer": answer, "condition": cond}


def test_relacc_counts_unknown_wrong_and_gives_the_gap(tmp_path):
    rows = uml_qa.read_answers(_write(tmp_path / "a.jsonl", [
        _row("prior-conform", True, "True"), _row("prior-conform", "False", "false."),
        _row("2-reverse", True, "False"), _row("2-reverse", False, "Unknown")]))
    s = uml_qa.summarize(rows)
    assert s["n"] == 4 and s["relacc"] == 0.5 and s["unknown"] == 0.25
    assert s["relacc_by_condition"] == {"prior-conform": 1.0, "2-reverse": 0.0}
    assert s["gap"] == 100.0 and "gap_3_mixed" not in s


@pytest.mark.parametrize("line,why", [
    ('{"relation": "x"}', "no source"), ("[1, 2", "not a JSON object"),
    (json.dumps(_row("", "maybe", "True")), "neither true nor false"),
])
def test_bad_lines_are_refused_with_the_line_number(tmp_path, line, why):
    p = tmp_path / "a.jsonl"
    p.write_text(line + "\n")
    with pytest.raises(uml_qa.AnswersError, match=f"line 1: .*{why}"):
        uml_qa.read_answers(p)


def test_cvparse_eval_reads_the_answers_file_without_gt(tmp_path):
    p = _write(tmp_path / "answers.jsonl", [_row("prior-conform", True, "yes"),
                                           _row("2-reverse", True, "no")])
    proc = subprocess.run([sys.executable, "-m", "cvparse", "eval", "--task", "uml",
                           "--pred", str(p), "--json", str(tmp_path / "r.json")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "relacc 0.500" in proc.stdout and "gap 100" in proc.stdout
    assert json.loads((tmp_path / "r.json").read_text())["summary"]["n"] == 2
    bad = subprocess.run([sys.executable, "-m", "cvparse", "eval", "--task", "uml",
                          "--pred", str(tmp_path / "none.jsonl")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("cvparse: error:") == 1
