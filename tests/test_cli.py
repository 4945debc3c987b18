"""``cvparse parse`` on one file: a document on stdout, or one error line and a non-zero exit.

The parser is being improved elsewhere, so these assert the contract (valid documents,
files, messages, exit codes), not what was detected.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from cvparse.batch import EMPTY_WARNING
from cvparse.cli import main
from cvparse.model import document_from_json
from tests.test_image import BAD_INPUTS, diagram_png, truncated_png


def _error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("cvparse: error:")]


def test_single_file_prints_a_valid_document(tmp_path, capsys):
    img = diagram_png(tmp_path / "flow.png")
    assert main(["parse", str(img)]) == 0
    out, err = capsys.readouterr()
    doc = document_from_json(out)
    assert doc.kind in ("flowchart", "topology", "er", "uml")
    assert not _error_lines(err) and "Traceback" not in err
    assert not list(tmp_path.glob("*.overlay.png"))


@pytest.mark.parametrize("make, reason", BAD_INPUTS, ids=[m.__name__ for m, _ in BAD_INPUTS])
def test_bad_single_file_gives_one_error_line(tmp_path, capsys, make, reason):
    path = make(tmp_path)
    assert main(["parse", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip().splitlines() == _error_lines(err)
    [line] = _error_lines(err)
    assert line.startswith(f"cvparse: error: {path}: ") and reason in line


def test_directory_without_images(tmp_path, capsys):
    (tmp_path / "readme.txt").write_text("no images here")
    assert main(["parse", str(tmp_path)]) == 2
    _, err = capsys.readouterr()
    [line] = err.strip().splitlines()
    assert line.startswith(f"cvparse: error: {tmp_path}: directory contains no images")


@pytest.mark.parametrize("kind", ["noise", "gradient"])
def test_photo_like_image_gives_empty_document_and_warning(tmp_path, capsys, kind):
    rng = np.random.default_rng(7)
    if kind == "noise":
        a = rng.integers(0, 256, (160, 200, 3), dtype=np.uint8)
    else:
        ramp = np.add.outer(np.linspace(0, 120, 160), np.linspace(0, 120, 200))
        a = np.repeat(ramp[:, :, None], 3, axis=2).astype(np.uint8)
    img = tmp_path / f"{kind}.png"
    Image.fromarray(a).save(img)
    assert main(["parse", str(img)]) == 0
    out, err = capsys.readouterr()
    doc = document_from_json(out)
    assert not getattr(doc, "nodes", None) and not getattr(doc, "entities", None)
    assert f"cvparse: warning: {img}: {EMPTY_WARNING}" in err.splitlines()


def test_single_file_overlay_is_written_to_the_current_folder(tmp_path, capsys,
                                                               monkeypatch):
    img = diagram_png(tmp_path / "flow.png")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert main(["parse", str(img), "--overlay"]) == 0
    assert not (tmp_path / "flow.overlay.png").exists()
    overlay = work / "flow.overlay.png"
    with Image.open(overlay) as im:
        assert im.size == Image.open(img).size
    document_from_json(capsys.readouterr().out)


def test_single_file_with_out_writes_files(tmp_path, capsys):
    img = diagram_png(tmp_path / "flow.png")
    out_dir = tmp_path / "out"
    assert main(["parse", str(img), "--out", str(out_dir)]) == 0
    document_from_json((out_dir / "flow.json").read_text())
    [line] = (out_dir / "report.jsonl").read_text().splitlines()
    assert json.loads(line)["ok"] is True
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_jobs_must_be_a_positive_number(jobs, capsys):
    with pytest.raises(SystemExit) as info:
        main(["parse", "x.png", "--jobs", jobs])
    assert info.value.code == 2
    assert "--jobs" in capsys.readouterr().err


def test_out_that_is_a_file_is_one_error_line(tmp_path, capsys):
    blocker = tmp_path / "out"
    blocker.write_text("a file, not a folder")
    img = diagram_png(tmp_path / "flow.png")
    assert main(["parse", str(img), "--out", str(blocker)]) == 1
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"cvparse: error: {blocker}: cannot write output")


def test_command_line_prints_no_traceback(tmp_path):
    bad = truncated_png(tmp_path)
    run = subprocess.run([sys.executable, "-m", "cvparse", "parse", str(bad)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and run.stdout == ""
    [line] = run.stderr.strip().splitlines()
    assert line.startswith(f"cvparse: error: {bad}: corrupt or truncated image")


def test_nodes_stage_prints_the_inventory(tmp_path, capsys, monkeypatch):
    img = diagram_png(tmp_path / "flow.png")
    monkeypatch.chdir(tmp_path)
    assert main(["parse", str(img), "--stage", "nodes", "--overlay"]) == 0
    inv = json.loads(capsys.readouterr().out)
    assert inv["kind"] == "inventory" and (inv["width"], inv["height"]) == (260, 120)
    assert [s["kind"] for s in inv["shapes"]] == ["rect", "rect"]
    assert (tmp_path / "flow.overlay.png").is_file()


def test_nodes_stage_refuses_other_formats(tmp_path, capsys):
    img = diagram_png(tmp_path / "flow.png")
    assert main(["parse", str(img), "--stage", "nodes", "--format", "mermaid"]) == 2
    [line] = _error_lines(capsys.readouterr().err)
    assert "--stage nodes" in line
