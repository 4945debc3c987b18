"""Shared pieces of the benchmark scripts: fixture selection, run metadata, tables, papers.

Fixtures live in ``fixtures/<family>/<split>/``: images plus one ``<stem>.json`` ground
truth each (top-level ``subset``) and a ``manifest.json``.
"""

from __future__ import annotations

import json
import math
import os
import platform
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
RESULTS = REPO / "benchmarks" / "results"
PUBLISHED = REPO / "benchmarks" / "published.json"

FAMILY_TASK = {"flowchart": "flowlearn", "er": "er", "uml": "uml", "topology": "topology"}
"""Fixture family -> ``cvparse.evaluate`` task; the family is also the parse ``kind``."""

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
PUBLISHED_FIELDS = ("benchmark", "subset", "metric", "model", "value", "source")
POINT_METRICS = ("gap", "gap_3_reverse", "gap_3_mixed")
"""Metrics in percentage points; every other metric is a fraction in [0, 1]."""


@dataclass(frozen=True)
class Item:
    """One fixture image with its ground truth and subset."""

    stem: str
    image: Path
    gt: Path
    subset: str


def default_set(family: str, split: str = "dev") -> Path:
    return FIXTURES / family / split


def select_items(set_dir: Path, limit: int | None = None) -> list[Item]:
    """Images of ``set_dir`` that have ground truth, at most ``limit`` per subset, by stem."""
    gts = {p.stem: p for p in set_dir.glob("*.json") if p.name != "manifest.json"}
    items: list[Item] = []
    for img in sorted(set_dir.iterdir()):
        if img.suffix.lower() not in IMAGE_SUFFIXES or img.stem not in gts:
            continue
        if img.name.endswith(".overlay.png"):
            continue
        doc = json.loads(gts[img.stem].read_text(encoding="utf-8"))
        subset = str(doc.get("subset") or doc.get("condition") or "all")
        items.append(Item(img.stem, img, gts[img.stem], subset))
    if limit is None:
        return items
    seen: dict[str, int] = defaultdict(int)
    out = []
    for it in items:
        if seen[it.subset] < limit:
            seen[it.subset] += 1
            out.append(it)
    return out


def run_metadata(argv: list[str] | None = None, prog: str = "") -> dict:
    """Date, git commit (and whether the tree is dirty), command line and machine."""
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                                  timeout=20).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    return {"date": datetime.now(UTC).isoformat(timespec="seconds"),
            "git_commit": git("rev-parse", "HEAD") or None,
            "git_dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
            "command": " ".join([prog or Path(sys.argv[0]).name]
                                + list(sys.argv[1:] if argv is None else argv)),
            "cores": os.cpu_count(),
            "load_average_1m": round(os.getloadavg()[0], 2),
            "machine": platform.machine(),
            "python": platform.python_version()}


def load_published(path: Path = PUBLISHED) -> list[dict]:
    """Rows of ``published.json``; raises ``ValueError`` if a row lacks a field."""
    rows = json.loads(Path(path).read_text(encoding="utf-8"))
    for i, r in enumerate(rows):
        missing = [f for f in PUBLISHED_FIELDS if f not in r]
        if missing:
            raise ValueError(f"{path}: row {i} lacks {', '.join(missing)}")
    return rows


def fmt(value, metric: str = "") -> str:
    """A table cell: fractions to 3 decimals, points to 2, missing as ``-``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if metric in POINT_METRICS:
        return f"{value:.2f}"
    if isinstance(value, int):
        return str(value)
    return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"


def format_table(header: list[str], rows: list[list[str]], title: str = "") -> str:
    """Plain-text table, first column left-aligned, the others right-aligned."""
    cells = [header] + rows
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(row, widths))) for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(([title] if title else []) + lines)


def percentile(values: list[float], q: float) -> float:
    """Linear-interpolated percentile (``q`` in 0-100) of a non-empty list."""
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q / 100.0
    lo, hi = math.floor(k), math.ceil(k)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)

