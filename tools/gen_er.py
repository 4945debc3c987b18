"""Generate ERUnderstand-style ER diagram fixtures rendered with Graphviz.

Seven subsets ("tiers"): easy, medium, hard, high (Chen notation), isa (IS-A only),
silberschatz (attributes listed inside entity boxes) and schema (relational tables).
Each item is a PNG plus a cvparse ER JSON document (FORMATS.md section 2) with extra keys:
"subset", "domain", "style", "engine", "source" (the DOT), "width"/"height", "elements"
(bbox per drawn element, image pixels) and per-entity / per-relationship "bbox" and "lines".

  python tools/gen_er.py                       # rebuild fixtures/er/dev and fixtures/er/test
  python tools/gen_er.py --split dev --seed 1001 --count 210 --out fixtures/er/dev
  python tools/gen_er.py --split style         # rebuild fixtures/er/style (other looks)
The "style" split keeps the notation and changes the look (fonts, text size, pen width,
colours, Graphviz engine; see LOOKS); its documents name the look in "style" and keep the
notation ("chen" / "silberschatz" / "schema") in "notation".  ``--looks a,b`` picks looks.
Needs Graphviz (`neato`, `dot`) on PATH and Pillow. Neato layouts are re-rendered pinned
(`neato -n`), so "source" is exactly the DOT that drew the PNG.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from looks import parse_looks  # tools/ is on sys.path when run as a script

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
import er_vocab as V  # noqa: E402
import wordfilter  # noqa: E402

from cvparse.model import Entity, ERSchema, IsA, Relationship, document_from_dict  # noqa: E402

TIERS = ("easy", "medium", "hard", "high", "isa", "silberschatz", "schema")
CHEN_TIERS = ("easy", "medium", "hard", "high", "isa")
DEFAULT_SPLITS = {"dev": (1001, 210), "test": (2002, 30), "style": (3003, 27)}
COMMITTED_SPLITS = ("dev", "test")   # what a bare `gen_er.py` rebuilds
MAX_PX = 2000          # cap on the PNG's longer side
BASE_DPI = 96
PAD_IN = 0.25          # graph pad in inches (Graphviz adds it on every side)
ISA_TRIES = 20         # neato restarts tried to get IS-A triangles oriented well
INVISIBLE = -2         # DEdge.rel of layout-only springs (never drawn, not ground truth)
LAYOUT_TRIES = 10      # restarts tried to keep straight lines off unrelated nodes


# ---------------------------------------------------------------------------------------
# Schema generation
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TierPlan:
    """How many of each construct one diagram of a tier gets (ranges are inclusive)."""

    core: tuple[int, int]
    rels: tuple[int, int]
    n_attrs: tuple[int, int]
    weak: tuple[int, int] = (0, 0)
    isa: tuple[int, int] = (0, 0)
    nary: tuple[int, int] = (0, 0)
    recursive: tuple[int, int] = (0, 0)
    relattr: tuple[int, int] = (0, 0)
    eer_p: float = 0.0            # chance per entity of each multivalued/derived/composite
    eer_min: int = 0              # guaranteed count of each of the three EER attribute kinds


PLANS = {
    "easy": TierPlan(core=(2, 4), rels=(2, 4), n_attrs=(2, 5), weak=(0, 1), recursive=(0, 1),
                     relattr=(0, 1)),
    "medium": TierPlan(core=(4, 6), rels=(5, 6), n_attrs=(3, 5), weak=(0, 1), isa=(0, 1),
                       nary=(0, 1), recursive=(0, 1), relattr=(0, 1), eer_p=0.2),
    "hard": TierPlan(core=(5, 7), rels=(7, 9), n_attrs=(3, 5), weak=(1, 2), isa=(1, 1),
                     nary=(1, 1), recursive=(0, 1), relattr=(1, 2), eer_p=0.2, eer_min=1),
    "high": TierPlan(core=(15, 18), rels=(17, 21), n_attrs=(1, 3), weak=(2, 3), isa=(1, 2),
                     nary=(1, 2), recursive=(1, 1), relattr=(1, 2), eer_p=0.1, eer_min=1),
    "silberschatz": TierPlan(core=(3, 6), rels=(3, 6), n_attrs=(3, 6), weak=(0, 1),
                             isa=(0, 1), nary=(0, 1), recursive=(0, 1), relattr=(0, 1),
                             eer_p=0.25),
}


def _camel_words(name: str) -> list[str]:
    return re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+", name)


def _cards(rng: random.Random) -> tuple[str, str]:
    return rng.choices([("1", "N"), ("N", "1"), ("1", "1"), ("M", "N")], [4, 2, 2, 3])[0]


def _entity_from_spec(spec: V.EntitySpec, rng: random.Random, n_attrs: int) -> Entity:
    """Key plus ``n_attrs - 1`` other attributes of the template, in template order."""
    rest = list(spec.attributes[1:])
    keep = set(rng.sample(rest, k=min(len(rest), max(0, n_attrs - 1))))
    attrs = [spec.attributes[0]] + [a for a in rest if a in keep]
    return Entity(name=spec.name, attributes=attrs, primary_keys=[spec.attributes[0]])


def _add_composite(ent: Entity, person: bool, rng: random.Random) -> bool:
    pool = V.PERSON_COMPOSITE if person else V.COMPOSITE
    options = []
    for cname in sorted(pool):
        comps = pool[cname]
        taken = set(ent.attributes) - ({"name"} if cname in ("name", "full_name") else set())
        if cname in ent.primary_keys or set(comps) & taken or cname in ent.composite:
            continue
        options.append(cname)
    if not options:
        return False
    cname = rng.choice(options)
    if cname in ("name", "full_name") and "name" in ent.attributes:
        ent.attributes[ent.attributes.index("name")] = cname
    elif cname not in ent.attributes:
        ent.attributes.append(cname)
    ent.composite[cname] = list(pool[cname])
    return True


def _add_special(ent: Entity, pool: list[str], target: list[str], rng: random.Random) -> bool:
    comps = {c for v in ent.composite.values() for c in v}
    options = [a for a in pool if a not in ent.attributes and a not in comps]
    if not options:
        return False
    a = rng.choice(options)
    ent.attributes.append(a)
    target.append(a)
    return True


def _enrich(schema: ERSchema, persons: set[str], plan: TierPlan, rng: random.Random) -> None:
    """Sprinkle multivalued, derived and composite attributes; guarantee ``eer_min`` each."""
    names = [n for n, e in schema.entities.items() if e.attributes]
    if not names:
        return
    counts = {"multi": 0, "derived": 0, "composite": 0}
    for n in names:
        e, person = schema.entities[n], n in persons
        if rng.random() < plan.eer_p and _add_composite(e, person, rng):
            counts["composite"] += 1
        if rng.random() < plan.eer_p and _add_special(
                e, V.PERSON_MULTIVALUED if person else V.MULTIVALUED, e.multivalued, rng):
            counts["multi"] += 1
        if rng.random() < plan.eer_p and _add_special(
                e, V.PERSON_DERIVED if person else V.DERIVED, e.derived, rng):
            counts["derived"] += 1
    for kind in counts:
        tries = 0
        while counts[kind] < plan.eer_min and tries < 20:
            tries += 1
            n = rng.choice(names)
            e, person = schema.entities[n], n in persons
            ok = (_add_composite(e, person, rng) if kind == "composite" else
                  _add_special(e, V.PERSON_MULTIVALUED if person else V.MULTIVALUED,
                               e.multivalued, rng) if kind == "multi" else
                  _add_special(e, V.PERSON_DERIVED if person else V.DERIVED, e.derived, rng))
            counts[kind] += ok


def _grow_core(dom: V.Domain, n: int, rng: random.Random) -> tuple[list[str], list[tuple]]:
    """A connected set of ``n`` domain entities and the domain relations that tie it."""
    adj: dict[str, list[tuple]] = {}
    for r in dom.rels:
        adj.setdefault(r[0], []).append(r)
        adj.setdefault(r[2], []).append(r)
    chosen = [rng.choice(sorted(adj))]
    tree: list[tuple] = []
    while len(chosen) < n:
        frontier = [r for e in chosen for r in adj.get(e, [])
                    if (r[0] in chosen) != (r[2] in chosen)]
        if not frontier:
            break
        r = rng.choice(frontier)
        chosen.append(r[2] if r[0] in chosen else r[0])
        tree.append(r)
    return chosen, tree


def build_chen_schema(dom: V.Domain, tier: str, rng: random.Random) -> tuple[ERSchema, set]:
    """A random Chen-notation schema for one tier drawn from a domain vocabulary."""
    plan = PLANS[tier]
    r = lambda lo_hi: rng.randint(*lo_hi)  # noqa: E731
    core, tree = _grow_core(dom, r(plan.core), rng)
    schema = ERSchema()
    persons: set[str] = set()
    for name in core:
        spec = dom.entities[name]
        schema.entities[name] = _entity_from_spec(spec, rng, r(plan.n_attrs))
        if spec.person:
            persons.add(name)
    rels: list[Relationship] = []

    def add_rel(a: str, verb: str, b: str, cards=None) -> None:
        ca, cb = cards or _cards(rng)
        rels.append(Relationship(name=verb, entities=[a, b], cardinalities=[ca, cb]))

    for a, verb, b in tree:
        add_rel(a, verb, b)
    extra = [x for x in dom.rels if x[0] in core and x[2] in core and x not in tree]
    rng.shuffle(extra)
    n_rels = max(r(plan.rels), len(tree))
    budget_binary = n_rels - len(tree)
    # EER / special constructs first so their counts are honoured.
    for _ in range(r(plan.recursive)):
        opts = [x for x in dom.recursive if x[0] in core]
        if opts:
            ent, verb = rng.choice(opts)
            add_rel(ent, verb, ent, ("1", "N"))
            budget_binary -= 1
    for _ in range(r(plan.nary)):
        opts = [x for x in dom.nary if not any(x[1] == q.name for q in rels)]
        opts.sort(key=lambda x: -sum(e in schema.entities for e in x[0]))
        if not opts:
            break
        ents, verb = opts[0] if rng.random() < 0.7 else rng.choice(opts)
        for e in ents:
            if e not in schema.entities:
                schema.entities[e] = _entity_from_spec(dom.entities[e], rng, r(plan.n_attrs))
                persons |= {e} if dom.entities[e].person else set()
        cards = [rng.choice(["1", "N", "M"]) for _ in ents]
        rels.append(Relationship(name=verb, entities=list(ents), cardinalities=cards))
        budget_binary -= 1
    for _ in range(r(plan.weak)):
        opts = [w for w in dom.weak if w.owner in schema.entities
                and w.name not in schema.entities]
        if not opts:
            break
        w = rng.choice(opts)
        k = min(len(w.attributes), max(1, r(plan.n_attrs)))
        schema.entities[w.name] = Entity(name=w.name, attributes=list(w.attributes[:k]),
                                         primary_keys=[w.attributes[0]], weak=True)
        rels.append(Relationship(name=w.verb, entities=[w.owner, w.name],
                                 cardinalities=["1", "N"], weak=True))
        budget_binary -= 1
    for a, verb, b in extra[:max(0, budget_binary)]:
        add_rel(a, verb, b)
    isas: list[IsA] = []
    for _ in range(r(plan.isa)):
        opts = [s for s in dom.isa if s.superclass in schema.entities
                and not any(i.superclass == s.superclass for i in isas)
                and not any(sub in schema.entities for sub, _ in s.subclasses)]
        if not opts:
            opts = [s for s in dom.isa if not any(sub in schema.entities for sub, _ in s.subclasses)
                    and s.superclass not in schema.entities]
            if not opts:
                break
            s = rng.choice(opts)
            sup = dom.entities[s.superclass]
            schema.entities[s.superclass] = _entity_from_spec(sup, rng, r(plan.n_attrs))
            if core:
                add_rel(s.superclass, rng.choice(V.GENERIC_VERBS), rng.choice(core))
        else:
            s = rng.choice(opts)
        subs = list(s.subclasses)
        if len(subs) > 2 and rng.random() < 0.5:
            subs = rng.sample(subs, 2)
        for sub, sattrs in subs:
            k = rng.randint(0, len(sattrs)) if tier != "high" else min(1, len(sattrs))
            schema.entities[sub] = Entity(name=sub, attributes=list(sattrs[:k]))
        isas.append(IsA(superclass=s.superclass, subclasses=[s for s, _ in subs]))
    # relationship attributes
    pool = dom.relattrs or V.GENERIC_RELATTRS
    plain = [x for x in rels if len(set(x.entities)) >= 2 or x.entities[0] == x.entities[-1]]
    for rel in rng.sample(plain, k=min(len(plain), r(plan.relattr))):
        rel.attributes.append(rng.choice(pool))
    _enrich(schema, persons, plan, rng)
    schema.relationships = list(rels) + list(isas)
    return schema, persons


def build_isa_schema(dom: V.Domain, rng: random.Random, with_attrs: bool) -> ERSchema:
    """IS-A-only diagram: one to three specialisations, optionally with attributes."""
    specs = list(dom.isa)
    rng.shuffle(specs)
    schema = ERSchema()
    for s in specs[:rng.randint(min(2, len(specs)), len(specs))]:
        names = [s.superclass] + [n for n, _ in s.subclasses]
        if any(n in schema.entities for n in names):
            continue
        sup = dom.entities[s.superclass]
        schema.entities[s.superclass] = (
            _entity_from_spec(sup, rng, rng.randint(2, 3)) if with_attrs else Entity(s.superclass))
        subs = list(s.subclasses)
        if len(subs) > 2 and rng.random() < 0.4:
            subs = rng.sample(subs, 2)
        for sub, sattrs in subs:
            keep = list(sattrs[:rng.randint(1, len(sattrs))]) if with_attrs else []
            schema.entities[sub] = Entity(sub, attributes=keep)
        schema.relationships.append(IsA(superclass=s.superclass,
                                        subclasses=[n for n, _ in subs]))
    # occasionally a second level: specialise one subclass further with generic names
    if rng.random() < 0.5:
        isa0 = schema.relationships[0]
        base = rng.choice(isa0.subclasses)
        kids = [f"{pre}{base}" for pre in rng.sample(["Senior", "Junior", "Regional",
                                                       "International", "Temporary"], 2)]
        for k in kids:
            schema.entities[k] = Entity(k)
        schema.relationships.append(IsA(superclass=base, subclasses=kids))
    return schema


_SQL_TYPES = [("_id", "INT"), ("_no", "VARCHAR(20)"), ("code", "CHAR(8)"), ("date", "DATE"),
              ("_on", "DATE"), ("_at", "TIMESTAMP"), ("time", "TIME"), ("price", "DECIMAL(10,2)"),
              ("amount", "DECIMAL(12,2)"), ("total", "DECIMAL(12,2)"), ("salary", "DECIMAL(10,2)"),
              ("rate", "DECIMAL(5,2)"), ("year", "SMALLINT"), ("capacity", "INT"),
              ("count", "INT"), ("email", "VARCHAR(120)"), ("has_", "BOOLEAN"),
              ("paid", "BOOLEAN"), ("isbn", "CHAR(13)"), ("url", "TEXT"), ("description", "TEXT")]


def _sql_type(col: str) -> str:
    for key, typ in _SQL_TYPES:
        if key in col:
            return typ
    return "VARCHAR(%d)" % (40 + 20 * (len(col) % 4))


def _table_name(entity: str, style: str) -> str:
    words = [w.lower() for w in _camel_words(entity)]
    if style == "pascal":
        return entity
    if style == "snake_plural":
        w = words[-1]
        words[-1] = (w[:-1] + "ies" if w.endswith("y") and w[-2:-1] not in "aeiou"
                     else w + "es" if w.endswith(("s", "x", "ch", "sh")) else w + "s")
    return "_".join(words)


def build_relational_schema(dom: V.Domain, rng: random.Random, n_elements: int,
                            typed: bool, style: str) -> tuple[ERSchema, dict[str, dict]]:
    """A relational schema (tables, columns, PKs, FK-backed binary relationships)."""
    n_tables = max(2, min(len(dom.entities), round(n_elements / 6.5)))
    core, tree = _grow_core(dom, n_tables, rng)
    extra = [x for x in dom.rels if x[0] in core and x[2] in core and x not in tree]
    rels = tree + rng.sample(extra, k=min(len(extra), rng.randint(0, max(0, len(core) // 4))))
    tname = {e: _table_name(e, style) for e in core}
    schema = ERSchema()
    for e in core:
        ent = _entity_from_spec(dom.entities[e], rng, rng.randint(3, 6))
        ent.name = tname[e]
        if dom.entities[e].person and "name" in ent.attributes:
            i = ent.attributes.index("name")
            ent.attributes[i:i + 1] = ["first_name", "last_name"]
        schema.entities[tname[e]] = ent
    for a, verb, b in rels:
        ca, cb = rng.choices([("1", "N"), ("N", "1"), ("1", "1")], [6, 1, 1])[0]
        parent, child = (a, b) if ca == "1" else (b, a)
        fk = dom.entities[parent].attributes[0]
        cent = schema.entities[tname[child]]
        if fk not in cent.attributes:
            cent.attributes.append(fk)
        schema.relationships.append(Relationship(name=verb, entities=[tname[a], tname[b]],
                                                 cardinalities=[ca, cb]))
    types = {t: {c: _sql_type(c) for c in e.attributes} for t, e in schema.entities.items()}
    return schema, (types if typed else {})


# ---------------------------------------------------------------------------------------
# Drawing: schema -> abstract Graphviz drawing -> DOT text
# ---------------------------------------------------------------------------------------

@dataclass
class DNode:
    """One Graphviz node and what it stands for in the ground truth."""

    id: str
    attrs: dict
    kind: str
    name: str
    owner: str = ""
    parent: str = ""
    rows: list = field(default_factory=list)   # table rows: (text drawn, attr name, kind)


@dataclass
class DEdge:
    """One Graphviz edge; ``rel`` indexes schema.relationships (-1: attribute link)."""

    tail: str
    head: str
    attrs: dict
    rel: int = -1
    entity: str = ""       # the entity this line connects the relationship to
    card_key: str = ""     # which label attribute carries the cardinality


@dataclass
class Drawing:
    """Nodes, edges and graph attributes for one diagram."""

    graph: dict
    nodes: list[DNode] = field(default_factory=list)
    edges: list[DEdge] = field(default_factory=list)
    look: "Look | None" = None    # None: the committed look (fontsize 14, black on white)


@dataclass(frozen=True)
class Look:
    """A change of appearance for the style split: same notation and ground truth, other
    Graphviz default node / edge / graph attributes, engine or colours."""

    description: str
    node: tuple[tuple[str, object], ...] = ()
    edge: tuple[tuple[str, object], ...] = ()
    graph: tuple[tuple[str, object], ...] = ()
    swap_engine: bool = False     # dot <-> neato against the tier's usual choice
    colour: bool = False          # keep the PNG in colour (else 4 grey levels)


def _font_look(name: str) -> Look:
    return Look(f"{name} text", node=(("fontsize", 14), ("fontname", name)),
                edge=(("fontsize", 14), ("fontname", name)))


LOOKS = {
    "liberation-sans": _font_look("Liberation Sans"),
    "dejavu-sans": _font_look("DejaVu Sans"),   # the committed look is Times = Liberation Serif
    "liberation-mono": _font_look("Liberation Mono"),
    "dejavu-serif": _font_look("DejaVu Serif"),
    "small-text": Look("fontsize 10", node=(("fontsize", 10),), edge=(("fontsize", 10),)),
    "large-text": Look("fontsize 18", node=(("fontsize", 18),), edge=(("fontsize", 18),)),
    "thick-lines": Look("penwidth 2 on shapes and lines",
                        node=(("fontsize", 14), ("penwidth", 2)),
                        edge=(("fontsize", 14), ("penwidth", 2))),
    "swap-engine": Look("other Graphviz engine: fdp for Chen tiers (else neato), dot <-> neato "
                        "for isa / silberschatz / schema", swap_engine=True),
    "colour": Look("dark blue outlines/text on light blue fills, dark red lines, cream paper",
                   node=(("fontsize", 14), ("color", "#1f4e79"), ("fontcolor", "#1f4e79"),
                         ("style", "filled"), ("fillcolor", "#dce9f7")),
                   edge=(("fontsize", 14), ("color", "#a31515"), ("fontcolor", "#a31515")),
                   graph=(("bgcolor", "#fffdf3"),), colour=True),
}


def _q(v) -> str:
    s = str(v)
    if s.startswith("<") and s.endswith(">"):
        return s
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(d: Drawing, pos: dict[str, tuple[float, float]] | None = None) -> str:
    """Serialise a drawing; with ``pos`` every node is pinned (for `neato -n`)."""
    def fmt(attrs: dict) -> str:
        return ", ".join(f"{k}={_q(v)}" for k, v in attrs.items())
    if d.look is None or not (d.look.node or d.look.edge):
        defaults = ["  node [fontsize=14];", "  edge [fontsize=14];"]
    else:
        defaults = [f"  node [{fmt(dict(d.look.node))}];", f"  edge [{fmt(dict(d.look.edge))}];"]
    lines = ["graph ER {", f"  graph [{fmt(d.graph)}];", *defaults]
    for n in d.nodes:
        a = dict(n.attrs)
        if pos:
            a["pos"] = "%.2f,%.2f!" % pos[n.id]
        lines.append(f"  {n.id} [{fmt(a)}];")
    for e in d.edges:
        lines.append(f"  {e.tail} -- {e.head}" + (f" [{fmt(e.attrs)}]" if e.attrs else "") + ";")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _html_escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def chen_drawing(schema: ERSchema, engine: str, card_at_end: bool,
                 bottom_up: bool = False) -> Drawing:
    """Chen notation: boxes, diamonds, ellipses, IS-A triangles; cardinalities on lines."""
    g = {"layout": engine, "overlap": "false", "overlap_scaling": 1, "sep": "+10",
         "pad": PAD_IN, "bgcolor": "white"}
    if engine == "dot":
        g.update({"rankdir": "BT" if bottom_up else "TB", "nodesep": "0.3", "ranksep": "0.5",
                  "splines": "true"})
    d = Drawing(graph=g)
    eid = {}
    long_len = 1.3
    for i, (name, ent) in enumerate(schema.entities.items()):
        eid[name] = f"E{i}"
        a = {"shape": "box", "label": name}
        if ent.weak:
            a["peripheries"] = 2
        d.nodes.append(DNode(f"E{i}", a, "weak_entity" if ent.weak else "entity", name))
        _chen_attrs(d, f"E{i}", ent, name, f"A{i}_")
    for k, rel in enumerate(schema.relationships):
        if isinstance(rel, IsA):
            iid = f"I{k}"
            d.nodes.append(DNode(iid, {"shape": "invtriangle" if bottom_up else "triangle",
                                       "label": rel.name,
                                       "margin": "0.02"}, "isa", rel.name))
            d.edges.append(DEdge(eid[rel.superclass], iid, {"len": 1.0}, k, rel.superclass))
            for sub in rel.subclasses:
                d.edges.append(DEdge(iid, eid[sub], {"len": 1.0}, k, sub))
            if engine != "dot":   # invisible springs: superclass, triangle, subclasses in a row
                for sub in rel.subclasses:
                    d.edges.append(DEdge(eid[rel.superclass], eid[sub],
                                         {"style": "invis", "len": 2.0}, INVISIBLE))
                for a, b in zip(rel.subclasses, rel.subclasses[1:]):
                    d.edges.append(DEdge(eid[a], eid[b], {"style": "invis", "len": 1.4},
                                         INVISIBLE))
            continue
        rid = f"R{k}"
        a = {"shape": "diamond", "label": rel.name}
        if rel.weak:
            a["peripheries"] = 2
        d.nodes.append(DNode(rid, a, "identifying_relationship" if rel.weak else "relationship",
                             rel.name))
        for ent, card in zip(rel.entities, rel.cardinalities):
            ea = {"len": long_len}
            key = "headlabel" if card_at_end else "label"
            if card:
                ea[key] = card
            if card_at_end:
                ea.update({"labeldistance": "1.6", "labelangle": "25"})
            d.edges.append(DEdge(rid, eid[ent], ea, k, ent, key if card else ""))
        for j, an in enumerate(rel.attributes):
            aid = f"RA{k}_{j}"
            d.nodes.append(DNode(aid, {"shape": "ellipse", "label": an}, "relationship_attribute",
                                 an, owner=rel.name))
            d.edges.append(DEdge(rid, aid, {"len": 0.8}, -1))
    if engine != "dot":
        first = next((i for i, e in enumerate(d.edges) if e.head.startswith("I")), None)
        if first is not None:   # neato rotates the layout so this edge points straight down
            d.edges.insert(0, d.edges.pop(first))
            g["normalize"] = 270
    return d


def _chen_attrs(d: Drawing, eid: str, ent: Entity, owner: str, prefix: str) -> None:
    for j, an in enumerate(ent.attributes):
        aid = f"{prefix}{j}"
        a = {"shape": "ellipse", "label": an}
        kind = "attribute"
        if an in ent.primary_keys:
            a["label"] = f"<<U>{_html_escape(an)}</U>>"
            kind = "key_attribute"
        if an in ent.multivalued:
            a["peripheries"] = 2
            kind = "multivalued_attribute"
        if an in ent.derived:
            a["style"] = "dashed"
            kind = "derived_attribute"
        if an in ent.composite:
            kind = "composite_attribute"
        d.nodes.append(DNode(aid, a, kind, an, owner=owner))
        d.edges.append(DEdge(eid, aid, {"len": 0.9}, -1))
        for c, cn in enumerate(ent.composite.get(an, [])):
            cid = f"{aid}_{c}"
            d.nodes.append(DNode(cid, {"shape": "ellipse", "label": cn}, "component_attribute",
                                 cn, owner=owner, parent=an))
            d.edges.append(DEdge(aid, cid, {"len": 0.7}, -1))


def _row(text_html: str, align: str = "LEFT") -> str:
    return f'<TR><TD ALIGN="{align}">{text_html}</TD></TR>'


def silberschatz_drawing(schema: ERSchema, engine: str) -> Drawing:
    """Silberschatz style: entity tables listing attributes; diamonds for relationships."""
    g = {"layout": engine, "overlap": "false", "overlap_scaling": 1, "sep": "+24",
         "pad": PAD_IN, "bgcolor": "white"}
    if engine == "dot":
        g.update({"rankdir": "LR", "nodesep": "0.4", "ranksep": "0.6", "splines": "true"})
    d = Drawing(graph=g)
    eid = {}
    for i, (name, ent) in enumerate(schema.entities.items()):
        eid[name] = f"E{i}"
        rows, rinfo = [], []
        for an in ent.attributes:
            shown = _html_escape(an)
            kind = "attribute"
            if an in ent.multivalued:
                shown, kind = "{" + shown + "}", "multivalued_attribute"
            if an in ent.derived:
                shown, kind = shown + "()", "derived_attribute"
            if an in ent.composite:
                kind = "composite_attribute"
            if an in ent.primary_keys:
                rows.append(_row(f"<U>{shown}</U>"))
                kind = "key_attribute"
            else:
                rows.append(_row(shown))
            rinfo.append((html_unescape(shown), an, kind, ""))
            for cn in ent.composite.get(an, []):
                rows.append(_row("&nbsp;&nbsp;&nbsp;" + _html_escape(cn)))
                rinfo.append(("\u00a0\u00a0\u00a0" + cn, cn, "component_attribute", an))
        sides = ' BORDER="1" SIDES="B"' if rows else ""
        head = f'<TR><TD{sides} CELLPADDING="4">{_html_escape(name)}</TD></TR>'
        inner = "".join([head] + rows)
        if ent.weak:
            label = ('<<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="2" CELLPADDING="0"><TR>'
                     '<TD BORDER="1"><TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" '
                     f'CELLPADDING="2">{inner}</TABLE></TD></TR></TABLE>>')
        else:
            label = ('<<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="0" CELLPADDING="2">'
                     f"{inner}</TABLE>>")
        d.nodes.append(DNode(f"E{i}", {"shape": "none", "margin": "0", "label": label},
                             "weak_entity" if ent.weak else "entity", name, rows=rinfo))
    for k, rel in enumerate(schema.relationships):
        if isinstance(rel, IsA):
            for sub in rel.subclasses:   # hollow arrow from subclass to superclass
                d.edges.append(DEdge(eid[rel.superclass], eid[sub],
                                     {"dir": "back", "arrowtail": "empty", "len": 1.4},
                                     k, sub))
            continue
        rid = f"R{k}"
        a = {"shape": "diamond", "label": rel.name}
        if rel.weak:
            a["peripheries"] = 2
        d.nodes.append(DNode(rid, a, "identifying_relationship" if rel.weak else "relationship",
                             rel.name))
        for ent, card in zip(rel.entities, rel.cardinalities):
            ea = {"len": 1.6}
            if card:
                ea["label"] = card
            d.edges.append(DEdge(rid, eid[ent], ea, k, ent, "label" if card else ""))
        if rel.attributes:
            aid = f"RA{k}"
            rows = "".join(_row(_html_escape(an)) for an in rel.attributes)
            label = ('<<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="0" CELLPADDING="2">'
                     f"{rows}</TABLE>>")
            d.nodes.append(DNode(aid, {"shape": "none", "margin": "0", "label": label},
                                 "relationship_attribute_box", rel.name,
                                 rows=[(an, an, "relationship_attribute", "")
                                       for an in rel.attributes]))
            d.edges.append(DEdge(rid, aid, {"style": "dashed", "len": 1.0}, -1))
    return d


def html_unescape(s: str) -> str:
    return s.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def schema_drawing(schema: ERSchema, types: dict, engine: str, rankdir: str) -> Drawing:
    """Relational tables (name + columns, PK underlined) joined by labelled lines."""
    g = {"layout": engine, "overlap": "false", "overlap_scaling": 1, "sep": "+40",
         "pad": PAD_IN, "bgcolor": "white", "splines": "true"}
    if engine == "dot":
        g.update({"rankdir": rankdir, "nodesep": "0.5", "ranksep": "0.9"})
    d = Drawing(graph=g)
    tid = {}
    for i, (name, ent) in enumerate(schema.entities.items()):
        tid[name] = f"T{i}"
        cols = types.get(name, {})
        span = ' COLSPAN="2"' if cols else ""
        rows = [f'<TR><TD{span} CELLPADDING="5"><B>{_html_escape(name)}</B></TD></TR>']
        rinfo = [(name, name, "table_name", "")]
        for c in ent.attributes:
            shown = f"<U>{_html_escape(c)}</U>" if c in ent.primary_keys else _html_escape(c)
            typ = f'<TD ALIGN="LEFT">{cols[c]}</TD>' if cols else ""
            rows.append(f'<TR><TD ALIGN="LEFT">{shown}</TD>{typ}</TR>')
            rinfo.append((c, c, "key_attribute" if c in ent.primary_keys else "attribute", ""))
            if cols:
                rinfo.append((cols[c], None, "type", c))
        label = ('<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="3">'
                 + "".join(rows) + "</TABLE>>")
        d.nodes.append(DNode(f"T{i}", {"shape": "none", "margin": "0", "label": label},
                             "entity", name, rows=rinfo))
    size = {}   # rough table size in inches, so neato's ideal edge length clears both tables
    for name, ent in schema.entities.items():
        cols = types.get(name, {})
        chars = max(len(x) for x in [name] + ent.attributes) + (
            max(len(t) for t in cols.values()) + 2 if cols else 0)
        size[name] = (chars * 8 + 12) / 72, (len(ent.attributes) + 1) * 22 / 72
    for k, rel in enumerate(schema.relationships):
        a, b = rel.entities
        ca, cb = rel.cardinalities
        span = max(size[a][0] + size[b][0], size[a][1] + size[b][1]) / 2
        ea = {"label": rel.name, "taillabel": ca, "headlabel": cb, "labeldistance": "2",
              "len": round(span + 1.3, 2)}
        d.edges.append(DEdge(tid[a], tid[b], ea, k, f"{a}|{b}", "taillabel|headlabel"))
    return d


# ---------------------------------------------------------------------------------------
# Rendering and geometry
# ---------------------------------------------------------------------------------------

def run_graphviz(engine: str, dot_text: str, fmts: list[tuple[str, Path | None]],
                 args: tuple[str, ...] = ()) -> dict:
    """Run one Graphviz engine; returns the parsed JSON layout if "json" was requested."""
    cmd = [engine, *args]
    for fmt, path in fmts:
        cmd += [f"-T{fmt}"] + ([f"-o{path}"] if path else [])
    out = subprocess.run(cmd, input=dot_text.encode(), capture_output=True, check=True)
    if any(f == "json" and p is None for f, p in fmts):
        return json.loads(out.stdout)
    return {}


def _positions(layout: dict) -> dict[str, tuple[float, float]]:
    return {o["name"]: tuple(float(v) for v in o["pos"].split(","))
            for o in layout.get("objects", []) if "pos" in o}


def _isa_score(d: Drawing, pos: dict, schema: ERSchema) -> tuple[int, int, dict[str, str]]:
    """(satisfied, total, shape per IS-A node): superclass at the apex, subclasses at base.
    A shape is only returned for hierarchies whose geometry fully agrees."""
    ok = total = 0
    shapes = {}
    eid = {n.name: n.id for n in d.nodes if n.kind in ("entity", "weak_entity")}
    for k, rel in enumerate(schema.relationships):
        if not isinstance(rel, IsA):
            continue
        ix, iy = pos[f"I{k}"]
        sx, sy = pos[eid[rel.superclass]]
        up = sy > iy                       # Graphviz y grows upwards
        good = abs(sy - iy) >= 0.5 * math.hypot(sx - ix, sy - iy)
        for sub in rel.subclasses:
            bx, by = pos[eid[sub]]
            good_sub = ((by < iy) == up) and abs(by - iy) >= 0.3 * math.hypot(bx - ix, by - iy)
            ok += good_sub
            good = good and good_sub
        ok += abs(sy - iy) >= 0.5 * math.hypot(sx - ix, sy - iy)
        total += 1 + len(rel.subclasses)
        shapes[f"I{k}"] = ("triangle" if up else "invtriangle", good)
    return ok, total, shapes


@dataclass(frozen=True)
class PxMap:
    """Graphviz points (y up, origin at bb corner) -> PNG pixels (y down)."""

    x0: float
    y1: float
    pad: float
    scale: float

    def pt(self, x: float, y: float) -> list[float]:
        return [round((x - self.x0 + self.pad) * self.scale, 1),
                round((self.y1 - y + self.pad) * self.scale, 1)]

    def box(self, x1: float, y1: float, x2: float, y2: float) -> list[float]:
        a, b = self.pt(x1, y2), self.pt(x2, y1)
        return [a[0], a[1], b[0], b[1]]


def _bezier(points: list[list[float]], steps: int = 6) -> list[list[float]]:
    if len(points) < 4:
        return points
    out = [points[0]]
    for i in range(0, len(points) - 3, 3):
        p0, p1, p2, p3 = points[i:i + 4]
        for s in range(1, steps + 1):
            t = s / steps
            u = 1 - t
            out.append([u**3 * p0[j] + 3 * u * u * t * p1[j] + 3 * u * t * t * p2[j]
                        + t**3 * p3[j] for j in (0, 1)])
    return out


def _text_boxes(ops: list[dict]) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Text ops of an xdot draw list as (text, box in points)."""
    size, out = 14.0, []
    for op in ops or []:
        if op["op"] == "F":
            size = float(op["size"])
        elif op["op"] == "T":
            x, y = op["pt"]
            w = float(op["width"])
            x1 = x - w / 2 if op["align"] == "c" else x - w if op["align"] == "r" else x
            out.append((op["text"], (x1, y - 0.25 * size, x1 + w, y + 0.8 * size)))
    return out


def _simplify(pts: list[list[float]], tol: float = 0.4) -> list[list[float]]:
    """Douglas-Peucker: drop points within ``tol`` of the chord (straight lines -> 2 points)."""
    if len(pts) < 3:
        return pts
    (x1, y1), (x2, y2) = pts[0], pts[-1]
    n = math.hypot(x2 - x1, y2 - y1) or 1e-9
    dist = [abs((x2 - x1) * (y1 - y) - (x1 - x) * (y2 - y1)) / n for x, y in pts[1:-1]]
    i = max(range(len(dist)), key=dist.__getitem__)
    if dist[i] <= tol:
        return [pts[0], pts[-1]]
    return _simplify(pts[:i + 2], tol)[:-1] + _simplify(pts[i + 1:], tol)


def _line_points(ops: list[dict]) -> list[list[float]]:
    for op in ops or []:
        if op["op"] == "b":
            return _bezier(op["points"])
        if op["op"] == "L":
            return op["points"]
    return []


def geometry(d: Drawing, layout: dict, schema: ERSchema, pm: PxMap) -> dict:
    """Per-element bboxes and per-relationship lines, in PNG pixels."""
    objs = {o["name"]: o for o in layout["objects"]}
    elements, ent_box, rel_box = [], {}, {}
    for n in d.nodes:
        o = objs[n.id]
        x, y = (float(v) for v in o["pos"].split(","))
        w, h = float(o["width"]) * 36, float(o["height"]) * 36
        bb = pm.box(x - w, y - h, x + w, y + h)
        el = {"name": n.name, "kind": n.kind, "bbox": bb}
        if n.owner:
            el["owner"] = n.owner
        if n.parent:
            el["parent"] = n.parent
        if n.kind in ("entity", "weak_entity"):
            ent_box[n.name] = bb
        if n.id[0] in "RI":
            rel_box[n.id] = bb
        if n.kind != "relationship_attribute_box":
            elements.append(el)
        texts = _text_boxes(o.get("_ldraw_"))
        ti = 0
        for shown, an, kind, parent in n.rows:   # table rows, matched in drawing order
            while ti < len(texts) and texts[ti][0] != shown:
                ti += 1
            if ti == len(texts):
                raise RuntimeError(f"row text {shown!r} not found in {n.id}")
            if an is not None and kind != "table_name":
                row = {"name": an, "kind": kind, "bbox": pm.box(*texts[ti][1]),
                       "owner": n.name}
                if parent:
                    row["parent"] = parent
                elements.append(row)
            ti += 1
    # Graphviz numbers edges (_gvid) by tail node, not file order: match on endpoints.
    names = {o["_gvid"]: o["name"] for o in layout["objects"]}
    pending: dict[tuple, list[DEdge]] = {}
    for e in d.edges:
        pending.setdefault((e.tail, e.head), []).append(e)
    lines: dict[int, list] = {}
    for le in layout["edges"]:
        e = pending[(names[le["tail"]], names[le["head"]])].pop(0)
        if e.rel < 0:
            continue
        pts = _simplify([pm.pt(*p) for p in _line_points(le.get("_draw_"))])
        item = ({"entities": e.entity.split("|")} if "|" in e.entity else {"entity": e.entity})
        item["points"] = pts
        labels = {}
        for key, draw in (("label", "_ldraw_"), ("headlabel", "_hldraw_"),
                          ("taillabel", "_tldraw_")):
            tb = _text_boxes(le.get(draw))
            if tb:
                labels[key] = {"text": tb[0][0], "bbox": pm.box(*tb[0][1])}
        if labels:
            item["labels"] = labels
        lines.setdefault(e.rel, []).append(item)
    return {"elements": elements, "ent_box": ent_box, "rel_box": rel_box, "lines": lines}


def _to_png(src: Path, dst: Path) -> tuple[int, int]:
    """Flatten Graphviz's RGBA PNG onto white and store 4 grey levels as a 2-bit PNG
    (black-on-white line art keeps its anti-aliased look at a third of the size)."""
    im = Image.open(src).convert("RGBA")
    bg = Image.new("RGBA", im.size, (255, 255, 255, 255))
    grey = Image.alpha_composite(bg, im).convert("L")
    q = grey.point(lambda v: (v + 42) // 85)            # 0..3
    pal = Image.frombytes("P", q.size, q.tobytes())
    pal.putpalette([0, 0, 0, 85, 85, 85, 170, 170, 170, 255, 255, 255])
    pal.save(dst, optimize=True, bits=2)
    return im.size


def _to_png_colour(src: Path, dst: Path) -> tuple[int, int]:
    """Flatten onto white and keep colour as a 32-colour palette PNG (colour looks)."""
    im = Image.open(src).convert("RGBA")
    bg = Image.new("RGBA", im.size, (255, 255, 255, 255))
    rgb = Image.alpha_composite(bg, im).convert("RGB")
    rgb.quantize(colors=32, method=Image.Quantize.MEDIANCUT,
                 dither=Image.Dither.NONE).save(dst, optimize=True)
    return im.size


def _segment_hits_box(p: tuple, q: tuple, box: tuple) -> bool:
    """Whether segment p-q passes through the axis-aligned box (x1, y1, x2, y2)."""
    x1, y1, x2, y2 = box
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for den, num in ((-dx, p[0] - x1), (dx, x2 - p[0]), (-dy, p[1] - y1), (dy, y2 - p[1])):
        if den == 0:
            if num < 0:
                return False
        else:
            t = num / den
            if den < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def _segments_cross(p1: tuple, p2: tuple, q1: tuple, q2: tuple) -> bool:
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (orient(p1, p2, q1) * orient(p1, p2, q2) < 0
            and orient(q1, q2, p1) * orient(q1, q2, p2) < 0)


def _clutter(d: Drawing, layout: dict) -> int:
    """3 x (line, node) pairs where a straight line runs through a node it does not join,
    plus the number of line crossings."""
    boxes = {}
    for o in layout["objects"]:
        x, y = (float(v) for v in o["pos"].split(","))
        w, h = float(o["width"]) * 30, float(o["height"]) * 30   # 5/6 of the half-size
        boxes[o["name"]] = (x - w, y - h, x + w, y + h)
    cen = {k: ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for k, b in boxes.items()}
    hits = 0
    segs = [(e.tail, e.head, cen[e.tail], cen[e.head]) for e in d.edges if e.rel != INVISIBLE]
    for t, h, p, q in segs:
        for k, b in boxes.items():
            if k not in (t, h) and _segment_hits_box(p, q, b):
                hits += 3
    for i, (t1, h1, p1, q1) in enumerate(segs):
        for t2, h2, p2, q2 in segs[i + 1:]:
            if not {t1, h1} & {t2, h2} and _segments_cross(p1, q1, p2, q2):
                hits += 1
    return hits


def _recursive_ports(d: Drawing, pos: dict) -> None:
    """Spread the two lines of a recursive relationship over distinct node ports."""
    seen: dict[tuple, int] = {}
    for e in d.edges:
        if e.rel < 0:
            continue
        key = (e.tail, e.head)
        seen[key] = seen.get(key, 0) + 1
    for (tail, head), n in seen.items():
        if n < 2:
            continue
        (rx, ry), (ex, ey) = pos[tail], pos[head]
        horizontal = abs(rx - ex) >= abs(ry - ey)
        if horizontal:
            side = "e" if rx > ex else "w"
            ent_ports, rel_ports = ["n" + side, "s" + side], ["n", "s"]
        else:
            side = "n" if ry > ey else "s"
            ent_ports, rel_ports = [side + "w", side + "e"], ["w", "e"]
        i = 0
        for e in d.edges:
            if (e.tail, e.head) == (tail, head) and e.rel >= 0:
                e.attrs["tailport"], e.attrs["headport"] = rel_ports[i], ent_ports[i]
                i += 1


def _isa_ports(d: Drawing, upright: set[str]) -> None:
    """Superclass line meets the triangle's apex, subclass lines its base (only for the
    triangles in ``upright``, whose superclass and subclasses lie on opposite sides)."""
    shape = {n.id: n.attrs["shape"] for n in d.nodes if n.kind == "isa" and n.id in upright}
    for e in d.edges:
        if e.head in shape:      # superclass -- ISA
            e.attrs["headport"] = "n" if shape[e.head] == "triangle" else "s"
        elif e.tail in shape:    # ISA -- subclass
            e.attrs["tailport"] = "s" if shape[e.tail] == "triangle" else "n"


def render(d: Drawing, schema: ERSchema, seed: int, out_png: Path, tmp: Path) -> dict:
    """Lay out (best of several restarts: IS-A triangles oriented, few lines through
    nodes), then render PNG and JSON in one pinned pass and measure the geometry."""
    engine = d.graph["layout"]
    has_isa = any(n.kind == "isa" for n in d.nodes)
    pos = None
    if engine == "dot":
        d.graph["dpi"] = BASE_DPI
        _isa_ports(d, {n.id for n in d.nodes if n.kind == "isa"})
        layout = run_graphviz("dot", to_dot(d), [("json", None)])
        final_engine, args = "dot", ()
    else:
        best = None
        for t in range(ISA_TRIES if has_isa else LAYOUT_TRIES):
            d.graph["start"] = seed + t
            lay = run_graphviz(engine, to_dot(d), [("json", None)])
            p = _positions(lay)
            ok, total, shapes = _isa_score(d, p, schema) if has_isa else (0, 0, {})
            hits = _clutter(d, lay)
            score = (ok - total, -hits)
            if best is None or score > best[0]:
                best = (score, t, lay, p, shapes)
            if score == (0, 0):
                break
        _, t, layout, pos, shapes = best
        d.graph["start"] = seed + t
        for n in d.nodes:
            if n.id in shapes:
                n.attrs["shape"] = shapes[n.id][0]
        _recursive_ports(d, pos)
        _isa_ports(d, {i for i, (_, good) in shapes.items() if good})
        final_engine, args = "neato", ("-n",)
        d.graph["layout"] = "neato"   # pinned re-render of the chosen layout
    if pos is not None:   # the pinned pass can grow the box a little (labels, ports)
        layout = run_graphviz(final_engine, to_dot(d, pos), [("json", None)], args)
    bb = [float(v) for v in layout["bb"].split(",")]
    pad = PAD_IN * 72
    span = max(bb[2] - bb[0], bb[3] - bb[1]) + 2 * pad
    dpi = min(BASE_DPI, int(MAX_PX * 72 / span))
    d.graph["dpi"] = dpi
    src = to_dot(d, pos)
    raw = tmp / "raw.png"
    layout = run_graphviz(final_engine, src, [("png", raw), ("json", None)], args)
    w, h = (_to_png_colour if d.look and d.look.colour else _to_png)(raw, out_png)
    bb = [float(v) for v in layout["bb"].split(",")]
    pm = PxMap(bb[0], bb[3], pad, dpi / 72.0)
    geo = geometry(d, layout, schema, pm)
    d.graph["layout"] = engine
    return {"source": src, "width": w, "height": h, "dpi": dpi, "geo": geo}


# ---------------------------------------------------------------------------------------
# Items, documents, CLI
# ---------------------------------------------------------------------------------------

def make_item(tier: str, rng: random.Random, domains: dict[str, V.Domain],
              look: Look | None = None):
    """Schema + drawing + subset metadata for one item of a tier (``look``: other
    appearance; None draws exactly the committed look with the same random draws)."""
    def eng(e: str) -> str:
        if not (look and look.swap_engine):
            return e
        if tier in CHEN_TIERS[:4]:   # dot draws these as one very wide row: use fdp
            return "fdp"
        return "neato" if e == "dot" else "dot"

    big = [n for n, d in domains.items() if len(d.entities) >= 20]
    dom = domains[rng.choice(big if tier == "high" else sorted(domains))]
    meta = {"domain": dom.name}
    if tier in ("easy", "medium", "hard", "high"):
        schema, _ = build_chen_schema(dom, tier, rng)
        engine = eng("neato")
        card_end = rng.random() < 0.3
        d = chen_drawing(schema, engine, card_end)
        meta.update(style="chen", engine=engine, card_position="end" if card_end else "middle")
    elif tier == "isa":
        schema = build_isa_schema(dom, rng, with_attrs=rng.random() < 0.5)
        engine = eng("dot" if rng.random() < 0.7 else "neato")
        bottom_up = engine == "dot" and rng.random() < 0.3
        d = chen_drawing(schema, engine, False, bottom_up)
        meta.update(style="chen", engine=engine, superclass_at="bottom" if bottom_up else "top")
    elif tier == "silberschatz":
        schema, _ = build_chen_schema(dom, "silberschatz", rng)
        engine = eng("dot" if rng.random() < 0.4 else "neato")
        d = silberschatz_drawing(schema, engine)
        meta.update(style="silberschatz", engine=engine)
    else:
        n_el = rng.choice([rng.randint(10, 30), rng.randint(30, 60), rng.randint(40, 80),
                           rng.randint(80, 130)])
        typed = rng.random() < 0.5
        style = rng.choice(["snake_plural", "snake", "pascal"])
        schema, types = build_relational_schema(dom, rng, n_el, typed, style)
        engine = eng("dot" if rng.random() < 0.7 else "neato")
        d = schema_drawing(schema, types, engine, rng.choice(["LR", "TB"]))
        meta.update(style="schema", engine=engine, typed=typed, naming=style,
                    column_types=types)
    if look is not None:
        d.look = look
        d.graph.update(dict(look.graph))
    return schema, d, meta


def count_elements(schema: ERSchema) -> int:
    """Entities + relationships + attributes (composite components included)."""
    n = len(schema.entities) + len(schema.relationships)
    for e in schema.entities.values():
        n += len(e.attributes) + sum(len(v) for v in e.composite.values())
    n += sum(len(r.attributes) for r in schema.plain_relationships)
    return n


def build_doc(schema: ERSchema, meta: dict, tier: str, res: dict) -> dict:
    geo = res["geo"]
    doc = schema.to_dict()
    for name, ent in doc["entities"].items():
        ent["bbox"] = geo["ent_box"][name]
    for k, rel in enumerate(doc["relationships"]):
        rid = ("I" if "superclass" in rel else "R") + str(k)
        if rid in geo["rel_box"]:
            rel["bbox"] = geo["rel_box"][rid]
        rel["lines"] = geo["lines"].get(k, [])
    doc.update({"subset": tier, "width": res["width"], "height": res["height"],
                "dpi": res["dpi"], "n_elements": count_elements(schema), **meta,
                "renderer": "graphviz", "source": res["source"], "elements": geo["elements"]})
    return doc


def self_check(doc: dict, tier: str) -> None:
    """Invariants of the ground truth; raises AssertionError on a bad item."""
    schema = document_from_dict(doc)
    ents = schema.entities
    for e in ents.values():
        assert set(e.primary_keys) <= set(e.attributes) and set(e.multivalued) <= set(e.attributes)
        assert set(e.derived) <= set(e.attributes) and set(e.composite) <= set(e.attributes)
        assert len(set(e.attributes)) == len(e.attributes), e.name
        x1, y1, x2, y2 = e.extra["bbox"]
        assert 0 <= x1 < x2 <= doc["width"] + 1 and 0 <= y1 < y2 <= doc["height"] + 1
    for r in schema.relationships:
        for n in ([r.superclass] + r.subclasses if isinstance(r, IsA) else r.entities):
            assert n in ents, n
    rels, isas = schema.plain_relationships, schema.isas
    eer = any(e.multivalued or e.derived or e.composite for e in ents.values())
    if tier == "easy":
        assert len(ents) <= 4 and len(rels) <= 4 and not isas and not eer
        assert all(len(r.entities) == 2 for r in rels)
    elif tier == "medium":
        assert len(ents) >= 5 and len(rels) >= 5
    elif tier == "hard":
        assert len(ents) >= 7 and len(rels) >= 7 and isas
        assert any(e.weak for e in ents.values()) and any(len(r.entities) > 2 for r in rels)
        assert all(any(getattr(e, k) for e in ents.values())
                   for k in ("multivalued", "derived", "composite"))
    elif tier == "high":
        assert len(ents) >= 20 and len(rels) >= 20
    elif tier == "isa":
        assert isas and not rels
    elif tier == "schema":
        assert all(len(r.entities) == 2 for r in rels) and not isas


def dump_doc(doc: dict) -> str:
    """JSON with one top-level key per line: compact, yet diffs stay readable."""
    body = ",\n".join(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                       for k, v in doc.items())
    return "{\n" + body + "\n}\n"


def generate(split: str, seed: int, count: int, out: Path, avoid: set[str] = frozenset(),
             looks: list[str] = ()) -> list[dict]:
    """Write ``count`` items of a split to ``out`` (PNG + JSON + manifest.json).  With
    ``looks`` item i gets ``looks[i * len(looks) // count]`` (equal runs of consecutive
    items, so each look meets several tiers)."""
    wordfilter.check_vocabulary(wordfilter.vocabulary_strings(
        [V.load_domains()] + [v for k, v in vars(V).items() if k.isupper()]), "er_vocab.py")
    out.mkdir(parents=True, exist_ok=True)
    for old in list(out.glob("er_*.png")) + list(out.glob("er_*.json")):
        old.unlink()
    domains = V.load_domains()
    tmp = out / ".tmp"
    tmp.mkdir(exist_ok=True)
    items, docs, seen = [], [], set()
    for i in range(count):
        tier = TIERS[i % len(TIERS)]
        look_name = looks[i * len(looks) // count] if looks else None
        stem = f"er_{split}_{i:04d}"
        for attempt in range(50):
            rng = random.Random(f"er:{split}:{seed}:{i}:{attempt}")
            schema, d, meta = make_item(tier, rng, domains,
                                        LOOKS[look_name] if look_name else None)
            sig = json.dumps(schema.to_dict(), sort_keys=True)
            if tier == "easy" and len(schema.entities) + len(schema.plain_relationships) > 8:
                continue
            if tier == "high" and len(schema.entities) < 20:
                continue
            if tier == "medium" and len(schema.entities) < 5:
                continue
            if tier == "hard" and len(schema.entities) < 7:
                continue
            if sig in avoid or sig in seen:
                continue
            res = render(d, schema, rng.randint(1, 10**6), out / f"{stem}.png", tmp)
            doc = build_doc(schema, meta, tier, res)
            if look_name:
                doc["notation"] = doc["style"]
                doc["style"] = look_name
            try:
                self_check(doc, tier)
            except AssertionError:
                continue
            break
        else:
            raise RuntimeError(f"{stem}: no valid {tier} diagram after 50 attempts")
        seen.add(sig)
        (out / f"{stem}.json").write_text(dump_doc(doc))
        items.append({"id": stem, "subset": tier, "image": f"{stem}.png"}
                     | ({"style": look_name} if look_name else {}))
        docs.append(doc)
    for f in tmp.iterdir():
        f.unlink()
    tmp.rmdir()
    version = subprocess.run(["dot", "-V"], capture_output=True, text=True).stderr.strip()
    manifest = {"family": "er", "split": split, "generator": "tools/gen_er.py", "seed": seed,
                "renderer": {"graphviz": version}, "count": count, "items": items}
    if looks:
        manifest["styles"] = {k: LOOKS[k].description for k in looks}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return docs


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="looks: " + "; ".join(f"{k}: {v.description}"
                                                              for k, v in LOOKS.items()))
    ap.add_argument("--split", choices=sorted(DEFAULT_SPLITS),
                    help="dev / test (committed look) or style (every look, in equal runs)")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--count", type=int)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--root", type=Path, help="family folder for the full rebuild "
                    "(default fixtures/er)")
    ap.add_argument("--looks", help="comma-separated looks (or 'all'); default: all for "
                    "--split style, none for dev/test")
    a = ap.parse_args(argv)
    root = a.root or Path(__file__).resolve().parent.parent / "fixtures" / "er"
    if a.split:
        seed, count = DEFAULT_SPLITS[a.split]
        t0 = time.time()
        looks = parse_looks(a.looks or ("all" if a.split == "style" else None), LOOKS)
        avoid = set()
        if a.split == "style":   # no schema of the committed splits reappears in another look
            avoid = {_schema_sig(json.loads(p.read_text())) for sp in COMMITTED_SPLITS
                     for p in (root / sp).glob("er_*.json")}
        generate(a.split, a.seed if a.seed is not None else seed,
                 a.count if a.count is not None else count, a.out or root / a.split,
                 avoid, looks)
        print(f"{a.split}: {time.time() - t0:.1f}s")
        return
    t0 = time.time()
    dev = generate("dev", *DEFAULT_SPLITS["dev"], root / "dev")
    dev_sigs = {_schema_sig(x) for x in dev}
    generate("test", *DEFAULT_SPLITS["test"], root / "test", avoid=dev_sigs)
    print(f"dev+test: {time.time() - t0:.1f}s")


def _schema_sig(doc: dict) -> str:
    """The plain schema of a document (no geometry), for the dev/test overlap check."""
    s = document_from_dict(doc)
    plain = ERSchema(entities={n: Entity(n, e.attributes, e.primary_keys, e.multivalued,
                                         e.derived, e.composite, e.weak)
                               for n, e in s.entities.items()})
    for r in s.relationships:
        plain.relationships.append(
            IsA(r.superclass, list(r.subclasses), r.name) if isinstance(r, IsA) else
            Relationship(r.name, list(r.entities), list(r.cardinalities), r.weak,
                         list(r.attributes)))
    return json.dumps(plain.to_dict(), sort_keys=True)


if __name__ == "__main__":
    main()
