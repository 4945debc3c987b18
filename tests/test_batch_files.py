"""Batch outputs: written atomically without following links, resumed only when intact,
and one report line per image however often the batch is rerun."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from cvparse import batch
from cvparse.batch import collect_images, run_batch
from tests.test_batch import _fake_run_one, _folder, _report
from tests.test_image import diagram_png


def _run(src: Path, out: Path, **kw):
    return run_batch(collect_images([str(src)]), out, "auto", "json", **kw)


def _faked(tmp_path: Path, monkeypatch, n: int, bad: bool = False) -> tuple[Path, Path]:
    """A folder of ``n`` images (plus a bad one) parsed by the fake, and an empty --out."""
    monkeypatch.setattr(batch, "run_one", _fake_run_one)
    out = tmp_path / "out"
    out.mkdir()
    return _folder(tmp_path, n, bad=bad), out


def test_planted_links_in_out_are_replaced_not_written_through(tmp_path, monkeypatch):
    src, out = _faked(tmp_path, monkeypatch, 2)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    for name in ("d0.json.part", "report.jsonl.part", "d1.json", ".d0.json.part"):
        os.symlink(victim, out / name)
    summary = _run(src, out)
    assert summary.parsed == 2 and victim.read_text() == "precious"
    for name in ("d0.json", "d1.json", "report.jsonl"):
        assert not (out / name).is_symlink() and (out / name).is_file()


def test_report_that_is_a_link_is_neither_read_nor_followed(tmp_path, monkeypatch):
    src, out = _faked(tmp_path, monkeypatch, 1)
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text(json.dumps({"file": "secret.png", "ok": True}) + "\n")
    os.symlink(elsewhere, out / "report.jsonl")
    _run(src, out)
    assert [Path(r["file"]).name for r in _report(out)] == ["d0.png"]
    assert elsewhere.read_text().count("\n") == 1


def test_report_records_size_and_hash_of_every_output(tmp_path, monkeypatch):
    src, out = _faked(tmp_path, monkeypatch, 1, bad=True)
    _run(src, out)
    lines = {Path(r["file"]).name: r for r in _report(out)}
    data = (out / "d0.json").read_bytes()
    assert lines["d0.png"]["outputs"] == {
        "d0.json": {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}}
    assert lines["bad.png"]["outputs"] == {}


def test_resume_redoes_outputs_that_changed_or_are_links(tmp_path, monkeypatch):
    src, out = _faked(tmp_path, monkeypatch, 4)
    _run(src, out)
    text = (out / "d0.json").read_text()
    (out / "d0.json").write_text(text.replace("A", "B"))            # same size, other bytes
    (out / "d1.json").write_text(text[:-5])                          # truncated
    (tmp_path / "other.json").write_text(text)
    (out / "d2.json").unlink()
    os.symlink(tmp_path / "other.json", out / "d2.json")             # a link to the same text
    summary = _run(src, out)
    assert summary.skipped == 1
    assert sorted(Path(o.file).name for o in summary.outcomes) == ["d0.png", "d1.png", "d2.png"]
    assert (out / "d0.json").read_text() == text and not (out / "d2.json").is_symlink()
    assert len(_report(out)) == 4


def test_outputs_without_a_report_line_are_not_trusted(tmp_path, monkeypatch):
    src, out = _faked(tmp_path, monkeypatch, 2)
    (out / "d0.json").write_text("some unrelated text")
    assert _run(src, out).skipped == 0


def test_reruns_add_no_duplicate_lines(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "run_one", _fake_run_one)
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        diagram_png(tmp_path / sub / "x.png")
    diagram_png(tmp_path / "a" / "y.png")
    out = tmp_path / "out"
    images = collect_images([str(tmp_path / "a"), str(tmp_path / "b")])
    for _ in range(3):
        run_batch(images, out, "auto", "json")
        lines = _report(out)
        assert sorted(r["file"] for r in lines) == sorted(map(str, images))
    # A report that already holds duplicates (an older version) is cleaned up.
    dup = (out / "report.jsonl").read_text()
    (out / "report.jsonl").write_text(dup + dup)
    run_batch(images, out, "auto", "json")
    assert len(_report(out)) == 3


def test_kept_lines_carry_kind_and_guessed_kind(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    diagram_png(src / "d0.png")
    out = tmp_path / "out"
    run_batch(collect_images([str(src)]), out, "flowchart", "json")
    first = _report(out)
    run_batch(collect_images([str(src)]), out, "flowchart", "json")
    assert _report(out) == first
    assert first[0]["kind"] == "flowchart" and first[0]["guessed_kind"]


def test_overlay_digest_is_checked_on_resume(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    diagram_png(src / "d0.png")
    out = tmp_path / "out"
    run_batch(collect_images([str(src)]), out, "flowchart", "json", overlay=True)
    [line] = _report(out)
    assert set(line["outputs"]) == {"d0.json", "d0.overlay.png"}
    assert run_batch(collect_images([str(src)]), out, "flowchart", "json",
                     overlay=True).skipped == 1
    with open(out / "d0.overlay.png", "r+b") as fh:
        fh.seek(60)
        fh.write(b"\0")
    assert run_batch(collect_images([str(src)]), out, "flowchart", "json",
                     overlay=True).skipped == 0
    assert not [p for p in out.iterdir() if p.name.endswith(".part")]
