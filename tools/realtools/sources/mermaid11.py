"""mermaid-cli 11 flowcharts: themes default / neutral / dark / forest / base, classic (dagre) and ELK layouts.

Generated process flowcharts (start, steps, decisions with labelled branches, data stores,
end; back-links; extra labelled links) written in today's Mermaid syntax: classic node
shapes and the newer ``id@{ shape: ..., label: ... }`` shapes, ``-->``, ``-.->``, ``==>``,
``---`` and ``<-->`` links, edge labels, subgraphs, and a per-chart ``curve`` (basis, linear,
step, monotoneX, cardinal, natural).  Each theme is a subset; subset ``elk`` is drawn by the
ELK layout (``@mermaid-js/layout-elk``, which mermaid-cli 11 bundles and loads offline) in a
random theme.  The dark theme is drawn on a dark page, as dark-mode sites show it; half the
charts are exported at ``-s 2``.  Ground
truth is the chart's own node and link list.
"""

from __future__ import annotations

import random
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tools.realtools import render, seeding
from tools.realtools.corpus import BuildResult, Requires, write_item

NAME = "mermaid11"
FAMILY = "flowchart"
REQUIRES = Requires(apt=("chromium",), npm=("tools/realtools/node",))

TOOLS = Path(__file__).resolve().parents[2]
THEMES = ("default", "neutral", "dark", "forest", "base")
SUBSETS = tuple(f"theme-{t}" for t in THEMES) + ("elk",)
PER_SUBSET = 20
CURVES = ("basis", "basis", "linear", "step", "monotoneX", "cardinal", "natural")
DIRECTIONS = ("TD", "TD", "TB", "LR", "LR", "RL", "BT")
DARK_PAGES = ("#1e1e1e", "#0d1117", "#333333")
SCALES = (1, 2)
"""mmdc ``-s``: its page is 800 px wide, so a wide chart at scale 1 is shrunk to fit and its
text gets small; half the charts are drawn at the device scale 2 that crisp exports use."""
CLASSIC = {
    "rect": ('["', '"]'), "round_rect": ('("', '")'), "stadium": ('(["', '"])'),
    "diamond": ('{"', '"}'), "circle": ('(("', '"))'), "cylinder": ('[("', '")]'),
    "hexagon": ('{{"', '"}}'), "parallelogram": ('[/"', '"/]'),
}
NEW_SHAPES = {  # Mermaid 11 shape name -> FORMATS.md shape
    "step": (("rect", "rect"), ("rounded", "round_rect"), ("fr-rect", "rect"),
             ("notch-rect", "other"), ("hex", "hexagon"), ("delay", "other")),
    "decision": (("diam", "diamond"),),
    "data": (("cyl", "cylinder"), ("doc", "other"), ("lean-r", "parallelogram"),
             ("docs", "other"), ("lin-cyl", "cylinder")),
    "start": (("stadium", "stadium"), ("circle", "circle"), ("rounded", "round_rect")),
}
CLASSIC_SHAPES = {"step": ("rect", "round_rect", "hexagon"), "decision": ("diamond",),
                  "data": ("cylinder", "parallelogram"),
                  "start": ("stadium", "circle", "round_rect")}
LINKS = {  # syntax -> (directed, style), with drawing weights
    "-->": (True, "solid"), "-.->": (True, "dotted"), "==>": (True, "bold"),
    "---": (False, "solid"), "<-->": (False, "solid"),
}
LINK_WEIGHTS = (8, 2, 1, 1, 1)


@dataclass
class Node:
    id: str
    label: str
    shape: str
    code: str


@dataclass
class Link:
    source: str
    target: str
    arrow: str
    label: str = ""


@dataclass
class Flow:
    direction: str
    config: dict
    nodes: list[Node]
    links: list[Link]
    groups: list[tuple[str, list[str]]] = field(default_factory=list)


def _vocab():
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    import flowchart_vocab

    return flowchart_vocab


def _node(rng: random.Random, nid: str, role: str, label: str, new_syntax: float) -> Node:
    if rng.random() < new_syntax:
        name, shape = rng.choice(NEW_SHAPES[role])
        return Node(nid, label, shape, f'{nid}@{{ shape: {name}, label: "{label}" }}')
    shape = rng.choice(CLASSIC_SHAPES[role])
    open_, close = CLASSIC[shape]
    return Node(nid, label, shape, f"{nid}{open_}{label}{close}")


def make_flow(rng: random.Random, subset: str) -> Flow:
    """A process flowchart with its Mermaid options, all drawn from ``rng``."""
    v = _vocab()
    n = rng.randint(5, 12)
    new_syntax = rng.choice((0.0, 0.4, 0.8))
    roles = ["start"] + rng.choices(("step", "decision", "data"), weights=(6, 3, 1.5),
                                    k=n - 2) + ["end"]
    steps = iter(rng.sample(v.STEPS, n))
    decisions = iter(rng.sample(v.DECISIONS, n))
    stores = iter(rng.sample(v.DATA_STORES, min(n, len(v.DATA_STORES))))
    nodes = []
    for i, role in enumerate(roles):
        nid = f"n{i}"
        if role in ("start", "end"):
            label = rng.choice(v.START_LABELS if role == "start" else v.END_LABELS)
            nodes.append(_node(rng, nid, "start", label, new_syntax))
        elif role == "data":
            label = next(stores, None) or next(steps)
            nodes.append(_node(rng, nid, "data", label, new_syntax))
        else:
            nodes.append(_node(rng, nid, role, next(decisions if role == "decision" else steps),
                               new_syntax))
    arrows = list(LINKS)
    pick = lambda: rng.choices(arrows, weights=LINK_WEIGHTS)[0]  # noqa: E731
    links = []
    for i in range(n - 1):
        if roles[i] == "decision":
            yes, no = rng.choice(v.BRANCH_LABELS)
            links.append(Link(f"n{i}", f"n{i + 1}", "-->", yes))
            j = rng.choice([k for k in range(n) if k not in (i, i + 1)])
            links.append(Link(f"n{i}", f"n{j}", "-->", no))
        else:
            links.append(Link(f"n{i}", f"n{i + 1}", pick()))
    for _ in range(rng.randint(0, 2)):
        a, b = rng.sample(range(n), 2)
        label = rng.choice(v.EDGE_LABELS) if rng.random() < 0.4 else ""
        links.append(Link(f"n{a}", f"n{b}", pick(), label))
    groups = []
    middle = list(range(1, n - 1))
    if len(middle) >= 4 and rng.random() < 0.5:
        k = rng.randint(1, 2 if len(middle) >= 6 else 1)
        titles = rng.sample(v.GROUP_TITLES, k)
        start = 1
        for t in titles:
            size = rng.randint(2, 3)
            if start + size > n - 1:
                break
            groups.append((t, [f"n{m}" for m in range(start, start + size)]))
            start += size + rng.randint(0, 1)
    theme = subset.removeprefix("theme-") if subset != "elk" else rng.choice(THEMES)
    config = {"theme": theme, "flowchart": {"curve": rng.choice(CURVES)}}
    if subset == "elk":
        config["layout"] = "elk"
    return Flow(rng.choice(DIRECTIONS), config, nodes, links, groups)


def to_mermaid(flow: Flow) -> str:
    """Mermaid source with the chart's options as YAML front matter."""
    cfg = flow.config
    lines = ["---", "config:", f"  theme: {cfg['theme']}"]
    if "layout" in cfg:
        lines.append(f"  layout: {cfg['layout']}")
    lines += ["  flowchart:", f"    curve: {cfg['flowchart']['curve']}", "---",
              f"flowchart {flow.direction}"]
    grouped = {m for _, ms in flow.groups for m in ms}
    by_id = {n.id: n for n in flow.nodes}
    lines += [f"    {n.code}" for n in flow.nodes if n.id not in grouped]
    for gi, (title, members) in enumerate(flow.groups):
        lines.append(f'    subgraph g{gi} ["{title}"]')
        lines += [f"        {by_id[m].code}" for m in members]
        lines.append("    end")
    for e in flow.links:
        label = f"|{e.label}|" if e.label else ""
        lines.append(f"    {e.source} {e.arrow}{label} {e.target}")
    return "\n".join(lines) + "\n"


def ground_truth(flow: Flow, width: int, height: int) -> dict:
    """FORMATS.md flowchart document of the chart as its source states it."""
    edges = []
    for e in flow.links:
        directed, style = LINKS[e.arrow]
        edges.append({"source": e.source, "target": e.target, "directed": directed,
                      "style": style, "label": e.label, "type": ""})
    return {"kind": "flowchart", "width": width, "height": height,
            "nodes": [{"id": n.id, "label": n.label, "shape": n.shape} for n in flow.nodes],
            "edges": edges,
            "groups": [{"id": f"g{i}", "label": t, "members": ms}
                       for i, (t, ms) in enumerate(flow.groups)],
            "direction": flow.direction}


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    from PIL import Image

    result = BuildResult(versions={"mermaid": render.mermaid_version()})
    batches: dict[str, list] = {}
    for item in seeding.plan(seed, NAME, SUBSETS, max(1, round(PER_SUBSET * scale))):
        flow = make_flow(item.rng, item.subset)
        page = item.rng.choice(DARK_PAGES) if flow.config["theme"] == "dark" else "white"
        batches.setdefault((page, item.rng.choice(SCALES)), []).append((item, flow))
    with tempfile.TemporaryDirectory() as tmpname:
        tmp = Path(tmpname)
        for (page, device_scale), items in batches.items():
            codes = [to_mermaid(f) for _, f in items]
            pngs = [tmp / f"{item.stem}.png" for item, _ in items]
            render.mermaid(codes, pngs, background=page, scale=device_scale)
            for (item, flow), code, png in zip(items, codes, pngs):
                with Image.open(png) as im:
                    w, h = im.size
                gt = ground_truth(flow, w, h) | {
                    "subset": item.subset, "source": NAME,
                    "config": flow.config | {"background": page, "scale": device_scale,
                                             "direction": flow.direction},
                    "input": {"generator": "tools/realtools/sources/mermaid11.py",
                              "seed": item.seed, "code": code}}
                write_item(out_dir, item.stem, png, gt)
        result.ids = sorted(p.stem for p in out_dir.glob("mermaid11_*.png"))
    return result
