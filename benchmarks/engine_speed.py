"""Throughput of the Dask engine against local worker processes, and what many workers
would give: ``python -m benchmarks.speed --engine dask``.

* ``--repeats`` interleaved pairs of passes over the image set, ``run_batch`` with two
  local worker processes (``--jobs 2``) and with a two-worker ``LocalCluster`` (started
  once before the passes: a cluster outlives its batches, and its start-up is printed
  apart), after a warm-up pass of each; the median images/s of each and the median of
  the paired ratios (the overhead of the engine itself);
* the CPU seconds per image of the Dask workers, and the engine's own cost: the same
  ``run_batch`` on inputs that fail at once (missing files), so every cost but the parse
  is paid (scheduler, transfer, this process receiving and recording each result), as
  images/s and as CPU seconds per image of this process, which holds the client and the
  ``LocalCluster``'s scheduler (CPU time, unlike wall time, hardly depends on what else
  the machine runs);
* from those, an *estimate* (not a measurement) of the throughput of 1,000 workers of a
  core each: the workers' CPU seconds per image give the rate of one worker on a core of
  its own (the wall-time rate of a shared machine would not), times the workers, capped
  by the rate at which one core given to the client and scheduler gets through the
  engine's own cost.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np

from benchmarks._common import Item, format_table, run_metadata
from benchmarks.speed import BatchRun, measure_throughput

WORKERS = 2
CEILING_TASKS = 400
ESTIMATE_WORKERS = 1000
CORPORA = {"Knossos (19,200)": 19_200, "FlowLearn (13,858)": 13_858,
           "a million figures": 1_000_000}


def worker_cpu(client) -> float:
    """CPU seconds used so far by all the cluster's worker processes (all threads)."""
    return float(sum(client.run(time.process_time).values()))


def engine_ceiling(client, n: int = CEILING_TASKS) -> tuple[float, float]:
    """Images/s of ``run_batch`` on the cluster when no image takes any time to parse
    (``n`` missing files, each a failed outcome at once), and this process's CPU seconds
    per image meanwhile."""
    import tempfile

    from benchmarks.speed import _NullStream
    from cvparse.batch import run_batch
    from cvparse.dask_engine import dask_outcomes

    with tempfile.TemporaryDirectory(prefix="cvparse-ceiling-") as tmp:
        missing = [Path(tmp, "in", f"missing-{i}.png") for i in range(n)]
        t0, c0 = time.perf_counter(), time.process_time()
        s = run_batch(missing, Path(tmp, "out"), "auto", "json", stream=_NullStream(),
                      engine=lambda tasks: dask_outcomes(tasks, client))
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert s.failed == n, "the ceiling's inputs were meant to fail"
    return n / wall, cpu / n


def interleaved(items: list[tuple[str, Item]], repeats: int, client) -> dict:
    """Paired passes, local then Dask, then Dask then local, ...; per-image CPU too."""
    from cvparse.dask_engine import dask_outcomes

    def engine(tasks):
        return dask_outcomes(tasks, client)

    measure_throughput(items[:4], WORKERS)
    measure_throughput(items[:4], WORKERS, engine, "dask")
    runs: list[BatchRun] = []
    ratios, worker_s = [], []
    for r in range(max(1, repeats)):
        pair = {}
        for name in (("local", "dask") if r % 2 == 0 else ("dask", "local")):
            if name == "local":
                pair[name] = measure_throughput(items, WORKERS)
            else:
                w0 = worker_cpu(client)
                pair[name] = measure_throughput(items, WORKERS, engine, "dask")
                worker_s.append((worker_cpu(client) - w0) / len(items))
            runs.append(pair[name])
        ratios.append(pair["dask"].rate / pair["local"].rate)
    rate = {n: float(np.median([x.rate for x in runs if x.engine == n]))
            for n in ("local", "dask")}
    return {"runs": runs, "rate": rate, "ratio": float(np.median(ratios)),
            "ratios": ratios, "worker_cpu_per_image": float(np.median(worker_s))}


def estimate(per_worker_rate: float, ceiling: float,
             workers: int = ESTIMATE_WORKERS) -> dict:
    """Images/s of ``workers`` workers: compute-bound unless the engine's ceiling is lower."""
    bounds = {"workers": workers * per_worker_rate, "engine": ceiling}
    limit = min(bounds, key=bounds.get)
    return {"workers": workers, "bounds": bounds, "limited_by": limit,
            "images_per_s": bounds[limit]}


def main(items: list[tuple[str, Item]], repeats: int, out: Path,
         argv: list[str] | None) -> int:
    from benchmarks.bench_trace import warm_up
    from cvparse.dask_engine import dask_client

    warm_up()  # the local workers fork from this process: both engines start warm
    t0 = time.perf_counter()
    with dask_client(workers=WORKERS) as client:
        startup = time.perf_counter() - t0
        print(f"throughput: --jobs {WORKERS} against a {WORKERS}-worker LocalCluster on "
              f"{len(items)} images, {repeats} interleaved pairs (cluster started in "
              f"{startup:.1f} s)", flush=True)
        res = interleaved(items, repeats, client)
        ceiling, engine_cpu = engine_ceiling(client)
    runs, rate = res["runs"], res["rate"]
    print(format_table(
        ["pass", "engine", "images/s", "s/image", "cpu s (this process + finished children)",
         "load after"],
        [[str(i + 1), x.engine, f"{x.rate:.2f}", f"{1 / x.rate:.2f}", f"{x.cpu:.1f}",
          f"{x.load:.2f}"] for i, x in enumerate(runs)],
        title="throughput passes (run_batch, JSON output)"))
    within = res["ratio"] >= 0.90
    print(f"median images/s: --jobs {WORKERS} {rate['local']:.2f}, dask {rate['dask']:.2f}; "
          f"dask / local (median of paired ratios) {res['ratio']:.3f} "
          f"({'no more' if within else 'more'} than 10 % slower)")
    print(f"per image: worker CPU {res['worker_cpu_per_image']:.3f} s; the engine alone "
          f"(instant tasks through run_batch): {ceiling:.0f} images/s here, "
          f"{1000 * engine_cpu:.1f} ms CPU of client + scheduler")
    est = estimate(1.0 / res["worker_cpu_per_image"], 1.0 / engine_cpu)
    b = est["bounds"]
    print(f"\nESTIMATE (not measured) for {est['workers']} workers of one core each like "
          f"these: {b['workers']:.0f} images/s from the workers' CPU per image; one core for the "
          f"client and scheduler gets through {b['engine']:.0f} images/s -> about "
          f"{est['images_per_s']:.0f} images/s ({est['limited_by']}-bound)")
    for name, n in CORPORA.items():
        print(f"  {name}: about {n / est['images_per_s'] / 60:.1f} min")
    out.mkdir(parents=True, exist_ok=True)
    record = {**run_metadata(argv, prog="benchmarks.speed --engine dask"),
              "images": len(items), "workers": WORKERS, "cluster_startup_s": startup,
              "throughput_images_per_s": rate, "dask_over_local": res["ratio"],
              "paired_ratios": res["ratios"], "within_10_percent": within,
              "worker_cpu_per_image_s": res["worker_cpu_per_image"],
              "engine_only_images_per_s": ceiling, "engine_cpu_per_image_s": engine_cpu,
              "estimate": est,
              "load_average_after": os.getloadavg()[0],
              "runs": [{**asdict(x), "rate": x.rate} for x in runs]}
    (out / "speed_dask.json").write_text(json.dumps(record, indent=1) + "\n",
                                         encoding="utf-8")
    print(f"\nwrote {out / 'speed_dask.json'}")
    return 0
