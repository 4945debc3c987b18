"""``python -m tools.fuzz --seconds N [--target loader|parse] [--out DIR]``.

Runs each target in a child process (``tools.fuzz.run``) for ``N`` seconds, restarting it
after a hard crash until the time is spent, then prints per target: executions, findings
(inputs that raised or crashed), unique signatures, and where the reproducers are.
Exit status 1 when anything was found.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from .targets import ROOT, TARGETS


def run_target(target: str, seconds: int, workdir: Path) -> dict:
    """Fuzz ``target`` for ``seconds``; its figures (executions, findings, signatures)."""
    stats_path = workdir / f"stats-{target}.json"
    stats_path.unlink(missing_ok=True)
    end = time.monotonic() + seconds
    hard: list[str] = []
    done_runs = 0
    while (left := int(end - time.monotonic())) > 0:
        proc = subprocess.run([sys.executable, "-m", "tools.fuzz.run", target, str(left),
                               str(workdir)], cwd=ROOT, capture_output=True, text=True,
                              timeout=left + 300)
        m = re.findall(r"Done (\d+) runs", proc.stderr)
        done_runs += int(m[-1]) if m else 0
        if proc.returncode != 0:
            kind = re.findall(r"==\d+== ERROR: libFuzzer: ([^\n]+)", proc.stderr)
            tail = proc.stderr.strip().splitlines()[-1:] or ["?"]
            hard.append(kind[-1] if kind else f"exit {proc.returncode}: {tail[0]}")
    stats = json.loads(stats_path.read_text()) if stats_path.is_file() else {
        "executions": 0, "findings": 0, "signatures": {}}
    for h in hard:
        stats["signatures"].setdefault(f"hard crash: {h}", "see reproducers/*-crash-*")
    stats["findings"] += len(hard)
    stats["executions"] = max(stats["executions"], done_runs)
    return stats


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.fuzz", description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=int, default=60, help="seconds per target (60)")
    p.add_argument("--target", choices=TARGETS, action="append",
                   help="target to run (repeatable; default all)")
    p.add_argument("--out", type=Path, default=Path("fuzz-out"),
                   help="corpus, statistics and reproducers (./fuzz-out)")
    args = p.parse_args(argv)
    try:
        import atheris  # noqa: F401
    except ImportError:
        print("atheris is not installed: pip install -e '.[dev]'", file=sys.stderr)
        return 2
    workdir = args.out.resolve()
    found = 0
    for target in args.target or TARGETS:
        t0 = time.monotonic()
        s = run_target(target, args.seconds, workdir)
        found += s["findings"]
        print(f"{target}: {s['executions']} executions in {time.monotonic() - t0:.0f} s, "
              f"{s['findings']} crashes, {len(s['signatures'])} unique signatures")
        for sig, name in s["signatures"].items():
            print(f"  {sig}  ->  {workdir / 'reproducers' / name}")
    print(f"reproducers: {workdir / 'reproducers'}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
