"""Parse many images: collect inputs, run worker processes, write outputs and a report.

Outputs go to ``--out`` as ``<stem>.<ext>`` with one ``report.jsonl`` line per input
(``{"file", "ok", "seconds", "error"}``); a rerun skips images whose output already exists
(resume).  Failures are recorded and skipped, never fatal to the batch.
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from .image import IMAGE_SUFFIXES, ImageError

FORMAT_EXT = {"json": ".json", "mermaid": ".mmd", "plantuml": ".puml", "sql": ".sql",
              "dot": ".dot", "graphml": ".graphml", "drawio": ".drawio"}


class InputError(ValueError):
    """A command-line input path cannot be used (missing, or a folder without images)."""


@dataclass
class Outcome:
    """What happened to one input image."""

    file: str
    ok: bool
    seconds: float
    error: str = ""
    text: str = ""
    warnings: tuple[str, ...] = ()


def collect_images(paths: list[str]) -> list[Path]:
    """Expand files and folders into the list of image files to parse, in a stable order."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(f for f in p.iterdir()
                           if f.is_file() and f.suffix.lower() in IMAGE_SUFFIXES
                           and not f.name.endswith(".overlay.png"))
            if not found:
                raise InputError(f"{p}: directory contains no images "
                                 f"({', '.join(IMAGE_SUFFIXES)})")
            out.extend(found)
        else:
            out.append(p)
    return out


def render(result, fmt: str) -> str:
    """The text of a parse result in an output format."""
    from .export import formats

    return formats.export(result.document, fmt)


def run_one(path: str, kind: str, fmt: str, overlay_path: str | None = None) -> Outcome:
    """Parse one image and render it; every failure becomes an ``Outcome`` with a reason."""
    from .pipeline import parse

    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = parse(path, kind=kind)
            text = render(result, fmt)
            if overlay_path:
                from .export.overlay import draw_overlay
                import cv2

                img = draw_overlay(result.image, result.inventory, result.connectors)
                cv2.imwrite(overlay_path, img[:, :, ::-1])
        except ImageError as exc:
            return Outcome(path, False, time.perf_counter() - t0, str(exc))
        except (ValueError, NotImplementedError) as exc:
            return Outcome(path, False, time.perf_counter() - t0, str(exc))
        except Exception as exc:  # noqa: BLE001 - one bad image must not stop a batch
            return Outcome(path, False, time.perf_counter() - t0,
                           f"internal error: {type(exc).__name__}: {exc}")
    msgs = tuple(str(w.message) for w in caught)
    return Outcome(path, True, time.perf_counter() - t0, text=text, warnings=msgs)


def _progress(done: int, total: int, failed: int, started: float, stream) -> None:
    if not stream.isatty() and done not in (total,) and done % 25:
        return
    rate = (time.perf_counter() - started) / max(done, 1)
    stream.write(f"\r[{done}/{total}] failed {failed}, {rate:.2f} s/image, "
                 f"eta {rate * (total - done):.0f} s ")
    if done == total or not stream.isatty():
        stream.write("\n")
    stream.flush()


def run_batch(images: list[Path], out_dir: Path, kind: str, fmt: str, jobs: int = 1,
              overlay: bool = False, resume: bool = True, stream=sys.stderr) -> list[Outcome]:
    """Parse ``images`` into ``out_dir`` with ``jobs`` worker processes; returns outcomes."""
    out_dir.mkdir(parents=True, exist_ok=True)
    ext = FORMAT_EXT[fmt]
    todo, outcomes = [], []
    for img in images:
        target = out_dir / (img.stem + ext)
        if resume and target.exists() and target.stat().st_size > 0:
            continue
        todo.append(img)
    skipped = len(images) - len(todo)
    if skipped:
        stream.write(f"resume: {skipped} image(s) already done in {out_dir}, skipped\n")
    report = (out_dir / "report.jsonl").open("a", encoding="utf-8")
    started = time.perf_counter()
    failed = 0

    def record(o: Outcome) -> None:
        nonlocal failed
        if o.ok:
            (out_dir / (Path(o.file).stem + ext)).write_text(o.text, encoding="utf-8")
        else:
            failed += 1
            stream.write(f"\ncvparse: error: {o.file}: {o.error}\n")
        for w in o.warnings:
            stream.write(f"\ncvparse: warning: {o.file}: {w}\n")
        report.write(json.dumps({"file": o.file, "ok": o.ok, "seconds": round(o.seconds, 4),
                                 "error": o.error or None}) + "\n")
        report.flush()
        outcomes.append(o)
        _progress(len(outcomes), len(todo), failed, started, stream)

    try:
        if jobs <= 1:
            for img in todo:
                ov = str(out_dir / (img.stem + ".overlay.png")) if overlay else None
                record(run_one(str(img), kind, fmt, ov))
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futs = [pool.submit(run_one, str(img), kind, fmt,
                                    str(out_dir / (img.stem + ".overlay.png")) if overlay
                                    else None) for img in todo]
                for fut in as_completed(futs):
                    record(fut.result())
    finally:
        report.close()
    ok = sum(o.ok for o in outcomes)
    secs = [o.seconds for o in outcomes if o.ok]
    mean = sum(secs) / len(secs) if secs else 0.0
    stream.write(f"parsed {ok}, failed {len(outcomes) - ok}, skipped {skipped}; "
                 f"{mean:.2f} s/image mean, {time.perf_counter() - started:.1f} s total; "
                 f"report {out_dir / 'report.jsonl'}\n")
    return outcomes
