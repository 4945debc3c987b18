"""The sets the generalisation report measures, grouped by where their pictures come from.

* ``dev``: the project's own fixture generators (``fixtures/<family>/dev``);
* ``realtools``: every source of the real-tool corpus, as built by ``python -m
  tools.realtools build`` (``build/realtools/<family>/<source>/``), or, where a source is
  not built, its committed CI subset (``fixtures/<family>/realtools/<source>/``);
* ``knossos``: ``../shared/knossos-dev``, drawn by the Knossos benchmark's own generator
  code, one set per domain; where that folder is absent, its committed subset
  (``fixtures/topology/knossos/``).

A set is scored by its family's benchmark task, except the topology family, which is
scored by the Knossos evaluator's protocol (:mod:`cvparse.metrics.knossos`) on every source
so that the rows of its table compare.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from benchmarks._common import FIXTURES, REPO, Item, select_items

SUITES = ("dev", "realtools", "knossos")
BUILD_ROOT = REPO / "build" / "realtools"
KNOSSOS_DEV = REPO.parent / "shared" / "knossos-dev"
KNOSSOS_FIXTURES = FIXTURES / "topology" / "knossos"
SUITE_TASK = {"flowchart": "flowlearn", "er": "er", "uml": "uml", "topology": "knossos"}
"""The task each family's generalisation table is scored with."""


@dataclass(frozen=True)
class SourceSet:
    """One row of a family's table: a named source and its images."""

    suite: str
    family: str
    source: str
    items: tuple[Item, ...]
    where: str

    @property
    def task(self) -> str:
        return SUITE_TASK[self.family]


def dev_sets(families: list[str], limit: int | None) -> list[SourceSet]:
    out = []
    for fam in families:
        d = FIXTURES / fam / "dev"
        items = select_items(d, limit) if d.is_dir() else []
        if items:
            out.append(SourceSet("dev", fam, "own dev fixtures", tuple(items), str(d)))
    return out


def realtools_sets(families: list[str], limit: int | None,
                   root: Path = BUILD_ROOT) -> list[SourceSet]:
    """Each real-tool source, from the full build where it exists, else the CI subset."""
    out = []
    for fam in families:
        built = {p.name: p for p in sorted((root / fam).glob("*")) if p.is_dir()}
        committed = {p.name: p for p in sorted((FIXTURES / fam / "realtools").glob("*"))
                     if p.is_dir()}
        for name in sorted(set(built) | set(committed)):
            folder = built.get(name) or committed[name]
            items = select_items(folder, limit)
            if items:
                tag = "" if name in built else " (CI subset)"
                out.append(SourceSet("realtools", fam, name + tag, tuple(items), str(folder)))
    return out


def knossos_items(root: Path, cache: Path, limit: int | None) -> dict[str, list[Item]]:
    """knossos-dev's images with one ground-truth document each, by domain.

    The gt.jsonl rows are written as Graph documents (``subset`` = difficulty, plus the
    domain) into ``cache``, each beside a copy of its image named by the row's id (the
    domains reuse file names).
    """
    cache.mkdir(parents=True, exist_ok=True)
    by_domain: dict[str, list[Item]] = {}
    per_subset: dict[tuple[str, str], int] = {}
    for line in (root / "gt.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        key = (row["domain"], row["difficulty"])
        if limit is not None and per_subset.get(key, 0) >= limit:
            continue
        per_subset[key] = per_subset.get(key, 0) + 1
        doc = {"kind": "topology", "width": row["width"], "height": row["height"],
               "nodes": row["nodes"], "edges": row["edges"], "subset": row["difficulty"],
               "domain": row["domain"]}
        gt = cache / f"{row['id']}.json"
        gt.write_text(json.dumps(doc, ensure_ascii=False) + "\n", encoding="utf-8")
        image = cache / f"{row['id']}{Path(row['file']).suffix}"
        shutil.copyfile(root / row["file"], image)
        by_domain.setdefault(row["domain"], []).append(
            Item(row["id"], image, gt, row["difficulty"]))
    return by_domain


def knossos_sets(limit: int | None, cache: Path, root: Path = KNOSSOS_DEV) -> list[SourceSet]:
    if (root / "gt.jsonl").is_file():
        return [SourceSet("knossos", "topology", f"knossos-dev {domain}", tuple(items),
                          str(root))
                for domain, items in sorted(knossos_items(root, cache, limit).items(),
                                            key=lambda kv: kv[0] != "workflow")]
    out = []
    for folder in sorted(p for p in KNOSSOS_FIXTURES.glob("*") if p.is_dir()):
        items = select_items(folder, limit)
        if items:
            out.append(SourceSet("knossos", "topology", f"knossos-dev {folder.name} "
                                 "(CI subset)", tuple(items), str(folder)))
    return out


def suite_sets(suite: str, families: list[str], limit: int | None,
               cache: Path) -> list[SourceSet]:
    """The sets of one suite (``all`` = every suite), restricted to ``families``."""
    if suite == "all":
        return [s for name in SUITES for s in suite_sets(name, families, limit, cache)]
    if suite == "dev":
        return dev_sets(families, limit)
    if suite == "realtools":
        return realtools_sets(families, limit)
    if suite == "knossos":
        return knossos_sets(limit, cache) if "topology" in families else []
    raise ValueError(f"unknown suite {suite!r} (choose from all, {', '.join(SUITES)})")


