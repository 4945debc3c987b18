"""Command line: ``cvparse parse``, ``cvparse convert``, ``cvparse eval``, ``cvparse bench``.

Start-up stays light: building the parser and ``--help`` / ``--version`` import no image
library (not even NumPy or Pillow: :mod:`cvparse.batch` is imported by the commands that
run) and not the parser; ``cvparse parse`` loads them when it runs.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import __version__
from .display import printable
from .files import UnreadableFile, read_regular
from .export.formats import FORMATS, refusal
from .options import FORMAT_EXT, KINDS, OVERLAY_SUFFIX, REPORT_NAME, STAGES

OK, FAILED, USAGE = 0, 1, 2
INTERRUPTED = 130
"""Exit status after Ctrl-C, as shells report it (128 + SIGINT)."""
EXIT_CODES = (f"exit status: {OK} success; {FAILED} any failure (an image or input that "
              f"could not be read, parsed or written); {USAGE} usage error (bad option, "
              f"impossible --kind/--format pair); {INTERRUPTED} interrupted (Ctrl-C)")
STDIN = "-"
EXTENSION_ALIASES = {".gv": "dot", ".pu": "plantuml", ".plantuml": "plantuml",
                     ".mermaid": "mermaid", ".xml": "drawio"}
"""File extensions ``-o`` also understands, besides each format's own (``FORMAT_EXT``)."""


def _error(msg: str) -> None:
    print(printable(f"cvparse: error: {msg}"), file=sys.stderr)


class UsageError(ValueError):
    """A combination of options that cannot work; reported before any parse (exit 2)."""


def format_list(text: str) -> tuple[str, ...]:
    """``--format json,mermaid`` as a tuple of known format names, duplicates dropped."""
    names = tuple(dict.fromkeys(f.strip().lower() for f in text.split(",") if f.strip()))
    bad = [f for f in names if f not in FORMATS]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"unknown format {', '.join(bad) or repr(text)} (choose from {', '.join(FORMATS)}; "
            "several separated by commas)")
    return names


def format_of_path(path: str) -> str:
    """The output format an ``-o`` file name asks for, from its extension."""
    suffix = Path(path).suffix.lower()
    by_ext = {ext: fmt for fmt, ext in FORMAT_EXT.items()} | EXTENSION_ALIASES
    if suffix not in by_ext:
        raise UsageError(f"-o {path}: cannot tell the format from '{suffix or 'no extension'}'"
                         f" (use one of {', '.join(sorted(by_ext))}, or give --format)")
    return by_ext[suffix]


@dataclass
class _Plan:
    """Where one parse's outputs go (single-input mode)."""

    formats: tuple[str, ...]
    files: dict[str, Path | None]
    """Output file per format; None is standard output."""
    overlay: Path | None


def _single_plan(args: argparse.Namespace, image: Path, formats: tuple[str, ...]) -> _Plan:
    out = Path(args.output) if args.output else None
    files = _output_files(args.output, formats)
    overlay = None
    if args.overlay_out:
        overlay = Path(args.overlay_out)
    elif args.overlay:
        stem = image.stem if str(image) != STDIN else "stdin"
        # Next to -o; else the current folder (the image's own folder may be read-only).
        overlay = (out.with_name(out.stem + OVERLAY_SUFFIX) if out is not None
                   else Path.cwd() / (stem + OVERLAY_SUFFIX))
    return _Plan(formats, files, overlay)


def _check_pairs(args: argparse.Namespace, formats: tuple[str, ...]) -> None:
    if args.stage == "nodes" and formats != ("json",):
        raise UsageError("--stage nodes prints the node inventory as JSON; drop --format "
                         f"{','.join(f for f in formats if f != 'json')}")
    if args.kind != "auto":
        for f in formats:
            why = refusal(f, args.kind)
            if why:
                raise UsageError(f"--kind {args.kind} --format {f}: {why}")


def _requested_formats(args: argparse.Namespace) -> tuple[str, ...]:
    if args.format:
        return args.format
    if args.output:
        return (format_of_path(args.output),)
    return ("json",)


def _parse_cmd(args: argparse.Namespace) -> int:
    """One file without ``--out``: document to stdout or ``-o``.  Otherwise a batch."""
    from .batch import InputError, collect_images

    try:
        formats = _requested_formats(args)
        _check_pairs(args, formats)
        if STDIN in args.paths and len(args.paths) > 1:
            raise UsageError("'-' (standard input) must be the only input")
        if args.output and (args.out or len(args.paths) > 1):
            raise UsageError("-o FILE takes one input and no --out (use --out DIR for several)")
        if args.overlay_out and (args.out or len(args.paths) > 1):
            raise UsageError("--overlay-out takes one input (batches write "
                             f"<stem>{OVERLAY_SUFFIX} into --out)")
        if args.paths == [STDIN]:
            if args.out:
                raise UsageError("'-' (standard input) writes to stdout or -o, not --out")
            return _parse_stdin(args, formats)
        if args.engine == "dask":
            return _parse_dask(args, formats)
        if any("://" in p for p in args.paths):
            raise UsageError("URL inputs are read by Dask workers: add --engine dask")
        images = collect_images(args.paths)
    except UsageError as exc:
        _error(str(exc))
        return USAGE
    except InputError as exc:
        _error(str(exc))
        return USAGE
    single = len(args.paths) == 1 and len(images) == 1 and not Path(args.paths[0]).is_dir()
    if single and not args.out:
        try:
            plan = _single_plan(args, images[0], formats)
        except UsageError as exc:
            _error(str(exc))
            return USAGE
        return _parse_single(str(images[0]), str(images[0]), plan, args)
    return _parse_batch(images, formats, args)


def _parse_stdin(args: argparse.Namespace, formats: tuple[str, ...]) -> int:
    """Read the image from standard input into a private temporary file and parse that
    (the loader checks sizes from a file's header before decoding)."""
    plan = _single_plan(args, Path(STDIN), formats)
    data = sys.stdin.buffer.read()
    with tempfile.TemporaryDirectory(prefix="cvparse-") as tmp:
        path = Path(tmp, "stdin")
        path.write_bytes(data)
        return _parse_single(str(path), "<stdin>", plan, args)


def _parse_single(path: str, shown: str, plan: _Plan, args: argparse.Namespace) -> int:
    from .batch import run_one

    o = run_one(path, args.kind, plan.formats, str(plan.overlay) if plan.overlay else None,
                args.stage)
    if not args.quiet:
        for w in o.warnings:
            print(printable(f"cvparse: warning: {shown}: {w}"), file=sys.stderr)
    if not o.ok:
        _error(f"{shown}: {o.error.replace(path, shown)}")
        return FAILED
    if not _emit(o.texts, plan.files, args.verbose):
        return FAILED
    if args.verbose:
        print(printable(f"{shown}: parsed as {o.kind} (auto guess {o.guessed_kind}) in "
                        f"{o.seconds:.2f} s"), file=sys.stderr)
    if plan.overlay and plan.overlay.is_file() and not args.quiet:
        print(printable(f"overlay: {plan.overlay}"), file=sys.stderr)
    return OK


def _emit(texts: dict[str, str], files: dict[str, Path | None], verbose: bool) -> bool:
    """Write each format's text to its file (None: stdout); False after a write error."""
    for fmt, target in files.items():
        if target is None:
            sys.stdout.write(texts[fmt])
            sys.stdout.flush()
            continue
        try:
            _write_file(target, texts[fmt])
        except OSError as exc:
            _error(f"{target}: cannot write output: {exc.strerror or exc}")
            return False
        if verbose:
            print(printable(f"wrote {target}"), file=sys.stderr)
    return True


def _output_files(output: str | None, formats: tuple[str, ...]) -> dict[str, Path | None]:
    """Output file per format: stdout for one format without ``-o``; with ``-o`` and
    several formats, the others share its stem."""
    if output is None:
        if len(formats) > 1:
            raise UsageError("several formats need -o FILE (one file per format, named after "
                             "it) or --out DIR")
        return {formats[0]: None}
    out = Path(output)
    files: dict[str, Path | None] = {f: out.with_suffix(FORMAT_EXT[f]) for f in formats}
    files[formats[0]] = out
    return files


CONVERT_MAX_BYTES = 64 * 2 ** 20
"""Largest file ``cvparse convert`` reads (a document is kilobytes to a few megabytes)."""


def _convert_cmd(args: argparse.Namespace) -> int:
    """A document (JSON) or a corrected diagrams.net file to other formats, no parse."""
    from .export.drawio_read import DrawioError, read_drawio
    from .export.formats import export
    from .model import DocumentError, document_from_json

    try:
        formats = _requested_formats(args)
        files = _output_files(args.output, formats)
    except UsageError as exc:
        _error(str(exc))
        return USAGE
    shown = "<stdin>" if args.input == STDIN else args.input
    try:
        if args.input == STDIN:
            text = sys.stdin.read()
        else:
            text = read_regular(args.input, CONVERT_MAX_BYTES).decode("utf-8-sig")
    except UnreadableFile as exc:
        _error(f"{shown}: {exc.reason}")
        return FAILED
    except (OSError, UnicodeDecodeError) as exc:
        _error(f"{shown}: cannot read: {getattr(exc, 'strerror', None) or exc}")
        return FAILED
    try:
        if text.lstrip().startswith("<"):
            doc, notes = read_drawio(text)
        else:
            doc, notes = document_from_json(text), []
        texts = {f: export(doc, f) for f in formats}
    except (DrawioError, DocumentError, ValueError) as exc:
        _error(f"{shown}: {exc}")
        return FAILED
    except RecursionError:
        _error(f"{shown}: nested too deeply to read")
        return FAILED
    if not args.quiet:
        for note in notes:
            print(printable(f"cvparse: warning: {shown}: {note}"), file=sys.stderr)
    return OK if _emit(texts, files, args.verbose) else FAILED


def _write_file(path: Path, text: str) -> None:
    """Write atomically: an interrupted run leaves the old file or none, never half."""
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


class _ErrorsOnly:
    """A stream that passes on only ``cvparse: error:`` lines (``--quiet`` batches)."""

    def __init__(self, target):
        self.target, self.pending = target, ""

    def write(self, text: str) -> None:
        self.pending += text
        *lines, self.pending = self.pending.split("\n")
        for line in lines:
            line = line.rpartition("\r")[2].replace("\033[K", "")
            if line.startswith("cvparse: error:"):
                self.target.write(line + "\n")

    def flush(self) -> None:
        self.target.flush()

    def isatty(self) -> bool:
        return False


def _parse_dask(args: argparse.Namespace, formats: tuple[str, ...]) -> int:
    """A batch on a Dask cluster: the given one, or a LocalCluster of --jobs workers."""
    from . import dask_engine
    from .batch import InputError

    out = dask_engine.local_path(args.out or "cvparse-out")
    if dask_engine.is_url(out):
        _error(f"--out {out}: must be a local folder (or file:// URL): results come back "
               "to this process, which writes them")
        return USAGE
    try:
        images = dask_engine.collect_inputs(args.paths)
        with dask_engine.dask_client(args.scheduler, args.jobs) as client:
            return _parse_batch(images, formats, args, Path(out),
                                lambda tasks: dask_engine.dask_outcomes(tasks, client))
    except (InputError, dask_engine.DaskMissing) as exc:
        _error(str(exc))
        return USAGE
    except OSError as exc:  # the scheduler cannot be reached
        _error(f"--scheduler {args.scheduler}: {exc}")
        return FAILED


def _parse_batch(images: list, formats: tuple[str, ...], args: argparse.Namespace,
                 out: Path | None = None, engine=None) -> int:
    """Run the batch into ``--out`` (on ``engine``, see ``run_batch``); the exit status."""
    from .batch import run_batch

    out = out or Path(args.out or "cvparse-out")
    stream = _ErrorsOnly(sys.stderr) if args.quiet else sys.stderr
    try:
        summary = run_batch(images, out, args.kind, formats, jobs=args.jobs or 1,
                            overlay=args.overlay, resume=not args.no_resume,
                            stage=args.stage, stream=stream, engine=engine)
    except OSError as exc:
        _error(f"{out}: cannot write output: {exc.strerror or exc}")
        return FAILED
    report = out / REPORT_NAME
    if summary.interrupted:
        print(printable(f"cvparse: interrupted: {len(summary.outcomes)} of "
                        f"{summary.total - summary.skipped} image(s) done, report "
                        f"{report}; run again to resume"), file=sys.stderr)
        return INTERRUPTED
    if args.verbose:
        for o in summary.outcomes:
            state = f"{o.kind} (auto guess {o.guessed_kind})" if o.ok else "failed"
            print(printable(f"{o.file}: {state}, {o.seconds:.2f} s"), file=sys.stderr)
    if not args.quiet:
        print(printable(summary.line(report)), file=sys.stderr)
    return FAILED if summary.failed else OK


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {n}")
    return n


def _add_parse(sub) -> None:
    pp = sub.add_parser("parse", help="parse diagram images", epilog=EXIT_CODES,
                        description="Parse one image (document to stdout, or to -o FILE) or "
                        "many images / folders (one file per image and format in --out, "
                        "plus report.jsonl).")
    pp.add_argument("paths", nargs="+", metavar="IMAGE",
                    help="image files or folders of images; '-' reads one image from stdin "
                    "(with --engine dask also fsspec URLs: s3://, gs://, file://)")
    pp.add_argument("-k", "--kind", choices=KINDS, default="auto", help="diagram family (auto)")
    pp.add_argument("-f", "--format", type=format_list, default=None, metavar="F[,F...]",
                    help=f"output format(s), comma-separated, from one parse: "
                    f"{', '.join(FORMATS)} (json, or what the -o extension says)")
    pp.add_argument("-o", "--output", metavar="FILE",
                    help="write the one input's document here; the extension picks the "
                    "format (.json .mmd .puml .sql .dot .graphml .drawio)")
    pp.add_argument("--stage", choices=STAGES, default="all",
                    help="stop after a stage: 'nodes' prints the inventory of shapes, labels "
                    "and free text (JSON) and overlays only those (all)")
    pp.add_argument("--out", metavar="DIR", help="output folder (batch mode; default "
                    "./cvparse-out for several inputs)")
    pp.add_argument("--overlay", action="store_true",
                    help=f"also draw what was detected, as <stem>{OVERLAY_SUFFIX}: in --out, "
                    "next to -o FILE, else in the current folder")
    pp.add_argument("--overlay-out", metavar="PNG",
                    help="write the one input's overlay here (implies --overlay)")
    pp.add_argument("-j", "--jobs", type=_positive_int, metavar="N",
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
    loud = pp.add_mutually_exclusive_group()
    loud.add_argument("-q", "--quiet", action="store_true",
                      help="print errors only (no warnings, progress or summary)")
    loud.add_argument("-v", "--verbose", action="store_true",
                      help="also print each image's family, time and the files written")
    pp.set_defaults(func=_parse_cmd)


def build_parser() -> argparse.ArgumentParser:
    from . import evaluate

    p = argparse.ArgumentParser(prog="cvparse", epilog=EXIT_CODES,
                                description="Classical diagram parser: ER, flowchart, UML "
                                "and topology diagrams to structured data.")
    p.add_argument("--version", action="version", version=f"cvparse {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    _add_parse(sub)
    pc = sub.add_parser("convert", help="convert a document or a corrected draw.io file",
                        epilog=EXIT_CODES,
                        description="Write a JSON document, or a diagrams.net file written by "
                        "cvparse and corrected by hand, in other formats (no image parse).")
    pc.add_argument("input", metavar="FILE",
                    help="a .json document or a .drawio file; '-' reads standard input")
    pc.add_argument("-f", "--format", type=format_list, default=None, metavar="F[,F...]",
                    help="output format(s) (json, or what the -o extension says)")
    pc.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    loud = pc.add_mutually_exclusive_group()
    loud.add_argument("-q", "--quiet", action="store_true", help="print errors only")
    loud.add_argument("-v", "--verbose", action="store_true", help="also name files written")
    pc.set_defaults(func=_convert_cmd)
    pe = sub.add_parser("eval", help="score predictions against ground truth",
                        description="Score predictions (cvparse JSON or raw model text) "
                        "with the benchmarks' own metrics.")
    evaluate.add_arguments(pe)
    pe.set_defaults(func=evaluate.main)
    pb = sub.add_parser("bench", help="run a benchmark script of a cvparse checkout",
                        description="Run benchmarks/<name>.py of the cvparse checkout in the "
                        "current folder; options after the name go to the script "
                        "(see `cvparse bench NAME --help`).")
    pb.add_argument("name", choices=BENCHES, help=", ".join(BENCHES))
    pb.add_argument("rest", nargs=argparse.REMAINDER, help="the script's own options")
    pb.set_defaults(func=_bench_cmd)
    return p


BENCHES = ("accuracy", "speed", "speed_ab", "trace", "flowlearn_answers", "startup")


def _bench_cmd(args: argparse.Namespace) -> int:
    """Delegate to ``benchmarks/<name>.py`` (the scripts live in the repository, not the
    installed package, because they need the fixture sets beside them)."""
    import importlib

    if not Path("benchmarks", "accuracy.py").is_file():
        _error("benchmarks/: not found; run `cvparse bench` from a cvparse checkout")
        return USAGE
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
        return FAILED


if __name__ == "__main__":
    sys.exit(main())
