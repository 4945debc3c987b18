"""Peak memory of one parse of a page near the 80-megapixel limit, and where the peak is.

Builds a page of ``--width`` x ``--height`` pixels (default 10000 x 7990, 79.9 MP, just
under ``cvparse.image.MAX_PIXELS``) by tiling committed fixture diagrams, each enlarged to
fill its cell, so the parse meets real shapes, lines and text at every stage; writes it as
PNG to a temporary folder and parses it in a fresh child process, as one batch worker
would.  The child samples its own resident set every 20 ms and records when each stage of
:func:`cvparse.pipeline.parse` starts and ends (``STAGES``: loading, ruling removal, page
making, the primitives inventory, connectors, assembly), and reports the peak of each
stage and its ``ru_maxrss``.

    python -m benchmarks.memory            # prints the table; --json FILE keeps it

The worker budget it checks is ``LIMIT_MB`` (1.5 GB per worker, issue 22).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import FIXTURES, format_table, run_metadata

LIMIT_MB = 1536
TILES = ("flowchart/dev/flowchart_dev_0000.jpg", "er/dev/er_dev_0000.png",
         "uml/dev/uml_dev_0000_s10.png", "topology/dev/topology_dev_0000.png")
STAGES = {"load": "load_image", "rulings": "erase_rulings", "page": "make_page",
          "primitives": "build_inventory", "connectors": "build_connectors",
          "assemble": "assemble"}
"""Stage name -> the function of ``cvparse.pipeline`` timed as that stage (in the order
the parse calls them; a name the pipeline no longer has is an error, not a silent gap)."""


def make_page(path: Path, width: int, height: int, grid: tuple[int, int],
              tiles: tuple[str, ...] = TILES) -> None:
    """Write a ``width`` x ``height`` PNG of ``grid`` (columns, rows) fixture tiles, each
    enlarged (aspect kept, centred on white) to fill its cell."""
    from PIL import Image

    cols, rows = grid
    page = Image.new("RGB", (width, height), "white")
    cw, ch = width // cols, height // rows
    for k in range(cols * rows):
        with Image.open(FIXTURES / tiles[k % len(tiles)]) as im:
            im = im.convert("RGB")
            f = min(cw / im.width, ch / im.height)
            im = im.resize((max(1, int(im.width * f)), max(1, int(im.height * f))),
                           Image.LANCZOS)
        x = (k % cols) * cw + (cw - im.width) // 2
        y = (k // cols) * ch + (ch - im.height) // 2
        page.paste(im, (x, y))
    page.save(path, compress_level=1)


def _rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


def child(path: str) -> dict:
    """Parse ``path`` in this process; the peak RSS per stage and overall (run by main)."""
    import resource
    import threading

    import cvparse.pipeline as pipeline

    samples: list[tuple[float, float]] = []
    spans: dict[str, list[float]] = {}
    stop = threading.Event()

    def poll() -> None:
        while not stop.is_set():
            samples.append((time.perf_counter(), _rss_mb()))
            stop.wait(0.02)

    def timed(stage: str, fn):
        def wrapper(*args, **kwargs):  # a sample at each end too: a stage may be short
            start = time.perf_counter()
            samples.append((start, _rss_mb()))
            try:
                return fn(*args, **kwargs)
            finally:
                end = time.perf_counter()
                samples.append((end, _rss_mb()))
                spans.setdefault(stage, [start, 0.0])[1] = end
        return wrapper

    missing = [name for name in STAGES.values() if not callable(getattr(pipeline, name, None))]
    if missing:
        raise SystemExit(f"cvparse.pipeline has no {', '.join(missing)}: update STAGES")
    originals = {name: getattr(pipeline, name) for name in STAGES.values()}
    for stage, name in STAGES.items():
        setattr(pipeline, name, timed(stage, originals[name]))
    before = _rss_mb()
    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    t0 = time.perf_counter()
    try:
        result = pipeline.parse(path)
    finally:
        seconds = time.perf_counter() - t0
        stop.set()
        thread.join()
        for name, fn in originals.items():
            setattr(pipeline, name, fn)
    peaks = {stage: max((mb for t, mb in samples if a <= t <= b), default=0.0)
             for stage, (a, b) in spans.items()}
    doc = json.loads(result.to_json()) if result.document is not None else {}
    return {"rss_before_parse_mb": before,
            "ru_maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "sampled_peak_mb": max(mb for _, mb in samples), "stage_peak_mb": peaks,
            "seconds": seconds, "kind": result.kind, "image_shape": list(result.image.shape),
            "elements": {k: len(v) for k, v in doc.items() if isinstance(v, list)}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.memory",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--width", type=int, default=10000)
    p.add_argument("--height", type=int, default=7990)
    p.add_argument("--grid", default="4x4", help="tile columns x rows (4x4)")
    p.add_argument("--json", type=Path, help="also write the figures here")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child)))
        return 0
    cols, rows = (int(v) for v in args.grid.lower().split("x"))
    with tempfile.TemporaryDirectory(prefix="cvparse-memory-") as tmp:
        page = Path(tmp) / "page.png"
        make_page(page, args.width, args.height, (cols, rows))
        proc = subprocess.run([sys.executable, "-m", "benchmarks.memory", "--child", str(page)],
                              capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parent.parent)
    if proc.returncode != 0:
        print(proc.stderr, file=sys.stderr)
        return 1
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    mp = args.width * args.height / 1e6
    rows_out = [[stage, f"{r['stage_peak_mb'][stage]:.0f}"] for stage in STAGES
                if stage in r["stage_peak_mb"]]
    rows_out.append(["whole parse (ru_maxrss)", f"{r['ru_maxrss_mb']:.0f}"])
    print(format_table(["stage", "peak RSS MB"], rows_out,
                       f"{args.width}x{args.height} page ({mp:.1f} MP, {cols}x{rows} fixture "
                       f"tiles), parsed at {r['image_shape'][1]}x{r['image_shape'][0]} as "
                       f"{r['kind']} in {r['seconds']:.0f} s"))
    ok = r["ru_maxrss_mb"] <= LIMIT_MB
    print(f"peak {r['ru_maxrss_mb']:.0f} MB (before the parse {r['rss_before_parse_mb']:.0f} "
          f"MB); limit {LIMIT_MB} MB per worker: {'within' if ok else 'OVER'}; "
          f"found {r['elements']}")
    if args.json:
        args.json.write_text(json.dumps({"width": args.width, "height": args.height,
                                         "grid": args.grid, **r, "limit_mb": LIMIT_MB,
                                         **run_metadata()}, indent=1) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
