"""ERUnderstand metrics: fractional F1 per ER category, Macro-F1, BLEU and normalised GED.

Implements the evaluation of Ansari et al., "ERUnderstand" (2026), section 4 and appendix B,
over the ER documents of FORMATS.md section 2.  Every decision the paper leaves open is
listed here and made in exactly one place below.

Normalisation (paper B.2)
    Labels: the characters ``, . - _`` are deleted (not replaced by a space), case is folded,
    runs of whitespace become one space, ends are trimmed; no fuzzy threshold, no plural
    folding (the paper reviewed plurals by hand).  Cardinalities: ``M``, ``N``, ``many`` and
    ``*`` are one value; the same folding is applied to each end of a range (``0..*`` equals
    ``0..N``); otherwise the text is compared after case and space folding.

Matching (greedy, on normalised labels)
    Entities match one-to-one by equal name, in document order.  Entity-owned items
    (attributes, primary keys, multivalued, derived, composite components) match by
    (owner, label); a left-over ground-truth item and a left-over predicted item with the
    same label but different owners form an *assignment error*, scored like a
    misconnection: 0.5 FP + 0.5 FN and no TP (the paper's partial credit for "attribute
    assignments").  Relationships align in four greedy passes, each in document order:
    (1) same name, same participants and cardinalities; (2) same name and participants
    (a *cardinality error*); (3) same name, participants overlapping in at least one
    entity, most overlap first (*misconnected*); (4) same participants, different name
    (*misconnected*: a label error is a structural error, not a miss plus an extra).

Relationship F1 (paper Eq. 1-3)
    ``TP = #GT - missed - miscon - nary``, ``FP = extra + (miscon + cardinality + nary)/2``,
    ``FN = missed + miscon/2``.  ``nary`` counts misconnected pairs whose ground truth has
    3+ participants and whose participants differ (a ternary collapsed or rewired); such a
    pair also counts in ``miscon``, which is what the paper's worked example needs (10
    relations, 1 missed, 1 extra, 1 misconnected ternary, 1 wrong cardinality -> 0.778).
    Cardinality is checked only on correctly connected pairs.  TP is clamped at 0.  IS-A
    objects are not relationships here; they have their own category.

Categories
    ``entities`` (all entities, weak ones included), ``relationships`` (non-IS-A),
    ``attributes`` (entity attributes, where an entity's attributes are the union of its
    ``attributes``, ``primary_keys``, ``multivalued``, ``derived`` and composite parents,
    plus relationship attributes owned by the aligned relationship; composite components
    are not attributes), ``weak_entities`` (names flagged weak), ``weak_relationships``
    (aligned relationship pairs both flagged weak; unaligned weak ones are FP/FN),
    ``primary_keys``, ``multivalued``, ``derived``, ``composite`` (one item per component,
    owned by (entity, parent)), ``nary`` (the relationship F1 restricted to relationships
    with 3+ participants on each side) and ``isa`` (one item per superclass-subclass link,
    owned by the superclass; the IS-A label is ignored).  A category with no item in either
    document is NaN (not applicable).  ``macro_f1`` is the mean of the six main categories
    that apply (NaN if none applies); the other five are reported beside it.

BLEU and GED
    BLEU-4 (add-epsilon smoothing, :mod:`cvparse.metrics.bleu`) over the canonical JSON of
    :func:`canonical_json`: normalised labels, entities, relationships, attribute lists and
    IS-A sorted, keys sorted; an empty prediction has no tokens and scores 0 (an empty
    ground truth gives NaN).  GED (:mod:`cvparse.metrics.ged`: bipartite upper bound, made
    exact by networkx for graphs of at most 10 nodes within ``GED_TIME_LIMIT`` seconds) is
    on the graph of :func:`schema_graph`, divided by the ground-truth graph's nodes + edges:
    0 is perfect, an empty prediction gives 1 and additions can push it above 1 (as the
    paper's IS-A-only values do).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

import networkx as nx

from cvparse.metrics._extract import find_json
from cvparse.metrics.bleu import bleu, tokenize
from cvparse.metrics.ged import normalized_ged
from cvparse.model import DocumentError, Entity, ERSchema, IsA, Relationship

TASK = "er"
MAIN_CATEGORIES = ("entities", "relationships", "attributes", "weak_entities",
                   "weak_relationships", "primary_keys")
EXTRA_CATEGORIES = ("multivalued", "derived", "composite", "nary", "isa")
SUMMARY_KEYS = (("macro_f1",) + tuple(f"{c}_f1" for c in MAIN_CATEGORIES + EXTRA_CATEGORIES)
                + ("bleu", "ged"))
STRUCTURAL_WEIGHT = 0.5
"""FP and FN weight of one structural error (misconnection, cardinality, n-ary, assignment)."""
GED_TIME_LIMIT = 2.0
"""Seconds per diagram for the exact GED refinement of small graphs."""
NARY_MIN_ARITY = 3

# --- normalisation ----------------------------------------------------------------------

_STRIP = re.compile(r"[,.\-_]")
_SPACE = re.compile(r"\s+")
_MANY = {"m", "n", "many", "*"}


def normalize_label(text: object) -> str:
    """Paper B.2: delete ``, . - _``, fold case, collapse whitespace."""
    return _SPACE.sub(" ", _STRIP.sub("", str(text)).lower()).strip()


def normalize_cardinality(text: object) -> str:
    """Fold case and spaces; ``M``, ``N``, ``many``, ``*`` (also as a range end) become ``n``."""
    s = _SPACE.sub("", str(text).lower())
    return "..".join("n" if part in _MANY else part for part in s.split(".."))


# --- normalised view --------------------------------------------------------------------

@dataclass(frozen=True)
class NormEntity:
    """An entity with normalised labels; ``attributes`` already holds every role's names."""

    name: str
    attributes: tuple[str, ...]
    primary_keys: tuple[str, ...]
    multivalued: tuple[str, ...]
    derived: tuple[str, ...]
    composite: tuple[tuple[str, tuple[str, ...]], ...]
    weak: bool


@dataclass(frozen=True)
class NormRelationship:
    """A relationship with normalised labels; ``ends`` = sorted (entity, cardinality)."""

    name: str
    ends: tuple[tuple[str, str], ...]
    weak: bool
    attributes: tuple[str, ...]

    @property
    def participants(self) -> Counter:
        return Counter(e for e, _ in self.ends)


@dataclass(frozen=True)
class NormSchema:
    """The comparable form of an :class:`ERSchema`; IS-A as (superclass, subclasses)."""

    entities: tuple[NormEntity, ...]
    relationships: tuple[NormRelationship, ...]
    isas: tuple[tuple[str, tuple[str, ...]], ...]


def _labels(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({normalize_label(x) for x in items}))


def _padded(r: Relationship) -> list[str]:
    """The relationship's cardinalities, one per entity ("" where none is given)."""
    return (list(r.cardinalities) + [""] * len(r.entities))[:len(r.entities)]


def normalize_schema(schema: ERSchema) -> NormSchema:
    """Normalise every label and gather each entity's attributes from all its role lists."""
    entities = []
    for name, e in schema.entities.items():
        attrs = _labels([*e.attributes, *e.primary_keys, *e.multivalued, *e.derived,
                         *e.composite])
        composite = tuple(sorted((normalize_label(p), _labels(c))
                                 for p, c in e.composite.items()))
        entities.append(NormEntity(normalize_label(name), attrs, _labels(e.primary_keys),
                                   _labels(e.multivalued), _labels(e.derived), composite,
                                   e.weak))
    rels = tuple(
        NormRelationship(
            normalize_label(r.name),
            tuple(sorted((normalize_label(ent), normalize_cardinality(card))
                         for ent, card in zip(r.entities, _padded(r)))),
            r.weak, _labels(r.attributes))
        for r in schema.plain_relationships)
    isas = tuple((normalize_label(i.superclass), _labels(i.subclasses)) for i in schema.isas)
    return NormSchema(tuple(entities), rels, isas)


# --- counting ---------------------------------------------------------------------------

@dataclass
class Counts:
    """Fractional TP / FP / FN of one category."""

    tp: float = 0.0
    fp: float = 0.0
    fn: float = 0.0

    def f1(self) -> float:
        """``2TP / (2TP + FP + FN)``; NaN when the category is absent from both sides."""
        denom = 2 * self.tp + self.fp + self.fn
        return 2 * self.tp / denom if denom > 0 else math.nan


def match_owned(gt: list[tuple[Hashable, str]], pred: list[tuple[Hashable, str]]) -> Counts:
    """Score (owner, label) items: exact pairs are TP, same label on another owner is half."""
    g, p = Counter(gt), Counter(pred)
    exact = sum((g & p).values())
    g_left = Counter(label for _, label in (g - p).elements())
    p_left = Counter(label for _, label in (p - g).elements())
    moved = sum((g_left & p_left).values())
    w = STRUCTURAL_WEIGHT
    return Counts(tp=exact,
                  fp=len(pred) - exact - moved + w * moved,
                  fn=len(gt) - exact - moved + w * moved)


@dataclass
class RelationshipAlignment:
    """Greedy alignment of ground-truth to predicted relationships (indices into each)."""

    correct: list[tuple[int, int]]
    misconnected: list[tuple[int, int]]
    missed: list[int]
    extra: list[int]
    cardinality: int
    nary: int

    def pred_to_gt(self) -> dict[int, int]:
        return {j: i for i, j in self.correct + self.misconnected}


def _shared(a: NormRelationship, b: NormRelationship) -> int:
    """How many participant slots two relationships have in common."""
    return sum((a.participants & b.participants).values())


def align_relationships(gt: tuple[NormRelationship, ...],
                        pred: tuple[NormRelationship, ...]) -> RelationshipAlignment:
    """Align relationships in the four greedy passes described in the module docstring."""
    free_g, free_p = set(range(len(gt))), set(range(len(pred)))

    def take(pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        chosen = []
        for i, j in pairs:
            if i in free_g and j in free_p:
                free_g.discard(i)
                free_p.discard(j)
                chosen.append((i, j))
        return chosen

    def candidates(ok) -> list[tuple[int, int]]:
        return [(i, j) for i in sorted(free_g) for j in sorted(free_p) if ok(gt[i], pred[j])]

    exact = take(candidates(lambda a, b: a.name == b.name and a.ends == b.ends))
    card = take(candidates(lambda a, b: a.name == b.name and a.participants == b.participants))
    overlap = candidates(lambda a, b: a.name == b.name and _shared(a, b) > 0)
    overlap.sort(key=lambda ij: (-_shared(gt[ij[0]], pred[ij[1]]),
                                 abs(len(gt[ij[0]].ends) - len(pred[ij[1]].ends))))
    rewired = take(overlap)
    renamed = take(candidates(lambda a, b: a.participants == b.participants))
    nary = sum(1 for i, _ in rewired if len(gt[i].ends) >= NARY_MIN_ARITY)
    return RelationshipAlignment(correct=exact + card, misconnected=rewired + renamed,
                                 missed=sorted(free_g), extra=sorted(free_p),
                                 cardinality=len(card), nary=nary)


def relationship_counts(al: RelationshipAlignment, n_gt: int) -> Counts:
    """Paper Eq. 1-3 from an alignment."""
    miscon, w = len(al.misconnected), STRUCTURAL_WEIGHT
    return Counts(tp=max(0.0, n_gt - len(al.missed) - miscon - al.nary),
                  fp=len(al.extra) + w * (miscon + al.cardinality + al.nary),
                  fn=len(al.missed) + w * miscon)


def _entity_items(s: NormSchema, field: str) -> list[tuple[Hashable, str]]:
    return [(("entity", e.name), x) for e in s.entities for x in getattr(e, field)]


def category_counts(gt: NormSchema, pred: NormSchema) -> tuple[dict[str, Counts],
                                                                RelationshipAlignment]:
    """Counts of every category and the relationship alignment they rest on."""
    al = align_relationships(gt.relationships, pred.relationships)
    to_gt = al.pred_to_gt()
    out = {
        "entities": match_owned([(None, e.name) for e in gt.entities],
                                [(None, e.name) for e in pred.entities]),
        "weak_entities": match_owned([(None, e.name) for e in gt.entities if e.weak],
                                     [(None, e.name) for e in pred.entities if e.weak]),
        "relationships": relationship_counts(al, len(gt.relationships)),
    }
    out["attributes"] = match_owned(
        _entity_items(gt, "attributes")
        + [(("rel", i), a) for i, r in enumerate(gt.relationships) for a in r.attributes],
        _entity_items(pred, "attributes")
        + [(("rel", to_gt[j]) if j in to_gt else ("pred rel", j), a)
           for j, r in enumerate(pred.relationships) for a in r.attributes])
    for field in ("primary_keys", "multivalued", "derived"):
        out[field] = match_owned(_entity_items(gt, field), _entity_items(pred, field))
    out["composite"] = match_owned(
        [((e.name, p), c) for e in gt.entities for p, comps in e.composite for c in comps],
        [((e.name, p), c) for e in pred.entities for p, comps in e.composite for c in comps])
    both_weak = sum(1 for i, j in al.correct + al.misconnected
                    if gt.relationships[i].weak and pred.relationships[j].weak)
    out["weak_relationships"] = Counts(
        tp=both_weak,
        fp=sum(r.weak for r in pred.relationships) - both_weak,
        fn=sum(r.weak for r in gt.relationships) - both_weak)
    g_nary = tuple(r for r in gt.relationships if len(r.ends) >= NARY_MIN_ARITY)
    p_nary = tuple(r for r in pred.relationships if len(r.ends) >= NARY_MIN_ARITY)
    out["nary"] = relationship_counts(align_relationships(g_nary, p_nary), len(g_nary))
    out["isa"] = match_owned([(sup, sub) for sup, subs in gt.isas for sub in subs],
                             [(sup, sub) for sup, subs in pred.isas for sub in subs])
    return out, al


def _nanmean(values: Iterable[float]) -> float:
    vals = [v for v in values if not math.isnan(v)]
    return sum(vals) / len(vals) if vals else math.nan


# --- BLEU and GED views -----------------------------------------------------------------

def canonical_json(s: NormSchema) -> str:
    """Deterministically sorted JSON of a normalised schema (the BLEU text); '' if empty."""
    if not s.entities and not s.relationships and not s.isas:
        return ""
    doc = {
        "entities": sorted(
            ({"name": e.name, "attributes": list(e.attributes),
              "primary_keys": list(e.primary_keys), "multivalued": list(e.multivalued),
              "derived": list(e.derived),
              "composite": [[p, list(c)] for p, c in e.composite], "weak": e.weak}
             for e in s.entities), key=lambda d: json.dumps(d, sort_keys=True)),
        "relationships": sorted(
            [{"name": r.name, "entities": [list(end) for end in r.ends], "weak": r.weak,
              "attributes": list(r.attributes)} for r in s.relationships]
            + [{"name": "isa", "superclass": sup, "subclasses": list(subs)}
               for sup, subs in s.isas],
            key=lambda d: json.dumps(d, sort_keys=True)),
    }
    return json.dumps(doc, sort_keys=True, ensure_ascii=False)


def schema_graph(s: NormSchema) -> nx.Graph:
    """The labelled graph GED compares: entity, attribute, relationship and IS-A nodes.

    Attribute nodes carry their roles (pk / multivalued / derived) in the label; composite
    components hang off their parent; a relationship's edge to an entity is labelled with
    the sorted cardinalities of that entity's ends (a recursive pair folds into one edge).
    """
    g = nx.Graph()
    ent_node: dict[str, tuple] = {}

    def entity(name: str, weak: bool = False) -> tuple:
        if name not in ent_node:
            ent_node[name] = ("E", len(ent_node))
            g.add_node(ent_node[name], label=("entity", name, weak))
        return ent_node[name]

    for k, e in enumerate(s.entities):
        node = ("E", f"decl{k}")
        g.add_node(node, label=("entity", e.name, e.weak))
        ent_node.setdefault(e.name, node)
        comps = dict(e.composite)
        for a in e.attributes:
            roles = tuple(r for r, names in (("pk", e.primary_keys), ("mv", e.multivalued),
                                              ("der", e.derived)) if a in names)
            anode = ("A", k, a)
            g.add_node(anode, label=("attribute", a, roles))
            g.add_edge(node, anode, label="has")
            for c in comps.get(a, ()):
                g.add_node(("C", k, a, c), label=("attribute", c, ()))
                g.add_edge(anode, ("C", k, a, c), label="component")
    for k, r in enumerate(s.relationships):
        rnode = ("R", k)
        g.add_node(rnode, label=("relationship", r.name, r.weak))
        cards: dict[str, list[str]] = {}
        for ent, card in r.ends:
            cards.setdefault(ent, []).append(card)
        for ent, cs in cards.items():
            g.add_edge(rnode, entity(ent), label=tuple(sorted(cs)))
        for a in r.attributes:
            g.add_node(("RA", k, a), label=("attribute", a, ()))
            g.add_edge(rnode, ("RA", k, a), label="has")
    for k, (sup, subs) in enumerate(s.isas):
        inode = ("I", k)
        g.add_node(inode, label=("isa",))
        g.add_edge(inode, entity(sup), label="super")
        for sub in subs:
            if entity(sub) != entity(sup):
                g.add_edge(inode, entity(sub), label="sub")
    return g


# --- the metric interface ---------------------------------------------------------------

def score(gt: ERSchema, pred: ERSchema) -> dict:
    """Per-image values: every category F1, ``macro_f1``, ``bleu``, ``ged`` and the
    relationship error counts (``rel_missed``, ``rel_extra``, ``rel_misconnected``,
    ``rel_cardinality``, ``rel_nary``)."""
    g, p = normalize_schema(gt), normalize_schema(pred)
    counts, al = category_counts(g, p)
    out = {f"{c}_f1": counts[c].f1() for c in MAIN_CATEGORIES + EXTRA_CATEGORIES}
    out["macro_f1"] = _nanmean(out[f"{c}_f1"] for c in MAIN_CATEGORIES)
    ref = tokenize(canonical_json(g))
    out["bleu"] = bleu(ref, tokenize(canonical_json(p))) if ref else math.nan
    out["ged"] = normalized_ged(schema_graph(g), schema_graph(p), GED_TIME_LIMIT)
    out.update(rel_missed=len(al.missed), rel_extra=len(al.extra),
               rel_misconnected=len(al.misconnected), rel_cardinality=al.cardinality,
               rel_nary=al.nary)
    return out


def summarize(per_image: list[dict]) -> dict:
    """Mean over images of every per-image value, skipping NaN (not applicable) entries."""
    keys = list(SUMMARY_KEYS) + sorted({k for d in per_image for k in d} - set(SUMMARY_KEYS))
    return {k: _nanmean(float(d[k]) for d in per_image
                        if isinstance(d.get(k), (int, float)) and not isinstance(d[k], bool))
            for k in keys}


def load(doc: object) -> tuple[ERSchema, bool]:
    """Read an ER document, a loosely shaped ER dict, or raw text with JSON in it.

    Returns ``(schema, True)``, or ``(ERSchema(), False)`` when no ER structure (an object
    with entities or relationships) can be found.
    """
    if isinstance(doc, ERSchema):
        return doc, True
    if isinstance(doc, str):
        doc = find_json(doc)
    if isinstance(doc, dict) and doc.get("kind") == "er":
        try:
            return ERSchema.from_dict(doc), True
        except DocumentError:
            pass
    root = _find_root(doc, depth=3)
    if root is None:
        return ERSchema(), False
    return _coerce_schema(root), True


# --- tolerant reading of VLM-shaped JSON ------------------------------------------------

_ENTITY_KEYS = ("entities", "entity_sets", "entity")
_REL_KEYS = ("relationships", "relationship_sets", "relations", "relationship")
_ISA_KEYS = ("isa", "is_a", "isa_relationships", "inheritance", "specializations",
             "specialisations", "generalizations", "generalisations", "hierarchies")
_NAME_KEYS = ("name", "label", "entity", "title", "relationship", "relation", "attribute")
_ATTR_KEYS = ("attributes", "attrs", "fields", "columns", "properties")
_PK_KEYS = ("primary_keys", "primary_key", "pk", "pks", "keys", "key")
_MV_KEYS = ("multivalued", "multivalued_attributes", "multi_valued", "multivalue")
_DER_KEYS = ("derived", "derived_attributes")
_COMP_KEYS = ("composite", "composite_attributes")
_SUB_ATTR_KEYS = ("components", "sub_attributes", "subattributes", "parts", "children",
                  "attributes")
_PART_KEYS = ("entities", "participants", "participating_entities", "between", "connects",
              "members", "ends")
_CARD_KEYS = ("cardinalities", "cardinality", "multiplicities", "multiplicity",
              "cardinality_ratio", "ratio")
_SUPER_KEYS = ("superclass", "supertype", "parent", "super", "general", "generalization")
_SUBS_KEYS = ("subclasses", "subtypes", "children", "subs", "specializations", "subclass")
_WORD_CARDS = {"one": "1", "many": "N", "zero": "0"}


def _has_any(d: dict, keys: tuple[str, ...]) -> bool:
    return any(k in d for k in keys)


def _find_root(obj: object, depth: int) -> dict | None:
    """The first dict (breadth-first, ``depth`` levels) holding entities or relationships."""
    level = [obj]
    for _ in range(depth):
        nxt: list = []
        for o in level:
            if isinstance(o, dict):
                if _has_any(o, _ENTITY_KEYS + _REL_KEYS):
                    return o
                nxt.extend(o.values())
            elif isinstance(o, list):
                nxt.extend(o)
        level = nxt
    return None


def _first(d: dict, keys: tuple[str, ...], default=None):
    for k in keys:
        if k in d and d[k] is not None:
            return d[k]
    return default


def _text(v: object) -> str | None:
    if isinstance(v, str):
        return v.strip()
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(v)
    if isinstance(v, dict):
        name = _first(v, _NAME_KEYS)
        return _text(name) if name is not None else None
    return None


def _truthy(v: object) -> bool:
    if isinstance(v, str):
        return v.strip().lower() in ("true", "yes", "y", "1")
    return bool(v) if isinstance(v, (bool, int)) else False


def _texts(v: object) -> list[str]:
    """A string, a list of strings / named objects, or a dict's keys, as a list of names."""
    if v is None:
        return []
    if isinstance(v, dict):
        return [k for k in v if isinstance(k, str)]
    items = v if isinstance(v, list) else [v]
    return [t for t in (_text(x) for x in items) if t]


def _kind_of(d: dict) -> str:
    return " ".join(str(d.get(k, "")) for k in ("type", "kind", "role")).lower()


def _composite_map(v: object) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    if isinstance(v, dict):
        for parent, comps in v.items():
            out[str(parent)] = _texts(comps)
    elif isinstance(v, list):
        for item in v:
            name = _text(item) if isinstance(item, dict) else None
            if name:
                out[name] = _texts(_first(item, _SUB_ATTR_KEYS))
    return out


def _coerce_entity(name: str, body: object) -> Entity:
    """An entity from a dict body, a bare attribute list, or nothing."""
    e = Entity(name=name)
    if isinstance(body, list):
        body = {"attributes": body}
    if not isinstance(body, dict):
        return e
    e.weak = _truthy(_first(body, ("weak", "is_weak", "weak_entity"))) or "weak" in _kind_of(body)
    raw_attrs = _first(body, _ATTR_KEYS, [])
    if isinstance(raw_attrs, dict):
        raw_attrs = [{**v, "name": k} if isinstance(v, dict) else k for k, v in raw_attrs.items()]
    for a in raw_attrs if isinstance(raw_attrs, list) else [raw_attrs]:
        label = _text(a)
        if not label:
            continue
        e.attributes.append(label)
        if isinstance(a, dict):
            kind = _kind_of(a)
            if (_truthy(_first(a, ("primary_key", "pk", "is_primary_key", "is_key", "key",
                                   "primary"))) or "primary" in kind or kind.strip() == "key"):
                e.primary_keys.append(label)
            if _truthy(_first(a, ("multivalued", "multi_valued", "is_multivalued"))) \
                    or "multi" in kind:
                e.multivalued.append(label)
            if _truthy(_first(a, ("derived", "is_derived"))) or "derived" in kind:
                e.derived.append(label)
            comps = _texts(_first(a, _SUB_ATTR_KEYS))
            if comps or "composite" in kind:
                e.composite[label] = comps
    pk = _first(body, _PK_KEYS)
    if isinstance(pk, dict):      # {"primary": [...], "foreign": [...]}
        pk = _first(pk, ("primary", "primary_key", "primary_keys"))
    e.primary_keys += [] if isinstance(pk, bool) else _texts(pk)
    e.multivalued += _texts(_first(body, _MV_KEYS))
    e.derived += _texts(_first(body, _DER_KEYS))
    for parent, comps in _composite_map(_first(body, _COMP_KEYS)).items():
        e.composite.setdefault(parent, []).extend(comps)
    return e


def _cardinality_list(v: object, ents: list[str]) -> list[str]:
    """Cardinalities aligned to ``ents`` from a list, an entity->card dict or ``"1:N"``."""
    if isinstance(v, dict):
        cards = [_text(v.get(e)) or "" for e in ents]
    elif isinstance(v, str):
        s = v.strip()
        if "-to-" in s.lower():
            cards = [_WORD_CARDS.get(w, w) for w in s.lower().split("-to-")]
        else:
            cards = [c.strip() for c in s.split(":")]
    elif isinstance(v, list):
        cards = [_text(c) or "" for c in v]
    else:
        cards = []
    return (cards + [""] * len(ents))[:len(ents)]


def _coerce_relationship(d: dict, name: str | None = None) -> Relationship | IsA:
    sup = _first(d, _SUPER_KEYS)
    subs = _first(d, _SUBS_KEYS)
    label = name if name is not None else (_text(_first(d, _NAME_KEYS, "")) or "")
    if sup is not None and subs is not None:
        return IsA(superclass=_text(sup) or "", subclasses=_texts(subs), name=label or "ISA")
    parts = _first(d, _PART_KEYS)
    cards_raw = _first(d, _CARD_KEYS)
    ents: list[str] = []
    obj_cards: list[str] = []
    if isinstance(parts, dict):
        ents = [str(k) for k in parts]
        cards_raw = cards_raw if cards_raw is not None else parts
    elif isinstance(parts, list):
        for p in parts:
            is_obj = isinstance(p, dict)
            ent = _text(_first(p, ("entity", "name", "label")) if is_obj else p)
            if ent:
                ents.append(ent)
                card = _first(p, _CARD_KEYS + ("participation",)) if is_obj else None
                obj_cards.append(_text(card) or "")
    else:
        for a, b in (("from", "to"), ("source", "target"), ("entity1", "entity2")):
            if a in d and b in d:
                ents = [t for t in (_text(d[a]), _text(d[b])) if t]
                break
    if cards_raw is None and any(obj_cards):
        cards = [c or "" for c in obj_cards]
    else:
        cards = _cardinality_list(cards_raw, ents)
    weak = (_truthy(_first(d, ("weak", "identifying", "is_weak", "is_identifying")))
            or any(w in _kind_of(d) for w in ("weak", "identifying")))
    return Relationship(name=label, entities=ents, cardinalities=cards, weak=weak,
                        attributes=_texts(_first(d, _ATTR_KEYS)))


def _coerce_schema(d: dict) -> ERSchema:
    """Best-effort ERSchema from a dict with entities and/or relationships in any shape."""
    schema = ERSchema()
    raw_ents = _first(d, _ENTITY_KEYS, {})
    if isinstance(raw_ents, dict):
        pairs = list(raw_ents.items())
    elif isinstance(raw_ents, list):
        pairs = [(_text(x), x if isinstance(x, dict) else None) for x in raw_ents]
    else:
        pairs = []
    for name, body in pairs:
        if name and name not in schema.entities:
            schema.entities[str(name)] = _coerce_entity(str(name), body)
    raw_rels = _first(d, _REL_KEYS, [])
    if isinstance(raw_rels, dict):
        rels = [(k, v) for k, v in raw_rels.items() if isinstance(v, dict)]
    elif isinstance(raw_rels, list):
        rels = [(None, r) for r in raw_rels if isinstance(r, dict)]
    else:
        rels = []
    schema.relationships = [_coerce_relationship(r, name) for name, r in rels]
    raw_isa = _first(d, _ISA_KEYS, [])
    for item in raw_isa if isinstance(raw_isa, list) else [raw_isa]:
        if isinstance(item, dict):
            rel = _coerce_relationship(item)
            if isinstance(rel, IsA):
                schema.relationships.append(rel)
    return schema
