"""What every source shares: its needs, writing an image with its ground truth, manifests.

The corpus layout is ``<root>/<family>/<source>/`` holding ``<stem>.png`` and ``<stem>.json``
pairs plus ``manifest.json``: the layout of the project's fixture splits, so the benchmark
scripts read a source folder like any other set.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEFAULT_ROOT = REPO / "build" / "realtools"
FIXTURE_ROOT = REPO / "fixtures"
NODE_DIR = Path(__file__).resolve().parent / "node"
INPUTS = Path(__file__).resolve().parent / "inputs"
FAMILIES = ("flowchart", "er", "uml", "topology")


@dataclass(frozen=True)
class Requires:
    """The packages a source's renderer needs, by registry."""

    apt: tuple[str, ...] = ()
    pip: tuple[str, ...] = ()
    npm: tuple[str, ...] = ()
    """Folders (relative to the repository) whose pinned ``package.json`` node tools it
    needs: ``tools/realtools/node`` (mermaid-cli 11, PlantUML jar), ``tools/mermaid``
    (mermaid-cli 10.6.1)."""


@dataclass
class BuildResult:
    """What one source rendered: item ids, the tools' versions, and images it had to skip
    (an input the tool refused), each with the reason."""

    ids: list[str] = field(default_factory=list)
    versions: dict[str, str] = field(default_factory=dict)
    skipped: list[dict] = field(default_factory=list)


def write_item(out_dir: Path, stem: str, image: Path, gt: dict) -> None:
    """Move a rendered ``image`` to ``out_dir/<stem><suffix>`` and write its ground truth.

    ``gt`` must name its ``subset``, ``source`` and ``input``; the image keeps its suffix.
    """
    for key in ("kind", "subset", "source", "input"):
        if key not in gt:
            raise ValueError(f"{stem}: ground truth lacks {key!r}")
    out_dir.mkdir(parents=True, exist_ok=True)
    shutil.move(str(image), out_dir / f"{stem}{image.suffix.lower()}")
    (out_dir / f"{stem}.json").write_text(json.dumps(gt, indent=1, ensure_ascii=False) + "\n",
                                          encoding="utf-8")


def write_manifest(out_dir: Path, source: str, family: str, seed: int, result: BuildResult,
                   seconds: float) -> None:
    """``manifest.json`` of one source folder: what drew it, with which seed, and its items."""
    items = []
    for stem in result.ids:
        gt = json.loads((out_dir / f"{stem}.json").read_text(encoding="utf-8"))
        items.append({"id": stem, "subset": gt["subset"], "input": gt["input"]})
    doc = {"source": source, "family": family, "seed": seed, "versions": result.versions,
           "seconds": round(seconds, 1), "skipped": result.skipped, "items": items}
    (out_dir / "manifest.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False)
                                           + "\n", encoding="utf-8")


def committed_inputs(name: str) -> list[tuple[Path, dict]]:
    """The diagram source files committed to public repositories that lie in
    ``inputs/<name>/``, each with its PROVENANCE.json record, in record order."""
    folder = INPUTS / name
    prov = json.loads((folder / "PROVENANCE.json").read_text(encoding="utf-8"))
    return [(folder / rec["file"], rec) for rec in prov["files"]]


def input_record(name: str, path: Path, prov: dict) -> dict:
    """The ``input`` of a ground-truth document drawn from a committed file: where the file
    came from (repository, commit, path, licence; for a chart inside a Markdown file, which
    fenced block it is) and where it lies here."""
    return {key: prov[key] for key in ("repository", "commit", "path", "licence")} | {
        "file": f"tools/realtools/inputs/{name}/{path.name}"} | (
        {"block": prov["block"]} if prov.get("block") is not None else {})


def unnamed_puml(text: str) -> str:
    """PlantUML text without a name after ``@startuml``: it names PlantUML's output file
    and is not drawn."""
    return re.sub(r"(?m)^(\s*@startuml)\b.*$", r"\1", text)


def readable_inputs(name: str, read: Callable[[str], object], refused: type[Exception],
                    result: BuildResult, scale: float,
                    clean: Callable[[str], str] = str) -> list[tuple[str, dict]]:
    """The committed files of ``inputs/<name>/`` (the first ``scale`` part of them) that
    ``read`` takes once ``clean`` has prepared their text, as that text and the file's
    input record; each one it refuses is recorded in ``result.skipped`` with the reason."""
    out = []
    files = committed_inputs(name)
    for path, prov in files[:max(1, round(len(files) * scale))]:
        text = clean(path.read_text(encoding="utf-8"))
        try:
            read(text)
        except refused as exc:
            result.skipped.append({"id": path.name, "reason": str(exc)[:300]})
            continue
        out.append((text, input_record(name, path, prov)))
    return out


def run(cmd: list[str], *, timeout: float = 300, cwd: Path | None = None,
        stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run a renderer; raises ``RuntimeError`` with its stderr when it fails."""
    proc = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, text=True,
                          timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{Path(cmd[0]).name} exited {proc.returncode}: "
                           f"{(proc.stderr or proc.stdout).strip()[-800:]}")
    return proc


def requires_json(req: Requires) -> dict:
    return asdict(req)
