"""Graphviz (dot, neato, fdp, sfdp, circo, twopi) layouts of networkx graphs and of DOT files from public repositories.

Generated graphs: random, tree, small-world, scale-free, DAG, grid and cycle graphs from
networkx generators with word or host-name labels, drawn with one of six arrowhead kinds (or
both ends, or none), optional edge labels, clusters (dot and fdp draw them), node shapes
box / ellipse / record / plaintext / circle / diamond, some HTML-like labels, at 72 or 96
DPI.  Each engine is a subset.  Subset ``repo``: the DOT files under
``inputs/graphviz/`` (see its PROVENANCE.json) drawn unchanged by dot and two other engines.
Ground truth is read from the DOT text (:mod:`tools.realtools.dot_truth`).
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tools.realtools import dot_truth, labels, render, seeding
from tools.realtools.corpus import (BuildResult, Requires, committed_inputs, input_record,
                                    write_item)

NAME = "graphviz"
FAMILY = "topology"
REQUIRES = Requires(apt=("graphviz", "wamerican"), pip=("networkx", "pydot"))

ENGINES = ("dot", "neato", "fdp", "sfdp", "circo", "twopi")
GENERATED_PER_ENGINE = 34
"""Generated images per engine at scale 1 (6 x 34 = 204, plus the repository graphs)."""
REPO_ENGINES_PER_FILE = 3
ARROWHEADS = ("normal", "vee", "empty", "open", "dot", "none", "both", "mixed")
SHAPES = ("box", "ellipse", "record", "plaintext", "circle", "diamond", "mixed")
GRAPH_KINDS = ("gnm", "tree", "small_world", "scale_free", "dag", "grid", "cycle")
CLUSTER_ENGINES = ("dot", "fdp")
FONTS = ("Helvetica", "Times-Roman", "Courier", "DejaVu Sans")
MAX_PNG_BYTES = 300_000


@dataclass
class GraphSpec:
    """One generated graph and the drawing options chosen for it."""

    engine: str
    kind: str
    directed: bool
    labels: list[str]
    edges: list[tuple[int, int]]
    options: dict = field(default_factory=dict)
    edge_labels: list[str] = field(default_factory=list)
    clusters: list[tuple[str, list[int]]] = field(default_factory=list)


def random_topology(rng: random.Random, kind: str, n: int) -> tuple[list[tuple[int, int]], bool]:
    """Edges of an ``n``-node graph of one generator family and whether its edges point
    somewhere (trees and DAGs point away from their roots; the rest get random directions
    when the drawing is directed)."""
    import networkx as nx

    seed = rng.randrange(2**31)
    if kind == "gnm":
        g = nx.gnm_random_graph(n, rng.randint(n - 1, min(2 * n, n * (n - 1) // 2)), seed=seed)
    elif kind == "tree":
        g = nx.random_labeled_tree(n, seed=seed) if hasattr(nx, "random_labeled_tree") \
            else nx.random_tree(n, seed=seed)
        g = nx.bfs_tree(g, 0)
    elif kind == "small_world":
        g = nx.connected_watts_strogatz_graph(n, min(4, n - 1) // 2 * 2 or 2, 0.3, seed=seed)
    elif kind == "scale_free":
        g = nx.barabasi_albert_graph(n, rng.choice((1, 2)), seed=seed)
    elif kind == "dag":
        p = min(0.9, 2.2 / n)
        g = nx.DiGraph((i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < p)
        g.add_nodes_from(range(n))
        for j in range(1, n):   # no isolated nodes: every node but the first gets a parent
            if g.in_degree(j) == 0 and g.out_degree(j) == 0:
                g.add_edge(rng.randrange(j), j)
    elif kind == "grid":
        rows = rng.randint(2, 3)
        cols = max(2, n // rows)
        g = nx.convert_node_labels_to_integers(nx.grid_2d_graph(rows, cols))
    else:  # cycle with a few chords
        g = nx.cycle_graph(n)
        for _ in range(rng.randint(0, 2)):
            a, b = rng.sample(range(n), 2)
            g.add_edge(a, b)
    edges = [(int(a), int(b)) for a, b in g.edges() if a != b]
    oriented = kind in ("tree", "dag")
    if not oriented:
        edges = [(a, b) if rng.random() < 0.5 else (b, a) for a, b in edges]
    return edges, oriented


def make_spec(rng: random.Random, engine: str) -> GraphSpec:
    """A generated graph with its drawing options, all drawn from ``rng``."""
    kind = rng.choice(GRAPH_KINDS)
    n = rng.randint(4, 16) if engine != "dot" else rng.randint(4, 18)
    edges, _ = random_topology(rng, kind, n)
    n = 1 + max(max(e) for e in edges) if edges else n
    host = rng.random() < 0.45
    title = rng.random() < 0.3
    names = labels.unique_labels(
        rng, n, labels.host_label if host else
        (lambda r: labels.word_label(r, rng.choice((1, 2)), title)))
    directed = rng.random() < 0.8
    opts = {
        "arrowhead": rng.choice(ARROWHEADS) if directed else "none",
        "shape": rng.choice(SHAPES),
        "dpi": rng.choice((72, 96)),
        "font": rng.choice(FONTS),
        "html": rng.random() < 0.15,
        "filled": rng.random() < 0.3,
        "edge_labels": rng.random() < 0.35,
    }
    if engine == "dot":
        opts["rankdir"] = rng.choice(("TB", "LR", "BT", "RL"))
        opts["splines"] = rng.choice(("spline", "spline", "ortho", "polyline"))
    elif engine in ("neato", "fdp", "sfdp"):
        opts["splines"] = rng.choice(("true", "line", "curved", "polyline"))
        opts["overlap"] = "false"
    elif engine in ("circo", "twopi"):
        opts["overlap"] = "false"   # as users set it: twopi otherwise stacks nodes
    spec = GraphSpec(engine, kind, directed, names, edges, opts)
    if opts["edge_labels"]:
        spec.edge_labels = [
            (rng.choice(("eth0", "eth1", "1 Gb/s", "10G", "443", "tcp", "udp", "vlan 20"))
             if host else labels.word_label(rng, 1)) if rng.random() < 0.6 else ""
            for _ in edges]
    if engine in CLUSTER_ENGINES and n >= 6 and rng.random() < 0.45:
        k = rng.randint(2, 3) if n >= 9 else 2
        members = list(range(n))
        rng.shuffle(members)
        cut = sorted(rng.sample(range(2, n - 1), k - 1))
        parts = [members[a:b] for a, b in zip([0] + cut, cut + [n])]
        names_c = labels.unique_labels(rng, k, lambda r: labels.word_label(r, 1, True))
        spec.clusters = [(c, sorted(p)) for c, p in zip(names_c, parts)]
    return spec


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _node_stmt(i: int, label: str, spec: GraphSpec, rng: random.Random) -> str:
    shape = spec.options["shape"]
    if shape == "mixed":
        shape = rng.choice(SHAPES[:-1])
    attrs = [f"shape={shape}"]
    if spec.options["html"] and rng.random() < 0.6:
        head, _, rest = label.partition(" ")
        body = f"<B>{head}</B>" + (f"<BR/>{rest}" if rest else "")
        attrs.append(f"label=<{body}>")
    elif shape == "record" and " " in label:
        a, _, b = label.partition(" ")
        attrs.append("label=" + _q(f"{{{a}|{b}}}" if spec.options.get("rankdir") in
                                   (None, "TB", "BT") else f"{a}|{b}"))
    else:
        attrs.append("label=" + _q(label))
    return f"  n{i} [{', '.join(attrs)}];"


def to_dot(spec: GraphSpec, rng: random.Random) -> str:
    """The DOT text of a generated graph (``rng`` only picks per-node and per-edge looks)."""
    o = spec.options
    gattrs = [f"dpi={o['dpi']}", f"fontname={_q(o['font'])}"]
    for key in ("rankdir", "splines", "overlap"):
        if key in o:
            gattrs.append(f"{key}={o[key]}")
    if spec.engine != "dot":
        gattrs.append("sep=\"+8\"")
    nattrs = [f"fontname={_q(o['font'])}"]
    if o["filled"]:
        nattrs += ["style=filled", f"fillcolor={_q(rng.choice(('#dae8fc', '#e1f5e0', '#fff2cc', 'lightgrey', '#f8cecc')))}"]
    eattrs = [f"fontname={_q(o['font'])}", "fontsize=10"]
    if spec.directed and o["arrowhead"] not in ("both", "mixed"):
        eattrs.append(f"arrowhead={o['arrowhead']}")
    if o["arrowhead"] == "both":
        eattrs.append("dir=both")
    lines = [("digraph" if spec.directed else "graph") + " G {",
             f"  graph [{', '.join(gattrs)}];", f"  node [{', '.join(nattrs)}];",
             f"  edge [{', '.join(eattrs)}];"]
    in_cluster = {m for _, ms in spec.clusters for m in ms}
    for ci, (cname, members) in enumerate(spec.clusters):
        lines.append(f"  subgraph cluster_{ci} {{")
        lines.append(f"    label={_q(cname)}; style=rounded; color=grey40;")
        lines += ["  " + _node_stmt(i, spec.labels[i], spec, rng) for i in members]
        lines.append("  }")
    lines += [_node_stmt(i, lab, spec, rng) for i, lab in enumerate(spec.labels)
              if i not in in_cluster]
    op = "->" if spec.directed else "--"
    for k, (a, b) in enumerate(spec.edges):
        attrs = []
        if spec.edge_labels and spec.edge_labels[k]:
            attrs.append("label=" + _q(spec.edge_labels[k]))
        if o["arrowhead"] == "mixed":
            head = rng.choice(("normal", "vee", "empty", "open", "dot", "none", "both"))
            attrs.append("dir=both" if head == "both" else f"arrowhead={head}")
        lines.append(f"  n{a} {op} n{b}" + (f" [{', '.join(attrs)}]" if attrs else "") + ";")
    lines.append("}")
    return "\n".join(lines) + "\n"


def document(dot_text: str, width: int, height: int) -> dict:
    """The FORMATS.md Graph document (topology) of a DOT text as Graphviz draws it."""
    return dot_truth.graph_document(dot_text, "topology", width, height)


def repo_inputs() -> list[tuple[Path, dict]]:
    """The committed DOT files with their provenance records, in file order."""
    return committed_inputs("graphviz")


def usable(truth: dict) -> str:
    """Why a DOT graph cannot be scored ('' if it can): 3-40 nodes, all of them labelled."""
    n = len(truth["nodes"])
    if truth["unlabelled"]:
        return f"unlabelled nodes {truth['unlabelled'][:3]}"
    if not 3 <= n <= 40:
        return f"{n} labelled nodes (need 3-40)"
    return ""


def draw(dot_text: str, engine: str, png: Path, result: BuildResult,
         dpi: int | None = None) -> tuple[int, int] | None:
    """Render with one engine; the image size, or None (recorded in ``result.skipped``)
    when Graphviz refuses the input or the PNG passes the size limit."""
    from PIL import Image

    try:
        render.graphviz(dot_text, png, engine=engine, dpi=dpi)
    except RuntimeError as exc:
        result.skipped.append({"id": png.stem, "reason": str(exc)[:300]})
        return None
    if png.stat().st_size > MAX_PNG_BYTES:
        result.skipped.append({"id": png.stem, "reason": "png over 300 KB"})
        return None
    with Image.open(png) as im:
        return im.size


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    result = BuildResult(versions={"graphviz": render.graphviz_version()})
    per_engine = max(1, round(GENERATED_PER_ENGINE * scale))
    with tempfile.TemporaryDirectory() as tmpname:
        tmp = Path(tmpname)
        k = 0
        for item in seeding.plan(seed, NAME, ENGINES, per_engine):
            spec = make_spec(item.rng, item.subset)
            text = to_dot(spec, item.rng)
            k += 1
            png = tmp / f"{item.stem}.png"
            size = draw(text, item.subset, png, result)
            if size is None:
                continue
            gt = document(text, *size) | {
                "subset": item.subset, "source": NAME,
                "config": {"engine": item.subset, "graph": spec.kind} | spec.options
                | {"clusters": len(spec.clusters)},
                "input": {"generator": f"networkx {spec.kind}", "seed": item.seed, "dot": text}}
            write_item(out_dir, item.stem, png, gt)
            result.ids.append(item.stem)
        files = repo_inputs()
        for path, prov in files[:max(1, round(len(files) * scale))]:
            text = path.read_text(encoding="utf-8")
            why = usable(dot_truth.ground_truth(dot_truth.parse(text)))
            if why:
                result.skipped.append({"id": path.name, "reason": why})
                continue
            rng = random.Random(f"{seed}:graphviz:repo:{path.name}")
            others = rng.sample([e for e in ENGINES if e != "dot"], REPO_ENGINES_PER_FILE - 1)
            for engine in ["dot"] + others:
                dpi = rng.choice((72, 96))
                png = tmp / f"{NAME}_{k:04d}.png"
                k += 1
                size = draw(text, engine, png, result, dpi)
                if size is None:
                    continue
                gt = document(text, *size) | {
                    "subset": "repo", "source": NAME,
                    "config": {"engine": engine, "dpi": dpi},
                    "input": input_record("graphviz", path, prov)}
                write_item(out_dir, png.stem, png, gt)
                result.ids.append(png.stem)
    return result
