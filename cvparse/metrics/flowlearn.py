"""FlowLearn "Flowchart-to-Mermaid" scoring: node and link P/R/F1, node and arrow counts.

Implements section 4.2 of the FlowLearn paper (papers/flowlearn.txt) for one
(ground truth, prediction) pair per image; :func:`summarize` averages per image, as the
paper does ("for each sample and average these metrics across all samples").

Decisions the paper leaves open, fixed here:

* **Node text.** Compared exactly (case, punctuation and spelling), after Unicode NFC,
  Mermaid entity codes (``#quot;``) and ``<br>`` decoded, surrounding quotes removed and
  every run of whitespace collapsed to one space and the ends stripped.
* **Which nodes a prediction has.** One per distinct node id.  A node written only as a bare
  id gets the id as its text.  A bare id that equals the text of a bracketed node with another
  id (``entity0(foo)`` ... ``foo --> bar``) is that node named by its text, not a new node.
  In code of several lines, words a space apart are one bare name (``a --> denierage
  reboil``: the end named by its text, which the paper allows for links; Mermaid would
  refuse it); code all on one line separates its statements by spaces.
  The same id declared twice is one node (Mermaid keeps the last text).
* **Node P/R/F1.** Multisets of texts matched one-to-one: TP = sum over texts of
  min(#pred, #gt), so a text predicted twice for one ground-truth node gives one FP.
* **Link P/R/F1.** A link is the pair (text of start node, text of end node) as written,
  whatever its style (``-->``, ``==>``, ``-.->``), kind (``---``, ``<-->``, ``--o``) or label;
  an end may be named by id or by text.  Multisets matched one-to-one as for nodes.
  Each link of a chain (``a --> b --> c``) and of a fan (``a & b --> c``) counts once.
* **directed_link_f1** (stricter, not in the paper): links are expanded by kind: an arrow,
  ``--o`` or ``--x`` is one directed pair; ``<-->`` is two (both directions); an undirected
  ``---`` is an unordered pair that matches only another undirected link between the same two
  texts, never a directed one.  A Graph edge with ``directed: false`` is ``---`` unless its
  ``mermaid_link`` extra says ``both``.
* **Empty sets.** P = TP/#pred and R = TP/#gt; a ratio with a zero denominator is 1 if both
  sets are empty and 0 otherwise, so an empty prediction for a non-empty truth scores 0 and
  an empty prediction for an empty truth scores 1.  F1 = 2PR/(P+R), 0 when P+R = 0.
* **Counts.** ``nodes_acc`` = 1 if the prediction has as many nodes (as defined above) as the
  truth; ``arrows_acc`` = 1 if it has as many links (``<-->`` counts once).  Here they are
  read from the predicted Mermaid; the paper's separate counting questions (a number in the
  answer) are not scored by this module.
* **Reading answers.** The paper reads "statements encapsulated within triple backticks"
  (section 4.3), so an answer holding a ``` fence is read from its closed fences only: the
  fences are paired in order, every pair's body is read and the bodies make one chart (the
  same id in two bodies is one node), and text outside them (prose, or the rest of an answer
  cut off inside an open fence) is ignored; a body counts if it has a header, a link or a
  shaped node (words in backticks are not Mermaid).  Re-scoring the models' answers in the
  FlowLearn repository this way gives InternLM's node recall .164 (paper .16; reading the
  cut-off code too gives .19) and brings Qwen's node P/R/F1 from .103/.105/.102 to
  .077/.091/.082 (paper .06/.08/.07).  Raw text with no fence at all (a
  Mermaid file, cvparse's own ``.mmd`` output) is read whole: a ``flowchart``/``graph``
  header or arrows in prose (outside fences prose-like lines are dropped), else a Graph
  JSON object in the text.  Unreadable input is the empty chart and ``valid = False``; a
  chart with a header but no nodes is valid and empty.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from typing import Any
from collections.abc import Hashable, Iterable

from cvparse.metrics._extract import MAX_TEXT_CHARS, find_json
from cvparse.metrics.mermaid import (MermaidChart, closed_fences, parse_mermaid,
                                     read_answer)
from cvparse.model import GRAPH_KINDS, DocumentError, Graph

TASK = "flowlearn"
SUMMARY_KEYS = ("node_p", "node_r", "node_f1", "link_p", "link_r", "link_f1",
                "directed_link_f1", "nodes_acc", "arrows_acc")


def norm_text(text: str) -> str:
    """Node text as compared: NFC, whitespace runs collapsed to one space, ends stripped."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def load(doc: Any) -> tuple[MermaidChart, bool]:
    """Read a Graph JSON dict (flowchart/topology), Mermaid source or raw model text."""
    if isinstance(doc, MermaidChart):
        return doc, True
    if isinstance(doc, Graph):
        return MermaidChart.from_graph(doc), True
    if isinstance(doc, dict):
        return _load_graph_dict(doc)
    if isinstance(doc, str):
        if doc.lstrip().startswith("{"):
            chart, ok = _load_graph_dict(find_json(doc))
            if ok:
                return chart, True
        fenced = read_fenced(doc)
        if fenced is not None and fenced[1]:
            return fenced
        if fenced is None:
            chart, ok = read_answer(doc)
            if ok:
                return chart, True
        return _load_graph_dict(find_json(doc))
    return MermaidChart(), False


def read_fenced(text: str) -> tuple[MermaidChart, bool] | None:
    """The chart in the closed ``` fences of ``text`` (all bodies as one chart) and whether
    any held Mermaid; None when ``text`` has no fence (see "Reading answers" above)."""
    bodies = closed_fences(text)
    if bodies is None:
        return None
    merged, found = MermaidChart(), False
    for body in bodies:
        if len(body) > MAX_TEXT_CHARS:
            continue
        chart = parse_mermaid(body)
        if not (chart.header or chart.links or any(n.labelled for n in chart.nodes.values())):
            continue  # words in backticks, not Mermaid
        if not found:
            merged.direction = chart.direction
        found = True
        merged.header = merged.header or chart.header
        for node_id, node in chart.nodes.items():
            if node_id not in merged.nodes or node.labelled:
                merged.nodes[node_id] = node
        merged.links.extend(chart.links)
    return merged, found


def _load_graph_dict(doc: Any) -> tuple[MermaidChart, bool]:
    if not isinstance(doc, dict) or doc.get("kind") not in GRAPH_KINDS:
        return MermaidChart(), False
    try:
        return MermaidChart.from_graph(Graph.from_dict(doc)), True
    except DocumentError:
        return MermaidChart(), False


def node_texts(chart: MermaidChart) -> list[str]:
    """Normalised texts of the chart's nodes, one per node (bare text-references dropped)."""
    labelled = {norm_text(n.text) for n in chart.nodes.values() if n.labelled}
    return [norm_text(n.text) for node_id, n in chart.nodes.items()
            if n.labelled or norm_text(node_id) not in labelled]


def link_pairs(chart: MermaidChart) -> list[tuple[str, str]]:
    """(start text, end text) of every link as written."""
    return [(norm_text(chart.text_of(ln.src)), norm_text(chart.text_of(ln.dst)))
            for ln in chart.links]


def directed_links(chart: MermaidChart) -> list[tuple[str, str, str]]:
    """Links expanded by kind: ``("->", a, b)`` per direction, ``("--", a, b)`` undirected."""
    out: list[tuple[str, str, str]] = []
    for (a, b), ln in zip(link_pairs(chart), chart.links):
        if ln.kind == "open":
            lo, hi = sorted((a, b))
            out.append(("--", lo, hi))
        else:
            out.append(("->", a, b))
            if ln.kind == "both":
                out.append(("->", b, a))
    return out


def matched(pred: Iterable[Hashable], gt: Iterable[Hashable]) -> int:
    """One-to-one matches between two multisets (sum of the smaller counts)."""
    p, g = Counter(pred), Counter(gt)
    return sum(min(n, g[k]) for k, n in p.items())


def prf(tp: int, n_pred: int, n_gt: int) -> tuple[float, float, float]:
    """Precision, recall, F1; an empty denominator gives 1 only if both sets are empty."""
    both_empty = 1.0 if n_pred == 0 and n_gt == 0 else 0.0
    p = tp / n_pred if n_pred else both_empty
    r = tp / n_gt if n_gt else both_empty
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def score(gt: MermaidChart, pred: MermaidChart) -> dict:
    """Per-image node/link P/R/F1, directed-link F1 and count accuracies (plus raw counts)."""
    gn, pn = node_texts(gt), node_texts(pred)
    gl, pl = link_pairs(gt), link_pairs(pred)
    gd, pd = directed_links(gt), directed_links(pred)
    node_tp, link_tp, dir_tp = matched(pn, gn), matched(pl, gl), matched(pd, gd)
    node_p, node_r, node_f1 = prf(node_tp, len(pn), len(gn))
    link_p, link_r, link_f1 = prf(link_tp, len(pl), len(gl))
    return {
        "node_p": node_p, "node_r": node_r, "node_f1": node_f1,
        "link_p": link_p, "link_r": link_r, "link_f1": link_f1,
        "directed_link_f1": prf(dir_tp, len(pd), len(gd))[2],
        "nodes_acc": float(len(pn) == len(gn)),
        "arrows_acc": float(len(pl) == len(gl)),
        "gt_nodes": len(gn), "pred_nodes": len(pn), "node_tp": node_tp,
        "gt_links": len(gl), "pred_links": len(pl), "link_tp": link_tp,
    }


def summarize(per_image: list[dict]) -> dict:
    """Mean of each summary key over the images (the paper's averaging); 0 for no images."""
    n = len(per_image)
    return {key: sum(d[key] for d in per_image) / n if n else 0.0 for key in SUMMARY_KEYS}
