"""Parse many images: collect inputs, run worker processes, write outputs and a report.

Outputs go to ``--out`` as ``<stem>.<ext>`` with one ``report.jsonl`` line per input
(``{"file", "ok", "seconds", "error", "kind", "guessed_kind", "outputs"}``, ``outputs``
giving the size and SHA-256 of each file written); a rerun skips an image only when its
report line says it was parsed and each of its outputs is still a regular file with that
size and hash (resume trusts nothing else it finds in ``--out``).  Every file is written
to an exclusively created temporary file in ``--out`` and renamed into place, so a link
planted in ``--out`` is replaced, never written through.  Failures are recorded and
skipped, never fatal to the batch: a worker process that dies fails only the image it
was on (see :mod:`cvparse.pool`).  Ctrl-C stops the batch at once with everything
finished so far on disk and no partial file left.
"""

from __future__ import annotations

import io
import json
import os
import signal
import stat
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .display import printable
from .files import (digest, matches, open_regular, read_regular, remove_partial,
                    replace_for_append, write_atomic)
from .image import IMAGE_SUFFIXES, ImageError
from .model import Document
from .options import FORMAT_EXT, OVERLAY_SUFFIX, REPORT_NAME
from .pool import Died, WorkerPool

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
    """The first requested format's text (``texts`` holds every one)."""
    warnings: tuple[str, ...] = ()
    kind: str = ""
    """Family the image was parsed as."""
    guessed_kind: str = ""
    """Family ``--kind auto`` picks for it (differs from ``kind`` when one was forced)."""
    outputs: dict[str, dict] = field(default_factory=dict)
    """Files written for it, by name in ``--out``: ``{"bytes", "sha256"}`` each."""
    texts: dict[str, str] = field(default_factory=dict)
    """Rendered text per requested format, in request order (one parse, several formats)."""
    retried: int = 0
    """Times the image was started again because the worker parsing it was lost."""

    def report_line(self) -> dict:
        return {"file": self.file, "ok": self.ok, "seconds": round(self.seconds, 4),
                "error": self.error or None, "kind": self.kind or None,
                "guessed_kind": self.guessed_kind or None, "outputs": self.outputs}


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
        """The one-line summary printed at the end of a batch.

        Its ``s/image`` is, like the progress line's, wall-clock seconds of this run per
        image finished (with ``--jobs N`` about 1/N of one image's parse time, which
        ``report.jsonl`` holds per image).
        """
        mean = self.seconds / len(self.outcomes) if self.outcomes else 0.0
        lost = f", retried {self.retried} (worker lost)" if self.retried else ""
        return (f"parsed {self.parsed}, failed {self.failed}, skipped {self.skipped} "
                f"(already done){lost}; {mean:.2f} s/image, {self.seconds:.1f} s total; "
                f"report {report}")


@dataclass(frozen=True)
class Task:
    """One image to parse: the arguments of :func:`run_one`."""

    file: str
    kind: str = "auto"
    fmt: str | tuple[str, ...] = "json"
    overlay: str | None = None
    stage: str = "all"

    @property
    def args(self) -> tuple:
        """The positional arguments of :func:`run_one`."""
        return (self.file, self.kind, self.fmt, self.overlay, self.stage)


Engine = Callable[[list[Task]], Iterator[Outcome]]
"""Runs tasks and yields their outcomes as they finish (any order): the local process
pool (:func:`local_outcomes`) or a cluster (``cvparse.dask_engine``)."""


def collect_images(paths: list[str]) -> list[Path]:
    """Expand files and folders into the image files to parse, in a stable order.

    Files are taken as given (a bad one fails later with its own reason); folders
    contribute every entry named like an image, not recursively, leaving out our own
    overlays: a broken link, a link loop, a pipe or a folder named ``*.png`` is kept so
    that it fails with its reason and is reported, never skipped in silence.  A path
    named twice is parsed once.
    """
    out: list[Path] = []
    seen: set[Path] = set()
    for p in map(Path, paths):
        if p.is_dir():
            try:
                found = sorted(f for f in p.iterdir()
                               if f.suffix.lower() in IMAGE_SUFFIXES
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


def formats_of(fmt: str | tuple[str, ...]) -> tuple[str, ...]:
    """One format name or several (a tuple) as a tuple."""
    return (fmt,) if isinstance(fmt, str) else tuple(fmt)


def run_one(path: str, kind: str, fmt: str | tuple[str, ...],
            overlay_path: str | None = None,
            stage: str = "all") -> Outcome:
    """Parse one image and render it in each format of ``fmt``; every failure becomes an
    ``Outcome`` with a reason.

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
            texts = {f: result.to_format(f) for f in formats_of(fmt)}
        except (ImageError, ValueError, NotImplementedError) as exc:
            return Outcome(path, False, time.perf_counter() - t0, _one_line(exc))
        except Exception as exc:  # noqa: BLE001 - one bad image must not stop a batch
            return Outcome(path, False, time.perf_counter() - t0,
                           f"internal error: {type(exc).__name__}: {_one_line(exc)}")
        if is_empty(result.document, result.inventory):
            notes.append(EMPTY_WARNING)
        outputs = {}
        if overlay_path:
            try:
                outputs[Path(overlay_path).name] = _write_overlay(result, Path(overlay_path))
            except Exception as exc:  # noqa: BLE001 - the document is still good
                notes.append(f"overlay not written: {type(exc).__name__}: {_one_line(exc)}")
    msgs = [_one_line(w.message) for w in caught] + notes
    return Outcome(path, True, time.perf_counter() - t0, text=next(iter(texts.values())),
                   texts=texts,
                   warnings=tuple(dict.fromkeys(msgs)), kind=getattr(result, "kind", ""),
                   guessed_kind=getattr(result, "guessed_kind", ""), outputs=outputs)


def _write_overlay(result, path: Path) -> dict:
    """Draw and write the overlay PNG (encoded in memory, then written atomically);
    its :func:`~cvparse.files.digest`."""
    from PIL import Image

    from .export.overlay import draw_overlay

    img = draw_overlay(result.image, result.inventory, result.connectors)
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format="PNG")
    data = buf.getvalue()
    write_atomic(path, data)
    return digest(data)


def _one_line(msg) -> str:
    return " ".join(str(msg).split()) or "unknown error"


def _write_text(path: Path, text: str) -> dict:
    """Write atomically (see :func:`~cvparse.files.write_atomic`); the file's digest."""
    data = text.encode("utf-8")
    write_atomic(path, data)
    return digest(data)


def _outputs(img: Path, exts: list[str], overlay: bool) -> list[str]:
    names = [img.stem + ext for ext in exts]
    if overlay:
        names.append(img.stem + OVERLAY_SUFFIX)
    return names


def _read_report(report: Path) -> dict[str, dict]:
    """The lines of an earlier run's report, the last one per file, in order.

    A report that is not a regular file (a link, a pipe) is not read: it is replaced.
    """
    try:
        if not stat.S_ISREG(os.lstat(report).st_mode):
            return {}
        text = read_regular(report).decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return {}
    lines: dict[str, dict] = {}
    for raw in text.splitlines():
        try:
            line = json.loads(raw)
            file = line["file"]
        except (ValueError, KeyError, TypeError, RecursionError):
            continue
        if isinstance(file, str):
            lines.pop(file, None)
            lines[file] = line
    return lines


def _done(img: Path, out_dir: Path, exts: list[str], overlay: bool,
          parsed: dict[str, dict]) -> bool:
    """Whether an earlier run parsed ``img`` and all its outputs are still the files it
    wrote (``parsed``: the last successful report line per stem)."""
    line = parsed.get(img.stem)
    outputs = line.get("outputs") if line else None
    return isinstance(outputs, dict) and all(
        matches(out_dir / name, outputs.get(name)) for name in _outputs(img, exts, overlay))


def _start_report(report: Path, old: dict[str, dict], redo: set[str],
                  replaced: set[str]):
    """Rewrite the report without the lines this run replaces; return it open for
    appending (binary).

    Lines of other images from earlier runs are kept, one per file: a line goes when its
    image's stem is in ``redo`` or its file is in ``replaced``.
    """
    kept = [line for file, line in old.items()
            if Path(file).stem not in redo and file not in replaced]
    data = "".join(json.dumps(line) + "\n" for line in kept).encode("utf-8")
    return replace_for_append(report, data)


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
            with open_regular(path) as fh, Image.open(fh) as im:
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


def load_parser() -> None:
    """Import the parser and load its Numba kernel before a batch of several images, once:
    forked workers inherit both, and every image then walks its skeleton with the kernel
    (one image alone is walked without it, see ``cvparse.connectors._walk``)."""
    from . import pipeline  # noqa: F401
    from .connectors._walk import load_kernel

    load_kernel()


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


def _run_one_in_worker(*args) -> Outcome:
    """``run_one``, looked up when called (a worker runs what its parent module holds)."""
    return run_one(*args)


def _parse_in_workers(tasks: list[Task], jobs: int, record: Callable[[Outcome], None],
                      overlay_dir: Path | None) -> bool:
    """Parse ``tasks`` in worker processes, recording each outcome as it arrives;
    return whether Ctrl-C stopped it.

    A worker that dies (killed, out of memory, crashed) fails only the image it was on,
    with the cause, and a fresh worker takes the rest.  Ctrl-C (SIGINT, also sent to the
    workers, which ignore it) sets a flag seen within ``pool.run``'s poll: results already
    sent are recorded, the workers are ended, and the partial overlays of the images they
    were on are removed, so ``--out`` holds only complete files and resumes cleanly.
    """
    load_parser()

    stop = threading.Event()
    on_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set()) if on_main else None
    pool = WorkerPool(min(jobs, len(tasks)), _run_one_in_worker, _init_worker)
    try:
        with _single_threaded_children():  # every worker, fresh ones too, is forked here
            for o in _pool_outcomes(pool, tasks, stop.is_set, overlay_dir):
                record(o)
    finally:
        unfinished = pool.in_flight()
        pool.stop()
        if overlay_dir is not None:
            for key in unfinished:
                remove_partial(overlay_dir, Path(key).stem + OVERLAY_SUFFIX)
        if on_main:
            signal.signal(signal.SIGINT, previous)
    return stop.is_set()


def _pool_outcomes(pool: WorkerPool, tasks: list[Task], stop: Callable[[], bool],
                   overlay_dir: Path | None) -> Iterator[Outcome]:
    """The outcomes of ``tasks`` run on ``pool`` as they arrive, then, once ``stop()``
    is true, those already sent; a dead worker's image fails with the cause (its partial
    overlay in ``overlay_dir`` removed)."""

    def outcome(key: str, result) -> Outcome:
        if isinstance(result, Died):
            if overlay_dir is not None:
                remove_partial(overlay_dir, Path(key).stem + OVERLAY_SUFFIX)
            return Outcome(key, False, 0.0, f"{result.cause} while parsing this image")
        return result

    for key, result in pool.run(((t.file, t.args) for t in tasks), stop=stop):
        yield outcome(key, result)
    if stop():
        for key, result in pool.drain():
            yield outcome(key, result)


def run_batch(images: list[Path], out_dir: Path, kind: str, fmt: str | tuple[str, ...], *,
              jobs: int = 1,
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
    fmts = formats_of(fmt)
    exts = [FORMAT_EXT[f] for f in fmts]
    summary = BatchSummary(total=len(images))
    todo: list[Path] = []
    clashes: list[Outcome] = []
    skipped: list[Path] = []
    stems: dict[str, Path] = {}
    old = _read_report(out_dir / REPORT_NAME)
    parsed = {Path(f).stem: line for f, line in old.items() if line.get("ok") is True}
    for img in images:
        if img.stem in stems:
            clashes.append(Outcome(str(img), False, 0.0,
                                   f"same name as {stems[img.stem]}: outputs "
                                   f"'{img.stem}{exts[0]}' would collide; rename one"))
            continue
        stems[img.stem] = img
        if resume and _done(img, out_dir, exts, overlay, parsed):
            skipped.append(img)
        else:
            todo.append(img)
    summary.skipped = len(skipped)
    if skipped:
        stream.write(printable(f"resume: {len(skipped)} image(s) already done in {out_dir}, "
                               "skipped (--no-resume to redo)") + "\n")
    report = _start_report(out_dir / REPORT_NAME, old, {p.stem for p in todo},
                           {o.file for o in clashes})
    progress = _Progress(len(todo) + len(clashes), stream)

    def record(o: Outcome) -> None:
        if o.ok:
            name = ""
            try:
                written = {}
                for f, text in (o.texts or {fmts[0]: o.text}).items():
                    name = Path(o.file).stem + FORMAT_EXT[f]
                    written[name] = _write_text(out_dir / name, text)
                o.outputs = {**written, **o.outputs}
            except OSError as exc:
                o = Outcome(o.file, False, o.seconds, f"cannot write {name}: "
                            f"{exc.strerror or exc}", kind=o.kind, guessed_kind=o.guessed_kind,
                            retried=o.retried)
        if not o.ok:
            progress.message(printable(f"cvparse: error: {o.file}: {o.error}"))
        for w in o.warnings:
            progress.message(printable(f"cvparse: warning: {o.file}: {w}"))
        report.write((json.dumps(o.report_line()) + "\n").encode("utf-8"))
        report.flush()
        summary.outcomes.append(o)
        progress.update(len(summary.outcomes), summary.failed)

    def overlay_for(img: Path) -> str | None:
        return str(out_dir / (img.stem + OVERLAY_SUFFIX)) if overlay else None

    tasks = [Task(str(img), kind, fmt, overlay_for(img), stage) for img in todo]
    try:
        for o in clashes:
            record(o)
        if engine is not None:
            with closing(engine(tasks)) as outcomes:
                for o in outcomes:
                    record(o)
        elif jobs <= 1 or len(tasks) <= 1:
            if len(tasks) > 1:
                load_parser()
            for t in tasks:
                record(run_one(*t.args))
        elif tasks:
            summary.interrupted = _parse_in_workers(largest_tasks_first(tasks), jobs, record,
                                                    out_dir if overlay else None)
    except KeyboardInterrupt:
        summary.interrupted = True
        progress.close()
    finally:
        report.close()
        summary.seconds = time.perf_counter() - started
    return summary


def local_outcomes(tasks: list[Task], jobs: int = 1) -> Iterator[Outcome]:
    """Run ``tasks`` in this process (one job or one task) or in ``jobs`` forked worker
    processes, biggest images first, yielding each outcome as it finishes; a worker that
    dies fails only its image.  While it runs, this process's OpenCV is single-threaded
    (see ``_single_threaded_children``); stopping early ends the workers."""
    if jobs <= 1 or len(tasks) <= 1:
        if len(tasks) > 1:
            load_parser()
        for t in tasks:
            yield run_one(*t.args)
        return
    load_parser()

    pool = WorkerPool(min(jobs, len(tasks)), _run_one_in_worker, _init_worker)
    try:
        with _single_threaded_children():
            yield from _pool_outcomes(pool, largest_tasks_first(tasks), lambda: False, None)
    finally:
        pool.stop()


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
