"""Start-up cost of the ``cvparse`` command, as a user pays it: one process per command.

Issue 23's targets: ``cvparse --version`` and ``cvparse --help`` under 0.5 s wall, and a
parse of one small image (a bundled test fixture) under 1.5 s wall, start-up included.
Each command is run once to warm the file cache, then ``--runs`` times; the table gives
the median and the fastest wall time and the median CPU seconds of the child (a busy
machine inflates wall time, not CPU time), with the machine's load average.

``--imports`` also runs each command once under ``python -X importtime`` and lists the
third-party and standard-library imports that cvparse's own modules trigger, heaviest
first (cumulative microseconds, so a package's own imports are inside its figure): the
place to look when a target is missed.

This prints numbers and never fails on a slow machine; it is not a timed unit test.

    python -m benchmarks.startup --runs 7 --imports
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import FIXTURES, REPO, format_table, run_metadata

SMALL_IMAGE = FIXTURES / "flowchart" / "test" / "flowchart_test_0021.jpg"
"""The smallest flowchart test fixture (120 x 132 pixels): parsing it costs little beyond
start-up, which is what this benchmark measures."""
TARGETS = {"--version": 0.5, "--help": 0.5, "parse": 1.5}
"""Wall-time target (seconds) per command, from issue 23."""


@dataclass
class Timing:
    """One command's runs: wall and child CPU seconds, and its target."""

    case: str
    argv: list[str]
    target_s: float
    wall_s: list[float]
    cpu_s: list[float]

    @property
    def median_s(self) -> float:
        return statistics.median(self.wall_s)

    @property
    def met(self) -> bool:
        return self.median_s < self.target_s


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``argv``; raises ``RuntimeError`` if it fails."""
    cpu0, t0 = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          check=False)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: exit status {done.returncode}: "
                           f"{done.stderr.decode(errors='replace').strip()[-300:]}")
    return wall, cpu


def time_command(case: str, argv: list[str], runs: int, env: dict[str, str]) -> Timing:
    """Warm up once, then time ``runs`` runs of ``argv``."""
    run_once(argv, env)
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = run_once(argv, env)
        walls.append(wall)
        cpus.append(cpu)
    return Timing(case, argv, TARGETS[case], walls, cpus)


def import_costs(importtime_stderr: str, own: str = "cvparse") -> list[tuple[str, str, int]]:
    """``(importer, module, cumulative µs)`` for every module imported directly by one of
    ``own``'s modules that is not itself one of them, heaviest first.

    ``-X importtime`` prints each module after the modules it imported, indented two
    spaces a level deeper; the tree is rebuilt from that order.
    """
    pending: list[tuple[int, str, int]] = []  # (level, name, cumulative µs) awaiting a parent
    edges: dict[tuple[str, str], int] = {}
    for line in importtime_stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cum, name_field = line[len("import time:"):].split("|", 2)
        if not cum.strip().isdigit():
            continue  # the header line
        name = name_field.strip()
        level = (len(name_field) - len(name_field.lstrip(" ")) - 1) // 2
        children = []
        while pending and pending[-1][0] > level:
            children.append(pending.pop())
        if name == own or name.startswith(own + "."):
            for _, child, child_cum in children:
                if not (child == own or child.startswith(own + ".")):
                    edges[(name, child)] = max(edges.get((name, child), 0), child_cum)
        pending.append((level, name, int(cum)))
    return sorted(((a, b, us) for (a, b), us in edges.items()), key=lambda e: -e[2])


def commands(base: list[str], image: Path, out_dir: Path) -> dict[str, list[str]]:
    """The timed command lines, by case."""
    return {"--version": [*base, "--version"], "--help": [*base, "--help"],
            "parse": [*base, "parse", str(image), "-o", str(out_dir / "small.json")]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.startup",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=7, help="timed runs per command (default 7)")
    p.add_argument("--image", type=Path, default=SMALL_IMAGE,
                   help="the image the parse case reads (default: a small test fixture)")
    p.add_argument("--command", default=None,
                   help="the cvparse command to time, e.g. 'cvparse' for the installed "
                   "script (default: this Python with -m cvparse, from this checkout)")
    p.add_argument("--imports", action="store_true",
                   help="also list the heaviest imports behind each command")
    p.add_argument("--json", type=Path, help="also write the timings here")
    args = p.parse_args(argv)
    if args.runs < 1:
        p.error("--runs must be at least 1")
    if not args.image.is_file():
        print(f"startup: {args.image}: no such image", file=sys.stderr)
        return 2
    base = shlex.split(args.command) if args.command else [sys.executable, "-m", "cvparse"]
    env = dict(os.environ)
    if not args.command:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    meta = run_metadata(argv, "python -m benchmarks.startup")
    with tempfile.TemporaryDirectory(prefix="cvparse-startup-") as tmp:
        cases = commands(base, args.image, Path(tmp))
        try:
            timings = [time_command(case, cmd, args.runs, env) for case, cmd in cases.items()]
        except RuntimeError as exc:
            print(f"startup: {exc}", file=sys.stderr)
            return 1
        costs = {}
        if args.imports:
            python = base if not args.command else [sys.executable, "-m", "cvparse"]
            for case, cmd in commands(python, args.image, Path(tmp)).items():
                done = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], env=env,
                                      capture_output=True, text=True, check=False)
                costs[case] = import_costs(done.stderr)
    rows = [[t.case, f"< {t.target_s:.1f}", f"{t.median_s:.3f}", f"{min(t.wall_s):.3f}",
             f"{statistics.median(t.cpu_s):.3f}", "met" if t.met else "MISSED"]
            for t in timings]
    print(format_table(["command", "target s", "median s", "fastest s", "cpu s", "target"],
                       rows, f"cvparse start-up, {args.runs} runs each after one warm-up "
                       f"(load average {meta['load_average_1m']}, {meta['cores']} cores)"))
    shown = args.image.resolve()
    print(f"parse case: {shown.relative_to(REPO) if shown.is_relative_to(REPO) else shown}")
    for case, edges in costs.items():
        print(f"\nheaviest imports behind {case} (importer -> module, cumulative ms):")
        for importer, module, us in edges[:10]:
            print(f"  {us / 1000:7.1f}  {importer} -> {module}")
    if args.json:
        args.json.write_text(json.dumps({"meta": meta, "timings": [
            {**asdict(t), "median_s": t.median_s, "met": t.met} for t in timings],
            "imports": {c: [list(e) for e in edges[:20]] for c, edges in costs.items()}},
            indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
