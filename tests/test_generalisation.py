"""The generalisation report's sets and tables (benchmarks.suites, benchmarks.generalisation)."""

import json

from PIL import Image

from benchmarks import generalisation, suites


def _row(suite, source, **metrics):
    return {"suite": suite, "family": "topology", "source": source, "task": "knossos",
            "n": 3, "metrics": metrics}


def test_gap_is_own_dev_headline_minus_the_source():
    rows = [_row("dev", "own dev fixtures", edge_f1=0.9, node_f1=1.0),
            _row("knossos", "knossos-dev workflow", edge_f1=0.4, node_f1=0.8)]
    table = generalisation.family_table("topology", rows)
    assert table.splitlines()[-1].split()[-1] == "0.500"
    md = generalisation.family_markdown("topology", rows).splitlines()
    assert md[0].startswith("| source | n | node_f1 | edge_f1")
    assert md[-1].endswith("| 0.500 |") and md[2].endswith("|  |")


def test_knossos_rows_become_graph_documents_named_by_id(tmp_path):
    root = tmp_path / "knossos-dev"
    for domain in ("workflow", "circuit_noassets"):
        (root / "images" / domain).mkdir(parents=True)
        Image.new("RGB", (20, 20), "white").save(root / "images" / domain / "dev_simple_1.png")
    rows = [{"id": f"{d}_dev_simple_1", "file": f"images/{d}/dev_simple_1.png", "domain": d,
             "difficulty": "simple", "width": 20, "height": 20,
             "nodes": [{"id": "n1", "label": "A", "bbox": [0, 0, 5, 5]}], "edges": []}
            for d in ("workflow", "circuit_noassets")]
    (root / "gt.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    sets = suites.knossos_sets(None, tmp_path / "cache", root)
    assert [s.source for s in sets] == ["knossos-dev workflow", "knossos-dev circuit_noassets"]
    item = sets[0].items[0]
    # the two domains reuse file names: each image is copied under its row's id
    assert item.image.name == "workflow_dev_simple_1.png" and item.image.is_file()
    doc = json.loads(item.gt.read_text())
    assert doc["kind"] == "topology" and doc["subset"] == "simple"
    assert doc["nodes"][0]["label"] == "A"
    assert all(s.task == "knossos" for s in sets)
