"""Parse many images: collect inputs, run worker processes, write outputs and a report.

Outputs go to ``--out`` as ``<stem>.<ext>`` with one ``report.jsonl`` line per input
(``{"file", "ok", "seconds", "error"}``); a rerun skips images whose outputs already exist
(resume).  Failures are recorded and skipped, never fatal to the batch; Ctrl-C stops the
batch with the report of everything finished so far on disk.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .image import IMAGE_SUFFIXES, ImageError
from .model import Document

FORMAT_EXT = {"json": ".json", "mermaid": ".mmd", "plantuml": ".puml", "sql": ".sql",
              "dot": ".dot", "graphml": ".graphml", "drawio": ".drawio"}
OVERLAY_SUFFIX = ".overlay.png"
REPORT_NAME = "report.jsonl"
EMPTY_WARNING = "no diagram elements found"


class InputError(ValueError):
    """A command-line input path cannot be used (a folder without images)."""


@dataclass
class Outcome:
    """What happened to one input image; ``text`` is the rendered document when ``ok``."""

    file: str
    ok: bool
    seconds: float
    error: str = ""
    text: str = ""
    warnings: tuple[str, ...] = ()
    kind: str = ""
    """Family the image was parsed as."""
    guessed_kind: str = ""
    """Family ``--kind auto`` picks for it (differs from ``kind`` when one was forced)."""
    retried: int = 0
    """Times the image was started again because the worker parsing it was lost."""

    def report_line(self) -> dict:
        return {"file": self.file, "ok": self.ok, "seconds": round(self.seconds, 4),
                "error": self.error or None, "kind": self.kind or None,
                "guessed_kind": self.guessed_kind or None}


@dataclass
class BatchSummary:
    """The outcomes of the images parsed in this run, plus what was skipped or stopped."""

    outcomes: list[Outcome] = field(default_factory=list)
    skipped: int = 0
    total: int = 0
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def parsed(self) -> int:
        return sum(o.ok for o in self.outcomes)

    @property
    def failed(self) -> int:
        return sum(not o.ok for o in self.outcomes)

    @property
    def retried(self) -> int:
        return sum(o.retried for o in self.outcomes)

    def line(self, report: Path) -> str:
        """The one-line summary printed at the end of a batch."""
        secs = [o.seconds for o in self.outcomes]
        mean = sum(secs) / len(secs) if secs else 0.0
        lost = f", retried {self.retried} (worker lost)" if self.retried else ""
        return (f"parsed {self.parsed}, failed {self.failed}, skipped {self.skipped} "
                f"(already done){lost}; {mean:.2f} s/image, {self.seconds:.1f} s total; "
                f"report {report}")


@dataclass(frozen=True)
class Task:
    """One image to parse: the arguments of :func:`run_one`."""

    file: str
    kind: str = "auto"
    fmt: str = "json"
    overlay: str | None = None
    stage: str = "all"


Engine = Callable[[list[Task]], Iterator[Outcome]]
"""Runs tasks and yields their outcomes as they finish (any order): the local process
pool (:func:`local_outcomes`) or a cluster (``cvparse.dask_engine``)."""


def collect_images(paths: list[str]) -> list[Path]:
    """Expand files and folders into the image files to parse, in a stable order.

    Files are taken as given (a bad one fails later with its own reason); folders
    contribute their image files, not recursively, leaving out our own overlays.  A path
    named twice is parsed once.
    """
    out: list[Path] = []
    seen: set[Path] = set()
    for p in map(Path, paths):
        if p.is_dir():
            try:
                found = sorted(f for f in p.iterdir()
                               if f.is_file() and f.suffix.lower() in IMAGE_SUFFIXES
                               and not f.name.lower().endswith(OVERLAY_SUFFIX))
            except OSError as exc:
                raise InputError(f"{p}: cannot list directory: {exc.strerror or exc}") from None
            if not found:
                raise InputError(f"{p}: directory contains no images "
                                 f"({', '.join(IMAGE_SUFFIXES)})")
        else:
            found = [p]
        for f in found:
            key = f.resolve() if f.exists() else f
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out


def is_empty(doc: Document | None, inventory=None) -> bool:
    """True when a document holds no diagram elements (no nodes, entities or classes);
    for a nodes-stage result (no document), when the inventory found nothing."""
    if doc is None:
        return inventory is None or not (inventory.shapes or inventory.texts)
    return not any(getattr(doc, name, None) for name in ("nodes", "entities", "classes"))


def run_one(path: str, kind: str, fmt: str, overlay_path: str | None = None,
            stage: str = "all") -> Outcome:
    """Parse one image and render it; every failure becomes an ``Outcome`` with a reason.

    Warnings raised while parsing are collected into the outcome, plus
    ``EMPTY_WARNING`` when the document is empty (a photo, noise, a blank page).
    A failed overlay is a warning, not a failure: the document is still good.
    """
    t0 = time.perf_counter()
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            from .pipeline import parse

            result = parse(path, kind=kind, stage=stage)
            text = result.to_format(fmt)
        except (ImageError, ValueError, NotImplementedError) as exc:
            return Outcome(path, False, time.perf_counter() - t0, _one_line(exc))
        except Exception as exc:  # noqa: BLE001 - one bad image must not stop a batch
            return Outcome(path, False, time.perf_counter() - t0,
                           f"internal error: {type(exc).__name__}: {_one_line(exc)}")
        if is_empty(result.document, result.inventory):
            notes.append(EMPTY_WARNING)
        if overlay_path:
            try:
                _write_overlay(result, Path(overlay_path))
            except Exception as exc:  # noqa: BLE001 - the document is still good
                notes.append(f"overlay not written: {type(exc).__name__}: {_one_line(exc)}")
    msgs = [_one_line(w.message) for w in caught] + notes
    return Outcome(path, True, time.perf_counter() - t0, text=text,
                   warnings=tuple(dict.fromkeys(msgs)), kind=getattr(result, "kind", ""),
                   guessed_kind=getattr(result, "guessed_kind", ""))


def _write_overlay(result, path: Path) -> None:
    from PIL import Image

    from .export.overlay import draw_overlay

    img = draw_overlay(result.image, result.inventory, result.connectors)
    tmp = path.with_name(path.name + ".part")
    Image.fromarray(img).save(tmp, format="PNG")
    os.replace(tmp, path)


def _one_line(msg) -> str:
    return " ".join(str(msg).split()) or "unknown error"


def _write_text(path: Path, text: str) -> None:
    """Write atomically, so an interrupted run never leaves a half file that resume trusts."""
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _outputs(img: Path, out_dir: Path, ext: str, overlay: bool) -> list[Path]:
    paths = [out_dir / (img.stem + ext)]
    if overlay:
        paths.append(out_dir / (img.stem + OVERLAY_SUFFIX))
    return paths


def _done(img: Path, out_dir: Path, ext: str, overlay: bool) -> bool:
    return all(p.is_file() and p.stat().st_size > 0
               for p in _outputs(img, out_dir, ext, overlay))


def _start_report(report: Path, redo: set[str], skipped: list[Path]) -> TextIO:
    """Open the report for appending after dropping the lines this run will redo.

    Lines are keyed by the image stem (outputs are too); lines of other images from
    earlier runs are kept, and a skipped image with no line gets one (``seconds`` null).
    """
    kept: list[str] = []
    have: set[str] = set()
    if report.is_file():
        for raw in report.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                stem = Path(json.loads(raw)["file"]).stem
            except (ValueError, KeyError, TypeError):
                continue
            if stem not in redo:
                kept.append(raw)
                have.add(stem)
    for img in skipped:
        if img.stem not in have:
            kept.append(json.dumps({"file": str(img), "ok": True, "seconds": None,
                                    "error": None}))
    _write_text(report, "".join(line + "\n" for line in kept))
    return report.open("a", encoding="utf-8")


class _Progress:
    """A progress bar on a terminal; on a pipe or file, a line every tenth of the work."""

    def __init__(self, total: int, stream: TextIO):
        self.total, self.stream = total, stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.started = time.perf_counter()
        self.every = max(1, total // 10)

    def message(self, text: str) -> None:
        """A full line (error or warning) that does not collide with the bar."""
        self.stream.write(("\r\033[K" if self.tty else "") + text + "\n")

    def update(self, done: int, failed: int) -> None:
        if not self.tty and done % self.every and done != self.total:
            return
        rate = (time.perf_counter() - self.started) / max(done, 1)
        eta = rate * (self.total - done)
        if self.tty:
            width = 24
            fill = round(width * done / max(self.total, 1))
            self.stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{self.total}"
                              f"  failed {failed}  {rate:.2f} s/image  eta {eta:.0f} s\033[K")
            if done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(f"progress: {done}/{self.total} done, failed {failed}, "
                              f"{rate:.2f} s/image, eta {eta:.0f} s\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")


def largest_first(images: list[Path]) -> list[Path]:
    """Images by decreasing pixel count (read from the file header; unreadable last).

    Parse time grows with image size; handing the big ones out first keeps workers from
    idling at the end of a batch while one of them finishes a big image alone.
    """
    from PIL import Image

    def pixels(path: Path) -> int:
        try:
            with Image.open(path) as im:
                return im.size[0] * im.size[1]
        except Exception:  # noqa: BLE001 - a bad file fails later with its own reason
            return 0

    size = {p: pixels(p) for p in images}
    return sorted(images, key=lambda p: -size[p])


LARGE_ALLOCATION = 4 * 2 ** 20
"""Bytes from which glibc gives each allocation its own mapping (see ``limit_heap``)."""
HEAP_ARENAS = 2
"""glibc heaps shared by all threads (the parse and its OCR thread need no more)."""


def limit_heap() -> bool:
    """Give full-page arrays (4 MB and up) back to the system when freed, and keep
    threads to two heaps (glibc only).

    glibc raises its mapping threshold after the first big array is freed, so later
    page-sized arrays land in the heap, fragment it and stay resident, and every new
    thread (one per OCR call) may start a heap of its own: parsing the 38 pages of
    ``benchmarks.speed`` in one process ended 110 MB lower with a fixed threshold (6 % more
    CPU) and peaked another ~20 MB lower with two heaps.  Returns whether it took.
    """
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6")
        return bool(libc.mallopt(-3, LARGE_ALLOCATION)  # M_MMAP_THRESHOLD
                    and libc.mallopt(-8, HEAP_ARENAS))  # M_ARENA_MAX
    except (OSError, AttributeError):
        return False


def _init_worker() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (no traceback per worker);
    the heap limited as in the parent.  (Not ``cv2.setNumThreads``: in a forked child it
    waits forever for the parent's OpenCV threads; see ``_single_threaded_children``.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    limit_heap()


@contextmanager
def _single_threaded_children() -> Iterator[None]:
    """Processes forked meanwhile run OpenCV on one thread; this process gets its own
    setting back afterwards.

    With a worker per core, each worker's OpenCV threads only compete with the other
    workers for the cores (OpenCV's results do not depend on its thread count).  Set in
    the parent, before the fork: a forked child cannot change it itself.
    """
    import cv2

    before = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        yield
    finally:
        cv2.setNumThreads(before)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel queued work and end running workers now (used on Ctrl-C)."""
    pool.shutdown(wait=False, cancel_futures=True)
    # ProcessPoolExecutor has no public terminate before Python 3.14.
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.terminate()


def run_batch(images: list[Path], out_dir: Path, kind: str, fmt: str, jobs: int = 1,
              overlay: bool = False, resume: bool = True,
              stream: TextIO | None = None, stage: str = "all",
              engine: Engine | None = None) -> BatchSummary:
    """Parse ``images`` into ``out_dir`` with ``jobs`` worker processes, or with
    ``engine`` when one is given (``jobs`` is then unused).

    Each finished image is written and its report line flushed at once, so an
    interrupted or killed run loses nothing and a rerun resumes.  Error and warning lines
    and progress go to ``stream`` (standard error).  Raises ``OSError``
    only when ``out_dir`` or the report cannot be written.
    """
    stream = stream or sys.stderr
    started = time.perf_counter()
    limit_heap()
    out_dir.mkdir(parents=True, exist_ok=True)
    ext = FORMAT_EXT[fmt]
    summary = BatchSummary(total=len(images))
    todo: list[Path] = []
    clashes: list[Outcome] = []
    skipped: list[Path] = []
    stems: dict[str, Path] = {}
    for img in images:
        if img.stem in stems:
            clashes.append(Outcome(str(img), False, 0.0,
                                   f"same name as {stems[img.stem]}: outputs "
                                   f"'{img.stem}{ext}' would collide; rename one"))
            continue
        stems[img.stem] = img
        if resume and _done(img, out_dir, ext, overlay):
            skipped.append(img)
        else:
            todo.append(img)
    summary.skipped = len(skipped)
    if skipped:
        stream.write(f"resume: {len(skipped)} image(s) already done in {out_dir}, "
                     "skipped (--no-resume to redo)\n")
    report = _start_report(out_dir / REPORT_NAME, {p.stem for p in todo}, skipped)
    progress = _Progress(len(todo) + len(clashes), stream)

    def record(o: Outcome) -> None:
        if o.ok:
            _write_text(out_dir / (Path(o.file).stem + ext), o.text)
        else:
            progress.message(f"cvparse: error: {o.file}: {o.error}")
        for w in o.warnings:
            progress.message(f"cvparse: warning: {o.file}: {w}")
        report.write(json.dumps(o.report_line()) + "\n")
        report.flush()
        summary.outcomes.append(o)
        progress.update(len(summary.outcomes), summary.failed)

    def overlay_for(img: Path) -> str | None:
        return str(out_dir / (img.stem + OVERLAY_SUFFIX)) if overlay else None

    run = engine or (lambda tasks: local_outcomes(tasks, jobs))
    try:
        for o in clashes:
            record(o)
        with closing(run([Task(str(img), kind, fmt, overlay_for(img), stage)
                          for img in todo])) as outcomes:
            for o in outcomes:
                record(o)
    except KeyboardInterrupt:
        summary.interrupted = True
        progress.close()
    finally:
        report.close()
        summary.seconds = time.perf_counter() - started
    return summary


def local_outcomes(tasks: list[Task], jobs: int = 1) -> Iterator[Outcome]:
    """Run ``tasks`` in this process (one job or one task) or in ``jobs`` forked worker
    processes, biggest images first; a worker that dies becomes a failed outcome."""
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield run_one(t.file, t.kind, t.fmt, t.overlay, t.stage)
        return
    from . import pipeline  # noqa: F401 - imported once, inherited by forked workers

    pool = ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), initializer=_init_worker)
    try:
        with _single_threaded_children():  # the first submit forks every worker
            futs = {pool.submit(run_one, t.file, t.kind, t.fmt, t.overlay, t.stage): t
                    for t in largest_tasks_first(tasks)}
        for fut in as_completed(futs):
            try:
                o = fut.result()
            except Exception as exc:  # noqa: BLE001 - e.g. a worker killed by OOM
                o = Outcome(futs[fut].file, False, 0.0,
                            f"worker process failed: {type(exc).__name__}: "
                            f"{_one_line(exc)}")
            yield o
    except BaseException:  # Ctrl-C, or the consumer stopped early
        _stop_pool(pool)
        raise
    pool.shutdown()


def largest_tasks_first(tasks: list[Task]) -> list[Task]:
    """``tasks`` in the order of :func:`largest_first` of their files."""
    by_file = {t.file: t for t in tasks}
    return [by_file[str(p)] for p in largest_first([Path(t.file) for t in tasks])]


def parse_many(inputs: Iterable[str | Path], engine: str = "local", client=None, *,
               kind: str = "auto", fmt: str = "json", stage: str = "all",
               jobs: int | None = None) -> Iterator[Outcome]:
    """Parse images, folders of images (or, with ``engine="dask"``, fsspec URLs) and
    yield one :class:`Outcome` per image as each finishes, writing nothing.

    ``engine="local"`` runs ``jobs`` worker processes (default: one per core);
    ``engine="dask"`` runs on ``client`` (a ``dask.distributed.Client``) or, without
    one, on a ``LocalCluster`` of this machine started and closed here.
    """
    inputs = [str(p) for p in inputs]
    if engine == "local":
        tasks = [Task(str(p), kind, fmt, None, stage) for p in collect_images(inputs)]
        yield from local_outcomes(tasks, jobs or os.cpu_count() or 1)
    elif engine == "dask":
        from . import dask_engine

        tasks = [Task(str(p), kind, fmt, None, stage)
                 for p in dask_engine.collect_inputs(inputs)]
        if client is not None:
            yield from dask_engine.dask_outcomes(tasks, client)
        else:
            with dask_engine.dask_client(workers=jobs) as own:
                yield from dask_engine.dask_outcomes(tasks, own)
    else:
        raise ValueError(f"unknown engine {engine!r}; expected 'local' or 'dask'")
