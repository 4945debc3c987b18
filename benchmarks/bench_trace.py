"""Connector tracer speed: Numba skeleton walk vs its pure-Python twin, and the whole tracer.

On the connector masks of fixture images (``build_inventory(rgb, ocr=False)`` then
``connector_mask``; skeletonised once per image) it times ``walk_skeleton`` (Numba, warmed
up first) against ``walk_skeleton_py``, checks that both return identical paths, and times
``trace_connectors`` (skeleton + walk + repairs) per image, also per 900x630-equivalent
image (Knossos' page size).  ``skan.Skeleton`` is timed too when skan is installed.

    python -m benchmarks.bench_trace --limit 10 --family flowchart
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import (FAMILY_TASK, RESULTS, default_set, format_table,
                                percentile, run_metadata, select_items)

KNOSSOS_PIXELS = 900 * 630


@dataclass
class WalkTiming:
    """One skeleton: both walks' times, whether their outputs agree, and its size."""

    name: str
    pixels: int
    paths: int
    numba_ms: float
    python_ms: float
    identical: bool
    skan_ms: float | None = None


def _clock(fn, repeats: int) -> tuple[float, object]:
    """Best wall time in ms over ``repeats`` calls, and the last result."""
    best, out = float("inf"), None
    for _ in range(max(1, repeats)):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, (time.perf_counter() - t0) * 1000.0)
    return best, out


def warm_up() -> None:
    """Compile (or load from cache) the Numba kernel before anything is timed."""
    from cvparse.connectors._walk import walk_skeleton_nb as walk_skeleton

    tiny = np.zeros((5, 5), bool)
    tiny[2, 1:4] = True
    tiny[1:4, 2] = True
    walk_skeleton(tiny)


def skan_skeleton():
    """``skan.Skeleton`` if skan is importable (optional, never a dependency), else None."""
    try:
        from skan import Skeleton
    except ImportError:
        return None
    return Skeleton


def compare_walks(skeletons: list[tuple[str, np.ndarray]], repeats: int = 3
                  ) -> list[WalkTiming]:
    """Time both walks on each named boolean skeleton and compare their outputs exactly."""
    from cvparse.connectors._walk import walk_skeleton_nb as walk_skeleton, walk_skeleton_py

    warm_up()
    skel_cls = skan_skeleton()
    out = []
    for name, skel in skeletons:
        skel = np.ascontiguousarray(skel, dtype=bool)
        t_nb, (c_nb, o_nb) = _clock(lambda skel=skel: walk_skeleton(skel), repeats)
        t_py, (c_py, o_py) = _clock(lambda skel=skel: walk_skeleton_py(skel), 1)
        same = (np.array_equal(c_nb, c_py) and np.array_equal(o_nb, o_py)
                and c_nb.dtype == c_py.dtype and o_nb.dtype == o_py.dtype)
        t_skan = None
        if skel_cls is not None and skel.any():
            t_skan, _ = _clock(lambda skel=skel: skel_cls(skel), repeats)
        out.append(WalkTiming(name, int(skel.sum()), len(o_nb) - 1, t_nb, t_py, bool(same),
                              t_skan))
    return out


@dataclass
class TraceTiming:
    name: str
    width: int
    height: int
    trace_ms: float
    connectors: int

    @property
    def ms_per_knossos_page(self) -> float:
        return self.trace_ms * KNOSSOS_PIXELS / (self.width * self.height)


def fixture_masks(family: str, set_dir: Path, limit: int | None):
    """(name, inventory, connector mask) for the first ``limit`` images of a fixture set."""
    from cvparse.connectors.trace import connector_mask
    from cvparse.image import load_image
    from cvparse.primitives.inventory import build_inventory

    items = select_items(set_dir)
    for it in items[:limit] if limit else items:
        rgb = load_image(it.image)
        inv = build_inventory(rgb, ocr=False)
        inv.image = rgb  # as the pipeline does: the tracer reads label plates' colours
        yield f"{family}/{it.stem}", inv, connector_mask(inv)


def time_traces(cases, repeats: int = 1) -> list[TraceTiming]:
    """Best-of-``repeats`` wall time of ``trace_connectors`` per image (a shared machine
    adds noise only upwards)."""
    from cvparse.connectors.trace import trace_connectors

    out = []
    for name, inv, mask in cases:
        ms, conns = _clock(lambda inv=inv, mask=mask: trace_connectors(inv, mask), repeats)
        out.append(TraceTiming(name, mask.shape[1], mask.shape[0], ms, len(conns)))
    return out


def stats(values: list[float]) -> tuple[float, float]:
    return percentile(values, 50), percentile(values, 95)


def summary_rows(walks: list[WalkTiming], traces: list[TraceTiming]) -> list[list[str]]:
    rows = []
    nb = [w.numba_ms for w in walks]
    py = [w.python_ms for w in walks]
    rows.append(["walk_skeleton (numba)", *(f"{v:.2f}" for v in stats(nb))])
    rows.append(["walk_skeleton_py", *(f"{v:.2f}" for v in stats(py))])
    sk = [w.skan_ms for w in walks if w.skan_ms is not None]
    if sk:
        rows.append(["skan.Skeleton", *(f"{v:.2f}" for v in stats(sk))])
    if traces:
        tr = [t.trace_ms for t in traces]
        rows.append(["trace_connectors", *(f"{v:.2f}" for v in stats(tr))])
        per = [t.ms_per_knossos_page for t in traces]
        rows.append(["trace_connectors per 900x630", *(f"{v:.2f}" for v in stats(per))])
    return rows


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cvparse bench trace", description=__doc__.split("\n")[0])
    p.add_argument("--family", action="append", choices=sorted(FAMILY_TASK),
                   help="fixture family (repeatable; default: every family with fixtures)")
    p.add_argument("--split", default="dev", help="fixture split (default: dev)")
    p.add_argument("--limit", type=int, default=10, help="images per family (default 10)")
    p.add_argument("--repeats", type=int, default=3, help="best-of repeats for fast timings")
    p.add_argument("--out", default=str(RESULTS), help="results folder")
    return p


def main(argv: list[str] | None = None) -> int:
    from skimage.morphology import skeletonize

    args = build_parser().parse_args(argv)
    cases = []
    for family in args.family or list(FAMILY_TASK):
        set_dir = default_set(family, args.split)
        if not set_dir.is_dir():
            print(f"[{family}] skipped: no {set_dir}")
            continue
        print(f"[{family}] building inventories (ocr off) for up to {args.limit} images",
              file=sys.stderr)
        cases.extend(fixture_masks(family, set_dir, args.limit))
    if not cases:
        print("bench_trace: no fixture images found")
        return 0
    walks = compare_walks([(name, skeletonize(mask)) for name, _, mask in cases], args.repeats)
    traces = time_traces(cases, args.repeats)
    ratio = [w.python_ms / w.numba_ms for w in walks if w.numba_ms > 0]
    n_same = sum(w.identical for w in walks)
    print(format_table(["stage (ms per image)", "median", "p95"], summary_rows(walks, traces),
                       title=f"connector tracing on {len(cases)} fixture images"))
    print(f"numba vs python walk: identical output on {n_same}/{len(walks)} skeletons; "
          f"speed-up median {percentile(ratio, 50):.1f}x (p5 {percentile(ratio, 5):.1f}x, "
          f"p95 {percentile(ratio, 95):.1f}x)")
    if skan_skeleton() is None:
        print("skan not installed: skan.Skeleton not timed (optional)")
    mismatched = [w.name for w in walks if not w.identical]
    if mismatched:
        print("MISMATCH on: " + ", ".join(mismatched))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    record = {**run_metadata(argv, prog="benchmarks.bench_trace"), "images": len(cases),
              "identical": n_same,
              "speedup_median": percentile(ratio, 50),
              "walks": [asdict(w) for w in walks],
              "traces": [asdict(t) | {"ms_per_900x630": t.ms_per_knossos_page}
                         for t in traces]}
    (out / "bench_trace.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out / 'bench_trace.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
