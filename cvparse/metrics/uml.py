"""UML prior-bias metrics: class-name EM, relation-direction accuracy (RelAcc), conflict gap.

Definitions (papers/uml_prior_bias.txt, section 3.3):

* ``em`` - per image 1 if the normalised set of predicted class names equals the normalised
  set of ground-truth names, else 0 (the paper's EM; N = case folding and punctuation /
  whitespace cleanup, no aliases).  ``class_recall_exact`` adds the stricter per-name view:
  the fraction of ground-truth names predicted verbatim (only surrounding spaces stripped).
* ``relacc`` - the paper asks "does relation r hold from ci to cj?" about one target
  relation per diagram; a ground-truth document here lists relations, not queries, so every
  directed ground-truth relation gives the query (r, src, tgt) and the reversed query
  (r, tgt, src) (a relation with ``"directed": false``, a plain association line, gives
  none); a query's gold answer is whether it holds in the ground truth.  The predicted
  answer is True if the predicted relations contain the query (an undirected predicted
  relation holds both ways), False if they relate the two classes some other way, and
  Unknown - scored wrong, as the paper scores abstentions - if they do not relate them at
  all, so an empty prediction scores 0.  Per image, RelAcc is the fraction of queries
  answered right; images are then averaged (the paper averages over instances).
* ``gap`` - conflict gap in percentage points, RelAcc(prior-conform) - RelAcc(2-reverse),
  the paper's headline Delta; ``gap_3_reverse`` and ``gap_3_mixed`` use the three-class
  conflict conditions.  Present only when both conditions have images with queries.  The
  condition comes from the ground-truth document's top-level ``condition`` key.
* ``relation_f1`` - typed, directed relation F1 over multisets of (type, source, target),
  matched one-to-one; a relation marked ``"directed": false`` on either side matches in
  either direction (FORMATS.md: a plain association reads "first end -> second end").
* ``class_f1`` - F1 of the normalised class names as multisets (a page of many classes,
  where EM is all or nothing); ``link_f1`` - relation F1 over unordered class pairs,
  type and direction ignored: which classes the parser found related at all.

Relation endpoints are compared after the same name normalisation as EM.  RelAcc, EM and
F1 are fractions in [0, 1]; only the gaps are in points.  :func:`summarize` also gives
``relacc_by_condition``; ``TABLE_KEYS`` are the columns ``cvparse eval`` prints.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, NamedTuple

from cvparse.metrics._counts import multiset_tp, prf
from cvparse.metrics._extract import fenced_blocks, find_json

TASK = "uml"
SUMMARY_KEYS = ("em", "relacc", "relation_f1", "class_f1", "link_f1")
TABLE_KEYS = ("em", "relacc", "relation_f1", "gap")
CONDITIONS = ("prior-conform", "2-reverse", "3-reverse", "3-mixed", "prior-free")
_GAPS = {"gap": "2-reverse", "gap_3_reverse": "3-reverse", "gap_3_mixed": "3-mixed"}

_TYPE_ALIASES = {
    "inheritance": ("inheritance", "generalization", "generalisation", "extends", "inherits",
                    "inheritsfrom", "isa", "subclassof"),
    "realization": ("realization", "realisation", "implements", "implementation",
                    "interfacerealization"),
    "composition": ("composition", "composedof", "compositionof"),
    "aggregation": ("aggregation", "aggregationof", "hasa"),
    "dependency": ("dependency", "dependson", "uses", "use"),
    "association": ("association", "associates", "associatedwith"),
}
_TYPE_OF = {alias: t for t, aliases in _TYPE_ALIASES.items() for alias in aliases}


class Relation(NamedTuple):
    """A typed relation; ``directed`` is False only for a line whose direction is not drawn."""

    type: str
    source: str
    target: str
    directed: bool = True


@dataclass(frozen=True)
class UMLRep:
    """Comparable form of a UML diagram."""

    classes: tuple[str, ...] = ()  # names as written, stripped
    relations: tuple[Relation, ...] = ()
    condition: str | None = None


def normalize_name(text: str) -> str:
    """Case-folded name without whitespace and punctuation (the paper's N, minus aliases)."""
    text = unicodedata.normalize("NFKC", str(text)).casefold()
    return "".join(ch for ch in text if unicodedata.category(ch)[0] not in "ZPC")


def relation_type(text: str) -> str:
    """Canonical relation type for a name or common synonym (unknown names pass through)."""
    key = re.sub(r"[^a-z]", "", str(text).casefold())
    return _TYPE_OF.get(key, str(text).strip().casefold())


# --- reading ----------------------------------------------------------------------------

_SOURCE_KEYS = ("source", "src", "from", "child", "subclass", "whole", "client")
_TARGET_KEYS = ("target", "tgt", "to", "parent", "superclass", "part", "supplier")
_TYPE_KEYS = ("type", "relation", "kind", "relationship")


def _pick(d: dict, keys: tuple[str, ...]) -> str | None:
    return next((d[k].strip() for k in keys if isinstance(d.get(k), str) and d[k].strip()),
                None)


def _read_relation(item: Any) -> Relation | None:
    """A relation from an object or a 3-item list in either word order."""
    if isinstance(item, dict):
        typ, src, tgt = _pick(item, _TYPE_KEYS), _pick(item, _SOURCE_KEYS), _pick(item,
                                                                                _TARGET_KEYS)
        if typ is None or src is None or tgt is None:
            return None
        return Relation(relation_type(typ), src, tgt, item.get("directed") is not False)
    if isinstance(item, (list, tuple)) and len(item) == 3 and all(isinstance(x, str)
                                                                    for x in item):
        for i, word in enumerate(item):
            if relation_type(word) in _TYPE_ALIASES:
                src, tgt = [x.strip() for j, x in enumerate(item) if j != i]
                return Relation(relation_type(word), src, tgt)
    return None


def _read_class(item: Any) -> str | None:
    if isinstance(item, str):
        return item.strip()
    if isinstance(item, dict) and isinstance(item.get("name"), str):
        return item["name"].strip()
    return None


def _from_dict(d: dict) -> UMLRep | None:
    kind = d.get("kind")
    if (kind is not None and kind != "uml") or ("classes" not in d and "relations" not in d):
        return None
    raw_classes, raw_rels = d.get("classes", []), d.get("relations", [])
    if not isinstance(raw_classes, list) or not isinstance(raw_rels, list):
        return None
    rels = [r for r in (_read_relation(x) for x in raw_rels) if r is not None]
    classes = [c for c in (_read_class(x) for x in raw_classes) if c]
    if "classes" not in d:  # relations only: their endpoints are the classes
        classes = list(dict.fromkeys(n for r in rels for n in (r.source, r.target)))
    condition = d.get("condition")
    if condition is None and d.get("subset") in CONDITIONS:
        condition = d["subset"]
    return UMLRep(classes=tuple(classes), relations=tuple(rels),
                  condition=condition if isinstance(condition, str) else None)


_NAME = r'"[^"]+"|[\w.$]+'
_PUML_LINE = re.compile(
    rf'^\s*(?P<a>{_NAME})\s+(?:"[^"]*"\s+)?(?P<arrow>\S+)\s+(?:"[^"]*"\s+)?(?P<b>{_NAME})'
    r'\s*(?::.*)?$')
_PUML_ARROW = re.compile(
    r"^(?P<lh><\||\*|o|<)?(?P<line>[-.]+(?:(?:up|down|left|right|u|d|l|r)?(?:\[[^\]]*\])?"
    r"[-.]+)?)(?P<rh>\|>|\*|o|>)?$")
_PUML_CLASS = re.compile(
    rf'^\s*(?:abstract\s+class|abstract|class|interface|enum)\s+(?P<n>{_NAME})', re.I)


def puml_relation(a: str, arrow: str, b: str) -> Relation | None:
    """Relation of one PlantUML link ``a ARROW b`` under the FORMATS.md direction table."""
    m = _PUML_ARROW.match(arrow)
    if not m:
        return None
    lh, rh, dashed = m.group("lh"), m.group("rh"), "." in m.group("line")
    if lh and rh:
        return None  # two heads: not a single directed relation
    head, fwd = (rh, True) if rh else (lh, False)
    src, tgt = (a, b) if fwd else (b, a)  # src/tgt: tail end -> head end
    if head in ("|>", "<|"):
        return Relation("realization" if dashed else "inheritance", src, tgt)
    if head in ("*", "o"):  # the diamond sits at the whole: source = head end
        return Relation("composition" if head == "*" else "aggregation", tgt, src)
    if head in (">", "<"):
        return Relation("dependency" if dashed else "association", src, tgt)
    return Relation("association", a, b, directed=False)


def _from_plantuml(text: str) -> UMLRep | None:
    """Classes and relations of PlantUML class-diagram text; ``None`` if it has neither."""
    classes: list[str] = []
    rels: list[Relation] = []
    for line in text.splitlines():
        if m := _PUML_CLASS.match(line):
            classes.append(m.group("n").strip('"'))
        elif m := _PUML_LINE.match(line):
            a, b = m.group("a").strip('"'), m.group("b").strip('"')
            rel = puml_relation(a, m.group("arrow"), b)
            if rel is not None:
                rels.append(rel)
                classes.extend(n for n in (a, b) if n not in classes)
    if not classes and not rels:
        return None
    return UMLRep(classes=tuple(dict.fromkeys(classes)), relations=tuple(rels))


def load(doc: Any) -> tuple[UMLRep, bool]:
    """Read a UML document, a tolerated JSON shape, or raw model text (JSON or PlantUML).

    Tolerated JSON: ``{"classes": ["Dog", ...] | [{"name"}], "relations": [{"type",
    "source"|"from", "target"|"to"}, ["Dog", "inheritance", "Animal"], ...]}`` with common
    type synonyms (``generalization``, ``implements`` ...).  Without ``classes`` the
    relation endpoints are the classes.  Returns ``(rep, valid)``.
    """
    if isinstance(doc, str):
        found = find_json(doc) if doc.strip() else None
        if isinstance(found, dict) and (rep := _from_dict(found)) is not None:
            return rep, True
        bodies = [b for lang, b in fenced_blocks(doc) if lang in ("", "plantuml", "puml",
                                                                     "uml")] or [doc]
        for body in bodies:
            if (rep := _from_plantuml(body)) is not None:
                return rep, True
        return UMLRep(), False
    if isinstance(doc, dict) and (rep := _from_dict(doc)) is not None:
        return rep, True
    return UMLRep(), False


# --- scoring ----------------------------------------------------------------------------

def _norm_rel(rel: Relation) -> Relation:
    return Relation(rel.type, normalize_name(rel.source), normalize_name(rel.target),
                    rel.directed)


def _facts(rels: list[Relation]) -> set[tuple[str, str, str]]:
    """(type, source, target) facts the relations state; an undirected one states both."""
    out = set()
    for r in rels:
        out.add((r.type, r.source, r.target))
        if not r.directed:
            out.add((r.type, r.target, r.source))
    return out


def queries(gt: UMLRep) -> list[tuple[tuple[str, str, str], bool]]:
    """RelAcc queries ``((type, ci, cj), gold answer)`` built from the ground truth."""
    rels = [_norm_rel(r) for r in gt.relations]
    truth = _facts(rels)
    out: dict[tuple[str, str, str], bool] = {}
    for r in sorted(rels):
        if r.directed:
            for q in ((r.type, r.source, r.target), (r.type, r.target, r.source)):
                out.setdefault(q, q in truth)
    return list(out.items())


def answer(query: tuple[str, str, str], facts: set, related: set) -> bool | None:
    """True / False / None (Unknown: the two classes are not related) for one query."""
    if query in facts:
        return True
    return False if frozenset(query[1:]) in related else None


def match_count(gt: list[Relation], pred: list[Relation]) -> int:
    """One-to-one matches: exact (type, source, target) first, then, where either side is
    undirected, the same type and ends in either order (greedy; lists are short)."""
    pool = list(pred)
    rest = []
    for r in sorted(gt, key=lambda r: not r.directed):  # directed ones claim exact matches first
        i = next((k for k, q in enumerate(pool) if q[:3] == r[:3]), None)
        if i is None:
            rest.append(r)
        else:
            del pool[i]
    tp = len(gt) - len(rest)
    for r in rest:
        i = next((k for k, q in enumerate(pool) if (not r.directed or not q.directed)
                  and q.type == r.type and sorted(q[1:3]) == sorted(r[1:3])), None)
        if i is not None:
            del pool[i]
            tp += 1
    return tp


def score(gt: UMLRep, pred: UMLRep) -> dict:
    """Per-image EM, RelAcc (with its counts), relation P/R/F1 and the image's condition."""
    em = float({normalize_name(c) for c in gt.classes}
               == {normalize_name(c) for c in pred.classes})
    gt_names = set(gt.classes)
    recall = (len(gt_names & set(pred.classes)) / len(gt_names)) if gt_names else float(
        not pred.classes)

    gt_rels = [_norm_rel(r) for r in gt.relations]
    pred_rels = [_norm_rel(r) for r in pred.relations]
    facts = _facts(pred_rels)
    related = {frozenset((r.source, r.target)) for r in pred_rels}
    qs = queries(gt)
    correct = sum(answer(q, facts, related) is gold for q, gold in qs)

    p, r, f1 = prf(match_count(gt_rels, pred_rels), len(pred_rels), len(gt_rels))
    gt_names_n = [normalize_name(c) for c in gt.classes]
    pred_names_n = [normalize_name(c) for c in pred.classes]
    class_f1 = prf(multiset_tp(gt_names_n, pred_names_n), len(pred_names_n),
                   len(gt_names_n))[2]
    pairs = [[frozenset((x.source, x.target)) for x in rels] for rels in (gt_rels, pred_rels)]
    link_f1 = prf(multiset_tp(*pairs), len(pairs[1]), len(pairs[0]))[2]
    return {"em": em, "class_recall_exact": recall, "class_f1": class_f1, "link_f1": link_f1,
            "relacc": correct / len(qs) if qs else None,
            "queries": len(qs), "queries_correct": correct,
            "relation_p": p, "relation_r": r, "relation_f1": f1,
            "condition": gt.condition}


def _mean(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def summarize(per_image: list[dict]) -> dict:
    """Means over images, RelAcc per condition, and the conflict gaps where computable."""
    out: dict = {k: _mean([r.get(k) for r in per_image])
                 for k in SUMMARY_KEYS + ("class_recall_exact", "relation_p", "relation_r")}
    out["n"] = len(per_image)
    by_condition = {}
    for cond in sorted({c for r in per_image if (c := r.get("condition"))}):
        value = _mean([r.get("relacc") for r in per_image if r.get("condition") == cond])
        if value is not None:
            by_condition[cond] = value
    out["relacc_by_condition"] = by_condition
    conform = by_condition.get("prior-conform")
    for key, cond in _GAPS.items():
        if conform is not None and cond in by_condition:
            out[key] = 100.0 * (conform - by_condition[cond])
    return out
