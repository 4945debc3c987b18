"""Tests for the ``cvparse eval`` harness (directories, JSONL, invalid and missing outputs)."""

import argparse
import io
import json

import pytest

from cvparse import evaluate
from cvparse.metrics import TASKS


def topo_doc(edges, subset=None):
    labels = sorted({n for e in edges for n in e})
    d = {"kind": "topology",
         "nodes": [{"id": f"n{i}", "label": lab} for i, lab in enumerate(labels)],
         "edges": [{"source": f"n{labels.index(s)}", "target": f"n{labels.index(t)}",
                    "directed": True} for s, t in edges]}
    if subset:
        d["subset"] = subset
    return d


GT = {"img1": topo_doc([("A", "B"), ("B", "C")], "network"),
      "img2": topo_doc([("X", "Y")], "network"),
      "img3": topo_doc([("P", "Q")], "food_web"),
      "img4": topo_doc([("M", "N")], "food_web")}
RAW_IMG2 = 'Sure! ```json\n{"nodes": ["X", "Y"], "edges": [["X", "Y"]]}\n```'


def write_dirs(tmp_path):
    gt, pred = tmp_path / "gt", tmp_path / "pred"
    gt.mkdir()
    pred.mkdir()
    for stem, d in GT.items():
        (gt / f"{stem}.json").write_text(json.dumps(d))
        (gt / f"{stem}.png").write_bytes(b"\x89PNG not really")
    (gt / "manifest.json").write_text(json.dumps({"items": []}))
    (pred / "img1.json").write_text(json.dumps(GT["img1"]))
    (pred / "img2.txt").write_text(RAW_IMG2)        # raw model output
    (pred / "img3.txt").write_text("I am not sure what this diagram shows.")  # unparsable
    (pred / "report.jsonl").write_text("")          # img4 has no prediction
    return gt, pred


def check_report(report):
    assert report["task"] == "topology" and report["n"] == 4
    assert report["invalid"] == 1 and report["missing"] == 1
    per = report["per_image"]
    assert per["img1"]["edge_f1"] == 1.0 and per["img2"]["edge_f1"] == 1.0
    assert not per["img3"]["valid"] and per["img3"]["node_f1"] == 0.0
    assert per["img4"]["missing"] and per["img4"]["node_f1"] == 0.0
    assert report["summary"]["node_f1"] == pytest.approx(0.5)
    assert set(report["subsets"]) == {"network", "food_web"}
    net, food = report["subsets"]["network"], report["subsets"]["food_web"]
    assert net["summary"]["edge_f1"] == 1.0 and net["invalid"] == 0
    assert food["summary"]["edge_f1"] == 0.0 and food["invalid"] == 1 and food["missing"] == 1


def test_directories(tmp_path):
    gt, pred = write_dirs(tmp_path)
    out = io.StringIO()
    report = evaluate.run("topology", gt, pred, json_path=tmp_path / "r.json", out=out)
    check_report(report)
    assert json.loads((tmp_path / "r.json").read_text()) == json.loads(json.dumps(report))
    table = out.getvalue()
    assert "invalid output" in table
    rows = {line.split()[0]: line.split() for line in table.splitlines()[3:]}
    assert set(rows) == {"network", "food_web", "all"}
    assert rows["all"][1:4] == ["4", "1", "1"]


def test_directory_prefers_json_then_mmd_then_txt(tmp_path):
    gt, pred = tmp_path / "gt", tmp_path / "pred"
    gt.mkdir()
    pred.mkdir()
    (gt / "a.json").write_text(json.dumps(topo_doc([("A", "B")])))
    (gt / "b.json").write_text(json.dumps(topo_doc([("A", "B")])))
    (pred / "a.mmd").write_text("flowchart LR\n  x[A] --> y[B]\n")
    (pred / "a.txt").write_text("garbage")
    (pred / "b.json").write_text("{broken json")  # raw text the module cannot read
    (pred / "b.txt").write_text('{"edges": [["A", "B"]]}')
    report = evaluate.run("topology", gt, pred, out=io.StringIO())
    assert report["per_image"]["a"]["valid"] and report["per_image"]["a"]["edge_f1"] == 1.0
    assert not report["per_image"]["b"]["valid"] and report["invalid"] == 1
    assert report["subsets"] == {}


def test_jsonl(tmp_path):
    gt, pred = tmp_path / "gt.jsonl", tmp_path / "pred.jsonl"
    gt.write_text("\n".join(json.dumps({"id": k, "doc": v}) for k, v in GT.items()) + "\n")
    pred.write_text("\n".join(json.dumps(x) for x in [
        {"id": "img1", "doc": GT["img1"]},
        {"id": "img2", "doc": RAW_IMG2},
        {"id": "img3", "doc": "no idea"},
        {"id": "extra", "doc": GT["img1"]}]) + "\n\n")
    report = evaluate.run("topology", gt, pred, out=io.StringIO())
    check_report(report)
    assert report["unmatched_predictions"] == 1


def test_uml_table_shows_gap(tmp_path):
    def uml(cond, src, tgt):
        return {"kind": "uml", "classes": [{"name": "Dog"}, {"name": "Animal"}],
                "relations": [{"type": "inheritance", "source": src, "target": tgt}],
                "condition": cond, "subset": cond, "scale": 1.0}
    gt = tmp_path / "gt.jsonl"
    gt.write_text(json.dumps({"id": "a", "doc": uml("prior-conform", "Dog", "Animal")}) + "\n"
                  + json.dumps({"id": "b", "doc": uml("2-reverse", "Animal", "Dog")}) + "\n")
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps({"id": "a", "doc": "Dog --|> Animal"}) + "\n"
                    + json.dumps({"id": "b", "doc": "Dog --|> Animal"}) + "\n")
    out = io.StringIO()
    report = evaluate.run("uml", gt, pred, out=out)
    assert report["summary"]["gap"] == pytest.approx(100.0)
    assert report["subsets"]["2-reverse"]["summary"]["relacc"] == 0.0
    header = out.getvalue().splitlines()[1].split()
    assert header[-1] == "gap"
    assert out.getvalue().splitlines()[-1].split()[-1] == "100.00"


def cli(argv):
    parser = argparse.ArgumentParser(prog="cvparse eval")
    evaluate.add_arguments(parser)
    return evaluate.main(parser.parse_args(argv))


def test_cli_success_writes_json(tmp_path, capsys):
    gt, pred = write_dirs(tmp_path)
    assert cli(["--task", "topology", "--gt", str(gt), "--pred", str(pred),
                "--json", str(tmp_path / "r.json")]) == 0
    check_report(json.loads((tmp_path / "r.json").read_text()))
    assert "all" in capsys.readouterr().out


def test_cli_missing_path_is_one_line_error(tmp_path, capsys):
    missing = tmp_path / "nope"
    assert cli(["--task", "topology", "--gt", str(missing), "--pred", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == f"cvparse: error: {missing}: no such file or directory\n"


def test_cli_bad_jsonl_line(tmp_path, capsys):
    gt, _ = write_dirs(tmp_path)
    bad = tmp_path / "pred.jsonl"
    bad.write_text(json.dumps({"id": "img1", "doc": GT["img1"]}) + "\n{not json\n")
    assert cli(["--task", "topology", "--gt", str(gt), "--pred", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cvparse: error: {bad}: line 2: not valid JSON")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_unreadable_ground_truth_is_an_error(tmp_path):
    gt = tmp_path / "gt.jsonl"
    gt.write_text(json.dumps({"id": "x", "doc": "not a graph"}) + "\n")
    pred = tmp_path / "pred"
    pred.mkdir()
    (pred / "x.txt").write_text("A -> B")
    with pytest.raises(evaluate.EvalError, match="x: ground truth"):
        evaluate.run("topology", gt, pred, out=io.StringIO())


# --- limits: depth, size, empty or unmatched predictions ------------------------------------

DEEP_LISTS = "[" * 100_000 + "]" * 100_000


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err.strip()


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("where", ["pred", "gt"])
def test_deeply_nested_json_is_one_error_line(tmp_path, capsys, task, where):
    gt, pred = write_dirs(tmp_path)
    target = (pred if where == "pred" else gt) / "img1.json"
    target.write_text(DEEP_LISTS)
    assert cli(["--task", task, "--gt", str(gt), "--pred", str(pred)]) == 2
    line = _one_error_line(capsys)
    assert line.startswith(f"cvparse: error: {target}: JSON nested deeper")


def test_deep_dict_inside_a_valid_document_is_refused(tmp_path, capsys):
    gt, pred = write_dirs(tmp_path)
    deep = '{"x": ' * 5000 + "{}" + "}" * 5000
    (pred / "img1.json").write_text(json.dumps(GT["img1"])[:-1] + ', "extra": ' + deep + "}")
    assert cli(["--task", "topology", "--gt", str(gt), "--pred", str(pred)]) == 2
    assert "JSON nested deeper" in _one_error_line(capsys)
    # Below Python's limit but over ours: counted, not just caught.
    node = shallow = {}
    for _ in range(200):
        node["x"] = {}
        node = node["x"]
    (pred / "img1.json").write_text(json.dumps(dict(GT["img1"], extra=shallow)))
    assert cli(["--task", "topology", "--gt", str(gt), "--pred", str(pred)]) == 2
    assert "JSON nested 202 levels deep (limit 64)" in _one_error_line(capsys)


def test_deep_jsonl_doc_is_refused(tmp_path, capsys):
    gt, _ = write_dirs(tmp_path)
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps({"id": "img1", "doc": GT["img1"]}) + "\n"
                    + '{"id": "img2", "doc": ' + DEEP_LISTS + "}\n")
    assert cli(["--task", "er", "--gt", str(gt), "--pred", str(pred)]) == 2
    assert _one_error_line(capsys).startswith(f"cvparse: error: {pred}: line 2: JSON nested")


def test_huge_raw_text_is_refused_quickly(tmp_path, capsys):
    import time

    gt, pred = write_dirs(tmp_path)
    (pred / "img2.txt").write_text("A --> B\n" * 250_000)  # 2 MB of Mermaid-looking text
    t0 = time.process_time()  # CPU time: the machine may be shared
    assert cli(["--task", "flowlearn", "--gt", str(gt), "--pred", str(pred)]) == 2
    assert time.process_time() - t0 < 5
    line = _one_error_line(capsys)
    assert line == (f"cvparse: error: {pred / 'img2.txt'}: raw text of 2,000,000 characters "
                    "(limit 1,000,000)")


def test_file_over_the_document_limit_is_refused_before_reading(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(evaluate, "MAX_DOCUMENT_BYTES", 100)
    gt, pred = write_dirs(tmp_path)
    (pred / "img1.json").write_text(json.dumps(GT["img1"]) + " " * 200)
    assert cli(["--task", "topology", "--gt", str(gt), "--pred", str(pred)]) == 2
    assert "file too large" in _one_error_line(capsys)


def test_a_named_pipe_among_predictions_does_not_hang(tmp_path, capsys):
    import os

    gt, pred = write_dirs(tmp_path)
    os.mkfifo(pred / "img4.json")
    assert cli(["--task", "topology", "--gt", str(gt), "--pred", str(pred)]) == 0


def test_empty_prediction_folder_is_an_error(tmp_path, capsys):
    gt, _ = write_dirs(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli(["--task", "topology", "--gt", str(gt), "--pred", str(empty)]) == 2
    assert _one_error_line(capsys).startswith(
        f"cvparse: error: {empty}: no prediction documents found")


def test_predictions_matching_no_stem_are_an_error(tmp_path, capsys):
    gt, _ = write_dirs(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "image_001.json").write_text(json.dumps(GT["img1"]))
    assert cli(["--task", "topology", "--gt", str(gt), "--pred", str(other)]) == 2
    assert _one_error_line(capsys) == (
        f"cvparse: error: {other}: none of its 1 document(s) matches a ground-truth stem "
        "(e.g. 'image_001'; ground truth has 'img1')")
