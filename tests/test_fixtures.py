"""Every committed fixture's ground truth is a valid document and scores 1.0 against itself."""

import io
import json
import math
from pathlib import Path

import pytest

from cvparse.evaluate import run
from cvparse.model import document_from_dict

ROOT = Path(__file__).resolve().parents[1] / "fixtures"
TASKS = {"flowchart": "flowlearn", "er": "er", "uml": "uml", "topology": "topology"}
PERFECT = {"flowlearn": ("node_f1", "link_f1", "nodes_acc", "arrows_acc"),
           "er": ("macro_f1",), "uml": ("em", "relacc", "relation_f1"),
           "topology": ("node_f1", "edge_f1")}
SETS = [(f, s) for f in TASKS for s in ("test", "dev", "style") if (ROOT / f / s).is_dir()]
STYLE_SETS = [f for f in TASKS if (ROOT / f / "style").is_dir()]


@pytest.mark.parametrize("family, split", SETS)
def test_ground_truth_documents_validate(family, split):
    folder = ROOT / family / split
    manifest = json.loads((folder / "manifest.json").read_text())
    docs = sorted(p for p in folder.glob("*.json") if p.name != "manifest.json")
    assert docs, folder
    assert len(docs) == len(manifest["items"])
    for p in docs:
        doc = json.loads(p.read_text())
        obj = document_from_dict(doc)
        assert obj.to_dict() == doc, p
        assert any(folder.glob(p.stem + ".*g")), f"no image for {p}"


@pytest.mark.parametrize("family, split", SETS)
def test_ground_truth_scores_one_against_itself(family, split):
    task = TASKS[family]
    folder = ROOT / family / split
    report = run(task, str(folder), str(folder), out=io.StringIO())
    summary = report["summary"]
    for key in PERFECT[task]:
        assert math.isclose(summary[key], 1.0), (key, summary[key])
    if "typed_edge_f1" in summary and summary["typed_edge_f1"] is not None \
            and not math.isnan(summary["typed_edge_f1"]):
        assert math.isclose(summary["typed_edge_f1"], 1.0)


@pytest.mark.parametrize("family", STYLE_SETS)
def test_style_split_names_its_looks_and_reuses_dev_subsets(family):
    """Every style image says which look drew it (one the manifest describes), and its subset
    is a dev subset, so per-subset tables line up with dev."""
    folder = ROOT / family / "style"
    manifest = json.loads((folder / "manifest.json").read_text())
    looks = manifest["styles"]
    dev_subsets = {json.loads(p.read_text())["subset"]
                   for p in (ROOT / family / "dev").glob("*.json") if p.name != "manifest.json"}
    used = set()
    for item in manifest["items"]:
        doc = json.loads((folder / (item["id"] + ".json")).read_text())
        assert doc["style"] == item["style"] and doc["style"] in looks, item
        assert doc["subset"] == item["subset"] and doc["subset"] in dev_subsets, item
        assert (folder / item["image"]).is_file(), item
        used.add(doc["style"])
    assert used == set(looks)
