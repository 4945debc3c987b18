"""Knossos / TopoBench-180 topology metrics: Node F1, directed Edge F1 and Typed-Edge F1.

A diagram is the graph ``G = (V, E)`` with ``E`` a multiset of directed edges; an undirected
or two-headed connector (``directed: false``) counts as the two reciprocal edges (an
undirected self-loop once).  Nodes and edges are compared through normalised labels
(TopoBench-180 appendix D.1: separators such as hyphens and underscores removed, here with
whitespace and brackets too; Knossos varies label casing, so case is folded).  Repeated
labels are distinct instances matched one-to-one (multiset intersection); an edge is
identified by its endpoint labels, so edges between same-label nodes are interchangeable.
Scores are computed per image and macro-averaged by :func:`summarize`; the caller groups
images by domain / subset.  Both sides empty counts as a perfect 1.0.

Typed-Edge F1 (Knossos section 4.3) needs the relation type to match as well.  It is defined
only for images whose ground truth has at least one typed edge (the paper averages it over
the domains with legend-defined relation types); other images give ``None`` and are left out
of its mean.

Values are fractions in [0, 1] (the papers print percentages).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from cvparse.metrics._counts import multiset_tp, prf
from cvparse.metrics._extract import find_json
from cvparse.metrics.mermaid import read_answer
from cvparse.model import GRAPH_KINDS

TASK = "topology"
SUMMARY_KEYS = ("node_f1", "edge_f1", "typed_edge_f1", "node_p", "node_r", "edge_p", "edge_r")

_KEEP_PUNCT = set("#&%@*")
_DROP_CATEGORIES = ("Z", "C", "Pd", "Pc", "Ps", "Pe", "Pi", "Pf", "Po")


@dataclass(frozen=True)
class Topology:
    """Comparable form of a graph: normalised node labels and expanded directed edges."""

    nodes: tuple[str, ...] = ()
    edges: tuple[tuple[str, str, str], ...] = ()  # (source label, target label, type)

    @property
    def typed(self) -> bool:
        """True when at least one edge carries a relation type."""
        return any(t for _, _, t in self.edges)


def normalize_label(text: str) -> str:
    """Case-folded label without whitespace, separators and brackets (TopoBench D.1)."""
    text = unicodedata.normalize("NFKC", str(text)).casefold()
    return "".join(
        ch for ch in text
        if ch in _KEEP_PUNCT or not unicodedata.category(ch).startswith(_DROP_CATEGORIES))


# --- reading ----------------------------------------------------------------------------

_NODE_LABEL_KEYS = ("label", "name", "text", "id")
_SOURCE_KEYS = ("source", "src", "from", "start", "u")
_TARGET_KEYS = ("target", "tgt", "to", "end", "v")
_TYPE_KEYS = ("type", "relation", "relation_type", "rel")
_EDGE_LIST_KEYS = ("edges", "links", "relations", "connections")
_ARROW = re.compile(r"^\s*(.+?)\s*(<-+>|<=+>|<-+|-+>|=+>|-{2,}|—+>?)\s*(.+?)\s*$")


def _first_str(d: dict, keys: tuple[str, ...]) -> str | None:
    for k in keys:
        v = d.get(k)
        if isinstance(v, (str, int, float)) and not isinstance(v, bool) and str(v) != "":
            return str(v)
    return None


def _read_node(item: Any) -> tuple[str, str] | None:
    """``(id, label)`` of one node given as a string or an object."""
    if isinstance(item, (str, int, float)) and not isinstance(item, bool):
        return str(item), str(item)
    if isinstance(item, dict):
        label = _first_str(item, _NODE_LABEL_KEYS)
        if label is None:
            return None
        return _first_str(item, ("id",)) or label, label
    return None


def _read_edge(item: Any) -> tuple[str, str, str, bool] | None:
    """``(source, target, type, directed)`` of one edge in any tolerated shape."""
    if isinstance(item, (list, tuple)) and len(item) >= 2:
        parts = [str(x) for x in item[:3]]
        return parts[0], parts[1], parts[2] if len(parts) > 2 else "", True
    if isinstance(item, str):
        m = _ARROW.match(item)
        if not m:
            return None
        src, arrow, tgt = m.groups()
        if arrow.startswith("<") and not arrow.endswith(">"):
            return tgt, src, "", True
        return src, tgt, "", arrow.endswith(">") and not arrow.startswith("<")
    if isinstance(item, dict):
        src, tgt = _first_str(item, _SOURCE_KEYS), _first_str(item, _TARGET_KEYS)
        if src is None or tgt is None:
            return None
        directed = item.get("directed", True)
        if item.get("bidirectional") is True or item.get("undirected") is True:
            directed = False
        return src, tgt, _first_str(item, _TYPE_KEYS) or "", directed is not False
    return None


def _canonical_relations(d: dict) -> tuple[list, list] | None:
    """TopoBench-180 canonical schema: ``{"<node>": {"relations": [...]}, ...}``."""
    if not d or not all(isinstance(v, dict) and isinstance(v.get("relations", []), list)
                        for v in d.values()):
        return None
    if not any("relations" in v for v in d.values()):
        return None
    edges = [r for v in d.values() for r in v.get("relations", [])]
    return list(d.keys()), edges


def _from_dict(d: dict) -> Topology | None:
    """Build the comparable graph from a Graph document or a tolerated VLM JSON shape."""
    if "graph" in d and isinstance(d["graph"], dict) and "nodes" not in d:
        d = d["graph"]
    kind = d.get("kind")
    if kind is not None and kind not in GRAPH_KINDS:
        return None
    raw_nodes = d.get("nodes", d.get("vertices"))
    raw_edges = next((d[k] for k in _EDGE_LIST_KEYS if k in d), None)
    if raw_nodes is None and raw_edges is None:
        canonical = _canonical_relations(d)
        if canonical is None:
            return None
        raw_nodes, raw_edges = canonical
    if not all(isinstance(x, (list, type(None))) for x in (raw_nodes, raw_edges)):
        return None

    nodes = [n for n in (_read_node(x) for x in raw_nodes or []) if n is not None]
    edges = [e for e in (_read_edge(x) for x in raw_edges or []) if e is not None]
    label_of = dict(nodes)
    if raw_nodes is None:  # edges only: the endpoints are the node inventory
        for src, tgt, _, _ in edges:
            label_of.setdefault(src, src)
            label_of.setdefault(tgt, tgt)
        nodes = list(label_of.items())

    expanded: list[tuple[str, str, str]] = []
    for src, tgt, typ, directed in edges:
        s = normalize_label(label_of.get(src, src))
        t = normalize_label(label_of.get(tgt, tgt))
        ty = normalize_label(typ)
        expanded.append((s, t, ty))
        if not directed and s != t:
            expanded.append((t, s, ty))
    return Topology(nodes=tuple(normalize_label(label) for _, label in nodes),
                    edges=tuple(expanded))


def load(doc: Any) -> tuple[Topology, bool]:
    """Read a Graph document (any graph kind), a tolerated JSON shape, or raw model text.

    Tolerated shapes: ``{"nodes": ["A", ...] | [{"id", "label"|"name"}], "edges": [["A",
    "B"(, type)], {"source"|"from", "target"|"to", "type", "directed"}, "A -> B", ...]}``
    (also ``links`` / ``relations``), and the TopoBench-180 canonical
    ``{"<node>": {"relations": [...]}}``.  Edge endpoints are node ids, else labels.
    Without a node list the edge endpoints are the nodes.  Text without JSON is read as
    Mermaid (``.mmd`` output; ``---`` and ``<-->`` links are undirected).  Returns
    ``(rep, valid)``.
    """
    if isinstance(doc, str):
        text, doc = doc, find_json(doc) if doc.strip() else None
        if isinstance(doc, list):
            doc = {"edges": doc}
        elif doc is None and text.strip():
            chart, found = read_answer(text)
            # a bare header is not an answer (prose such as "... a graph" reads as one)
            doc = chart.to_graph(TASK).to_dict() if found and chart.nodes else None
    if isinstance(doc, list):
        doc = {"edges": doc}
    if not isinstance(doc, dict):
        return Topology(), False
    rep = _from_dict(doc)
    return (rep, True) if rep is not None else (Topology(), False)


# --- scoring ----------------------------------------------------------------------------

def score(gt: Topology, pred: Topology) -> dict:
    """Per-image node / edge / typed-edge precision, recall and F1 (multisets, one-to-one)."""
    node_p, node_r, node_f1 = prf(multiset_tp(list(gt.nodes), list(pred.nodes)),
                                  len(pred.nodes), len(gt.nodes))
    gt_pairs = [(s, t) for s, t, _ in gt.edges]
    pred_pairs = [(s, t) for s, t, _ in pred.edges]
    edge_p, edge_r, edge_f1 = prf(multiset_tp(gt_pairs, pred_pairs),
                                  len(pred_pairs), len(gt_pairs))
    typed_f1 = None
    if gt.typed:
        typed_f1 = prf(multiset_tp(list(gt.edges), list(pred.edges)),
                       len(pred.edges), len(gt.edges))[2]
    return {"node_p": node_p, "node_r": node_r, "node_f1": node_f1,
            "edge_p": edge_p, "edge_r": edge_r, "edge_f1": edge_f1,
            "typed_edge_f1": typed_f1,
            "gt_nodes": len(gt.nodes), "pred_nodes": len(pred.nodes),
            "gt_edges": len(gt.edges), "pred_edges": len(pred.edges)}


def _mean(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def summarize(per_image: list[dict]) -> dict:
    """Macro-average over images; ``typed_edge_f1`` over the images with typed ground truth."""
    out: dict = {k: _mean([r.get(k) for r in per_image]) for k in SUMMARY_KEYS}
    out["n"] = len(per_image)
    out["n_typed"] = sum(r.get("typed_edge_f1") is not None for r in per_image)
    return out
