"""Batch mode: outputs and report per image, summary, resume, workers, Ctrl-C, failures.

Two tests run the real parser on tiny synthetic diagrams; the rest swap ``run_one`` for a
fake so the batch logic is tested fast and apart from detection quality.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PIL import Image

from cvparse import batch
from cvparse.batch import (EMPTY_WARNING, InputError, Outcome, collect_images, is_empty,
                           run_batch, run_one)
from cvparse.cli import INTERRUPTED, main
from cvparse.model import ERSchema, Graph, Node, UMLModel, document_from_json
from tests.test_image import corrupt_png, diagram_png


def _report(out_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (out_dir / "report.jsonl").read_text().splitlines()]


def _folder(tmp_path: Path, n_good: int, bad: bool) -> Path:
    src = tmp_path / "in"
    src.mkdir()
    for i in range(n_good):
        diagram_png(src / f"d{i}.png", size=(260 + 20 * i, 120))
    if bad:
        corrupt_png(tmp_path).rename(src / "bad.png")
    return src


def _fake_run_one(path: str, kind: str, fmt: str, overlay_path: str | None = None,
                  stage: str = "all") -> Outcome:
    """Instant stand-in for ``run_one``: files named ``bad*`` fail, others parse to one node."""
    if Path(path).name.startswith("bad"):
        return Outcome(path, False, 0.001, "corrupt or truncated image: fake")
    doc = Graph(kind="flowchart", nodes=[Node("n1", "A", "rect")])
    return Outcome(path, True, 0.001, text=doc.to_json() + "\n")


def _die(path: str, kind: str, fmt: str, overlay_path: str | None = None,
         stage: str = "all") -> Outcome:
    """A worker that crashes hard (as on a native crash or an out-of-memory kill)."""
    os._exit(3)


def _die_on_bad(path: str, *rest) -> Outcome:
    """Images named ``bad*`` kill their worker; others parse (the fake)."""
    if Path(path).name.startswith("bad"):
        os._exit(3)
    return _fake_run_one(path, *rest)


# --- with the real parser ---------------------------------------------------------------------

def test_folder_of_three_good_one_corrupt_then_resume(tmp_path, capsys, monkeypatch):
    src = _folder(tmp_path, 3, bad=True)
    out = tmp_path / "out"
    assert main(["parse", str(src), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    lines = _report(out)
    assert len(lines) == 4 and sum(r["ok"] for r in lines) == 3
    assert {Path(r["file"]).name for r in lines} == {"d0.png", "d1.png", "d2.png", "bad.png"}
    for r in lines:
        assert set(r) == {"file", "ok", "seconds", "error", "kind", "guessed_kind",
                          "outputs"} and r["seconds"] >= 0
        assert (r["error"] is None) == r["ok"]
        if r["ok"]:
            document_from_json((out / (Path(r["file"]).stem + ".json")).read_text())
    assert not (out / "bad.json").exists()
    assert f"cvparse: error: {src / 'bad.png'}: corrupt" in err
    summary = err.strip().splitlines()[-1]
    assert summary.startswith("parsed 3, failed 1, skipped 0") and "s/image" in summary

    # Second run: the three done images are skipped; only the failed one is tried again.
    calls = []

    def spy(path, *rest):
        calls.append(Path(path).name)
        return _fake_run_one(path, *rest)

    monkeypatch.setattr(batch, "run_one", spy)
    assert main(["parse", str(src), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert calls == ["bad.png"]
    assert "resume: 3 image(s) already done" in err
    assert err.strip().splitlines()[-1].startswith("parsed 0, failed 1, skipped 3")
    lines = _report(out)
    assert len(lines) == 4 and sum(r["ok"] for r in lines) == 3


def test_two_jobs_with_overlays(tmp_path, capsys):
    src = _folder(tmp_path, 3, bad=False)
    out = tmp_path / "out"
    assert main(["parse", str(src), "--out", str(out), "--jobs", "2", "--overlay"]) == 0
    lines = _report(out)
    assert len(lines) == 3 and all(r["ok"] for r in lines)
    for i in range(3):
        document_from_json((out / f"d{i}.json").read_text())
        with Image.open(out / f"d{i}.overlay.png") as im:
            assert im.format == "PNG" and im.size == (260 + 20 * i, 120)
    assert not list(out.glob("*.part"))
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("parsed 3, failed 0")


# --- batch logic with a fake parser -----------------------------------------------------------

def test_second_run_skips_everything(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(batch, "run_one", _fake_run_one)
    src = _folder(tmp_path, 3, bad=False)
    out = tmp_path / "out"
    assert main(["parse", str(src), "--out", str(out)]) == 0
    monkeypatch.setattr(batch, "run_one", lambda *a: pytest.fail("should have been skipped"))
    assert main(["parse", str(src), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1].startswith("parsed 0, failed 0, skipped 3")
    assert len(_report(out)) == 3


def test_no_resume_and_missing_overlay_redo(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "run_one", _fake_run_one)
    src = _folder(tmp_path, 2, bad=False)
    out = tmp_path / "out"
    images = collect_images([str(src)])
    assert len(run_batch(images, out, "auto", "json").outcomes) == 2
    assert len(run_batch(images, out, "auto", "json", resume=False).outcomes) == 2
    # Asking for overlays that the first run did not make means the work is not done.
    assert len(run_batch(images, out, "auto", "json", overlay=True).outcomes) == 2
    assert len(_report(out)) == 2


def test_report_keeps_other_images_and_replaces_redone_ones(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "run_one", _fake_run_one)
    out = tmp_path / "out"
    out.mkdir()
    old = [{"file": "elsewhere/other.png", "ok": True, "seconds": 1.0, "error": None},
           {"file": "in/d0.png", "ok": False, "seconds": 1.0, "error": "old failure"}]
    (out / "report.jsonl").write_text("".join(json.dumps(r) + "\n" for r in old)
                                      + "not json\n")
    src = _folder(tmp_path, 1, bad=False)
    run_batch(collect_images([str(src)]), out, "auto", "json")
    lines = _report(out)
    assert lines[0] == old[0]
    assert len(lines) == 2 and lines[1]["ok"] and lines[1]["file"].endswith("d0.png")


def test_keyboard_interrupt_stops_cleanly_with_report_flushed(tmp_path, capsys, monkeypatch):
    calls = []

    def interrupt_on_third(path, *rest):
        calls.append(path)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return _fake_run_one(path, *rest)

    monkeypatch.setattr(batch, "run_one", interrupt_on_third)
    src = _folder(tmp_path, 5, bad=False)
    out = tmp_path / "out"
    assert main(["parse", str(src), "--out", str(out)]) == INTERRUPTED
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        f"cvparse: interrupted: 2 of 5 image(s) done, report {out / 'report.jsonl'}; "
        "run again to resume")
    assert len(_report(out)) == 2
    assert sorted(p.name for p in out.iterdir()) == ["d0.json", "d1.json", "report.jsonl"]

    monkeypatch.setattr(batch, "run_one", _fake_run_one)
    assert main(["parse", str(src), "--out", str(out)]) == 0
    assert "resume: 2 image(s) already done" in capsys.readouterr().err
    assert len(_report(out)) == 5


def test_crashed_worker_is_recorded_not_hung(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(batch, "run_one", _die)
    src = _folder(tmp_path, 2, bad=False)
    out = tmp_path / "out"
    assert main(["parse", str(src), "--out", str(out), "--jobs", "2"]) == 1
    lines = _report(out)
    assert len(lines) == 2 and not any(r["ok"] for r in lines)
    assert all(r["error"] == "worker process exited with status 3 while parsing this image"
               for r in lines)


def test_a_dead_worker_fails_only_its_own_image(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(batch, "run_one", _die_on_bad)
    src = _folder(tmp_path, 6, bad=True)
    out = tmp_path / "out"
    assert main(["parse", str(src), "--out", str(out), "--jobs", "2"]) == 1
    lines = {Path(r["file"]).name: r for r in _report(out)}
    assert len(lines) == 7
    assert not lines["bad.png"]["ok"] and "status 3" in lines["bad.png"]["error"]
    assert all(r["ok"] for name, r in lines.items() if name != "bad.png")


def test_same_stem_in_two_folders_is_refused_not_overwritten(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "run_one", _fake_run_one)
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        diagram_png(tmp_path / sub / "x.png")
    out = tmp_path / "out"
    summary = run_batch(collect_images([str(tmp_path / "a"), str(tmp_path / "b")]), out,
                        "auto", "json")
    assert (summary.parsed, summary.failed) == (1, 1)
    [failed] = [o for o in summary.outcomes if not o.ok]
    assert failed.file == str(tmp_path / "b" / "x.png") and "collide" in failed.error


# --- collecting inputs ----------------------------------------------------------------------

def test_collect_images(tmp_path):
    diagram_png(tmp_path / "b.png")
    diagram_png(tmp_path / "a.PNG")
    diagram_png(tmp_path / "a.overlay.png")
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "sub").mkdir()
    found = collect_images([str(tmp_path), str(tmp_path / "b.png"), "missing.png"])
    assert [p.name for p in found] == ["a.PNG", "b.png", "missing.png"]
    with pytest.raises(InputError, match="no images"):
        collect_images([str(tmp_path / "sub")])


# --- run_one around a stand-in pipeline -----------------------------------------------------

class _Result:
    def __init__(self, document):
        self.document = document
        self.inventory = None

    def to_format(self, fmt):
        from cvparse.export import formats

        return formats.export(self.document, fmt)


@pytest.mark.parametrize("doc, empty", [
    (Graph(), True), (ERSchema(), True), (UMLModel(), True),
    (Graph(nodes=[Node("n1", "A")]), False),
])
def test_is_empty(doc, empty):
    assert is_empty(doc) is empty


def test_run_one_warns_on_empty_document(monkeypatch):
    monkeypatch.setattr("cvparse.pipeline.parse", lambda path, kind, stage: _Result(Graph()))
    o = run_one("x.png", "auto", "json")
    assert o.ok and o.warnings == (EMPTY_WARNING,)
    document_from_json(o.text)
    monkeypatch.setattr("cvparse.pipeline.parse",
                        lambda path, kind, stage: _Result(Graph(nodes=[Node("n1", "A")])))
    assert run_one("x.png", "auto", "json").warnings == ()


def test_run_one_turns_any_exception_into_a_one_line_reason(monkeypatch):
    def boom(path, kind, stage):
        raise RuntimeError("bad\nthing")

    monkeypatch.setattr("cvparse.pipeline.parse", boom)
    o = run_one("x.png", "auto", "json")
    assert not o.ok and o.error == "internal error: RuntimeError: bad thing"


def test_failed_overlay_is_a_warning_not_a_failure(tmp_path, monkeypatch):
    monkeypatch.setattr("cvparse.pipeline.parse",
                        lambda path, kind, stage: _Result(Graph(nodes=[Node("n1", "A")])))
    o = run_one("x.png", "auto", "json", str(tmp_path / "x.overlay.png"))
    assert o.ok and len(o.warnings) == 1 and o.warnings[0].startswith("overlay not written")


def test_workers_get_the_largest_images_first(tmp_path):
    sizes = {"small": (40, 30), "big": (400, 300), "mid": (120, 90)}
    paths = []
    for name, size in sizes.items():
        Image.new("RGB", size, "white").save(tmp_path / f"{name}.png")
        paths.append(tmp_path / f"{name}.png")
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not an image")
    order = batch.largest_first(paths + [broken])
    assert [p.stem for p in order] == ["big", "mid", "small", "broken"]


def test_heap_limit_takes_on_glibc():
    import platform

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("mallopt is glibc's")
    assert batch.limit_heap() is True
