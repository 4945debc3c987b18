"""End to end on the committed subsets of the ruler's suites (pictures drawn by others):
the Knossos generator's own images (fixtures/topology/knossos) scored by the Knossos
protocol.  Floors sit a little below what the subset measures today, so they catch a
regression; the issue targets are higher and are tracked by ``python -m benchmarks.accuracy
--suite all``, not here."""

import json
from pathlib import Path

import pytest

from cvparse.metrics import knossos
from cvparse.pipeline import parse

ROOT = Path(__file__).resolve().parents[2] / "fixtures"
FLOORS = {"workflow": (0.90, 0.55), "circuit": (0.68, 0.29)}
"""(node F1, edge F1) floors, pooled as the Knossos evaluator pools them."""


def score_folder(folder: Path, task, kind: str) -> list[dict]:
    """Parse every image of ``folder`` as ``kind`` and score it against its ground truth."""
    rows = []
    for gt_path in sorted(folder.glob("*.json")):
        if gt_path.name == "manifest.json":
            continue
        image = next(p for p in folder.glob(gt_path.stem + ".*") if p.suffix != ".json")
        g, ok = task.load(json.loads(gt_path.read_text(encoding="utf-8")))
        assert ok, gt_path
        p, ok = task.load(parse(image, kind=kind).document.to_dict())
        assert ok, image
        rows.append(task.score(g, p))
    assert rows, folder
    return rows


@pytest.fixture(scope="module")
def knossos_workflow():
    return knossos.summarize(score_folder(ROOT / "topology" / "knossos" / "workflow",
                                          knossos, "topology"))


@pytest.fixture(scope="module")
def knossos_circuit():
    return knossos.summarize(score_folder(ROOT / "topology" / "knossos" / "circuit_noassets",
                                          knossos, "topology"))


def test_knossos_workflow_subset(knossos_workflow):
    assert knossos_workflow["node_f1"] >= FLOORS["workflow"][0]
    assert knossos_workflow["edge_f1"] >= FLOORS["workflow"][1]


def test_knossos_circuit_subset(knossos_circuit):
    assert knossos_circuit["node_f1"] >= FLOORS["circuit"][0]
    assert knossos_circuit["edge_f1"] >= FLOORS["circuit"][1]
