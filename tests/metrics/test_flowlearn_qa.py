"""FlowLearn's question tasks from raw answers, and its results-file layout, on small
hand-made files (the benchmark's own answer files are not part of the repository)."""

import json

import pytest

from cvparse.evaluate import main as eval_main
from cvparse.metrics import flowlearn_qa as q


@pytest.mark.parametrize("text, n", [
    ("7", 7), ("There are 7 nodes.", 7), ("The answer is: eight", 8),
    ("twenty-one arrows", 21), ("Twenty one", 21), ("node2 connects to 5 others", 5),
    ("I count 6, maybe 7", 6), ("seven (7)", 7), ("no number here", None), ("", None),
    ("Someone said 3", 3),
])
def test_first_number(text, n):
    assert q.first_number(text) == n


@pytest.mark.parametrize("question, pred, ref, ok", [
    ("num_nodes", "There are 6 nodes", "6", True),
    ("num_nodes", "6 or 7", "7", False),
    ("num_arrows", "None.", "0", False),
    ("ocr", "The text is: hovedance backslid.", "hovedance backslid", True),
    ("ocr", "Hovedance backslid", "hovedance backslid", False),
    ("ocr", "hovedance  backslid", "hovedance backslid", False),
    ("true_false", "False", "false", True),
    ("true_false", "The statement is TRUE.", "true", True),
    ("true_false", "true or false", "true", False),
    ("true_false", "untrue", "true", False),
    ("true_false", "yes", "false", False),
])
def test_answers(question, pred, ref, ok):
    assert q.score_answer(question, pred, ref)["accuracy"] == float(ok)


def test_statement_table_splits_true_and_false():
    t = {"a": ("true", "true"), "b": ("false", "true")}
    f = {"a": ("false", "false"), "b": ("false", "false"), "c": ("", "false"), "d": ("x", "false")}
    assert q.statement_table(t, f) == {"true": 0.5, "false": 0.5, "average": 0.5}


def test_description_scores():
    same = q.score_answer("description", "a points to b. b points to c.",
                          "a points to b. b points to c.")
    assert same["bleu"] == pytest.approx(1.0) and same["rouge_l"] == 1.0 and same["words"] == 8
    other = q.score_answer("description", "c points to a.", "a points to b. b points to c.")
    assert 0 < other["rouge_l"] < 1 and other["bleu"] < 0.5
    assert q.score_answer("description", "", "a points to b.")["bleu"] == 0.0
    assert q.rouge_l("a b c d".split(), "a c d e".split()) == pytest.approx(0.75)


@pytest.mark.parametrize("name, question", [
    ("claude_Num_Nodes_2-shot.json", "num_nodes"), ("gpt4v_ocr_2-shot.json", "ocr"),
    ("x_Flowchart-isFalse-AtoB_2-shot.json", "true_false"),
    ("x_Flowchart-to-Mermaid_2-shot-cot.json", "mermaid"),
    ("x_Flowchart-to-Caption_2-shot.json", "description"), ("answers.json", None)])
def test_question_from_file_name(name, question):
    assert q.question_of(name) == question


def _results(tmp_path, name, items):
    path = tmp_path / name
    path.write_text(json.dumps({k: {"prediction": p, "reference": r}
                                for k, (p, r) in items.items()}))
    return path


def test_eval_reads_the_benchmarks_own_results_file(tmp_path, capsys):
    path = _results(tmp_path, "m_Num_Arrows_2-shot.json",
                    {"1.jpeg": ("5 arrows", "5"), "2.jpeg": ("four", "4"), "3.jpeg": ("?", "3")})
    report = tmp_path / "r.json"
    assert eval_main(_args(path, report)) == 0
    out = capsys.readouterr().out
    assert "num_arrows" in out and "accuracy 0.667" in out
    data = json.loads(report.read_text())
    assert data["summary"]["accuracy"] == pytest.approx(2 / 3) and data["n"] == 3


def test_eval_scores_mermaid_answers_in_results_files(tmp_path, capsys):
    ref = "```mermaid\nflowchart TB\nentity0(a b)\nentity1(c)\nentity0 --> entity1\n```"
    pred = "Here:\n```mermaid\nflowchart LR\nx(a b)\ny(c)\nx --> y\ny --> x\n```"
    path = _results(tmp_path, "m_Flowchart-to-Mermaid_2-shot.json", {"1.jpeg": (pred, ref)})
    assert eval_main(_args(path)) == 0
    out = capsys.readouterr().out
    assert "node_f1 1.000" in out and "link_p 0.500" in out and "link_r 1.000" in out


def test_eval_needs_the_question_when_the_name_does_not_say(tmp_path, capsys):
    path = _results(tmp_path, "answers.json", {"1.jpeg": ("true", "true")})
    assert eval_main(_args(path)) == 2
    assert "--question" in capsys.readouterr().err
    assert eval_main(_args(path, question="true_false")) == 0


def _args(pred, json_path=None, question=None):
    import argparse

    return argparse.Namespace(task="flowlearn", gt=None, pred=str(pred), json_path=json_path,
                              question=question)


def test_benchmark_script_reads_a_results_folder(tmp_path, capsys):
    from benchmarks import flowlearn_answers

    sim = tmp_path / "SimFlowchart-word"
    sim.mkdir()
    _results(sim, "claude_Num_Nodes_2-shot.json", {"1": ("6", "6"), "2": ("5", "6")})
    _results(sim, "claude_Flowchart-isTrue-AtoB_2-shot.json", {"1": ("true", "true")})
    _results(sim, "claude_Flowchart-isFalse-AtoB_2-shot.json", {"1": ("true", "false")})
    rows = {(r["set"], r["metric"], r["model"]): r["ours"]
            for r in flowlearn_answers.compare(tmp_path)}
    assert rows["simulated", "nodes_acc", "Claude-3 Opus"] == 0.5
    assert rows["simulated", "tf_a_to_b_acc", "Claude-3 Opus"] == 0.5
    assert rows["simulated", "nodes_acc", "GPT-4V"] is None
    assert flowlearn_answers.main(["--results", str(tmp_path)]) == 0
    assert "Table 4:" in capsys.readouterr().out


def test_deep_results_file_is_one_error_line(tmp_path, capsys):
    path = tmp_path / "m_Num_Arrows_2-shot.json"
    path.write_text('{"1.jpeg": {"prediction": ' + "[" * 100_000 + "]" * 100_000
                    + ', "reference": "3"}}')
    assert eval_main(_args(path)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"cvparse: error: {path}: JSON nested deeper")
    with pytest.raises(q.ResultsError, match="JSON nested deeper"):
        q.read_results(path)


def test_results_file_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(q, "MAX_RESULTS_BYTES", 10)
    path = _results(tmp_path, "m_OCR.json", {"1.jpeg": ("a", "a")})
    with pytest.raises(q.ResultsError, match="file too large"):
        q.read_results(path)
