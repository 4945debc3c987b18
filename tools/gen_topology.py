#!/usr/bin/env python3
"""Generate Knossos / TopoBench-style node-link topology fixtures (PNG + exact Graph JSON).

Four domains (workflow, network, foodweb, process) are sampled from layered grammars, laid out
on a 900x630 or 630x900 canvas, routed (straight, bent, orthogonal) around other nodes and
drawn directly with Pillow at 2x supersampling, so every node box and connector polyline in
the ground truth is the geometry that was drawn.

    python tools/gen_topology.py                      # rebuild both committed splits
    python tools/gen_topology.py --split dev --seed 7 --count 200 --out fixtures/topology/dev
    python tools/gen_topology.py ... --overlay /tmp/ov  # also write GT overlays for checking
    python tools/gen_topology.py --split style        # rebuild fixtures/topology/style

The "style" split keeps the notation and changes the look (fonts, text size, stroke width,
colours; see LOOKS); each of its documents names its look in "style". ``--looks a,b`` picks
the looks for any split (dev/test default to none, i.e. the committed look).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from looks import parse_looks  # tools/ is on sys.path when run as a script
import wordfilter

import PIL
import shapely
from PIL import Image, ImageDraw, ImageFilter, ImageFont
from shapely.geometry import LineString, Point, Polygon, box as shp_box
from shapely.ops import substring, unary_union

ROOT = Path(__file__).resolve().parents[1]
VOCAB_PATH = ROOT / "tools" / "data" / "topology" / "vocab.json"
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf",
              "condensed": "DejaVuSansCondensed.ttf"}
SS = 2  # supersampling factor: draw at 2x, downsample for antialiasing
DOMAINS = ("workflow", "network", "foodweb", "process")
DEFAULT_SPLITS = {"test": (20260301, 32), "dev": (20260417, 200), "style": (20261129, 24)}
COMMITTED_SPLITS = ("dev", "test")   # what a bare `gen_topology.py` rebuilds
TYPE_COLORS = ["#d62728", "#1f77b4", "#2ca02c", "#ff8c00", "#8e44ad"]
TYPE_STYLES = ["solid", "dashed", "dotted", "bold"]
Pt = tuple[float, float]


# --- data ---------------------------------------------------------------------------------

@dataclass
class NodeSpec:
    """One node: identity, appearance, and (after layout) its box in image pixels."""

    label: str
    shape: str                 # FORMATS.md shape; "icon" for icon nodes
    layer: int
    icon: str = ""
    fill: str = "#ffffff"
    id: str = ""
    center: Pt = (0.0, 0.0)
    size: Pt = (0.0, 0.0)      # outline (or icon+label) width, height
    lines: list[str] = field(default_factory=list)
    icon_size: float = 0.0

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        (cx, cy), (w, h) = self.center, self.size
        return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


@dataclass
class EdgeSpec:
    """One connector: endpoints, heads (0/1/2), legend type and drawn polyline."""

    source: int
    target: int
    heads: int = 1
    type: str = ""
    style: str = "solid"
    color: str = "#333333"
    points: list[Pt] = field(default_factory=list)
    route: str = ""


@dataclass
class Diagram:
    """Everything needed to draw one image and write its ground truth."""

    domain: str
    width: int
    height: int
    nodes: list[NodeSpec]
    edges: list[EdgeSpec]
    legend: list[dict]
    legend_box: tuple[float, float, float, float] | None
    style: dict


# --- looks (style split) --------------------------------------------------------------------

@dataclass(frozen=True)
class Look:
    """A change of appearance applied on top of the sampled style: same notation and ground
    truth format, other fonts / text size / stroke widths / colours."""

    description: str
    fonts: tuple[str, str] | None = None   # (regular, bold) TTF paths replacing DejaVu Sans
    fs_scale: float = 1.0                  # multiplies node and legend text size
    style: tuple[tuple[str, object], ...] = ()   # overrides of Diagram.style entries
    edge_color: str | None = None          # untyped edge colour
    fills: tuple[str, ...] | None = None   # node fill palette


_LIB = "/usr/share/fonts/truetype/liberation/"
LOOKS = {
    "liberation-sans": Look("Liberation Sans text", (_LIB + "LiberationSans-Regular.ttf",
                                                     _LIB + "LiberationSans-Bold.ttf")),
    "liberation-serif": Look("Liberation Serif text", (_LIB + "LiberationSerif-Regular.ttf",
                                                       _LIB + "LiberationSerif-Bold.ttf")),
    "liberation-mono": Look("Liberation Mono text", (_LIB + "LiberationMono-Regular.ttf",
                                                     _LIB + "LiberationMono-Bold.ttf")),
    "dejavu-serif": Look("DejaVu Serif text", (str(FONT_DIR / "DejaVuSerif.ttf"),
                                               str(FONT_DIR / "DejaVuSerif-Bold.ttf"))),
    "small-text": Look("text 0.75x (about 10 px)", fs_scale=0.75),
    "large-text": Look("text 1.3x", fs_scale=1.3),
    "thick-lines": Look("node outlines 3 px, edges 2.75 px",
                        style=(("node_lw", 3.0), ("edge_lw", 2.75))),
    "colour": Look("blue node strokes and text, saturated fills, dark red edges, cream paper",
                   style=(("node_stroke", "#1565c0"), ("text", "#0d2c6b"),
                          ("background", "#fffaf0")),
                   edge_color="#b71c1c",
                   fills=("#90caf9", "#a5d6a7", "#ffe082", "#ef9a9a", "#ce93d8")),
}


def look_fonts(fonts: dict[str, Path], look: Look | None) -> dict[str, Path]:
    """The font table of a look: every text face replaced by the look's regular / bold."""
    if look is None or look.fonts is None:
        return fonts
    reg, bold = (Path(f) for f in look.fonts)
    return {k: (bold if k == "bold" else reg) for k in fonts}


# --- small helpers ---------------------------------------------------------------------------

def load_fonts() -> dict[str, Path]:
    """Return the font paths; fail early with a clear message if fonts-dejavu-core is absent."""
    paths = {k: FONT_DIR / v for k, v in FONT_FILES.items()}
    missing = [str(p) for p in paths.values() if not p.exists()]
    if missing:
        sys.exit(f"gen_topology: missing fonts {missing} (apt-get install fonts-dejavu-core)")
    return paths


_FONT_CACHE: dict[tuple[str, int], ImageFont.FreeTypeFont] = {}


def font(path: Path, px: float) -> ImageFont.FreeTypeFont:
    """A TrueType font at ``px`` final pixels, loaded at the supersampled size."""
    key = (str(path), int(round(px * SS)))
    if key not in _FONT_CACHE:
        _FONT_CACHE[key] = ImageFont.truetype(str(path), key[1])
    return _FONT_CACHE[key]


def text_w(f: ImageFont.FreeTypeFont, s: str) -> float:
    return f.getlength(s) / SS


def suffixed_labels(rng: random.Random, bases: list[str], vocab: dict, numbered: float) -> list[str]:
    """Attach Knossos-style suffixes (numbers, letters, places) so repeated bases stay distinct."""
    out: list[str] = []
    kind = rng.choice(["numbers", "letters", "places"])
    for base in bases:
        label = base
        if bases.count(base) > 1 or rng.random() < numbered:
            pool = vocab["suffixes"][kind]
            for _ in range(50):
                label = f"{base} {rng.choice(pool)}"
                if label not in out:
                    break
            else:
                label = f"{base} {len(out) + 1}"
        out.append(label)
    return out


def recase(rng: random.Random, labels: list[str]) -> list[str]:
    """Vary label casing per image (Title, UPPER or lower), as Knossos does."""
    mode = rng.choices(["keep", "upper", "lower"], [0.75, 0.15, 0.10])[0]
    if mode == "upper":
        return [s.upper() for s in labels]
    if mode == "lower":
        return [s.lower() for s in labels]
    return labels


def split_counts(rng: random.Random, n: int, layers: int, cap: int) -> list[int]:
    """Split ``n`` nodes into ``layers`` layer sizes, each 1..cap."""
    counts = [1] * layers
    for _ in range(n - layers):
        open_ = [i for i in range(layers) if counts[i] < cap]
        counts[rng.choice(open_)] += 1
    return counts


def connect_layers(rng: random.Random, a: list[int], b: list[int], extra: float,
                   pairs: set) -> list[tuple[int, int]]:
    """Edges a->b so every node of ``a`` has an out-edge and every node of ``b`` an in-edge."""
    out = []

    def add(s, t):
        if (s, t) not in pairs and (t, s) not in pairs:
            pairs.add((s, t))
            out.append((s, t))

    for s in a:
        add(s, rng.choice(b))
    for t in b:
        if not any(p[1] == t and p[0] in a for p in pairs):
            add(rng.choice(a), t)
    for s in a:
        for t in b:
            if rng.random() < extra:
                add(s, t)
    return out


# --- domain grammars ---------------------------------------------------------------------

def sample_workflow(rng, vocab, n):
    """Staged workflow: Start, layers of process/decision/io steps, End; skip and feedback links."""
    v = vocab["workflow"]
    mid = n - 2
    nl = rng.randint(math.ceil(mid / 4), max(math.ceil(mid / 4), math.ceil(mid / 2)))
    counts = split_counts(rng, mid, nl, 5)
    used: set[str] = set()

    def pick(pool):
        choices = [x for x in pool if x not in used]
        s = rng.choice(choices)
        used.add(s)
        return s

    nodes = [NodeSpec(pick(v["terminal_start"]), "ellipse", 0)]
    layers = [[0]]
    for li, c in enumerate(counts, start=1):
        layer = []
        for _ in range(c):
            r = rng.random()
            if r < 0.2:
                nodes.append(NodeSpec(pick(v["decision"]), "diamond", li))
            elif r < 0.32:
                nodes.append(NodeSpec(pick(v["io"]), "parallelogram", li))
            elif r < 0.42:
                nodes.append(NodeSpec(pick(v["subprocess"]), "round_rect", li))
            else:
                nodes.append(NodeSpec(pick(v["process"]), "rect", li))
            layer.append(len(nodes) - 1)
        layers.append(layer)
    nodes.append(NodeSpec(pick(v["terminal_end"]), "ellipse", len(layers)))
    layers.append([len(nodes) - 1])
    pairs: set = set()
    edges = []
    for a, b in zip(layers, layers[1:]):
        edges += connect_layers(rng, a, b, 0.12, pairs)
    for k, layer in enumerate(layers):
        for i in layer:
            if nodes[i].shape == "diamond" and sum(1 for p in pairs if p[0] == i) < 2:
                back = [j for l in layers[max(0, k - 2):k] for j in l if j != 0]
                fwd = [j for l in layers[k + 1:k + 3] for j in l]
                cand = [j for j in (back + fwd) if (i, j) not in pairs and (j, i) not in pairs]
                if cand:
                    t = rng.choice(cand)
                    pairs.add((i, t))
                    edges.append((i, t))
    for _ in range(rng.randint(0, 2)):
        k = rng.randrange(len(layers))
        if k + 2 < len(layers):
            s, t = rng.choice(layers[k]), rng.choice(layers[k + 2])
            if (s, t) not in pairs and (t, s) not in pairs:
                pairs.add((s, t))
                edges.append((s, t))
    return nodes, [(s, t, 1) for s, t in edges], v["types"]


def sample_network(rng, vocab, n):
    """Tiered network: cloud, edge devices, switches, endpoints; undirected links mostly."""
    devs = vocab["network"]["devices"]
    by_tier = {t: [d for d in devs if d["tier"] == t] for t in range(4)}
    t0 = 1 if rng.random() < 0.85 else 0
    t1 = 1 + (n > 11) + (n > 19 and rng.random() < 0.5)
    t2 = max(1, min(4, round(n / 5) + rng.randint(-1, 0)))
    t3 = n - t0 - t1 - t2
    cap = 7
    parts = [t0, t1, t2] + ([t3] if t3 <= cap else [math.ceil(t3 / 2), t3 // 2])
    nodes: list[NodeSpec] = []
    layers: list[list[int]] = []
    for li, c in enumerate(parts):
        pool = by_tier[min(li, 3)]
        chosen = [rng.choice(pool) for _ in range(c)]
        labels = suffixed_labels(rng, [d["label"] for d in chosen], vocab, 0.7)
        layer = []
        taken = {x.label for x in nodes}
        for d, lab in zip(chosen, labels):
            k = 2
            while lab in taken:  # same base drawn in an earlier tier: number it
                lab = f"{d['label']} {k}"
                k += 1
            taken.add(lab)
            nodes.append(NodeSpec(lab, "icon", len(layers), icon=d["icon"]))
            layer.append(len(nodes) - 1)
        if layer:
            layers.append(layer)
    for i, nd in enumerate(nodes):
        nd.layer = next(k for k, l in enumerate(layers) if i in l)
    pairs: set = set()
    edges = []
    for k in range(len(layers) - 1):
        a, b = layers[k], layers[k + 1]
        for t in b:
            s = rng.choice(a)
            pairs.add((s, t))
            edges.append((s, t))
        for s in a:
            if not any(p[0] == s for p in pairs if p[1] in b):
                t = rng.choice(b)
                if (s, t) not in pairs:
                    pairs.add((s, t))
                    edges.append((s, t))
        for s in a:
            for t in b:
                if (s, t) not in pairs and rng.random() < (0.18 if k < 2 else 0.05):
                    pairs.add((s, t))
                    edges.append((s, t))
    for layer in layers:
        for x, y in zip(layer, layer[1:]):
            if rng.random() < 0.08 and (x, y) not in pairs:
                pairs.add((x, y))
                edges.append((x, y))
    mode = rng.choices([0, 2, 1], [0.6, 0.25, 0.15])[0]
    out = []
    for s, t in edges:
        h = mode if rng.random() < 0.8 else rng.choice([0, 1, 2])
        out.append((s, t, h))
    return nodes, out, vocab["network"]["types"]


def sample_foodweb(rng, vocab, n):
    """Trophic tiers (producer, intermediate, higher); arrows point prey -> predator."""
    v = vocab["foodweb"]
    p = max(2, round(n * rng.uniform(0.25, 0.35)))
    i = max(2, round(n * rng.uniform(0.35, 0.45)))
    h = n - p - i
    tiers = [("producer", p), ("intermediate", i), ("higher", h)]
    if h > 5 and rng.random() < 0.6:
        tiers = tiers[:2] + [("higher", h - h // 3), ("higher", h // 3)]
    nodes: list[NodeSpec] = []
    layers = []
    used: set[str] = set()
    for li, (tier, c) in enumerate(tiers):
        pool = [x for x in v[tier] if x not in used]
        names = rng.sample(pool, c)
        used.update(names)
        layers.append(list(range(len(nodes), len(nodes) + c)))
        nodes += [NodeSpec(nm, "round_rect", li) for nm in names]
    for nd, lab in zip(nodes, recase(rng, [nd.label for nd in nodes])):
        nd.label = lab
    pairs: set = set()
    edges = []
    for a, b in zip(layers, layers[1:]):
        edges += connect_layers(rng, a, b, 0.12 if n < 12 else 0.08, pairs)
    for k in range(len(layers) - 2):
        for _ in range(rng.randint(0, 2)):
            s, t = rng.choice(layers[k]), rng.choice(layers[k + 2])
            if (s, t) not in pairs and (t, s) not in pairs:
                pairs.add((s, t))
                edges.append((s, t))
    odd = 0.12 if n > 12 else 0.0
    out = [(s, t, rng.choice([0, 2]) if rng.random() < odd else 1) for s, t in edges]
    return nodes, out, v["types"]


def sample_process(rng, vocab, n):
    """Layered natural process: sources -> processes -> reservoirs -> organisms/materials."""
    v = vocab["process"]
    nl = 5 if n >= 13 and rng.random() < 0.7 else 4
    idx = sorted(rng.sample(range(5), nl)) if nl < 5 else list(range(5))
    counts = split_counts(rng, n, nl, 7)
    nodes: list[NodeSpec] = []
    layers = []
    used: set[str] = set()
    for li, (vi, c) in enumerate(zip(idx, counts)):
        pool = [x for x in v["layers"][vi] if x not in used]
        c = min(c, len(pool))
        names = rng.sample(pool, c)
        used.update(names)
        layers.append(list(range(len(nodes), len(nodes) + c)))
        nodes += [NodeSpec(nm, "round_rect", li, icon=v["icons"].get(nm, "")) for nm in names]
    pairs: set = set()
    edges = [(s, t, 1) for a, b in zip(layers, layers[1:])
             for s, t in connect_layers(rng, a, b, 0.06, pairs)]
    for k in range(len(layers) - 2):
        if rng.random() < 0.5:
            s, t = rng.choice(layers[k]), rng.choice(layers[k + 2])
            if (s, t) not in pairs and (t, s) not in pairs:
                pairs.add((s, t))
                edges.append((s, t, 1))
    for layer in layers:
        for x, y in zip(layer, layer[1:]):
            if rng.random() < 0.08 and (x, y) not in pairs:
                pairs.add((x, y))
                edges.append((x, y, rng.choice([2, 2, 0])))
    return nodes, edges, v["types"]


SAMPLERS = {"workflow": sample_workflow, "network": sample_network,
            "foodweb": sample_foodweb, "process": sample_process}


# --- node geometry -----------------------------------------------------------------------

def wrap_label(f, label: str, max_w: float) -> list[str]:
    """One line if it fits, else the best two-line split at a space."""
    if text_w(f, label) <= 0.7 * max_w or " " not in label:
        return [label]
    words = label.split(" ")
    best = min(range(1, len(words)),
               key=lambda k: max(text_w(f, " ".join(words[:k])), text_w(f, " ".join(words[k:]))))
    return [" ".join(words[:best]), " ".join(words[best:])]


def node_size(nd: NodeSpec, f, fs: float, max_w: float, icon_px: float) -> Pt:
    """Outline size for the node's shape given its wrapped label."""
    inner = max_w * (0.62 if nd.shape == "diamond" else 0.78 if nd.shape == "ellipse" else 0.9)
    nd.lines = wrap_label(f, nd.label, inner if nd.shape != "icon" else max_w)
    tw = max(text_w(f, s) for s in nd.lines)
    th = fs * 1.25 * len(nd.lines)
    if nd.shape == "icon":
        nd.icon_size = icon_px
        return max(icon_px, tw + 2), icon_px + 3 + th
    if nd.shape == "diamond":
        return max(tw * 1.7 + 16, 70), max(th * 2.0 + 14, 44)
    if nd.shape == "ellipse":
        return max(tw * 1.3 + 18, 56), max(th * 1.5 + 12, 32)
    if nd.shape == "parallelogram":
        return tw + 2 * fs + 26, th + 16
    return tw + 2 * fs * 0.9 + 6, th + 14


def outline(nd: NodeSpec) -> Polygon:
    """The node's drawn outline as a polygon (icons: their icon+label box)."""
    x1, y1, x2, y2 = nd.bbox
    cx, cy = nd.center
    if nd.shape == "diamond":
        return Polygon([(cx, y1), (x2, cy), (cx, y2), (x1, cy)])
    if nd.shape == "ellipse":
        a, b = (x2 - x1) / 2, (y2 - y1) / 2
        return Polygon([(cx + a * math.cos(t), cy + b * math.sin(t))
                        for t in (2 * math.pi * k / 72 for k in range(72))])
    if nd.shape == "parallelogram":
        sk = (y2 - y1) * 0.35
        return Polygon([(x1 + sk, y1), (x2, y1), (x2 - sk, y2), (x1, y2)])
    if nd.shape == "round_rect":
        r = min(10.0, (y2 - y1) / 3)
        return shp_box(x1 + r, y1 + r, x2 - r, y2 - r).buffer(r, quad_segs=8)
    return shp_box(x1, y1, x2, y2)


# --- layout ------------------------------------------------------------------------------

def layout(rng, nodes, flow, area, fs, aligned, font_path, icon_px, neighbors, bary):
    """Place layers along the flow axis and nodes evenly across it, with jitter; fit font size.

    With ``bary`` each layer is ordered by the mean cross position of its already placed
    neighbours (plus noise), which keeps children near their parents; else order is random.
    """
    x0, y0, x1, y1 = area
    layers: dict[int, list[int]] = {}
    for i, nd in enumerate(nodes):
        layers.setdefault(nd.layer, []).append(i)
    order = sorted(layers)
    if flow in ("BT", "RL"):
        order = order[::-1]
    vertical = flow in ("TB", "BT")
    main_len, cross_len = (y1 - y0, x1 - x0) if vertical else (x1 - x0, y1 - y0)
    main_cell = main_len / len(order)
    max_n = max(len(v) for v in layers.values())
    cross_cell = cross_len / max_n
    if vertical:
        max_w, max_h = cross_cell * 0.82, main_cell * 0.6
    else:
        max_w, max_h = main_cell * 0.72, cross_cell * 0.72
    while True:
        f = font(font_path, fs)
        sizes = [node_size(nd, f, fs, max_w - 4, icon_px) for nd in nodes]
        if all(w <= max_w and h <= max_h for w, h in sizes) or fs <= 10:
            break
        fs -= 0.5
        icon_px = max(22.0, icon_px - 1.5)
    for nd, s in zip(nodes, sizes):
        nd.size = s
    placed_layers: set[int] = set()
    for li, key in enumerate(order):
        members = layers[key][:]
        rng.shuffle(members)
        if bary and li > 0:
            spread = cross_len / len(members)

            def cross_of(i):
                placed = [nodes[j].center[0 if vertical else 1] for j in neighbors[i]
                          if nodes[j].layer in placed_layers]
                return (sum(placed) / len(placed) if placed else rng.uniform(0, cross_len)) \
                    + rng.uniform(-0.25, 0.25) * spread
            members.sort(key=cross_of)
        placed_layers.add(key)
        m_c = (y0 if vertical else x0) + (li + 0.5) * main_cell
        k = len(members)
        cc = cross_len / k
        for j, i in enumerate(members):
            w, h = nodes[i].size
            ext_m, ext_c = (h, w) if vertical else (w, h)
            c = (x0 if vertical else y0) + (j + 0.5) * cc
            m = m_c
            if not aligned:
                c += rng.uniform(-1, 1) * max(0.0, (cc - ext_c) / 2 - 8) * 0.6
                m += rng.uniform(-1, 1) * max(0.0, (main_cell - ext_m) / 2 - 8) * 0.5
            nodes[i].center = (c, m) if vertical else (m, c)
    return fs


# --- routing -----------------------------------------------------------------------------

def offset_polyline(pts: list[Pt], d: float) -> list[Pt]:
    """Offset a polyline sideways by ``d`` (miter joins); used for parallel connectors."""
    if abs(d) < 1e-9:
        return list(pts)
    normals = []
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        L = math.hypot(bx - ax, by - ay) or 1.0
        normals.append((-(by - ay) / L, (bx - ax) / L))
    out = []
    for i, (px, py) in enumerate(pts):
        if i == 0:
            nx, ny = normals[0]
        elif i == len(pts) - 1:
            nx, ny = normals[-1]
        else:
            (ax, ay), (bx, by) = normals[i - 1], normals[i]
            k = 1.0 + ax * bx + ay * by
            nx, ny = ((ax + bx) / k, (ay + by) / k) if k > 0.2 else (ax, ay)
        out.append((px + nx * d, py + ny * d))
    return out


def base_routes(a: NodeSpec, b: NodeSpec, kind: str) -> list[list[Pt]]:
    """Centre-to-centre logical polylines of one routing family."""
    (ax, ay), (bx, by) = a.center, b.center
    if kind == "straight":
        return [[a.center, b.center]]
    if kind == "bent":
        dx, dy = bx - ax, by - ay
        L = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / L, dx / L
        out = []
        for bulge in (0.12, -0.12, 0.22, -0.22, 0.35, -0.35, 0.5, -0.5):
            mx, my = (ax + bx) / 2 + nx * bulge * L, (ay + by) / 2 + ny * bulge * L
            out.append([a.center, (mx, my), b.center])
        for bulge in (0.15, -0.15, 0.3, -0.3, 0.45, -0.45):  # symmetric two-bend detour
            out.append([a.center, (ax + dx * 0.25 + nx * bulge * L, ay + dy * 0.25 + ny * bulge * L),
                        (ax + dx * 0.75 + nx * bulge * L, ay + dy * 0.75 + ny * bulge * L), b.center])
        return out
    ax1, ay1, ax2, ay2 = a.bbox
    bx1, by1, bx2, by2 = b.bbox
    out = []
    ox1, ox2 = max(ax1, bx1), min(ax2, bx2)
    if ox2 - ox1 >= 16:
        x = (ox1 + ox2) / 2
        out.append([(x, ay), (x, by)])
    oy1, oy2 = max(ay1, by1), min(ay2, by2)
    if oy2 - oy1 >= 16:
        y = (oy1 + oy2) / 2
        out.append([(ax, y), (bx, y)])
    out.append([a.center, (bx, ay), b.center])
    out.append([a.center, (ax, by), b.center])
    for t in (0.5, 0.35, 0.65, 0.2, 0.8):
        xm, ym = ax + (bx - ax) * t, ay + (by - ay) * t
        out.append([a.center, (xm, ay), (xm, by), b.center])
        out.append([a.center, (ax, ym), (bx, ym), b.center])
    return out


def clip_route(pts: list[Pt], src: Polygon, dst: Polygon, sc: Pt) -> list[Pt] | None:
    """The visible part of a logical polyline between the two node outlines, or None."""
    if not src.contains(Point(pts[0])) or not dst.contains(Point(pts[-1])):
        return None
    line = LineString(pts)
    vis = line.difference(unary_union([src, dst]))
    if vis.is_empty or vis.geom_type != "LineString":
        return None
    coords = [(float(x), float(y)) for x, y in vis.coords]
    if math.dist(coords[0], sc) > math.dist(coords[-1], sc):
        coords.reverse()
    clean = [coords[0]]
    for p in coords[1:]:
        if math.dist(p, clean[-1]) > 0.5:
            clean.append(p)
    if len(clean) < 2:
        return None
    if not (src.exterior.distance(Point(clean[0])) < 0.5 and dst.exterior.distance(Point(clean[-1])) < 0.5):
        return None
    return clean


def route_kind(pts: list[Pt]) -> str:
    if len(pts) == 2:
        return "straight"
    axis = all(abs(a[0] - b[0]) < 0.01 or abs(a[1] - b[1]) < 0.01 for a, b in zip(pts, pts[1:]))
    return "orthogonal" if axis else "bent"


def route_all(rng, dg: Diagram, primary: str, arrow_len: float) -> None:
    """Route every connector group, choosing the least-interfering candidate; drop unroutable."""
    polys = [outline(nd) for nd in dg.nodes]
    legend_poly = shp_box(*dg.legend_box).buffer(6) if dg.legend_box else None
    groups: dict[tuple[int, int], list[EdgeSpec]] = {}
    for e in dg.edges:
        groups.setdefault(tuple(sorted((e.source, e.target))), []).append(e)
    drawn: list[LineString] = []
    ends: list[tuple[int, Pt]] = []
    keep: list[EdgeSpec] = []
    fam_order = {"straight": ["straight", "bent", "orthogonal"], "bent": ["bent", "straight", "orthogonal"],
                 "orthogonal": ["orthogonal", "bent", "straight"]}[primary]
    gap = 9.0
    canvas = shp_box(6, 6, dg.width - 6, dg.height - 6)
    keys = sorted(groups, key=lambda k: (math.dist(dg.nodes[k[0]].center, dg.nodes[k[1]].center),
                                         rng.random()))
    for key in keys:
        grp = groups[key]
        a, b = key
        best = None
        for fi, fam in enumerate(fam_order):
            for base in base_routes(dg.nodes[a], dg.nodes[b], fam):
                routes = []
                k = len(grp)
                for j, e in enumerate(grp):
                    off = (j - (k - 1) / 2) * gap
                    r = clip_route(offset_polyline(base, off), polys[a], polys[b], dg.nodes[a].center)
                    if r is None:
                        break
                    routes.append(r)
                if len(routes) != k:
                    continue
                score = fi * 40.0
                for e, r in zip(grp, routes):
                    line = LineString(r)
                    need = {0: 14, 1: arrow_len + 12, 2: 2 * arrow_len + 12}[e.heads]
                    if line.length < need or not canvas.contains(line):
                        score += 5000
                    for i, p in enumerate(polys):
                        if i not in (a, b) and line.distance(p) < 6:
                            score += 2000
                    if legend_poly is not None and line.intersects(legend_poly):
                        score += 2000
                    buf = line.buffer(6)
                    for other in drawn:
                        if buf.intersects(other):
                            score += 1000 if buf.intersection(other).length > 14 else 8
                    for node_i, p in ends:
                        if node_i in (a, b) and (math.dist(p, r[0]) < 8 or math.dist(p, r[-1]) < 8):
                            score += 100
                    score += line.length * 0.05 + 4 * (len(r) - 2)
                if best is None or score < best[0]:
                    best = (score, routes)
            if best is not None and best[0] < 300:
                break
        if best is None or best[0] >= 1000:
            continue
        for e, r in zip(grp, best[1]):
            if e.source != a:
                r = r[::-1]
            e.points = [(round(x, 1), round(y, 1)) for x, y in r]
            e.route = route_kind(e.points)
            drawn.append(LineString(e.points))
            ends += [(e.source, e.points[0]), (e.target, e.points[-1])]
            keep.append(e)
    dg.edges = [e for e in dg.edges if e in keep]


# --- drawing -----------------------------------------------------------------------------

def S(p: Pt) -> tuple[float, float]:
    return (p[0] * SS, p[1] * SS)


def dash_pieces(pts: list[Pt], on: float, off: float) -> list[list[Pt]]:
    """Split a polyline into dash sub-polylines of length ``on`` separated by ``off``."""
    pieces, cur, pos, drawing = [], [pts[0]], 0.0, True
    limit = on
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        L = math.hypot(bx - ax, by - ay)
        t = 0.0
        while L - t > 1e-9:
            step = min(limit - pos, L - t)
            t += step
            pos += step
            p = (ax + (bx - ax) * t / L, ay + (by - ay) * t / L)
            if drawing:
                cur.append(p)
            if pos >= limit - 1e-9:
                if drawing:
                    pieces.append(cur)
                drawing = not drawing
                cur = [p]
                pos, limit = 0.0, (on if drawing else off)
        if drawing and cur[-1] != (bx, by):
            cur.append((bx, by))
    if drawing and len(cur) > 1:
        pieces.append(cur)
    return pieces


def trim(pts: list[Pt], start: float, end: float) -> list[Pt]:
    """Shorten a polyline by arc length at both ends (to leave room for arrowheads)."""
    line = LineString(pts)
    return [tuple(c) for c in substring(line, start, line.length - end).coords]


def point_back(pts: list[Pt], dist: float) -> Pt:
    line = LineString(pts)
    p = line.interpolate(max(0.0, line.length - dist))
    return (p.x, p.y)


def draw_arrow(draw, tip: Pt, frm: Pt, alen: float, color: str, kind: str, lw: float) -> None:
    dx, dy = tip[0] - frm[0], tip[1] - frm[1]
    L = math.hypot(dx, dy) or 1.0
    ux, uy = dx / L, dy / L
    bx, by = tip[0] - ux * alen, tip[1] - uy * alen
    hw = alen * 0.42
    left, right = (bx - uy * hw, by + ux * hw), (bx + uy * hw, by - ux * hw)
    if kind == "filled":
        draw.polygon([S(tip), S(left), S(right)], fill=color)
    else:
        draw.line([S(left), S(tip), S(right)], fill=color, width=max(2, int(lw * SS)), joint="curve")


def draw_edge(draw, e: EdgeSpec, lw: float, alen: float, akind: str) -> None:
    pts = e.points
    cut = alen * 0.75 if akind == "filled" else 0.0
    shaft = trim(pts, cut if e.heads == 2 else 0.0, cut if e.heads >= 1 else 0.0)
    w = lw * (2.1 if e.style == "bold" else 1.0)
    if e.style == "dashed":
        parts = dash_pieces(shaft, 4.5 * w + 3, 2.5 * w + 2)
    elif e.style == "dotted":
        parts = []
        for p in dash_pieces(shaft, 0.01, 1.9 * w + 2):
            r = w * 0.62 * SS
            x, y = S(p[0])
            draw.ellipse([x - r, y - r, x + r, y + r], fill=e.color)
    else:
        parts = [shaft]
    for part in parts:
        draw.line([S(p) for p in part], fill=e.color, width=max(1, int(round(w * SS))), joint="curve")
    if e.heads >= 1:
        draw_arrow(draw, pts[-1], point_back(pts, alen), alen, e.color, akind, lw)
    if e.heads == 2:
        rev = pts[::-1]
        draw_arrow(draw, rev[-1], point_back(rev, alen), alen, e.color, akind, lw)


def draw_text_block(draw, lines: list[str], cx: float, top: float, f, fs: float, color: str) -> None:
    lh = fs * 1.25
    for i, s in enumerate(lines):
        draw.text(S((cx, top + lh * (i + 0.5))), s, font=f, fill=color, anchor="mm")


def draw_icon(img: Image.Image, kind: str, box: tuple, style: str, stroke: str) -> None:
    """Draw one of the built-in icons into ``box`` (final px) in outline or flat style."""
    x1, y1, x2, y2 = [v * SS for v in box]
    s = x2 - x1
    d = ImageDraw.Draw(img)
    lw = max(2, int(s / 22))
    flat = style == "flat"
    pal = {"server": "#5b7fa6", "desktop": "#4a6d8c", "laptop": "#4a6d8c", "router": "#2f7fc1",
           "switch": "#2f9e8f", "firewall": "#c0504d", "database": "#8064a2", "cloud": "#8fb8de",
           "sun": "#f2b632", "drop": "#3f8fd2", "tree": "#3f9a45", "leaf": "#5aa83c"}
    fill = pal[kind] if flat else "#ffffff"
    line = "#ffffff" if flat else stroke
    edge = pal[kind] if flat else stroke

    def P(u, v):
        return (x1 + u * s, y1 + v * s)

    def R(u1, v1, u2, v2):
        return [P(u1, v1), P(u2, v2)]

    if kind == "server":
        d.rounded_rectangle(R(0.22, 0.04, 0.78, 0.96), radius=s * 0.05, fill=fill, outline=edge, width=lw)
        for k in range(3):
            v = 0.1 + k * 0.28
            d.rounded_rectangle(R(0.29, v, 0.71, v + 0.2), radius=s * 0.02, outline=line, width=lw)
            d.ellipse(R(0.6, v + 0.07, 0.66, v + 0.13), fill="#5cd65c")
            d.line(R(0.34, v + 0.1, 0.52, v + 0.1), fill=line, width=lw)
    elif kind in ("desktop", "laptop"):
        if kind == "desktop":
            d.rounded_rectangle(R(0.06, 0.08, 0.94, 0.7), radius=s * 0.04, fill=fill, outline=edge, width=lw)
            d.rectangle(R(0.13, 0.15, 0.87, 0.62), fill="#dbe8f5", outline=line, width=max(1, lw // 2))
            d.polygon([P(0.42, 0.7), P(0.58, 0.7), P(0.62, 0.86), P(0.38, 0.86)], fill=edge)
            d.rectangle(R(0.26, 0.86, 0.74, 0.92), fill=edge)
        else:
            d.rounded_rectangle(R(0.16, 0.14, 0.84, 0.66), radius=s * 0.03, fill=fill, outline=edge, width=lw)
            d.rectangle(R(0.22, 0.2, 0.78, 0.6), fill="#dbe8f5", outline=line, width=max(1, lw // 2))
            d.polygon([P(0.1, 0.68), P(0.9, 0.68), P(0.98, 0.82), P(0.02, 0.82)], fill=edge)
    elif kind == "router":
        d.rectangle(R(0.06, 0.4, 0.94, 0.66), fill=fill)
        d.ellipse(R(0.06, 0.53, 0.94, 0.79), fill=fill, outline=edge, width=lw)
        d.rectangle(R(0.06 + 0.01, 0.4, 0.94 - 0.01, 0.66), fill=fill)
        d.line(R(0.06, 0.4, 0.06, 0.66), fill=edge, width=lw)
        d.line(R(0.94, 0.4, 0.94, 0.66), fill=edge, width=lw)
        d.ellipse(R(0.06, 0.27, 0.94, 0.53), fill=fill, outline=edge, width=lw)
        for (u1, v1, u2, v2) in ((0.24, 0.32, 0.44, 0.38), (0.76, 0.48, 0.56, 0.42),
                                 (0.76, 0.32, 0.56, 0.38), (0.24, 0.48, 0.44, 0.42)):
            d.line(R(u1, v1, u2, v2), fill=line, width=lw)
    elif kind == "switch":
        d.rounded_rectangle(R(0.04, 0.3, 0.96, 0.72), radius=s * 0.04, fill=fill, outline=edge, width=lw)
        for v, rightward in ((0.42, True), (0.6, False)):
            d.line(R(0.2, v, 0.8, v), fill=line, width=lw)
            tip = 0.8 if rightward else 0.2
            back = tip - 0.08 if rightward else tip + 0.08
            d.polygon([P(tip, v), P(back, v - 0.05), P(back, v + 0.05)], fill=line)
    elif kind == "firewall":
        d.rectangle(R(0.08, 0.14, 0.92, 0.86), fill=pal["firewall"] if flat else "#f4d6c6",
                    outline=edge, width=lw)
        mortar = "#ffffff" if flat else stroke
        for r in range(1, 4):
            v = 0.14 + r * 0.18
            d.line(R(0.08, v, 0.92, v), fill=mortar, width=max(1, lw // 2 + 1))
        for r in range(4):
            v = 0.14 + r * 0.18
            for u in ((0.36, 0.64) if r % 2 == 0 else (0.22, 0.5, 0.78)):
                d.line(R(u, v, u, v + 0.18), fill=mortar, width=max(1, lw // 2 + 1))
    elif kind == "database":
        d.rectangle(R(0.18, 0.16, 0.82, 0.84), fill=fill)
        d.ellipse(R(0.18, 0.74, 0.82, 0.94), fill=fill, outline=edge, width=lw)
        d.rectangle(R(0.19, 0.16, 0.81, 0.84), fill=fill)
        d.line(R(0.18, 0.16, 0.18, 0.84), fill=edge, width=lw)
        d.line(R(0.82, 0.16, 0.82, 0.84), fill=edge, width=lw)
        for v in (0.36, 0.56):
            d.arc(R(0.18, v - 0.1, 0.82, v + 0.1), 0, 180, fill=line, width=lw)
        d.ellipse(R(0.18, 0.06, 0.82, 0.26), fill=fill, outline=edge, width=lw)
    elif kind == "cloud":
        w, h = int(s) + 4, int(s) + 4
        m = Image.new("L", (w, h), 0)
        md = ImageDraw.Draw(m)
        for (u, v, r) in ((0.3, 0.56, 0.2), (0.52, 0.42, 0.26), (0.74, 0.58, 0.18)):
            md.ellipse([(u - r) * s, (v - r) * s, (u + r) * s, (v + r) * s], fill=255)
        md.rounded_rectangle([0.12 * s, 0.54 * s, 0.9 * s, 0.76 * s], radius=0.1 * s, fill=255)
        grown = m.filter(ImageFilter.MaxFilter(2 * (lw // 2) + 1))
        img.paste(Image.new("RGB", (w, h), edge), (int(x1), int(y1)), grown)
        inner = m.filter(ImageFilter.MinFilter(2 * (lw // 2) + 1))
        img.paste(Image.new("RGB", (w, h), fill), (int(x1), int(y1)), inner)
    elif kind == "sun":
        for k in range(8):
            t = k * math.pi / 4
            d.line([P(0.5 + 0.3 * math.cos(t), 0.5 + 0.3 * math.sin(t)),
                    P(0.5 + 0.46 * math.cos(t), 0.5 + 0.46 * math.sin(t))],
                   fill="#e09b1a" if flat else pal["sun"], width=lw)
        d.ellipse(R(0.26, 0.26, 0.74, 0.74), fill=pal["sun"],
                  outline=pal["sun"] if flat else "#c98a10", width=lw)
    elif kind == "drop":
        water = pal["drop"] if flat else "#d7e9f8"
        d.ellipse(R(0.24, 0.38, 0.76, 0.9), fill=water, outline=pal["drop"], width=lw)
        d.polygon([P(0.5, 0.06), P(0.27, 0.56), P(0.73, 0.56)], fill=water)
        d.line([P(0.5, 0.06), P(0.255, 0.58)], fill=pal["drop"], width=lw)
        d.line([P(0.5, 0.06), P(0.745, 0.58)], fill=pal["drop"], width=lw)
    elif kind == "tree":
        d.rectangle(R(0.44, 0.58, 0.56, 0.95), fill="#8b5a2b")
        d.ellipse(R(0.16, 0.05, 0.84, 0.7), fill=pal["tree"] if flat else "#cfe8c4",
                  outline=pal["tree"], width=lw)
    elif kind == "leaf":  # an ellipse rotated by ~35 degrees, with a midrib
        c, sn = math.cos(0.6), math.sin(0.6)
        pts = []
        for k in range(40):
            t = 2 * math.pi * k / 40
            u, v = 0.23 * math.cos(t), 0.42 * math.sin(t)
            pts.append(P(0.5 + u * c - v * sn, 0.5 + u * sn + v * c))
        d.polygon(pts, fill=pal["leaf"] if flat else "#d8efc9", outline=pal["leaf"])
        d.line([P(0.5 + 0.38 * sn, 0.5 - 0.38 * c), P(0.5 - 0.38 * sn, 0.5 + 0.38 * c)],
               fill="#2f6b22", width=lw)


def draw_node(img, draw, nd: NodeSpec, st: dict, f) -> None:
    x1, y1, x2, y2 = nd.bbox
    cx, cy = nd.center
    fs = st["fs"]
    lw = int(round(st["node_lw"] * SS))
    col = st["node_stroke"]
    th = fs * 1.25 * len(nd.lines)
    if nd.shape == "icon":
        ip = nd.icon_size
        draw_icon(img, nd.icon, (cx - ip / 2, y1, cx + ip / 2, y1 + ip), st["icon_style"], col)
        draw_text_block(draw, nd.lines, cx, y1 + ip + 3, f, fs, st["text"])
        return
    b = [x1 * SS, y1 * SS, x2 * SS, y2 * SS]
    if nd.shape == "rect":
        draw.rectangle(b, fill=nd.fill, outline=col, width=lw)
    elif nd.shape == "round_rect":
        draw.rounded_rectangle(b, radius=min(10.0, (y2 - y1) / 3) * SS, fill=nd.fill, outline=col, width=lw)
    elif nd.shape == "ellipse":
        draw.ellipse(b, fill=nd.fill, outline=col, width=lw)
    else:
        corners = [S(p) for p in list(outline(nd).exterior.coords)[:-1]]
        draw.polygon(corners, fill=nd.fill, outline=col, width=lw)
    draw_text_block(draw, nd.lines, cx, cy - th / 2, f, fs, st["text"])


def draw_legend(draw, dg: Diagram, st: dict, fpath: Path, bold: Path) -> None:
    x1, y1, x2, y2 = dg.legend_box
    draw.rectangle([x1 * SS, y1 * SS, x2 * SS, y2 * SS], fill="#ffffff", outline="#666666", width=SS)
    f = font(fpath, st["legend_fs"])
    y = y1 + 6
    if st["legend_title"]:
        draw.text(S((x1 + 8, y)), "Legend", font=font(bold, st["legend_fs"]), fill="#222222", anchor="lt")
        y += st["legend_fs"] * 1.5
    for item in dg.legend:
        yc = y + st["legend_fs"] * 0.7
        sample = EdgeSpec(0, 0, heads=0, style=item["style"], color=item["color"],
                          points=[(x1 + 8, yc), (x1 + 38, yc)])
        draw_edge(draw, sample, st["edge_lw"], st["alen"], st["arrow"])
        draw.text(S((x1 + 46, yc)), item["type"], font=f, fill="#222222", anchor="lm")
        y += st["legend_fs"] * 1.6


def render(dg: Diagram, fonts: dict[str, Path], colors: int = 128) -> Image.Image:
    """Draw edges, nodes, legend at 2x, downsample, quantise to a small palette."""
    st = dg.style
    img = Image.new("RGB", (dg.width * SS, dg.height * SS), st["background"])
    draw = ImageDraw.Draw(img)
    for e in dg.edges:
        draw_edge(draw, e, st["edge_lw"], st["alen"], st["arrow"])
    f = font(fonts[st["font"]], st["fs"])
    for nd in dg.nodes:
        draw_node(img, draw, nd, st, f)
    if dg.legend_box:
        draw_legend(draw, dg, st, fonts[st["font"]], fonts["bold"])
    img = img.resize((dg.width, dg.height), Image.Resampling.LANCZOS)
    return img.quantize(colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


# --- one diagram -------------------------------------------------------------------------

# Per-domain fill palettes (one list is chosen per image): by workflow role, else by layer.
WORKFLOW_ROLES = ("ellipse", "rect", "diamond", "parallelogram", "round_rect")
FILLS = {"workflow": [["#dae8fc", "#d5e8d4", "#fff2cc", "#f8cecc", "#e1d5e7"], ["#ffffff"]],
         "foodweb": [["#d5e8d4", "#fff2cc", "#f8cecc", "#f4b183"],
                     ["#e8f4e0", "#fdf3d8", "#fbe3e0", "#f7d4c0"]],
         "process": [["#fff2cc", "#dae8fc", "#d5e8d4", "#e6f2d9", "#ead1dc"], ["#ffffff"]]}


def pick_size(rng: random.Random) -> tuple[str, int]:
    """Difficulty tier and node count (6-25) for one image."""
    difficulty = rng.choices(["easy", "medium", "hard"], [0.35, 0.4, 0.25])[0]
    return difficulty, {"easy": rng.randint(6, 10), "medium": rng.randint(11, 16),
                        "hard": rng.randint(17, 25)}[difficulty]


def make_diagram(rng: random.Random, domain: str, vocab: dict, legend_wanted: bool,
                 fonts: dict[str, Path], difficulty: str, n: int,
                 look: Look | None = None) -> Diagram:
    """Sample topology, style, layout and routes for one image of ``n`` nodes (``look``
    overrides the sampled appearance after every random draw, so it changes no sample)."""
    nodes, raw_edges, types = SAMPLERS[domain](rng, vocab, n)
    flows = {"workflow": ["LR", "TB"], "network": ["TB", "LR", "TB"], "foodweb": ["BT", "TB", "LR", "RL"],
             "process": ["LR", "TB", "TB"]}[domain]
    flow = rng.choice(flows)
    per_layer: dict[int, int] = {}
    for nd in nodes:
        per_layer[nd.layer] = per_layer.get(nd.layer, 0) + 1
    wide = max(per_layer.values()) > 5
    if wide and flow in ("LR", "RL"):
        flow = "TB" if flow == "LR" else "BT"
    portrait = (not wide) and rng.random() < (0.45 if flow in ("TB", "BT") else 0.12)
    width, height = (630, 900) if portrait else (900, 630)
    primary = rng.choices(["straight", "bent", "orthogonal"],
                          {"workflow": [0.3, 0.15, 0.55], "network": [0.6, 0.15, 0.25],
                           "foodweb": [0.55, 0.35, 0.1], "process": [0.45, 0.35, 0.2]}[domain])[0]
    st = {
        "background": rng.choices(["#ffffff", "#fbfbf7", "#f5f8fc"], [0.7, 0.15, 0.15])[0],
        "font": rng.choice(["regular", "regular", "condensed"]),
        "fs": {"easy": 15.0, "medium": 13.5, "hard": 12.5}[difficulty] + rng.choice([-1, 0, 0, 1]),
        "node_lw": rng.choice([1.0, 1.5, 2.0]),
        "node_stroke": rng.choice(["#333333", "#1f3b5c", "#404040"]),
        "text": "#111111",
        "edge_lw": rng.choice([1.25, 1.5, 2.0]),
        "alen": rng.choice([9.0, 10.0, 12.0]) * (0.85 if difficulty == "hard" else 1.0),
        "arrow": rng.choices(["filled", "open"], [0.75, 0.25])[0],
        "icon_style": rng.choice(["outline", "flat"]),
        "legend_title": rng.random() < 0.6,
        "legend_fs": 12.0,
        "primary_route": primary, "flow": flow, "difficulty": difficulty,
    }
    base_color = rng.choice(["#333333", "#222222", "#1f3b73", "#4d4d4d", "#5a3e2b"])
    fill_sets = FILLS.get(domain)
    card = rng.choice(["round_rect", "rect", "ellipse"] if domain == "foodweb" else ["round_rect", "rect"])
    use_icons = domain == "process" and rng.random() < 0.6
    fill_mode = rng.choice(fill_sets) if fill_sets else ["#ffffff"]
    if look is not None:
        st.update(dict(look.style))
        st["fs"] *= look.fs_scale
        st["legend_fs"] *= look.fs_scale
        base_color = look.edge_color or base_color
        fill_mode = list(look.fills) if look.fills else fill_mode
    for nd in nodes:
        if domain == "foodweb":
            nd.shape = card
        if domain == "process":
            nd.shape = "icon" if (use_icons and nd.icon) else card
        slot = WORKFLOW_ROLES.index(nd.shape) if domain == "workflow" else nd.layer
        nd.fill = fill_mode[slot % len(fill_mode)]
    for i, nd in enumerate(nodes):
        nd.id = f"n{i + 1}"

    edges = [EdgeSpec(s, t, heads=h, color=base_color) for s, t, h in raw_edges]
    legend: list[dict] = []
    if legend_wanted:
        k = rng.randint(2, 4)
        chosen = rng.sample(types, k)
        enc = rng.choice(["color", "dash", "both"])
        cols = rng.sample(TYPE_COLORS, k)
        styles = rng.sample(TYPE_STYLES, k)
        legend = [{"type": t, "color": cols[i] if enc != "dash" else base_color,
                   "style": styles[i] if enc != "color" else "solid"} for i, t in enumerate(chosen)]
        for e in edges:
            item = rng.choice(legend)
            e.type, e.color, e.style = item["type"], item["color"], item["style"]
        extra = []
        for e in edges:
            if rng.random() < 0.2:
                others = [it for it in legend if it["type"] != e.type]
                for it in rng.sample(others, 1 if rng.random() < 0.8 or len(others) < 2 else 2):
                    flip = rng.random() < 0.3 and e.heads == 1
                    s_, t_ = (e.target, e.source) if flip else (e.source, e.target)
                    extra.append(EdgeSpec(s_, t_, heads=e.heads, type=it["type"],
                                          style=it["style"], color=it["color"]))
        edges += extra
    elif domain == "workflow" and rng.random() < 0.3:
        for e in edges:
            if nodes[e.target].layer < nodes[e.source].layer:
                e.style = "dashed"

    margin = 24.0
    area = [margin, margin, width - margin, height - margin]
    legend_box = None
    if legend:
        lf = font(fonts[st["font"]], st["legend_fs"])
        lw_ = 46 + max(text_w(lf, it["type"]) for it in legend) + 10
        lh_ = 12 + (st["legend_fs"] * 1.5 if st["legend_title"] else 0) + st["legend_fs"] * 1.6 * len(legend)
        side = rng.choice(["right", "left"] if not portrait else ["bottom", "top"])
        corner = rng.choice([0, 1])
        if side in ("right", "left"):
            x = width - margin - lw_ if side == "right" else margin
            y = margin if corner == 0 else height - margin - lh_
            area[2 if side == "right" else 0] += (-(lw_ + 16)) if side == "right" else (lw_ + 16)
        else:
            y = height - margin - lh_ if side == "bottom" else margin
            x = margin if corner == 0 else width - margin - lw_
            area[3 if side == "bottom" else 1] += (-(lh_ + 16)) if side == "bottom" else (lh_ + 16)
        legend_box = (round(x, 1), round(y, 1), round(x + lw_, 1), round(y + lh_, 1))
        st["legend_side"] = side

    icon_px = {"easy": 44.0, "medium": 38.0, "hard": 32.0}[difficulty]
    neighbors: dict[int, set[int]] = {i: set() for i in range(len(nodes))}
    for e in edges:
        neighbors[e.source].add(e.target)
        neighbors[e.target].add(e.source)
    bary = rng.random() < (0.85 if domain == "network" else 0.5)
    st["fs"] = layout(rng, nodes, flow, tuple(area), st["fs"],
                      primary == "orthogonal", fonts[st["font"]], icon_px, neighbors, bary)
    dg = Diagram(domain, width, height, nodes, edges, legend, legend_box, st)
    route_all(rng, dg, primary, st["alen"])
    return dg


# --- ground truth ------------------------------------------------------------------------

def to_document(dg: Diagram) -> dict:
    """Graph JSON (kind topology) per FORMATS.md plus fixture extras."""
    r1 = lambda v: round(v, 1)
    nodes = []
    for nd in dg.nodes:
        d = {"id": nd.id, "label": nd.label, "shape": nd.shape, "bbox": [r1(v) for v in nd.bbox]}
        if nd.shape == "icon":
            d["icon"] = nd.icon
        if len(nd.lines) > 1:
            d["lines"] = list(nd.lines)
        nodes.append(d)
    edges = []
    for e in dg.edges:
        edges.append({"source": dg.nodes[e.source].id, "target": dg.nodes[e.target].id,
                      "directed": e.heads == 1, "style": e.style, "label": "", "type": e.type,
                      "heads": e.heads, "color": e.color, "route": e.route,
                      "points": [[x, y] for x, y in e.points]})
    doc = {"kind": "topology", "width": dg.width, "height": dg.height, "nodes": nodes, "edges": edges,
           "subset": dg.domain, "difficulty": dg.style["difficulty"], "flow": dg.style["flow"],
           "legend": dg.legend,
           "render": {"font_px": dg.style["fs"], "arrow": dg.style["arrow"],
                      "connectors": dg.style["primary_route"], "icons": dg.style["icon_style"]}}
    if dg.legend_box:
        doc["legend_bbox"] = list(dg.legend_box)
    return doc


def self_check(doc: dict) -> None:
    """Assert the document loads and its geometry is consistent (boxes, endpoints, overlaps)."""
    sys.path.insert(0, str(ROOT))
    from cvparse.model import document_from_dict
    document_from_dict(doc)
    W, H = doc["width"], doc["height"]
    boxes = {n["id"]: n["bbox"] for n in doc["nodes"]}
    for n in doc["nodes"]:
        x1, y1, x2, y2 = n["bbox"]
        assert 0 <= x1 < x2 <= W and 0 <= y1 < y2 <= H, n
    ids = list(boxes)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            assert not shp_box(*boxes[a]).buffer(4).intersects(shp_box(*boxes[b])), (a, b)
    linked = {e[k] for e in doc["edges"] for k in ("source", "target")}
    assert linked == set(boxes), "isolated node"
    for e in doc["edges"]:
        p0, p1 = e["points"][0], e["points"][-1]
        for p, nid in ((p0, e["source"]), (p1, e["target"])):
            assert shp_box(*boxes[nid]).buffer(1).contains(Point(p)), (e, nid)
        assert (e["heads"] == 1) == e["directed"]
        if doc["legend"]:
            assert e["type"] in {it["type"] for it in doc["legend"]}
        else:
            assert e["type"] == ""


def overlay(png: Path, doc: dict, out: Path) -> None:
    """Draw GT boxes and polylines over the render (for eyeballing)."""
    img = Image.open(png).convert("RGB")
    d = ImageDraw.Draw(img)
    for n in doc["nodes"]:
        d.rectangle(n["bbox"], outline="#00a0a0")
    for e in doc["edges"]:
        pts = [tuple(p) for p in e["points"]]
        d.line(pts, fill="#ff00ff", width=1)
        d.ellipse([pts[0][0] - 2, pts[0][1] - 2, pts[0][0] + 2, pts[0][1] + 2], fill="#00c000")
        d.ellipse([pts[-1][0] - 2, pts[-1][1] - 2, pts[-1][0] + 2, pts[-1][1] + 2], fill="#ff0000")
    if doc.get("legend_bbox"):
        d.rectangle(doc["legend_bbox"], outline="#ff8000")
    img.save(out)


# --- driver ------------------------------------------------------------------------------

def renderer_versions() -> dict:
    try:
        fv = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "fonts-dejavu-core"],
                            capture_output=True, text=True, check=False).stdout.strip() or "unknown"
    except OSError:
        fv = "unknown"
    return {"Pillow": PIL.__version__, "shapely": shapely.__version__, "fonts-dejavu-core": fv}


def generate(split: str, seed: int, count: int, out: Path, overlay_dir: Path | None,
             looks: list[str] = ()) -> dict:
    """Write ``count`` images + GT + manifest into ``out``; domains round-robin, 1/3 with legend.
    With ``looks`` item i gets look ``looks[i * len(looks) // count]`` (equal runs of
    consecutive items, so each look meets several domains) and a "style" key."""
    vocab = json.loads(VOCAB_PATH.read_text())
    wordfilter.check_vocabulary(wordfilter.vocabulary_strings(vocab), VOCAB_PATH.name)
    base_fonts = load_fonts()
    out.mkdir(parents=True, exist_ok=True)
    items = []
    t0 = time.time()
    for i in range(count):
        domain = DOMAINS[i % len(DOMAINS)]
        legend_wanted = (i // len(DOMAINS)) % 3 == 1
        look_name = looks[i * len(looks) // count] if looks else None
        look = LOOKS[look_name] if look_name else None
        fonts = look_fonts(base_fonts, look)
        difficulty, n = pick_size(random.Random(f"topology-{split}-{seed}-{i}"))
        for attempt in range(60):  # resample (deterministically) if a layout fails the check
            rng = random.Random(f"topology-{split}-{seed}-{i}-{attempt}")
            dg = make_diagram(rng, domain, vocab, legend_wanted, fonts, difficulty, n, look)
            doc = to_document(dg)
            if look_name:
                doc["style"] = look_name
            try:
                self_check(doc)
                break
            except AssertionError:
                continue
        else:
            raise RuntimeError(f"no valid layout for item {i}")
        stem = f"topology_{split}_{i:04d}"
        render(dg, fonts).save(out / f"{stem}.png", optimize=True)
        (out / f"{stem}.json").write_text(json.dumps(doc, indent=1) + "\n")
        if overlay_dir:
            overlay_dir.mkdir(parents=True, exist_ok=True)
            overlay(out / f"{stem}.png", doc, overlay_dir / f"{stem}.png")
        items.append({"id": stem, "subset": domain, "image": f"{stem}.png"}
                     | ({"style": look_name} if look_name else {}))
    manifest = {"family": "topology", "split": split, "generator": "tools/gen_topology.py",
                "seed": seed, "renderer": renderer_versions(), "count": count, "items": items}
    if looks:
        manifest["styles"] = {k: LOOKS[k].description for k in looks}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"{split}: {count} images in {time.time() - t0:.1f}s -> {out}")
    return manifest


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="looks: " + "; ".join(f"{k}: {v.description}"
                                                              for k, v in LOOKS.items()))
    ap.add_argument("--split", choices=sorted(DEFAULT_SPLITS),
                    help="dev / test (committed look) or style (every look, round-robin)")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--count", type=int)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--overlay", type=Path, help="also write GT overlays here")
    ap.add_argument("--looks", help="comma-separated looks (or 'all') applied in equal runs; "
                    "default: all for --split style, none for dev/test")
    a = ap.parse_args(argv)
    if a.split is None:
        for split in COMMITTED_SPLITS:
            seed, count = DEFAULT_SPLITS[split]
            generate(split, seed, count, ROOT / "fixtures" / "topology" / split, a.overlay)
        return
    seed, count = DEFAULT_SPLITS[a.split]
    looks = parse_looks(a.looks or ("all" if a.split == "style" else None), LOOKS)
    generate(a.split, a.seed if a.seed is not None else seed, a.count or count,
             a.out or ROOT / "fixtures" / "topology" / a.split, a.overlay, looks)


if __name__ == "__main__":
    main()
