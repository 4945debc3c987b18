"""Command line: ``cvparse parse``, ``cvparse eval``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .batch import FORMAT_EXT, InputError, collect_images, run_batch, run_one


def _parse_cmd(args: argparse.Namespace) -> int:
    try:
        images = collect_images(args.paths)
    except InputError as exc:
        print(f"cvparse: error: {exc}", file=sys.stderr)
        return 2
    single = len(images) == 1 and not Path(args.paths[0]).is_dir()
    if single and not args.out:
        overlay = args.overlay if isinstance(args.overlay, str) else (
            str(Path(images[0]).with_suffix(".overlay.png")) if args.overlay else None)
        o = run_one(str(images[0]), args.kind, args.format, overlay)
        for w in o.warnings:
            print(f"cvparse: warning: {o.file}: {w}", file=sys.stderr)
        if not o.ok:
            print(f"cvparse: error: {o.file}: {o.error}", file=sys.stderr)
            return 1
        sys.stdout.write(o.text)
        if overlay:
            print(f"overlay: {overlay}", file=sys.stderr)
        return 0
    out = Path(args.out or "cvparse-out")
    outcomes = run_batch(images, out, args.kind, args.format, jobs=args.jobs,
                         overlay=bool(args.overlay), resume=not args.no_resume)
    return 0 if all(o.ok for o in outcomes) else 1


def build_parser() -> argparse.ArgumentParser:
    from . import evaluate
    from .pipeline import KINDS

    p = argparse.ArgumentParser(prog="cvparse", description="Classical diagram parser: "
                                "ER, flowchart, UML and topology diagrams to structured data.")
    sub = p.add_subparsers(dest="command", required=True)
    pp = sub.add_parser("parse", help="parse diagram images",
                        description="Parse one image (document to stdout) or many images / "
                        "folders (one file per image in --out, plus report.jsonl).")
    pp.add_argument("paths", nargs="+", help="image files or folders of images")
    pp.add_argument("--kind", choices=KINDS, default="auto", help="diagram family (auto)")
    pp.add_argument("--format", choices=sorted(FORMAT_EXT), default="json",
                    help="output format (json)")
    pp.add_argument("--out", help="output folder (batch mode; default ./cvparse-out "
                    "for several inputs)")
    pp.add_argument("--overlay", nargs="?", const=True, default=False, metavar="PNG",
                    help="also draw what was detected (to PNG for one file, else "
                    "<stem>.overlay.png in --out)")
    pp.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    pp.add_argument("--no-resume", action="store_true",
                    help="reparse images whose output already exists in --out")
    pp.set_defaults(func=_parse_cmd)
    pe = sub.add_parser("eval", help="score predictions against ground truth",
                        description="Score predictions (cvparse JSON or raw model text) "
                        "with the benchmarks' own metrics.")
    evaluate.add_arguments(pe)
    pe.set_defaults(func=evaluate.main)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
