"""Command line: ``cvparse parse``, ``cvparse eval``, ``cvparse bench``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .batch import (FORMAT_EXT, OVERLAY_SUFFIX, REPORT_NAME, InputError, collect_images,
                    run_batch, run_one)
from .display import printable

INTERRUPTED = 130
"""Exit status after Ctrl-C, as shells report it (128 + SIGINT)."""


def _error(msg: str) -> None:
    print(printable(f"cvparse: error: {msg}"), file=sys.stderr)


def _parse_cmd(args: argparse.Namespace) -> int:
    """One file without ``--out``: document to stdout.  Otherwise a batch into ``--out``."""
    if args.engine == "dask":
        return _parse_dask(args)
    if any("://" in p for p in args.paths):
        _error("URL inputs are read by Dask workers: add --engine dask")
        return 2
    try:
        images = collect_images(args.paths)
    except InputError as exc:
        _error(str(exc))
        return 2
    if args.stage == "nodes" and args.format != "json":
        _error("--stage nodes prints the node inventory as JSON; drop --format "
               f"{args.format}")
        return 2
    single = len(args.paths) == 1 and len(images) == 1 and not Path(args.paths[0]).is_dir()
    if single and not args.out:
        return _parse_single(images[0], args)
    return _batch(images, args)


def _parse_dask(args: argparse.Namespace) -> int:
    """A batch on a Dask cluster: the given one, or a LocalCluster of --jobs workers."""
    from . import dask_engine

    out = dask_engine.local_path(args.out or "cvparse-out")
    if dask_engine.is_url(out):
        _error(f"--out {out}: must be a local folder (or file:// URL): results come back "
               "to this process, which writes them")
        return 2
    try:
        images = dask_engine.collect_inputs(args.paths)
        with dask_engine.dask_client(args.scheduler, args.jobs) as client:
            return _batch(images, args, Path(out),
                          lambda tasks: dask_engine.dask_outcomes(tasks, client))
    except (InputError, dask_engine.DaskMissing) as exc:
        _error(str(exc))
        return 2
    except OSError as exc:  # the scheduler cannot be reached
        _error(f"--scheduler {args.scheduler}: {exc}")
        return 1


def _batch(images: list, args: argparse.Namespace, out: Path | None = None,
           engine=None) -> int:
    """Run the batch into ``--out`` and print its summary; the exit status."""
    out = out or Path(args.out or "cvparse-out")
    try:
        summary = run_batch(images, out, args.kind, args.format, jobs=args.jobs or 1,
                            overlay=args.overlay, resume=not args.no_resume,
                            stage=args.stage, engine=engine)
    except OSError as exc:
        _error(f"{out}: cannot write output: {exc.strerror or exc}")
        return 1
    report = out / REPORT_NAME
    if summary.interrupted:
        print(printable(f"cvparse: interrupted: {len(summary.outcomes)} of "
                        f"{summary.total - summary.skipped} image(s) done, report "
                        f"{report}; run again to resume"), file=sys.stderr)
        return INTERRUPTED
    print(printable(summary.line(report)), file=sys.stderr)
    return 1 if summary.failed else 0


def _parse_single(image: Path, args: argparse.Namespace) -> int:
    # The overlay goes to the current folder: the image's own folder may be read-only.
    overlay = str(Path.cwd() / (image.stem + OVERLAY_SUFFIX)) if args.overlay else None
    o = run_one(str(image), args.kind, args.format, overlay, args.stage)
    for w in o.warnings:
        print(printable(f"cvparse: warning: {o.file}: {w}"), file=sys.stderr)
    if not o.ok:
        _error(f"{o.file}: {o.error}")
        return 1
    sys.stdout.write(o.text)
    sys.stdout.flush()
    if overlay and Path(overlay).is_file():
        print(printable(f"overlay: {overlay}"), file=sys.stderr)
    return 0


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {n}")
    return n


def build_parser() -> argparse.ArgumentParser:
    from . import evaluate
    from .pipeline import KINDS, STAGES

    p = argparse.ArgumentParser(prog="cvparse", description="Classical diagram parser: "
                                "ER, flowchart, UML and topology diagrams to structured data.")
    sub = p.add_subparsers(dest="command", required=True)
    pp = sub.add_parser("parse", help="parse diagram images",
                        description="Parse one image (document to stdout) or many images / "
                        "folders (one file per image in --out, plus report.jsonl).")
    pp.add_argument("paths", nargs="+", help="image files or folders of images (with "
                    "--engine dask also fsspec URLs: s3://, gs://, file://)")
    pp.add_argument("--kind", choices=KINDS, default="auto", help="diagram family (auto)")
    pp.add_argument("--format", choices=sorted(FORMAT_EXT), default="json",
                    help="output format (json)")
    pp.add_argument("--stage", choices=STAGES, default="all",
                    help="stop after a stage: 'nodes' prints the inventory of shapes, labels "
                    "and free text (JSON) and overlays only those (all)")
    pp.add_argument("--out", help="output folder (batch mode; default ./cvparse-out "
                    "for several inputs)")
    pp.add_argument("--overlay", action="store_true",
                    help="also draw what was detected, as <stem>.overlay.png in --out "
                    "(the current folder for one file without --out)")
    pp.add_argument("--jobs", type=_positive_int, metavar="N",
                    help="worker processes for a batch (1; with --engine dask and no "
                    "--scheduler, the local cluster's workers: one per core)")
    pp.add_argument("--engine", choices=("local", "dask"), default="local",
                    help="where a batch runs: local worker processes, or a Dask cluster "
                    "(pip install 'cvparse[dask]').  With dask each worker reads its image "
                    "(a path it can reach or a URL) and sends the document back: this "
                    "process writes --out, which must be local; overlays are written by "
                    "the workers themselves, so with --overlay --out must be a folder "
                    "they can write too")
    pp.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                    help="the Dask scheduler of a running cluster (--engine dask; "
                    "default: a LocalCluster on this machine)")
    pp.add_argument("--no-resume", action="store_true",
                    help="reparse images whose output already exists in --out")
    pp.set_defaults(func=_parse_cmd)
    pe = sub.add_parser("eval", help="score predictions against ground truth",
                        description="Score predictions (cvparse JSON or raw model text) "
                        "with the benchmarks' own metrics.")
    evaluate.add_arguments(pe)
    pe.set_defaults(func=evaluate.main)
    pb = sub.add_parser("bench", help="run a benchmark script of a cvparse checkout",
                        description="Run benchmarks/<name>.py of the cvparse checkout in the "
                        "current folder; options after the name go to the script "
                        "(see `cvparse bench NAME --help`).")
    pb.add_argument("name", choices=BENCHES, help="accuracy, speed, speed_ab or trace")
    pb.add_argument("rest", nargs=argparse.REMAINDER, help="the script's own options")
    pb.set_defaults(func=_bench_cmd)
    return p


BENCHES = ("accuracy", "speed", "speed_ab", "trace")


def _bench_cmd(args: argparse.Namespace) -> int:
    """Delegate to ``benchmarks/<name>.py`` (the scripts live in the repository, not the
    installed package, because they need the fixture sets beside them)."""
    import importlib

    if not Path("benchmarks", "accuracy.py").is_file():
        _error("benchmarks/: not found; run `cvparse bench` from a cvparse checkout")
        return 2
    sys.path.insert(0, os.getcwd())
    module = {"trace": "bench_trace"}.get(args.name, args.name)
    return int(importlib.import_module(f"benchmarks.{module}").main(args.rest) or 0)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "scheduler", None) and args.engine != "dask":
        parser.error("--scheduler needs --engine dask")
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("cvparse: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as other command-line tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
