"""Real processes, real signals: a killed worker, a killed parent, Ctrl-C during a batch.

Each test runs ``python -m cvparse parse`` on a few committed fixture images in its own
session (as a shell runs a job), waits for the moment it needs by watching the process
tree and ``report.jsonl``, and sends the signal with ``os.kill`` / ``os.killpg``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cvparse import batch
from cvparse.batch import collect_images, run_batch
from cvparse.files import matches
from tests.test_batch import _fake_run_one

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted((ROOT / "fixtures" / "flowchart" / "dev").glob("flowchart_dev_000*.jpg"))

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")


def _images(tmp_path: Path, n: int) -> Path:
    src = tmp_path / "in"
    src.mkdir()
    for f in FIXTURES[:n]:
        shutil.copy(f, src / f.name)
    return src


def _start(src: Path, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cvparse", "parse", str(src), "--out",
                             str(out), *extra], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(c) for c in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _wait_for(cond, timeout: float, what: str):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = cond()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _report(out: Path) -> list[dict]:
    path = out / "report.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.is_file() else []


def _no_partial_files(out: Path) -> bool:
    return not [p.name for p in out.iterdir() if p.name.endswith(".part")]


def test_killed_worker_fails_only_its_image(tmp_path):
    src, out = _images(tmp_path, 4), tmp_path / "out"
    proc = _start(src, out, "--jobs", "2")
    try:
        workers = _wait_for(lambda: _children(proc.pid), 60, "a worker")
        os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=90)
    finally:
        proc.kill()
    assert proc.returncode == 1, err
    lines = _report(out)
    assert len(lines) == 4
    failed = [r for r in lines if not r["ok"]]
    assert len(failed) == 1, lines
    assert failed[0]["error"] == ("worker process killed by SIGKILL (out of memory?) while "
                                  "parsing this image")
    assert err.count("cvparse: error:") == 1 and "Traceback" not in err
    assert _no_partial_files(out)


def test_workers_die_with_a_killed_parent(tmp_path):
    src, out = _images(tmp_path, 4), tmp_path / "out"
    proc = _start(src, out, "--jobs", "2")
    try:
        workers = _wait_for(lambda: len(_children(proc.pid)) == 2 and _children(proc.pid),
                            60, "two workers")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        t0 = time.monotonic()
        _wait_for(lambda: not any(map(_alive, workers)), 2.0, "the workers to end")
        assert time.monotonic() - t0 < 2.0
    finally:
        proc.kill()
        for w in _children(proc.pid):
            os.kill(w, signal.SIGKILL)


def test_ctrl_c_stops_a_parallel_batch_at_once_and_keeps_finished_work(tmp_path,
                                                                       monkeypatch):
    src, out = _images(tmp_path, 8), tmp_path / "out"
    proc = _start(src, out, "--jobs", "2", "--overlay")
    try:
        _wait_for(lambda: len(_report(out)) >= 1, 90, "a first result")
        workers = _children(proc.pid)
        t0 = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)  # the whole job, as a terminal's Ctrl-C does
        _, err = proc.communicate(timeout=30)
        stopped = time.monotonic() - t0
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert stopped < 2.0, f"took {stopped:.2f} s to stop"
    assert not any(map(_alive, workers))
    assert "Traceback" not in err
    lines = _report(out)
    done = [r for r in lines if r["ok"]]
    assert 1 <= len(done) < 8
    summary = err.strip().splitlines()[-1]
    assert summary.startswith(f"cvparse: interrupted: {len(lines)} of 8 image(s) done")
    for r in done:  # every kept result is complete and recorded
        for name, rec in r["outputs"].items():
            assert matches(out / name, rec), name
    assert _no_partial_files(out)
    expected = {Path(r["file"]).stem for r in done}
    on_disk = {p.name.split(".")[0] for p in out.iterdir() if p.name != "report.jsonl"}
    assert on_disk <= expected  # no output of an unfinished image is left
    # The folder resumes: only the unfinished images are parsed again.
    monkeypatch.setattr(batch, "run_one", _fake_run_one)
    summary = run_batch(collect_images([str(src)]), out, "auto", "json", overlay=False)
    assert summary.skipped == len(done) and summary.parsed == 8 - len(done)


def test_ctrl_c_with_one_job_leaves_no_partial_overlay(tmp_path):
    src, out = _images(tmp_path, 3), tmp_path / "out"
    proc = _start(src, out, "--overlay")
    try:
        _wait_for(lambda: len(_report(out)) >= 1, 90, "a first result")
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and _no_partial_files(out)


def test_death_causes_are_named():
    from cvparse.pool import death_cause

    assert death_cause(-9) == "worker process killed by SIGKILL (out of memory?)"
    assert death_cause(-11) == "worker process killed by SIGSEGV (a crash in native code)"
    assert death_cause(3) == "worker process exited with status 3"
