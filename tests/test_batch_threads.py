"""Batch workers run OpenCV on one thread each; the parent keeps its own setting."""

from pathlib import Path

import cv2

from cvparse import batch
from cvparse.batch import Outcome, run_batch
from cvparse.model import Graph, Node

from .primitives.synth import canvas


def _report_threads(path: str, kind: str, fmt: str, overlay_path: str | None = None,
                    stage: str = "all") -> Outcome:
    doc = Graph(kind="flowchart", nodes=[Node("n1", str(cv2.getNumThreads()), "rect")])
    return Outcome(path, True, 0.001, text=doc.to_json())


def test_workers_use_one_opencv_thread_and_the_parent_keeps_its_own(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "run_one", _report_threads)
    images = []
    for i in range(3):
        img, _ = canvas(40 + i, 30)
        images.append(tmp_path / f"p{i}.png")
        img.save(images[-1])
    before = cv2.getNumThreads()
    cv2.setNumThreads(2)
    try:
        summary = run_batch(images, tmp_path / "out", "flowchart", "json", jobs=2)
        assert cv2.getNumThreads() == 2
    finally:
        cv2.setNumThreads(before)
    assert summary.parsed == 3
    for img in images:
        text = (tmp_path / "out" / (Path(img).stem + ".json")).read_text()
        assert '"label": "1"' in text
