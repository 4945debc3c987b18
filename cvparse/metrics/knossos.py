"""The Knossos evaluator's protocol: node, edge and typed-edge F1 pooled over a domain.

This follows the upstream evaluator as ``../shared/knossos-dev/README.md`` describes it,
which differs from the per-image reading of :mod:`cvparse.metrics.topology` in four ways:

* **Labels** are lower-cased and every character outside ``[a-z0-9]`` is deleted, so a
  read that joins wrapped pieces ("Conditio" + "n Met?") matches "Condition Met?".  Empty
  labels are ignored as nodes.
* **Edges are compared through a node mapping**, not through labels: each predicted node,
  in document order, maps to an unused ground-truth node with the same label, the one of
  highest bbox IoU where several share it (IoU never gates a match; ties and missing boxes
  keep document order).  An edge touching an unmapped node is a false positive.
* **Typed edges** compare the type string exactly, case included.  A predicted edge with an
  empty ``type`` takes ``directed`` when it is directed (the workflow domain's answer) and
  ``undirected`` otherwise; an undirected edge (``directed: false``) is expanded into its
  two reciprocal directed edges first, with its type on both.
* **Aggregation is pooled** (micro): TP, #pred and #GT are summed over the images of a
  group, then P, R and F1 are computed once.  :func:`summarize` gives these as
  ``node_f1``, ``edge_f1`` and ``typed_edge_f1`` and the per-image means beside them as
  ``mean_node_f1`` and so on.  Typed F1 is pooled over the images whose ground truth has
  typed edges (every Knossos image has: workflow edges are typed ``directed``).

Ground truth is a Graph document or a ``knossos-dev/gt.jsonl`` row (the same keys).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cvparse.metrics._counts import multiset_tp, prf
from cvparse.metrics._extract import find_json

TASK = "knossos"
SUMMARY_KEYS = ("node_f1", "edge_f1", "typed_edge_f1", "node_p", "node_r", "edge_p",
                "edge_r", "mean_node_f1", "mean_edge_f1", "mean_typed_edge_f1")
TABLE_KEYS = ("node_f1", "edge_f1", "typed_edge_f1", "mean_node_f1", "mean_edge_f1",
              "mean_typed_edge_f1")
COUNT_KEYS = ("node", "edge", "typed")

_NOT_ALNUM = re.compile(r"[^a-z0-9]")
BBox = tuple[float, float, float, float]


@dataclass(frozen=True)
class Node:
    id: str
    label: str  # normalised
    bbox: BBox | None


@dataclass(frozen=True)
class KGraph:
    """Nodes with normalised labels and the directed, typed edge multiset by node id."""

    nodes: tuple[Node, ...] = ()
    edges: tuple[tuple[str, str, str], ...] = ()

    @property
    def typed(self) -> bool:
        return any(t for _, _, t in self.edges)


def normalize_label(text: Any) -> str:
    """Lower case with every character outside ``[a-z0-9]`` deleted."""
    return _NOT_ALNUM.sub("", str(text).lower())


def _bbox(value: Any) -> BBox | None:
    if isinstance(value, (list, tuple)) and len(value) == 4 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        x1, y1, x2, y2 = (float(v) for v in value)
        return (x1, y1, x2, y2)
    return None


def _from_dict(d: dict) -> KGraph | None:
    nodes_raw, edges_raw = d.get("nodes"), d.get("edges")
    if not isinstance(nodes_raw, list) or not isinstance(edges_raw, (list, type(None))):
        return None
    nodes: list[Node] = []
    for i, n in enumerate(nodes_raw):
        if isinstance(n, str):
            nodes.append(Node(n, normalize_label(n), None))
        elif isinstance(n, dict):
            label = n.get("label", n.get("name", ""))
            nid = n.get("id", label if label else f"#{i}")
            nodes.append(Node(str(nid), normalize_label(label or ""), _bbox(n.get("bbox"))))
    label_ids = {n.label: n.id for n in nodes}
    known = {n.id for n in nodes}
    edges: list[tuple[str, str, str]] = []
    for e in edges_raw or []:
        if not isinstance(e, dict):
            continue
        src, tgt = e.get("source"), e.get("target")
        if src is None or tgt is None:
            continue
        src, tgt = str(src), str(tgt)
        # an answer may name endpoints by label rather than id
        src = src if src in known else label_ids.get(normalize_label(src), src)
        tgt = tgt if tgt in known else label_ids.get(normalize_label(tgt), tgt)
        directed = e.get("directed", True) is not False
        typ = str(e.get("type") or "") or ("directed" if directed else "undirected")
        edges.append((src, tgt, typ))
        if not directed and src != tgt:
            edges.append((tgt, src, typ))
    return KGraph(tuple(nodes), tuple(edges))


def load(doc: Any) -> tuple[KGraph, bool]:
    """Read a Graph document, a gt.jsonl row, or raw text holding one as JSON."""
    if isinstance(doc, str):
        doc = find_json(doc) if doc.strip() else None
    if not isinstance(doc, dict):
        return KGraph(), False
    graph = _from_dict(doc)
    return (graph, True) if graph is not None else (KGraph(), False)


def iou(a: BBox | None, b: BBox | None) -> float:
    """Intersection over union of two boxes; 0 when either is missing."""
    if a is None or b is None:
        return 0.0
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def map_nodes(gt: KGraph, pred: KGraph) -> dict[str, str]:
    """Predicted node id -> ground-truth node id (label first, then highest IoU)."""
    free: dict[str, list[Node]] = {}
    for n in gt.nodes:
        if n.label:
            free.setdefault(n.label, []).append(n)
    mapping: dict[str, str] = {}
    for p in pred.nodes:
        cands = free.get(p.label) if p.label else None
        if not cands:
            continue
        best = max(range(len(cands)), key=lambda k: (iou(p.bbox, cands[k].bbox), -k))
        mapping[p.id] = cands.pop(best).id
    return mapping


def score(gt: KGraph, pred: KGraph) -> dict:
    """Per-image counts (``<x>_tp``, ``<x>_pred``, ``<x>_gt``) and per-image F1s."""
    gt_labels = [n.label for n in gt.nodes if n.label]
    pred_labels = [n.label for n in pred.nodes if n.label]
    mapping = map_nodes(gt, pred)
    unmapped = "\0unmapped"
    mapped = [(mapping.get(s, unmapped + s), mapping.get(t, unmapped + t), ty)
              for s, t, ty in pred.edges]
    out: dict = {
        "node_tp": multiset_tp(gt_labels, pred_labels), "node_pred": len(pred_labels),
        "node_gt": len(gt_labels),
        "edge_tp": multiset_tp([(s, t) for s, t, _ in gt.edges],
                               [(s, t) for s, t, _ in mapped]),
        "edge_pred": len(mapped), "edge_gt": len(gt.edges)}
    if gt.typed:
        out.update(typed_tp=multiset_tp(list(gt.edges), mapped), typed_pred=len(mapped),
                   typed_gt=len(gt.edges))
    for key in COUNT_KEYS:
        if f"{key}_tp" in out:
            out[f"{key}_f1" if key != "typed" else "typed_edge_f1"] = prf(
                out[f"{key}_tp"], out[f"{key}_pred"], out[f"{key}_gt"])[2]
    return out


def _mean(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def summarize(per_image: list[dict]) -> dict:
    """Pooled P / R / F1 (the upstream headline) and per-image means beside them."""
    out: dict = {"n": len(per_image)}
    for key, name in (("node", "node"), ("edge", "edge"), ("typed", "typed_edge")):
        rows = [r for r in per_image if f"{key}_tp" in r]
        tp, n_pred, n_gt = (sum(r[f"{key}_{c}"] for r in rows) for c in ("tp", "pred", "gt"))
        p, r, f1 = prf(tp, n_pred, n_gt) if rows else (None, None, None)
        out[f"{name}_f1"] = f1
        if key != "typed":
            out[f"{name}_p"], out[f"{name}_r"] = p, r
        out[f"mean_{name}_f1"] = _mean([row.get(f"{name}_f1") for row in rows])
    return out
