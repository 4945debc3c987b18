"""Every committed fixture's ground truth is a valid document and scores 1.0 against itself."""

import importlib.util
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


def _load_wordfilter():
    """tools/wordfilter.py (tools/ is not a package); it needs no renderer."""
    path = Path(__file__).resolve().parents[1] / "tools" / "wordfilter.py"
    spec = importlib.util.spec_from_file_location("wordfilter", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


@pytest.mark.parametrize("family, split", SETS)
def test_no_committed_fixture_text_has_a_blocked_word(family, split):
    """Labels, names and sources of the committed fixtures avoid tools/blocked_words.sha256."""
    wf = _load_wordfilter()
    assert len(wf.load_digests()) >= 500
    bad = {}
    for p in sorted((ROOT / family / split).glob("*.json")):
        for text in _strings(json.loads(p.read_text())):
            if wf.blocked_words(text):
                bad.setdefault(p.name, []).append(text[:60])
    assert not bad, bad


def test_wordfilter_checks_each_word_and_replaces_without_randomness(tmp_path):
    wf = _load_wordfilter()
    blocklist = tmp_path / "blocked.sha256"
    assert wf.add_words(["Beta", "gamma"], blocklist) == 2
    assert wf.add_words(["beta"], blocklist) == 0
    lines = [ln for ln in blocklist.read_text().splitlines() if not ln.startswith("#")]
    assert lines == sorted({wf.digest("beta"), wf.digest("gamma")})
    assert "beta" not in blocklist.read_text()
    assert wf.is_blocked("BETA", blocklist) and not wf.is_blocked("alpha", blocklist)
    assert wf.blocked_words("alpha BetaGamma my_gamma_id", blocklist) == ["Beta", "Gamma", "gamma"]
    assert wf.words_of("orderID total_Amount") == ["orderID", "order", "ID", "total", "Amount"]
    pool = ["alpha", "beta", "gamma", "delta", "epsilon"]
    assert wf.replacement("beta", pool, path=blocklist) == "delta"
    assert wf.replacement("gamma", pool, {"delta"}, blocklist) == "epsilon"
    assert wf.replacement("alpha", pool, path=blocklist) == "alpha"
    assert wf.clean_sample(["epsilon", "gamma"], pool[::-1], blocklist) == ["epsilon", "alpha"]
    assert wf.clean_sample(["beta", "delta"], pool, blocklist) == ["epsilon", "delta"]
    assert wf.clean_sample(["delta", "alpha"], pool, blocklist) == ["delta", "alpha"]
    wf.check_vocabulary(["alpha", "DeltaEpsilon"], "ok", blocklist)
    with pytest.raises(ValueError):
        wf.check_vocabulary(["alpha", "alphaGamma"], "bad", blocklist)
