"""Parse on a Dask cluster: the batch's tasks run on Dask workers, results come back here.

Each worker runs :func:`cvparse.batch.run_one` on its image, reading it from a path it
can reach or from an fsspec URL (``s3://``, ``gs://``, ``file://``, ...), and sends the
:class:`~cvparse.batch.Outcome` (the rendered document) back to the client, where
:func:`cvparse.batch.run_batch` writes the output files and the report as for local
workers, so both engines give the same bytes.  Overlays are the exception: the worker
writes them itself, so with ``--overlay`` the output folder must be one the workers can
write (this machine, or a shared file system).

A worker lost mid-task (killed, out of memory, its machine gone) is Dask's to handle: the
scheduler starts the task again elsewhere, up to ``distributed.scheduler.allowed-failures``
times, after which the image is recorded as failed.  The client counts those restarts from
the scheduler's ``remove-worker`` events (``Outcome.retried``).

Dask is an optional extra (``pip install 'cvparse[dask]'``): this module is imported only
for ``--engine dask``, and without Dask everything here that needs a cluster raises
:class:`DaskMissing` with the install command.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import tempfile
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from . import batch
from .batch import OVERLAY_SUFFIX, Outcome, Task, collect_images, largest_tasks_first
from .files import remove_partial
from .image import IMAGE_SUFFIXES

try:
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:  # the extra is not installed: everything below says so when used
    WorkerPlugin = object

MAX_FETCH_BYTES = 1 << 30
"""Largest input file a worker copies from a URL (an 80-megapixel image is far less)."""
SUBMIT_AHEAD = 4
"""Tasks kept submitted per worker thread: enough to keep every thread busy, few enough
that a corpus of millions of images is never all on the scheduler at once."""
MIN_IN_FLIGHT = 64
"""Tasks kept submitted however few threads the cluster has now (an adaptive cluster may
start with none); also how often, in finished tasks, the thread count is asked again."""


class DaskMissing(ImportError):
    """``--engine dask`` without Dask installed."""


@dataclass(frozen=True)
class RemoteImage:
    """An input named by an fsspec URL: the ``stem`` and ``str`` that batch code uses."""

    url: str

    @property
    def stem(self) -> str:
        return PurePosixPath(self.url.split("://", 1)[-1]).stem

    def __str__(self) -> str:
        return self.url


_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+(://|::)")


def is_url(path: str) -> bool:
    """True for ``scheme://...`` or a chained ``cache::scheme://...`` (fsspec URLs),
    false for a plain path (a Windows drive letter is not a scheme)."""
    return bool(_URL.match(str(path)))


def local_path(path: str) -> str:
    """A ``file://`` URL as the plain path it names; other paths unchanged."""
    return path[len("file://"):] if str(path).startswith("file://") else path


def collect_inputs(paths: list[str]) -> list[Path | RemoteImage]:
    """Plain paths as :func:`cvparse.batch.collect_images` expands them, then URLs:
    a URL of a folder gives its image files (not recursively, overlays left out)."""
    local = [p for p in paths if not is_url(p)]
    out: list[Path | RemoteImage] = list(collect_images(local)) if local else []
    seen: set[str] = set()
    for url in (p for p in paths if is_url(p)):
        for found in _list_url(url):
            if found not in seen:
                seen.add(found)
                out.append(RemoteImage(found))
    return out


def _list_url(url: str) -> list[str]:
    fsspec = _import("fsspec")
    try:
        fs, root = fsspec.core.url_to_fs(url)
        if not fs.isdir(root):
            return [url]
        names = sorted(fs.ls(root, detail=False))
    except (OSError, ValueError) as exc:
        raise batch.InputError(f"{url}: cannot list: {batch._one_line(exc)}") from None
    found = [fs.unstrip_protocol(n) for n in names
             if PurePosixPath(n).suffix.lower() in IMAGE_SUFFIXES
             and not n.lower().endswith(OVERLAY_SUFFIX)]
    if not found:
        raise batch.InputError(f"{url}: directory contains no images "
                               f"({', '.join(IMAGE_SUFFIXES)})")
    return found


class WorkerSetup(WorkerPlugin):
    """A Dask worker plugin: each worker, now or joining later, imports the parser and
    loads its Numba kernel once and runs OpenCV on one thread with the heap limited, as the
    local worker processes do (one single-threaded worker per core is the layout both
    engines are measured in)."""

    name = "cvparse-worker-setup"
    idempotent = True

    def setup(self, worker) -> None:
        import cv2

        cv2.setNumThreads(1)
        batch.limit_heap()
        batch.load_parser()  # paid once per worker, not on its first image


class IgnoreInterrupt(WorkerPlugin):
    """For the workers of the ``LocalCluster`` started here: Ctrl-C is this process's to
    handle (it stops the batch and closes the cluster), not a traceback per worker.
    Workers of a cluster given with ``--scheduler`` keep their own handling."""

    name = "cvparse-ignore-interrupt"
    idempotent = True

    def setup(self, worker) -> None:
        import signal

        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the worker's main thread: leave it as it is
            pass


def parse_task(task: Task) -> Outcome:
    """What a worker runs: :func:`cvparse.batch.run_one` on the task's image, fetched
    first when it is a URL."""
    if not is_url(task.file):
        return batch.run_one(*task.args)
    with tempfile.TemporaryDirectory(prefix="cvparse-fetch-") as tmp:
        local = Path(tmp) / ("input" + PurePosixPath(task.file).suffix)
        try:
            _fetch(task.file, local)
        except (OSError, ValueError) as exc:
            return Outcome(task.file, False, 0.0, f"cannot read: {batch._one_line(exc)}")
        o = batch.run_one(str(local), task.kind, task.fmt, task.overlay, task.stage)
    return dataclasses.replace(o, file=task.file)


def _fetch(url: str, dest: Path) -> None:
    fsspec = _import("fsspec")
    with fsspec.open(url, "rb") as src, open(dest, "wb") as dst:
        while chunk := src.read(1 << 20):
            dst.write(chunk)
            if dst.tell() > MAX_FETCH_BYTES:
                raise ValueError(f"file larger than {MAX_FETCH_BYTES} bytes")


def dask_outcomes(tasks: list[Task], client) -> Iterator[Outcome]:
    """Run ``tasks`` on ``client``'s cluster and yield each outcome as it finishes.

    Local paths go biggest first (as with local workers); at most ``SUBMIT_AHEAD`` tasks
    per worker thread wait on the scheduler at a time.  A task that fails as a whole
    (its worker lost more often than the scheduler allows) becomes a failed outcome.
    """
    distributed = _import("distributed")
    if not any(is_url(t.file) for t in tasks):
        tasks = largest_tasks_first(tasks)
    lost: Counter[str] = Counter()

    def on_event(event) -> None:
        msg = event[1] if isinstance(event, tuple) else event
        if isinstance(msg, dict) and msg.get("action") == "remove-worker":
            for key in (*msg.get("processing-tasks", ()), *msg.get("lost-computed-tasks", ())):
                lost[key] += 1

    client.register_plugin(WorkerSetup(), name=WorkerSetup.name)
    topic = "all"
    client.subscribe_topic(topic, on_event)
    prefix = f"cvparse-{uuid.uuid4().hex[:12]}"
    pending = iter(enumerate(tasks))
    by_key: dict[str, Task] = {}
    running = distributed.as_completed()

    def submit(n: int) -> None:
        for _ in range(n):
            i, t = next(pending, (None, None))
            if t is None:
                return
            fut = client.submit(parse_task, t, key=f"{prefix}-{i}", pure=False)
            by_key[fut.key] = t
            running.add(fut)

    def in_flight() -> int:
        """Rechecked as the batch goes: an adaptive cluster grows and shrinks."""
        return max(MIN_IN_FLIGHT, SUBMIT_AHEAD * sum(client.nthreads().values()))

    try:
        target = in_flight()
        submit(target)
        done = 0
        for fut in running:
            task = by_key.pop(fut.key)
            try:
                o = fut.result()
            except Exception as exc:  # noqa: BLE001 - e.g. KilledWorker
                o = Outcome(task.file, False, 0.0, f"worker process failed: "
                            f"{type(exc).__name__}: {batch._one_line(exc)}")
                if task.overlay:  # what its last worker left half-written
                    remove_partial(Path(task.overlay).parent, Path(task.overlay).name)
            fut.release()
            done += 1
            if done % MIN_IN_FLIGHT == 0:
                target = in_flight()
            submit(target - running.count())
            yield dataclasses.replace(o, retried=lost.get(fut.key, 0))
    finally:
        running.clear()
        client.unsubscribe_topic(topic)


@contextmanager
def dask_client(scheduler: str | None = None, workers: int | None = None) -> Iterator:
    """A ``Client`` of the cluster at ``scheduler``, or of a ``LocalCluster`` of
    ``workers`` single-threaded worker processes (default one per core) on 127.0.0.1,
    closed on exit (a given cluster is left running)."""
    distributed = _import("distributed")
    if scheduler:
        with distributed.Client(scheduler) as client:
            yield client
        return
    n = workers or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                    else os.cpu_count() or 1)
    with distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  # not a warning per worker when it is stopped mid-task
                                  silence_logs=logging.ERROR,
                                  # its web server on a free port, not the busy 8787
                                  scheduler_kwargs={"dashboard_address": ":0"}) as cluster, \
            distributed.Client(cluster) as client:
        client.register_plugin(IgnoreInterrupt(), name=IgnoreInterrupt.name)
        yield client


def _import(name: str):
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        raise DaskMissing(f"--engine dask needs Dask: pip install 'cvparse[dask]' "
                          f"(no module {name!r})") from None
