"""``cvparse.parse``: the Python API around the whole pipeline."""

from __future__ import annotations

import json

import pytest

import cvparse
from cvparse.metrics import mermaid
from tests.test_image import diagram_png


def test_parse_returns_document_exports_and_overlay(tmp_path):
    img = diagram_png(tmp_path / "flow.png")
    r = cvparse.parse(str(img), kind="flowchart")
    assert r.document.kind == "flowchart" and len(r.document.nodes) == 2
    assert json.loads(r.to_json())["kind"] == "flowchart"
    assert len(mermaid.parse_mermaid(r.to_mermaid()).links) == 1
    assert r.overlay().shape == r.image.shape
    assert set(r.timings) == {"load", "nodes", "trace", "assemble"}


def test_nodes_stage_stops_after_perception(tmp_path):
    r = cvparse.parse(str(diagram_png(tmp_path / "flow.png")), stage="nodes")
    assert r.document is None and not r.connectors
    assert len(json.loads(r.to_json())["shapes"]) == 2
    with pytest.raises(ValueError, match="nodes stage"):
        r.to_mermaid()


def test_unknown_stage_and_kind_are_refused(tmp_path):
    img = str(diagram_png(tmp_path / "flow.png"))
    with pytest.raises(ValueError, match="stage"):
        cvparse.parse(img, stage="edges")
    with pytest.raises(ValueError, match="kind"):
        cvparse.parse(img, kind="sankey")
