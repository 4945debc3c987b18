"""Light tests of the benchmark scripts: the published numbers, the tracer comparison, and
one small end-to-end accuracy run (a few seconds; deselect with ``-k "not slow"``)."""

import json
import os

import numpy as np
import pytest
from PIL import Image
from skimage.morphology import skeletonize

from benchmarks import accuracy, bench_trace, speed_ab
from benchmarks._common import (FAMILY_TASK, POINT_METRICS, PUBLISHED, PUBLISHED_FIELDS,
                                default_set, load_published, select_items)
from benchmarks.speed import doc_elements, one_core, slope

NON_FRACTION_METRICS = POINT_METRICS + ("seconds_per_diagram", "api_calls_per_diagram",
                                        "tokens_per_diagram")


def test_published_rows_have_every_field_and_the_right_scale():
    rows = load_published(PUBLISHED)
    assert rows
    for r in rows:
        assert set(PUBLISHED_FIELDS) <= set(r), r
        assert isinstance(r["value"], (int, float)) and not isinstance(r["value"], bool), r
        assert r["source"].strip() and r["model"].strip(), r
        if r["metric"] not in NON_FRACTION_METRICS:
            assert 0.0 <= r["value"] <= 1.0, r
    keys = [(r["benchmark"], r["subset"], r["metric"], r["model"]) for r in rows]
    assert len(keys) == len(set(keys)), "duplicate published rows"


def test_every_benchmark_task_has_published_rows():
    benches = {r["benchmark"] for r in load_published(PUBLISHED)}
    for task in FAMILY_TASK.values():
        assert set(accuracy.TASK_BENCHMARKS[task]) <= benches


def test_load_published_rejects_a_row_without_source(tmp_path):
    p = tmp_path / "p.json"
    p.write_text(json.dumps([{"benchmark": "x", "subset": "all", "metric": "m", "model": "M",
                              "value": 0.5}]))
    with pytest.raises(ValueError, match="source"):
        load_published(p)


def _cross(n=21):
    m = np.zeros((n, n), bool)
    m[n // 2 - 1:n // 2 + 2, 2:-2] = True
    m[2:-2, n // 2 - 1:n // 2 + 2] = True
    return m


def _ring_and_tail():
    m = np.zeros((30, 40), bool)
    m[5:25, 5:25] = True
    m[8:22, 8:22] = False
    m[14:16, 25:38] = True
    return m


def test_bench_trace_walks_agree_on_synthetic_masks():
    skels = [("cross", skeletonize(_cross())), ("ring", skeletonize(_ring_and_tail()))]
    res = bench_trace.compare_walks(skels, repeats=1)
    assert [r.name for r in res] == ["cross", "ring"]
    for r, (_, s) in zip(res, skels):
        assert r.identical
        assert r.pixels == int(s.sum()) and r.paths >= 1
        assert r.numba_ms >= 0 and r.python_ms >= 0


def test_view_rows_put_cvparse_first_and_match_published_by_subset_and_metric():
    report = {"summary": {"node_f1": 0.5},
              "subsets": {"word": {"n": 2, "summary": {"node_f1": 0.75, "link_f1": 0.25}}}}
    published = [
        {"benchmark": "flowlearn", "subset": "word", "metric": "node_f1", "model": "A",
         "value": 0.9, "source": "t"},
        {"benchmark": "flowlearn", "subset": "char", "metric": "node_f1", "model": "B",
         "value": 0.1, "source": "t"},
        {"benchmark": "other", "subset": "word", "metric": "node_f1", "model": "C",
         "value": 0.2, "source": "t"},
    ]
    view = accuracy.View("t", (accuracy.Column("node_f1", "word", "node_f1"),
                               accuracy.Column("link_f1", "word", "link_f1")))
    rows = accuracy.view_rows(view, "flowlearn", report, published)
    assert rows == [("cvparse", [0.75, 0.25]), ("A", [0.9, None])]


def test_domain_mean_is_the_unweighted_mean_of_subsets():
    report = {"summary": {"edge_f1": 0.0},
              "subsets": {"a": {"summary": {"edge_f1": 1.0}},
                          "b": {"summary": {"edge_f1": 0.5}},
                          "c": {"summary": {"edge_f1": None}}}}
    assert accuracy.cvparse_value(report, accuracy.DOMAIN_MEAN, "edge_f1", "knossos") == 0.75


def test_look_scores_average_each_look_and_skip_missing_metrics(tmp_path):
    items = [{"id": "a", "style": "serif"}, {"id": "b", "style": "serif"},
             {"id": "c", "style": "colour"}]
    (tmp_path / "manifest.json").write_text(json.dumps({"items": items}))
    report = {"per_image": {"a": {"node_f1": 1.0, "edge_f1": 0.5, "typed_edge_f1": None},
                            "b": {"node_f1": 0.5, "edge_f1": 1.0, "typed_edge_f1": 0.8},
                            "c": {"node_f1": 0.0, "edge_f1": 0.0, "typed_edge_f1": float("nan")},
                            "d": {"node_f1": 1.0, "edge_f1": 1.0}}}
    looks = accuracy.look_scores(tmp_path, "topology", report)
    assert looks["serif"] == {"n": 2, "node_f1": 0.75, "edge_f1": 0.75, "typed_edge_f1": 0.8}
    assert looks["colour"] == {"n": 1, "node_f1": 0.0, "edge_f1": 0.0, "typed_edge_f1": None}
    assert "look" in accuracy.look_table({"task": "topology", "looks": looks})
    (tmp_path / "manifest.json").write_text(json.dumps({"items": [{"id": "a"}]}))
    assert accuracy.look_scores(tmp_path, "topology", report) == {}


def test_doc_elements_counts_nodes_and_edges():
    graph = {"kind": "flowchart", "nodes": [{}, {}, {}], "edges": [{}, {}]}
    er = {"kind": "er",
          "entities": {"A": {"attributes": ["a1", "a2"], "composite": {"a2": ["x", "y"]}},
                       "B": {"attributes": []}},
          "relationships": [{"name": "r", "entities": ["A", "B"], "attributes": ["w"]},
                            {"name": "ISA", "superclass": "A", "subclasses": ["B"]}]}
    assert doc_elements(graph) == 5
    # 2 entities + 4 attributes (2 + 2 components) x (node + line) + r (1 + 2 lines + 1 attr
    # x 2) + ISA (1 + 2 lines)
    assert doc_elements(er) == 2 + 8 + 5 + 3


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no CPU affinity here")
def test_one_core_pins_the_block_and_gives_the_cores_back():
    before = os.sched_getaffinity(0)
    with one_core():
        inside = os.sched_getaffinity(0)
    assert len(inside) == 1 and inside <= before
    assert os.sched_getaffinity(0) == before


def test_slope_recovers_a_line():
    fit = slope([1, 2, 3, 4], [3, 5, 7, 9])
    assert fit["slope"] == pytest.approx(2.0) and fit["intercept"] == pytest.approx(1.0)
    assert fit["r"] == pytest.approx(1.0)


def test_accuracy_end_to_end_slow(tmp_path):
    """One image per subset of the flowchart dev fixtures, parsed and scored."""
    set_dir = default_set("flowchart")
    expected = select_items(set_dir, 1) if set_dir.is_dir() else []
    if not expected:
        pytest.skip("no flowchart dev fixtures")
    assert accuracy.main(["--limit", "1", "--family", "flowchart", "--out", str(tmp_path)]) == 0
    rec = json.loads((tmp_path / "accuracy.json").read_text())
    fam = rec["families"]["flowchart"]
    assert fam["n_images"] == len(expected) and fam["parsed"] == len(expected)
    assert {it.subset for it in expected} == set(fam["subsets"])
    assert rec["git_commit"] and rec["cores"] >= 1 and rec["command"]
    view = rec["tables"]["flowlearn"][0]
    cols = [c["metric"] for c in view["columns"]]
    ours = view["rows"][0]
    assert ours["model"] == "cvparse"
    assert ours["values"][cols.index("node_f1")] == fam["subsets"]["word"]["node_f1"]
    assert any(r["model"] != "cvparse" for r in view["rows"])
    with Image.open(tmp_path / "flowlearn.png") as img:
        assert img.format == "PNG" and img.width >= 400


def _fake_checkout(root, tag):
    """A folder holding a tiny ``cvparse`` whose parse reports ``tag`` through a lazily
    imported module (as the real parse imports its assemblers)."""
    pkg = root / "cvparse"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "tag.py").write_text(f"TAG = {tag!r}\n")
    (pkg / "pipeline.py").write_text(
        "def parse(image, kind=None, stage=None):\n"
        "    from .tag import TAG\n"
        "    return TAG, image, kind, stage\n")
    return root


def test_speed_ab_runs_each_checkout_with_its_own_modules(tmp_path):
    import cvparse

    run_a = speed_ab.parse_of(speed_ab.Checkout(_fake_checkout(tmp_path / "a", "A")))
    run_b = speed_ab.parse_of(speed_ab.Checkout(_fake_checkout(tmp_path / "b", "B")))
    for _ in range(2):  # alternating, as compare() does
        assert run_a("x.png", kind="er", stage="nodes") == ("A", "x.png", "er", "nodes")
        assert run_b("x.png", kind="er", stage="nodes")[0] == "B"
    import sys
    assert sys.modules["cvparse"] is cvparse  # the suite's own package is back
    pairs = speed_ab.compare(tmp_path / "a", tmp_path / "b", [tmp_path / "x.png"], "er", 2)
    assert [p.name for p in pairs] == ["x"] and pairs[0].base >= 0 and pairs[0].new >= 0


def test_speed_ab_stages_are_the_pipeline_stages():
    """Every --stage choice is one the parser itself accepts."""
    from cvparse.pipeline import STAGES

    action = next(a for a in speed_ab.build_parser()._actions if a.dest == "stage")
    assert set(action.choices) <= set(STAGES)


def test_engine_estimate_is_capped_by_the_engine_ceiling():
    from benchmarks.engine_speed import estimate

    compute = estimate(2.0, ceiling=5000.0, workers=1000)
    assert compute["limited_by"] == "workers" and compute["images_per_s"] == 2000.0
    capped = estimate(2.0, ceiling=300.0, workers=1000)
    assert capped["limited_by"] == "engine" and capped["images_per_s"] == 300.0


def test_memory_benchmark_times_every_stage_the_parse_runs(tmp_path):
    """Each stage ``benchmarks.memory`` names is a pipeline function the parse calls (a
    renamed stage would leave no peak), and the pipeline is left as it was."""
    import cvparse.pipeline as pipeline
    from benchmarks import memory

    before = {name: getattr(pipeline, name) for name in memory.STAGES.values()}
    page = tmp_path / "page.png"
    memory.make_page(page, 900, 600, (2, 1))
    r = memory.child(str(page))
    assert list(r["stage_peak_mb"]) and set(r["stage_peak_mb"]) == set(memory.STAGES)
    assert all(mb > 0 for mb in r["stage_peak_mb"].values())
    assert r["ru_maxrss_mb"] >= r["sampled_peak_mb"] * 0.9
    assert {name: getattr(pipeline, name) for name in memory.STAGES.values()} == before
