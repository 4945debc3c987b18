"""Generate FlowLearn-style flowchart fixtures rendered by the real Mermaid (mermaid-cli 10.6.1).

Subsets: "word" and "char" follow FlowLearn's simulated flowcharts (round nodes ``entityN(text)``
with random English words or one capital letter, solid / bold / dotted links, a few back-links,
white / silver / random background); "mixed" goes beyond the benchmark with mixed shapes, edge
labels, subgraphs and process-step labels from ``flowchart_vocab.py``.  Charts come from a seeded
RNG; ``tools/mermaid/render.mjs`` renders each split in one browser session and reports the SVG
geometry, from which node bboxes and edge polylines (image pixels) go into the ground truth.

Usage:
    python tools/gen_flowchart.py                        # rebuild both committed splits
    python tools/gen_flowchart.py --split dev --seed 2 --count 200 --out fixtures/flowchart/dev
    python tools/gen_flowchart.py --split style          # rebuild fixtures/flowchart/style
The "style" split keeps the notation and changes the look through a Mermaid init directive
(themes forest / neutral / base colours, fonts, font sizes, line widths, curve; see LOOKS) at
the top of the source; subsets interleave word / char / mixed and each document names its look
in "style".  ``--looks a,b`` picks looks.
Needs ``npm ci`` in tools/mermaid (PUPPETEER_SKIP_DOWNLOAD=1) and Debian's chromium + wamerican.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from looks import parse_looks  # tools/ is on sys.path when run as a script

import flowchart_vocab as vocab
import wordfilter

TOOLS = Path(__file__).resolve().parent
REPO = TOOLS.parent
RENDER_SCRIPT = TOOLS / "mermaid" / "render.mjs"
WORDS_FILE = Path("/usr/share/dict/words")  # Debian package wamerican

# Committed splits: (seed, word, char, mixed).  dev and test use different seeds.
SPLITS = {"test": (1101, 12, 12, 6), "dev": (2202, 80, 80, 40)}
STYLE_SPLIT = (3303, 27)   # seed, count; not rebuilt by a bare run
ORIENTATIONS = ("TB", "BT", "LR", "RL", "TD")
SILVER = "#C0C0C0"
LINK_SYNTAX = {"solid": "-->", "bold": "==>", "dotted": "-.->"}
LINK_CLASS = {"solid": "edge-pattern-solid", "bold": "edge-thickness-thick",
              "dotted": "edge-pattern-dotted"}
# Mermaid shape syntax (open, close) per FORMATS.md shape.
SHAPE_SYNTAX = {
    "rect": ('["', '"]'), "round_rect": ('("', '")'), "stadium": ('(["', '"])'),
    "diamond": ('{"', '"}'), "circle": ('(("', '"))'), "cylinder": ('[("', '")]'),
    "hexagon": ('{{"', '"}}'),
}
POINT_TOLERANCE_PX = 0.5

_THICK_CSS = (".node rect, .node circle, .node polygon, .node path {stroke-width: 3px !important;}"
              " .flowchart-link.edge-thickness-normal {stroke-width: 2.5px !important;}"
              " .flowchart-link.edge-thickness-thick {stroke-width: 5px !important;}")
# Looks of the style split: (description, Mermaid init config).  Mermaid's own default font
# is "trebuchet ms", verdana, arial (Liberation Sans here), 16 px.
LOOKS: dict[str, tuple[str, dict]] = {
    "liberation-serif": ("Liberation Serif text",
                         {"themeVariables": {"fontFamily": "Liberation Serif"}}),
    "liberation-mono": ("Liberation Mono text",
                        {"themeVariables": {"fontFamily": "Liberation Mono"}}),
    "dejavu-serif": ("DejaVu Serif text", {"themeVariables": {"fontFamily": "DejaVu Serif"}}),
    "small-text": ("12 px text", {"themeVariables": {"fontSize": "12px"}}),
    "large-text": ("22 px text", {"themeVariables": {"fontSize": "22px"}}),
    "thick-lines": ("3 px node outlines, 2.5 / 5 px links", {"themeCSS": _THICK_CSS}),
    "theme-forest": ("Mermaid theme forest (green)", {"theme": "forest"}),
    "theme-neutral": ("Mermaid theme neutral (grey)", {"theme": "neutral"}),
    "colour": ("theme base: light blue fills, dark blue outlines and text, dark red links",
               {"theme": "base", "themeVariables": {
                   "primaryColor": "#d6e9ff", "primaryBorderColor": "#1f4e79",
                   "primaryTextColor": "#0b2a4a", "lineColor": "#a31515",
                   "secondaryColor": "#fff2cc", "tertiaryColor": "#f3f3f3"}}),
}


@dataclass
class ChartNode:
    id: str
    label: str
    shape: str


@dataclass
class ChartEdge:
    source: str
    target: str
    style: str
    label: str = ""


@dataclass
class ChartGroup:
    id: str
    label: str
    members: list[str]


@dataclass
class Chart:
    """One flowchart before rendering: everything the ground truth states about it."""

    subset: str
    orientation: str
    background: str
    nodes: list[ChartNode]
    edges: list[ChartEdge]
    groups: list[ChartGroup] = field(default_factory=list)
    flowlearn_syntax: bool = True
    style: str = ""   # look of the style split ("" = Mermaid default theme)


# --- chart generation ---------------------------------------------------------------------

def load_words(path: Path = WORDS_FILE) -> list[str]:
    """Lower-case alphabetic words of the wamerican list (no proper nouns, no apostrophes)."""
    return [w for w in path.read_text(encoding="utf-8").split() if re.fullmatch(r"[a-z]+", w)]


def random_background(rng: random.Random) -> str:
    """White, silver or a uniformly random hex colour (dark ones included), 1/3 each."""
    kind = rng.randrange(3)
    if kind == 0:
        return "white"
    if kind == 1:
        return SILVER
    return f"#{rng.randrange(0x1000000):06x}"


def flowlearn_links(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """Forward links forming a random tree plus 0-2 extra forward links and 0-3 back-links."""
    pairs = [(rng.randrange(j), j) for j in range(1, n)]
    forward = [(i, j) for j in range(n) for i in range(j) if (i, j) not in pairs]
    pairs += rng.sample(forward, min(len(forward), rng.randint(0, 2)))
    backward = [(j, i) for j in range(n) for i in range(j) if (j, i) not in pairs]
    pairs += rng.sample(backward, min(len(backward), rng.randint(0, 3)))
    return pairs


def make_flowlearn_chart(rng: random.Random, subset: str, words: list[str]) -> Chart:
    """A FlowLearn simulated flowchart: 3-10 round nodes, every node on a link."""
    n = rng.randint(3, 10)
    if subset == "char":
        labels = rng.sample([chr(c) for c in range(ord("A"), ord("Z") + 1)], n)
    else:
        labels = []
        while len(labels) < n:
            drawn = rng.sample(words, rng.choices((1, 2, 3, 4, 5), weights=(3, 3, 2, 1, 1))[0])
            # blocked words are swapped after the draw, so the RNG stream is unchanged
            text = " ".join(wordfilter.clean_sample(drawn, words))
            if text not in labels:
                labels.append(text)
    nodes = [ChartNode(f"entity{i}", labels[i], "round_rect") for i in range(n)]
    pairs = flowlearn_links(rng, n)
    rng.shuffle(pairs)
    pairs.sort(key=lambda p: p[0])  # statements grouped by source, as in FlowLearn's code
    styles = rng.choices(("solid", "bold", "dotted"), weights=(2, 1, 1), k=len(pairs))
    edges = [ChartEdge(f"entity{i}", f"entity{j}", s) for (i, j), s in zip(pairs, styles)]
    return Chart(subset, rng.choice(ORIENTATIONS), random_background(rng), nodes, edges)


def _mixed_nodes(rng: random.Random, n: int) -> list[ChartNode]:
    """Start terminal, n-2 process / decision / data nodes, end terminal."""
    steps = rng.sample(vocab.STEPS, n)
    decisions = rng.sample(vocab.DECISIONS, n)
    stores = rng.sample(vocab.DATA_STORES, len(vocab.DATA_STORES))  # >= 13 middle nodes
    terminal = rng.choice(("stadium", "circle", "round_rect"))
    nodes = [ChartNode("A", rng.choice(vocab.START_LABELS), terminal)]
    middle_shapes = ("rect", "round_rect", "diamond", "cylinder", "hexagon", "stadium")
    for k in range(1, n - 1):
        shape = rng.choices(middle_shapes, weights=(8, 3, 3, 2, 2, 1))[0]
        label = {"diamond": decisions, "cylinder": stores}.get(shape, steps).pop()
        nodes.append(ChartNode(chr(ord("A") + k), label, shape))
    nodes.append(ChartNode(chr(ord("A") + n - 1), rng.choice(vocab.END_LABELS), terminal))
    return nodes


def _mixed_edges(rng: random.Random, nodes: list[ChartNode]) -> list[ChartEdge]:
    """Mostly-forward process links; decisions get two labelled branches; all reach the end."""
    n = len(nodes)
    pairs: list[tuple[int, int]] = [
        (j - 1 if j < 2 or rng.random() < 0.75 else rng.randrange(max(0, j - 3), j - 1), j)
        for j in range(1, n)]
    for d in range(1, n - 1):
        if nodes[d].shape != "diamond":
            continue
        outs = [p for p in pairs if p[0] == d]
        while len(outs) < 2:  # second branch: a short loop back or a skip ahead
            near = [t for t in range(max(1, d - 3), min(n, d + 4))
                    if t != d and (d, t) not in pairs]
            back = [t for t in near if t < d]
            t = rng.choice(back) if back and rng.random() < 0.35 else rng.choice(
                [t for t in near if t > d] or near)
            pairs.append((d, t))
            outs.append((d, t))
    for s in range(n - 1):
        if not any(p[0] == s for p in pairs):
            pairs.append((s, min(n - 1, s + rng.randint(1, 2))))
    edges = []
    branch_used: dict[int, int] = {}
    branch_labels: dict[int, tuple[str, str]] = {}
    for s, t in pairs:
        style = rng.choices(("solid", "dotted", "bold"), weights=(14, 3, 3))[0]
        if nodes[s].shape == "diamond":
            names = branch_labels.setdefault(s, rng.choice(vocab.BRANCH_LABELS))
            k = branch_used.get(s, 0)
            branch_used[s] = k + 1
            label = names[k] if k < 2 else rng.choice(vocab.EDGE_LABELS)
        else:
            label = rng.choice(vocab.EDGE_LABELS) if rng.random() < 0.15 else ""
        edges.append(ChartEdge(nodes[s].id, nodes[t].id, style, label))
    return edges


def _mixed_groups(rng: random.Random, nodes: list[ChartNode]) -> list[ChartGroup]:
    """0-2 subgraphs, each a run of 2-4 consecutive middle nodes."""
    n = len(nodes)
    if n < 6 or rng.random() < 0.5:
        return []
    groups: list[ChartGroup] = []
    titles = rng.sample(vocab.GROUP_TITLES, 2)
    start = rng.randint(1, 2)
    for g in range(rng.randint(1, 2)):
        size = rng.randint(2, 4)
        if start + size > n - 1:
            break
        members = [nodes[k].id for k in range(start, start + size)]
        groups.append(ChartGroup(f"G{g + 1}", titles[g], members))
        start += size + rng.randint(1, 2)
    return groups


def make_mixed_chart(rng: random.Random) -> Chart:
    """A process flowchart: 4-15 nodes of mixed shapes, edge labels, optional subgraphs."""
    nodes = _mixed_nodes(rng, rng.randint(4, 15))
    edges = _mixed_edges(rng, nodes)
    groups = _mixed_groups(rng, nodes)
    # Long processes run top-down; only up to 10 nodes may run sideways.
    weights = (2, 1, 4, 1, 4) if len(nodes) <= 10 else (2, 1, 0, 0, 4)
    orientation = rng.choices(ORIENTATIONS, weights=weights)[0]
    return Chart("mixed", orientation, "white", nodes, edges, groups, flowlearn_syntax=False)


# --- Mermaid source -------------------------------------------------------------------------

def _node_code(node: ChartNode, flowlearn: bool) -> str:
    if flowlearn:
        return f"{node.id}({node.label})"
    open_, close = SHAPE_SYNTAX[node.shape]
    return f"{node.id}{open_}{node.label}{close}"


def to_mermaid(chart: Chart) -> str:
    """Mermaid code of the chart; FlowLearn's own statement layout for word/char."""
    lines = [f"flowchart {chart.orientation}"]
    if chart.style:
        lines.insert(0, "%%{init: " + json.dumps(LOOKS[chart.style][1]) + "}%%")
    grouped = {m for g in chart.groups for m in g.members}
    indent = "" if chart.flowlearn_syntax else "    "
    lines += [indent + _node_code(n, chart.flowlearn_syntax)
              for n in chart.nodes if n.id not in grouped]
    by_id = {n.id: n for n in chart.nodes}
    for g in chart.groups:
        lines.append(f'{indent}subgraph {g.id} ["{g.label}"]')
        lines += [indent * 2 + _node_code(by_id[m], False) for m in g.members]
        lines.append(f"{indent}end")
    for e in chart.edges:
        arrow = LINK_SYNTAX[e.style]
        if chart.flowlearn_syntax:
            lines.append(f"{e.source} {arrow}{e.target}")
        else:
            label = f"|{e.label}|" if e.label else ""
            lines.append(f"{indent}{e.source} {arrow}{label} {e.target}")
    return "\n".join(lines) + "\n"


# --- rendering ------------------------------------------------------------------------------

def render(jobs: list[dict]) -> dict:
    """Run the Node renderer once over all jobs; returns its results document."""
    with tempfile.TemporaryDirectory(prefix="gen_flowchart_") as tmp:
        jobs_path = Path(tmp) / "jobs.json"
        results_path = Path(tmp) / "results.json"
        jobs_path.write_text(json.dumps({"jobs": jobs}), encoding="utf-8")
        subprocess.run(["node", str(RENDER_SCRIPT), str(jobs_path), str(results_path)],
                       check=True, cwd=RENDER_SCRIPT.parent)
        return json.loads(results_path.read_text(encoding="utf-8"))


def simplify(points: list[list[float]], tol: float = POINT_TOLERANCE_PX) -> list[list[float]]:
    """Ramer-Douglas-Peucker: drop samples closer than ``tol`` px to the kept polyline."""
    if len(points) < 3:
        return points
    (x1, y1), (x2, y2) = points[0], points[-1]
    dx, dy = x2 - x1, y2 - y1
    norm = (dx * dx + dy * dy) ** 0.5
    best, best_d = 0, -1.0
    for i in range(1, len(points) - 1):
        px, py = points[i]
        d = (abs(dy * (px - x1) - dx * (py - y1)) / norm if norm > 1e-9
             else ((px - x1) ** 2 + (py - y1) ** 2) ** 0.5)
        if d > best_d:
            best, best_d = i, d
    if best_d <= tol:
        return [points[0], points[-1]]
    return simplify(points[:best + 1], tol)[:-1] + simplify(points[best:], tol)


def _r(v: float) -> float:
    return round(v, 1)


def _dist_to_polyline(x: float, y: float, pts: list[list[float]]) -> float:
    return min(((px - x) ** 2 + (py - y) ** 2) ** 0.5 for px, py in pts)


def _edge_label_boxes(chart: Chart, geo: dict, paths: list[dict]) -> list[list[float] | None]:
    """Assign each drawn edge label to the edge with that text whose path passes nearest."""
    boxes: list[list[float] | None] = [None] * len(chart.edges)
    for lab in geo["edge_labels"]:
        if not lab["text"]:
            continue
        cx = (lab["bbox"][0] + lab["bbox"][2]) / 2
        cy = (lab["bbox"][1] + lab["bbox"][3]) / 2
        cands = [i for i, e in enumerate(chart.edges) if e.label == lab["text"] and boxes[i] is None]
        if not cands:
            raise RuntimeError(f"edge label {lab['text']!r} has no edge")
        i = min(cands, key=lambda k: _dist_to_polyline(cx, cy, paths[k]["points"]))
        boxes[i] = [_r(v) for v in lab["bbox"]]
    return boxes


def ground_truth(chart: Chart, code: str, geo: dict) -> dict:
    """cvparse Graph document of a rendered chart, checked against the SVG it came from."""
    svg_nodes = {re.fullmatch(r"flowchart-(.+)-\d+", n["dom_id"]).group(1): n
                 for n in geo["nodes"]}
    if set(svg_nodes) != {n.id for n in chart.nodes}:
        raise RuntimeError(f"node ids differ: {sorted(svg_nodes)}")
    svg_paths = {p["dom_id"]: p for p in geo["edges"]}
    seen: dict[tuple[str, str], int] = {}
    paths = []
    for e in chart.edges:
        k = seen.get((e.source, e.target), 0)
        seen[(e.source, e.target)] = k + 1
        path = svg_paths.pop(f"L-{e.source}-{e.target}-{k}")
        if LINK_CLASS[e.style] not in path["classes"].split():
            raise RuntimeError(f"edge {e.source}->{e.target}: style {e.style} not drawn")
        paths.append(path)
    if svg_paths:
        raise RuntimeError(f"unexpected edge paths {sorted(svg_paths)}")
    label_boxes = _edge_label_boxes(chart, geo, paths)

    nodes = []
    for n in chart.nodes:
        svg_node = svg_nodes[n.id]
        if svg_node["text"] != n.label:
            raise RuntimeError(f"node {n.id}: drawn text {svg_node['text']!r} != {n.label!r}")
        nodes.append({"id": n.id, "label": n.label, "shape": n.shape,
                      "bbox": [_r(v) for v in svg_node["bbox"]]})
    edges = []
    for e, path, lbox in zip(chart.edges, paths, label_boxes):
        edge = {"source": e.source, "target": e.target, "directed": True, "style": e.style,
                "label": e.label, "type": "",
                "points": [[_r(x), _r(y)] for x, y in simplify(path["points"])],
                "head": [_r(v) for v in path["head"]]}
        if lbox is not None:
            edge["label_bbox"] = lbox
        edges.append(edge)
    doc = {"kind": "flowchart", "width": geo["width"], "height": geo["height"],
           "nodes": nodes, "edges": edges}
    if chart.groups:
        clusters = {c["dom_id"]: c for c in geo["clusters"]}
        doc["groups"] = [{"id": g.id, "label": g.label, "members": g.members,
                          "bbox": [_r(v) for v in clusters[g.id]["bbox"]]} for g in chart.groups]
    doc.update({"direction": chart.orientation, "background": chart.background,
                "subset": chart.subset, "source": code})
    if chart.style:
        doc["style"] = chart.style
    check_geometry(doc)
    return doc


def check_geometry(doc: dict) -> None:
    """Self-check: boxes inside the image; each edge leaves its source, its arrow tip touches
    its target (measured: tips sit within 1 px of the target's box)."""
    w, h = doc["width"], doc["height"]
    boxes = {n["id"]: n["bbox"] for n in doc["nodes"]}
    for nid, (x1, y1, x2, y2) in boxes.items():
        if not (0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h):
            raise RuntimeError(f"node {nid} bbox {boxes[nid]} outside {w}x{h}")

    def gap(pt: list[float], box: list[float]) -> float:
        dx = max(box[0] - pt[0], 0, pt[0] - box[2])
        dy = max(box[1] - pt[1], 0, pt[1] - box[3])
        return (dx * dx + dy * dy) ** 0.5

    for e in doc["edges"]:
        start, end = e["points"][0], e["points"][-1]
        if (gap(start, boxes[e["source"]]) > 3 or gap(end, boxes[e["target"]]) > 8
                or gap(e["head"], boxes[e["target"]]) > 2):
            raise RuntimeError(f"edge {e['source']}->{e['target']} ends off its nodes")


def write_json(path: Path, doc: dict) -> None:
    """JSON with one node / edge / item per line: small and diff-friendly."""
    lines = []
    for key, value in doc.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            body = ",\n  ".join(json.dumps(v, ensure_ascii=False) for v in value)
            lines.append(f"{json.dumps(key)}: [\n  {body}\n ]")
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    path.write_text("{\n " + ",\n ".join(lines) + "\n}\n", encoding="utf-8")


# --- splits ---------------------------------------------------------------------------------

def subset_counts(count: int) -> tuple[int, int, int]:
    """word / char / mixed split of ``count`` charts in the 40 / 40 / 20 ratio."""
    word = round(count * 0.4)
    char = round(count * 0.4)
    return word, char, max(0, count - word - char)


def build_split(split: str, seed: int, counts: tuple[int, int, int], out: Path,
                looks: list[str] = ()) -> dict:
    """Generate, render and write one split; returns timing and renderer versions.  With
    ``looks`` the subsets interleave (word, char, mixed, word, ...) and chart i gets look
    ``looks[i * len(looks) // count]``."""
    words = load_words()
    wordfilter.check_vocabulary(wordfilter.vocabulary_strings(
        [v for k, v in vars(vocab).items() if k.isupper()]), "flowchart_vocab.py")
    plan = ["word"] * counts[0] + ["char"] * counts[1] + ["mixed"] * counts[2]
    if looks:
        plan = [("word", "char", "mixed")[i % 3] for i in range(len(plan))]
    charts = []
    for i, subset in enumerate(plan):
        rng = random.Random(f"{seed}:{i}")
        charts.append(make_mixed_chart(rng) if subset == "mixed"
                      else make_flowlearn_chart(rng, subset, words))
        if looks:
            charts[-1].style = looks[i * len(looks) // len(plan)]
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob(f"flowchart_{split}_*"):
        old.unlink()
    stems = [f"flowchart_{split}_{i:04d}" for i in range(len(charts))]
    codes = [to_mermaid(c) for c in charts]
    jobs = [{"id": s, "code": code, "background": c.background, "out": str(out / f"{s}.jpg")}
            for s, code, c in zip(stems, codes, charts)]
    t0 = time.perf_counter()
    rendered = render(jobs)
    seconds = time.perf_counter() - t0
    geo = {r["id"]: r for r in rendered["results"]}
    items = []
    for stem, chart, code in zip(stems, charts, codes):
        write_json(out / f"{stem}.json", ground_truth(chart, code, geo[stem]))
        items.append({"id": stem, "subset": chart.subset, "image": f"{stem}.jpg"}
                     | ({"style": chart.style} if chart.style else {}))
    versions = dict(rendered["versions"])
    manifest = {"family": "flowchart", "split": split, "generator": "tools/gen_flowchart.py",
                "seed": seed, "renderer": versions, "wordlist": f"wamerican {words_version()}",
                "count": len(items), "items": items}
    if looks:
        manifest["styles"] = {k: LOOKS[k][0] for k in looks}
    write_json(out / "manifest.json", manifest)
    return {"split": split, "count": len(items), "render_seconds": round(seconds, 2),
            "versions": versions}


def words_version() -> str:
    """Installed version of Debian's wamerican (the word list changes the word subset)."""
    try:
        res = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "wamerican"],
                             capture_output=True, text=True, check=True)
        return res.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="looks: " + "; ".join(f"{k}: {v[0]}"
                                                              for k, v in LOOKS.items()))
    ap.add_argument("--split", choices=sorted(SPLITS) + ["style"],
                    help="dev / test (Mermaid default theme) or style (every look)")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--count", type=int)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--looks", help="comma-separated looks (or 'all'); default: all for "
                    "--split style, none for dev/test")
    args = ap.parse_args(argv)
    looks = parse_looks(args.looks or ("all" if args.split == "style" else None), LOOKS)
    if args.split is None:
        todo = [(s, seed, (w, c, m), REPO / "fixtures" / "flowchart" / s)
                for s, (seed, w, c, m) in SPLITS.items()]
    elif args.split == "style":
        seed, n = STYLE_SPLIT
        counts = subset_counts(args.count if args.count is not None else n)
        out = args.out or REPO / "fixtures" / "flowchart" / "style"
        todo = [("style", args.seed if args.seed is not None else seed, counts, out)]
    else:
        seed, w, c, m = SPLITS[args.split]
        counts = subset_counts(args.count) if args.count is not None else (w, c, m)
        out = args.out or REPO / "fixtures" / "flowchart" / args.split
        todo = [(args.split, args.seed if args.seed is not None else seed, counts, out)]
    for split, seed, counts, out in todo:
        t0 = time.perf_counter()
        info = build_split(split, seed, counts, out, looks)
        total = time.perf_counter() - t0
        print(f"{split}: {info['count']} charts in {total:.1f} s "
              f"({total / max(1, info['count']):.3f} s/chart, render {info['render_seconds']} s)"
              f" {info['versions']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
