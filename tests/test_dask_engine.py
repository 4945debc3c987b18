"""The Dask engine: the same outputs as local workers, a lost worker's images redone, a
separately started scheduler, fsspec inputs, and the Python API.

The cluster tests run real ``LocalCluster`` / ``dask scheduler`` / ``dask worker``
processes on 127.0.0.1 over six small committed fixture images, and skip when Dask is not
installed; the rest need no cluster.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cvparse import batch, dask_engine
from cvparse.batch import BatchSummary, Outcome, parse_many
from cvparse.cli import main
from cvparse.dask_engine import RemoteImage, collect_inputs, is_url, local_path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = [ROOT / "fixtures/uml/test" / f"uml_test_{n}_s10.png" for n in ("0001", "0002", "0006")
            ] + [ROOT / "fixtures/flowchart/test" / f"flowchart_test_{n}.jpg"
                 for n in ("0013", "0014", "0021")]
CLUSTER_TIMEOUT = 120
"""Seconds a cluster test may wait for its processes before it fails."""


def _fake_run_one(path, kind, fmt, overlay_path=None, stage="all") -> Outcome:
    return Outcome(path, True, 0.0, text=f"{Path(path).name} {kind} {fmt} {stage}\n")


def _outputs(out: Path) -> dict[str, bytes]:
    """Every output file's bytes, and each report line without its timing."""
    files = {p.name: p.read_bytes() for p in out.iterdir() if p.name != "report.jsonl"}
    lines = [json.loads(x) for x in (out / "report.jsonl").read_text().splitlines()]
    files["report"] = sorted(json.dumps({**r, "file": Path(r["file"]).name, "seconds": None},
                                        sort_keys=True) for r in lines).__repr__().encode()
    return files


# --- without a cluster ------------------------------------------------------------------------

def test_urls_and_paths_told_apart():
    assert is_url("s3://bucket/a.png") and is_url("file:///tmp/a.png")
    assert is_url("simplecache::s3://b/a.png")  # fsspec's chained file systems
    assert not is_url("/tmp/a.png") and not is_url("a:b.png") and not is_url("dir/x://y")
    assert not is_url("C://scans/a.png")
    assert local_path("file:///tmp/out") == "/tmp/out" and local_path("out") == "out"
    assert RemoteImage("s3://bucket/dir/scan.v2.png").stem == "scan.v2"
    assert str(RemoteImage("gs://b/x.png")) == "gs://b/x.png"


def test_folder_url_lists_its_images(tmp_path):
    pytest.importorskip("fsspec")
    for name in ("b.png", "a.jpg", "a.overlay.png", "notes.txt"):
        (tmp_path / name).write_bytes(b"x")
    found = collect_inputs([tmp_path.as_uri(), str(tmp_path / "b.png")])
    assert found[0] == tmp_path / "b.png"
    assert [str(f) for f in found[1:]] == [(tmp_path / n).as_uri() for n in ("a.jpg", "b.png")]
    (tmp_path / "empty").mkdir()
    with pytest.raises(batch.InputError, match="no images"):
        collect_inputs([(tmp_path / "empty").as_uri()])


def test_url_that_cannot_be_read_is_a_failed_outcome(tmp_path):
    pytest.importorskip("fsspec")
    o = dask_engine.parse_task(batch.Task((tmp_path / "gone.png").as_uri()))
    assert not o.ok and o.error.startswith("cannot read") and o.file.startswith("file://")


def test_parse_many_local_yields_every_image(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "run_one", _fake_run_one)
    for name in ("a.png", "b.png"):
        (tmp_path / name).write_bytes(b"x")
    for jobs in (1, 2):  # in this process, and in forked worker processes
        got = sorted(o.text for o in parse_many([tmp_path], kind="er", jobs=jobs))
        assert got == ["a.png er json all\n", "b.png er json all\n"]
    with pytest.raises(ValueError, match="unknown engine"):
        list(parse_many([tmp_path], engine="spark"))


def test_own_cluster_workers_leave_ctrl_c_to_the_client():
    before = signal.getsignal(signal.SIGINT)
    try:
        dask_engine.IgnoreInterrupt().setup(worker=None)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_summary_counts_retried_images():
    s = BatchSummary([Outcome("a", True, 1.0, retried=2), Outcome("b", True, 1.0)], total=2)
    assert s.retried == 2 and "retried 2 (worker lost)" in s.line(Path("r"))
    assert "retried" not in BatchSummary([Outcome("a", True, 1.0)]).line(Path("r"))


def test_cli_refusals(capsys, monkeypatch):
    with pytest.raises(SystemExit):
        main(["parse", "x.png", "--scheduler", "tcp://127.0.0.1:1"])
    assert "--scheduler needs --engine dask" in capsys.readouterr().err
    assert main(["parse", "s3://b/x.png", "--out", "o"]) == 2
    assert "add --engine dask" in capsys.readouterr().err
    assert main(["parse", "x.png", "--engine", "dask", "--out", "s3://b/out"]) == 2
    assert "must be a local folder" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were absent
    assert main(["parse", str(FIXTURES[0]), "--engine", "dask", "--out", "o"]) == 2
    assert "pip install 'cvparse[dask]'" in capsys.readouterr().err


# --- on real clusters -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fixture_folder(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("in")
    for f in FIXTURES:
        shutil.copy(f, src / f.name)
    return src


@pytest.fixture(scope="module")
def reference(fixture_folder, tmp_path_factory) -> dict[str, bytes]:
    """The outputs of ``--jobs 2`` (local worker processes)."""
    out = tmp_path_factory.mktemp("local")
    assert main(["parse", str(fixture_folder), "--out", str(out), "--jobs", "2"]) == 0
    return _outputs(out)


def test_local_cluster_gives_the_bytes_of_two_jobs(fixture_folder, reference, tmp_path,
                                                   capsys):
    pytest.importorskip("distributed")
    out = tmp_path / "out"
    assert main(["parse", str(fixture_folder), "--out", str(out), "--engine", "dask",
                 "--jobs", "2"]) == 0
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith(
        "parsed 6, failed 0, skipped 0")
    assert _outputs(out) == reference
    assert len(reference) == len(FIXTURES) + 1
    # A rerun resumes as the local engine does: nothing is sent to the cluster.
    assert main(["parse", str(fixture_folder), "--out", str(out), "--engine", "dask"]) == 0
    assert "skipped 6" in capsys.readouterr().err


def test_worker_killed_mid_run_still_yields_every_result(fixture_folder, reference):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  scheduler_kwargs={"dashboard_address": ":0"}) as cluster, \
            distributed.Client(cluster, timeout=CLUSTER_TIMEOUT) as client:
        pids = client.run(os.getpid)
        results = parse_many([fixture_folder], engine="dask", client=client)
        got = [next(results)]
        busy: set[str] = set()
        for _ in range(50):  # the scheduler hands out the next tasks within moments
            busy = {w for w, keys in client.processing().items() if keys}
            if busy:
                break
            time.sleep(0.1)
        assert busy, "nothing left running to lose"
        os.kill(pids[sorted(busy)[0]], signal.SIGKILL)
        got += list(results)
    assert sorted(Path(o.file).name for o in got) == sorted(f.name for f in FIXTURES)
    assert all(o.ok for o in got)
    assert sum(o.retried for o in got) >= 1
    assert {Path(o.file).stem + ".json": o.text.encode() for o in got} == {
        k: v for k, v in reference.items() if k != "report"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_scheduler_and_worker_started_apart_read_file_urls(fixture_folder, reference,
                                                           tmp_path, capsys):
    pytest.importorskip("distributed")
    dask_cli = str(Path(sys.executable).with_name("dask"))
    if not Path(dask_cli).is_file():
        pytest.skip("no dask command beside this Python")
    address = f"tcp://127.0.0.1:{_free_port()}"
    common = ["--no-dashboard"]
    procs = [subprocess.Popen([dask_cli, "scheduler", "--host", "127.0.0.1", "--port",
                               address.rsplit(":", 1)[1], *common],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        procs.append(subprocess.Popen([dask_cli, "worker", address, "--host", "127.0.0.1",
                                       "--nworkers", "2", "--nthreads", "1", *common],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        _wait_for_workers(address, 2)
        out = tmp_path / "out"
        assert main(["parse", fixture_folder.as_uri(), "--out", out.as_uri(),
                     "--engine", "dask", "--scheduler", address]) == 0
        assert "parsed 6, failed 0" in capsys.readouterr().err
        assert _outputs(out) == reference
        assert all(r["file"].startswith("file://")
                   for r in map(json.loads, (out / "report.jsonl").read_text().splitlines()))
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def _wait_for_workers(address: str, n: int) -> None:
    import distributed

    with distributed.Client(address, timeout=CLUSTER_TIMEOUT) as client:
        client.wait_for_workers(n, timeout=CLUSTER_TIMEOUT)
