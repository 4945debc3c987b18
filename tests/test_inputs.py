"""Inputs that are not regular image files: refused with a reason, never hung on, never
skipped in silence, and their names printed on one safe line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from cvparse.cli import main
from tests.test_image import corrupt_png, diagram_png


def _error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("cvparse: error:")]


def test_parse_of_a_named_pipe_fails_at_once(tmp_path):
    os.mkfifo(tmp_path / "fifo.png")
    proc = subprocess.run([sys.executable, "-m", "cvparse", "parse", str(tmp_path / "fifo.png")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"cvparse: error: {tmp_path / 'fifo.png'}: is a named pipe, not a regular file"]


def test_single_symlink_loop_and_device(tmp_path, capsys):
    os.symlink("loop.png", tmp_path / "loop.png")
    assert main(["parse", str(tmp_path / "loop.png")]) == 1
    assert _error_lines(capsys.readouterr().err) == [
        f"cvparse: error: {tmp_path / 'loop.png'}: symbolic link loop"]
    assert main(["parse", "/dev/zero"]) == 1
    assert "is a character device" in capsys.readouterr().err


def test_every_entry_of_a_folder_is_reported(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    diagram_png(src / "good.png")
    os.mkfifo(src / "pipe.png")
    os.symlink(tmp_path / "gone.png", src / "dangling.png")
    os.symlink("loop.jpg", src / "loop.jpg")
    (src / "folder.png").mkdir()
    out = tmp_path / "out"
    assert main(["parse", str(src), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    report = {os.path.basename(r["file"]): r
              for r in map(json.loads, (out / "report.jsonl").read_text().splitlines())}
    assert sorted(report) == ["dangling.png", "folder.png", "good.png", "loop.jpg", "pipe.png"]
    assert report["good.png"]["ok"]
    reasons = {"pipe.png": "is a named pipe", "dangling.png": "broken symbolic link",
               "loop.jpg": "symbolic link loop", "folder.png": "is a directory"}
    for name, reason in reasons.items():
        assert not report[name]["ok"] and report[name]["error"].startswith(reason)
        assert f"cvparse: error: {src / name}: {reason}" in err
    assert len(_error_lines(err)) == 4


def test_control_characters_in_names_are_escaped(tmp_path, capsys):
    name = "bad\n\x1b[31mred.png"
    corrupt_png(tmp_path).rename(tmp_path / name)
    assert main(["parse", str(tmp_path / name)]) == 1
    err = capsys.readouterr().err
    [line] = err.splitlines()
    assert line.startswith(f"cvparse: error: {tmp_path}/bad\\n\\x1b[31mred.png: corrupt")
    assert "\x1b" not in err
