"""Parse speed: per-stage latency, batch throughput, peak memory, scaling, cost vs the papers.

* latency per image and per stage from ``ParseResult.timings`` (median, p95), in-process
  and held to one core (:func:`one_core`), with the CPU seconds of each parse beside it
  (and the machine load: wall times of a busy machine are inflated);
* throughput of :func:`cvparse.batch.run_batch` with 1 and 2 worker processes: after a
  warm-up pass, ``--repeats`` interleaved pairs of passes (1 then 2 workers, then 2 then 1,
  ...), reported as the median images/s and the median of the paired ratios, each pass
  with its CPU seconds and the load (one pass is at the mercy of other programs);
* peak resident memory of this process and of its worker processes;
* least-squares slope of latency against image size (megapixels) and against the
  ground truth's number of elements (nodes + edges, see :func:`doc_elements`);
* the per-diagram time against the published per-diagram costs (TopoBench-180 paper,
  Table 8: GPT-4o single pass, TopoAgent).

    python -m benchmarks.speed --limit 5 --family flowchart
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import (FAMILY_TASK, PUBLISHED, RESULTS, Item,
                                default_set, format_table, load_published, percentile,
                                run_metadata, select_items)


@dataclass
class Latency:
    """One in-process parse: total and per-stage seconds, image size, GT element count."""

    name: str
    family: str
    megapixels: float
    elements: int
    total: float
    stages: dict[str, float]
    cpu: float = 0.0
    """CPU seconds of the parse (all threads, plus any child process such as tesseract):
    unlike ``total``, hardly changed by other programs competing for the cores."""


def doc_elements(doc: dict) -> int:
    """Size of a ground-truth document as nodes + edges of its drawn graph.

    Graphs: nodes + edges.  ER: entities, attributes (composite components too) and
    relationships are nodes; every participant line and attribute line is an edge.
    UML: classes + relations.
    """
    kind = doc.get("kind")
    if kind == "er":
        ents = doc.get("entities") or {}
        n = len(ents)
        for e in ents.values():
            comps = sum(len(v) for v in (e.get("composite") or {}).values())
            n += 2 * (len(e.get("attributes") or []) + comps)
        for r in doc.get("relationships") or []:
            ends = r.get("entities") or ([r.get("superclass")] + list(r.get("subclasses") or []))
            n += 1 + len(ends) + 2 * len(r.get("attributes") or [])
        return n
    if kind == "uml":
        return len(doc.get("classes") or []) + len(doc.get("relations") or [])
    return len(doc.get("nodes") or []) + len(doc.get("edges") or [])


def measure_latency(items: list[tuple[str, Item]]) -> list[Latency]:
    """Parse each image in this process, held to one core, and keep ``ParseResult.timings``.

    On one core the OCR thread's reads no longer overlap the main thread's work, and
    OpenCV's threads share that core: the per-image latency of a one-core machine.
    """
    from cvparse.pipeline import parse

    with one_core():
        return [_latency(parse, family, it) for family, it in items]


@contextmanager
def one_core() -> Iterator[None]:
    """Run the block on one of the cores this process may use (all of them again after);
    where the system cannot pin a process, on whatever cores it has."""
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if allowed:
        os.sched_setaffinity(0, {min(allowed)})
    try:
        yield
    finally:
        if allowed:
            os.sched_setaffinity(0, allowed)


def _latency(parse, family: str, it: Item) -> Latency:
    """One timed in-process parse of a fixture."""
    c0 = _cpu_seconds()
    t0 = time.perf_counter()
    res = parse(it.image, kind=family)
    total = time.perf_counter() - t0
    cpu = _cpu_seconds() - c0
    h, w = res.image.shape[:2]
    doc = json.loads(it.gt.read_text(encoding="utf-8"))
    return Latency(it.stem, family, h * w / 1e6, doc_elements(doc), total,
                   dict(res.timings), cpu)


def _cpu_seconds() -> float:
    """CPU time of this process (all threads) and of its finished children."""
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + ch.ru_utime + ch.ru_stime


@dataclass
class BatchRun:
    """One timed ``run_batch`` pass over the image set."""

    jobs: int
    seconds: float
    images: int
    cpu: float
    """CPU seconds of this process and its worker processes during the pass."""
    load: float
    """1-minute load average at the end of the pass."""
    engine: str = "local"

    @property
    def rate(self) -> float:
        return self.images / self.seconds if self.seconds > 0 else float("nan")


def measure_throughput(items: list[tuple[str, Item]], jobs: int, engine=None,
                       name: str = "local") -> BatchRun:
    """One pass of ``run_batch`` with ``jobs`` workers (or ``engine``, see
    ``run_batch``) over all items, one batch per family."""
    from cvparse.batch import run_batch

    by_family: dict[str, list[Path]] = {}
    for family, it in items:
        by_family.setdefault(family, []).append(it.image)
    with tempfile.TemporaryDirectory(prefix="cvparse-speed-") as tmp:
        c0 = _cpu_seconds()
        t0 = time.perf_counter()
        for family, images in by_family.items():
            run_batch(images, Path(tmp) / family, family, "json", jobs=jobs, resume=False,
                      stream=_NullStream(), engine=engine)
        wall = time.perf_counter() - t0
        cpu = _cpu_seconds() - c0
    return BatchRun(jobs, wall, len(items), cpu, os.getloadavg()[0], name)


def interleaved_throughput(items: list[tuple[str, Item]], repeats: int
                           ) -> tuple[list[BatchRun], dict[int, float], float]:
    """Throughput with 1 and 2 workers, measured in ``repeats`` interleaved pairs.

    A warm-up pass with 2 workers on a few images comes first (its time is dropped).
    Pairs alternate their order (1 then 2, 2 then 1, ...) so that a change of the
    machine's load during the run falls on both; the result is the median images/s per
    worker count and the median of the per-pair ratios (2 workers over 1).
    """
    measure_throughput(items[:4], 2)
    runs: list[BatchRun] = []
    ratios = []
    for r in range(max(1, repeats)):
        pair = {}
        for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
            pair[jobs] = measure_throughput(items, jobs)
            runs.append(pair[jobs])
        ratios.append(pair[2].rate / pair[1].rate)
    rate = {j: float(np.median([x.rate for x in runs if x.jobs == j])) for j in (1, 2)}
    return runs, rate, float(np.median(ratios))


class _NullStream:
    """A text stream that drops everything (run_batch's progress lines)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def peak_rss_mb() -> dict[str, float]:
    """Peak resident set size (MB) of this process and of its largest finished child."""
    self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    child_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = {"self_mb": self_kb / 1024.0, "children_max_mb": child_kb / 1024.0}
    try:
        import psutil

        out["self_now_mb"] = psutil.Process().memory_info().rss / 2 ** 20
    except ImportError:
        pass
    return out


def slope(x: list[float], y: list[float]) -> dict[str, float]:
    """Least-squares line ``y = a x + b`` with Pearson r; NaN when ``x`` does not vary."""
    xa, ya = np.asarray(x, float), np.asarray(y, float)
    if len(xa) < 2 or np.ptp(xa) == 0:
        return {"slope": float("nan"), "intercept": float("nan"), "r": float("nan")}
    a, b = np.polyfit(xa, ya, 1)
    r = float(np.corrcoef(xa, ya)[0, 1]) if np.ptp(ya) > 0 else float("nan")
    return {"slope": float(a), "intercept": float(b), "r": r}


def published_costs(path: Path = PUBLISHED) -> dict[str, float]:
    """Published seconds per diagram by model."""
    return {r["model"]: float(r["value"]) for r in load_published(path)
            if r["metric"] == "seconds_per_diagram"}


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cvparse bench speed",
                                description=__doc__.split("\n")[0])
    p.add_argument("--family", action="append", choices=sorted(FAMILY_TASK),
                   help="fixture family (repeatable; default: every family with fixtures)")
    p.add_argument("--split", default="dev", help="fixture split (default: dev)")
    p.add_argument("--limit", type=int, default=2,
                   help="images per subset and family (default 2)")
    p.add_argument("--repeats", type=int, default=3,
                   help="interleaved throughput passes per worker count (default 3)")
    p.add_argument("--out", default=str(RESULTS), help="results folder")
    p.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="dask: only the throughput of a 2-worker LocalCluster against "
                   "--jobs 2, with a scaling estimate (needs cvparse[dask]; writes "
                   "speed_dask.json)")
    return p


def _ms(v: float) -> str:
    return f"{1000 * v:.0f}"


def latency_table(lat: list[Latency]) -> str:
    """Median and p95 per stage and in total, per family and over all images."""
    stages = list(dict.fromkeys(k for x in lat for k in x.stages))
    rows = []
    for fam in sorted({x.family for x in lat}) + ["all"]:
        sel = [x for x in lat if fam in ("all", x.family)]
        row = [fam, str(len(sel))]
        for values in [[x.stages.get(k, 0.0) for x in sel] for k in stages] + [
                [x.total for x in sel], [x.cpu for x in sel]]:
            row += [_ms(percentile(values, 50)), _ms(percentile(values, 95))]
        rows.append(row)
    header = ["family", "n"] + [f"{k} {q}" for k in stages + ["total", "cpu"]
                                for q in ("p50", "p95")]
    return format_table(header, rows, title="latency per image, ms (in-process, 1 core)")


def fit_table(lat: list[Latency], fits: dict[str, dict]) -> str:
    mp, el = fits["megapixels"], fits["elements"]
    return format_table(
        ["latency vs", "slope", "intercept s", "r", "range"],
        [["megapixels", f"{mp['slope']:.3f} s/MP", f"{mp['intercept']:.3f}", f"{mp['r']:.2f}",
          f"{min(x.megapixels for x in lat):.2f}-{max(x.megapixels for x in lat):.2f} MP"],
         ["nodes+edges", f"{1000 * el['slope']:.1f} ms/elem", f"{el['intercept']:.3f}",
          f"{el['r']:.2f}", f"{min(x.elements for x in lat)}-{max(x.elements for x in lat)}"]],
        title="least-squares fit of total latency")


def cost_table(med: float, mean: float, batch2: float, costs: dict[str, float]) -> str:
    """cvparse's seconds per diagram beside the published API costs, with the ratios."""
    rows = [["cvparse, median latency (1 process)", f"{med:.2f}", "-"],
            ["cvparse, mean latency (1 process)", f"{mean:.2f}", "-"],
            ["cvparse, batch wall time / image (2 workers)", f"{batch2:.2f}", "-"]]
    rows += [[m, f"{s:.2f}", f"{s / med:.0f}x / {s / mean:.0f}x / {s / batch2:.0f}x"]
             for m, s in costs.items()]
    return format_table(["per diagram", "seconds", "published / cvparse (median/mean/batch)"],
                        rows, title="cost vs published (TopoBench-180 paper, Table 8)")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    items: list[tuple[str, Item]] = []
    for family in args.family or list(FAMILY_TASK):
        set_dir = default_set(family, args.split)
        if not set_dir.is_dir():
            print(f"[{family}] skipped: no {set_dir}")
            continue
        items.extend((family, it) for it in select_items(set_dir, args.limit))
    if not items:
        print("speed: no fixture images found")
        return 0
    if args.engine == "dask":
        from benchmarks.engine_speed import main as engine_main

        return engine_main(items, args.repeats, Path(args.out), argv)
    from benchmarks.bench_trace import warm_up
    from cvparse.batch import limit_heap

    limit_heap()  # as in batch runs, whose workers this process's numbers stand for
    warm_up()
    load_before = os.getloadavg()
    print(f"latency: parsing {len(items)} images in-process", file=sys.stderr)
    lat = measure_latency(items)
    print(latency_table(lat))

    print(f"throughput: run_batch with 1 and 2 workers on {len(items)} images, "
          f"{args.repeats} interleaved passes each", file=sys.stderr)
    runs, thr, scaling = interleaved_throughput(items, args.repeats)
    rss = peak_rss_mb()
    print()
    print(format_table(
        ["pass", "workers", "images/s", "s/image", "cpu s", "cpu/wall", "load after"],
        [[str(i + 1), str(x.jobs), f"{x.rate:.2f}", f"{1 / x.rate:.2f}", f"{x.cpu:.1f}",
          f"{x.cpu / x.seconds:.2f}", f"{x.load:.2f}"] for i, x in enumerate(runs)],
        title="throughput passes (run_batch, JSON output, includes process start-up)"))
    print(f"median images/s: 1 worker {thr[1]:.2f}, 2 workers {thr[2]:.2f}; scaling "
          f"(median of the paired ratios) x{scaling:.2f}.  cpu/wall above 1 with one worker: "
          "its OCR thread and OpenCV already use part of the second core")
    print(f"peak RSS: this process {rss['self_mb']:.0f} MB, largest worker "
          f"{rss['children_max_mb']:.0f} MB")
    load = {"before": load_before[0], "after": os.getloadavg()[0]}
    print(f"machine load (1-min average) before {load['before']:.2f}, after "
          f"{load['after']:.2f} on {os.cpu_count()} cores: wall times above that count are "
          "inflated by other programs; the cpu columns much less")

    tot = [x.total for x in lat]
    fits = {"megapixels": slope([x.megapixels for x in lat], tot),
            "elements": slope([x.elements for x in lat], tot)}
    print()
    print(fit_table(lat, fits))
    med, mean = percentile(tot, 50), sum(tot) / len(tot)
    costs = published_costs()
    print()
    print(cost_table(med, mean, 1 / thr[2], costs))

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    record = {**run_metadata(argv, prog="benchmarks.speed"), "images": len(lat),
              "limit_per_subset": args.limit,
              "throughput_images_per_s": {str(k): v for k, v in thr.items()},
              "throughput_scaling": scaling, "throughput_repeats": args.repeats,
              "throughput_runs": [{**asdict(x), "rate": x.rate} for x in runs],
              "peak_rss": rss, "load_average": load, "fits": fits, "median_seconds": med,
              "mean_seconds": mean, "published_seconds_per_diagram": costs,
              "ratio_vs_published_median": {m: s / med for m, s in costs.items()},
              "ratio_vs_published_batch2": {m: s * thr[2] for m, s in costs.items()},
              "latency": [asdict(x) for x in lat]}
    (out / "speed.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"\nwrote {out / 'speed.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
