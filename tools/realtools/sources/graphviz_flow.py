"""Graphviz flowcharts (dot engine): ellipse start/end, box steps, diamond decisions, labelled branches.

The process content is the generator of :mod:`tools.realtools.sources.mermaid11` (start,
steps, decisions with yes/no branches, data stores, end, back-links); here it is written as
DOT the way people draw flowcharts with Graphviz: ``ellipse`` / ``oval`` terminals, ``box``
steps (``rounded`` in some looks), ``diamond`` decisions, ``cylinder`` or ``parallelogram``
data, dashed / bold / two-headed / plain links, edge labels (``xlabel`` under
``splines=ortho``, which cannot place ``label``).  Subsets are looks: ``classic`` (black on
white, Times), ``ortho`` (orthogonal edges, pastel fills, Helvetica) and ``rounded``
(rounded filled boxes, DejaVu Sans, LR or TB).  Ground truth is read from the DOT text.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from tools.realtools import dot_truth, render, seeding
from tools.realtools.corpus import BuildResult, Requires, write_item
from tools.realtools.sources import graphviz, mermaid11

NAME = "graphviz_flow"
FAMILY = "flowchart"
REQUIRES = Requires(apt=("graphviz",), pip=("pydot",))

LOOKS = ("classic", "ortho", "rounded")
PER_LOOK = 14
SHAPE_DOT = {"rect": "box", "round_rect": "box", "stadium": "ellipse", "circle": "ellipse",
             "diamond": "diamond", "hexagon": "hexagon", "cylinder": "cylinder",
             "parallelogram": "parallelogram", "other": "box", "triangle": "box"}
LINK_DOT = {"-->": "", "-.->": "style=dashed", "==>": "style=bold", "---": "dir=none",
            "<-->": "dir=both"}
FILLS = ("#dae8fc", "#d5e8d4", "#fff2cc", "#f8cecc", "#e1d5e7")


def _q(text: str) -> str:
    return '"' + text.replace('"', '\\"') + '"'


def to_dot(flow: mermaid11.Flow, look: str, rng: random.Random) -> str:
    """The DOT text of a flowchart in one look."""
    font = {"classic": "Times-Roman", "ortho": "Helvetica", "rounded": "DejaVu Sans"}[look]
    rankdir = {"TD": "TB", "TB": "TB", "BT": "BT", "LR": "LR", "RL": "RL"}[flow.direction]
    if look == "classic":
        rankdir = "TB"
    g = [f"rankdir={rankdir}", f"fontname={_q(font)}", f"dpi={rng.choice((72, 96))}"]
    if look == "ortho":
        g += ["splines=ortho", "nodesep=0.6"]
    lines = ["digraph flow {", f"  graph [{', '.join(g)}];",
             f"  node [fontname={_q(font)}, fontsize=12];",
             f"  edge [fontname={_q(font)}, fontsize=10];"]
    for i, n in enumerate(flow.nodes):
        shape = SHAPE_DOT[n.shape]
        if n.id in ("n0", f"n{len(flow.nodes) - 1}"):
            shape = rng.choice(("ellipse", "oval"))
        attrs = [f"shape={shape}", f"label={_q(n.label)}"]
        if look != "classic":
            style = "rounded,filled" if look == "rounded" and shape == "box" else "filled"
            attrs += [f'style="{style}"', f"fillcolor={_q(rng.choice(FILLS))}"]
        lines.append(f"  {n.id} [{', '.join(attrs)}];")
    label_key = "xlabel" if look == "ortho" else "label"
    for e in flow.links:
        attrs = [a for a in (LINK_DOT[e.arrow],) if a]
        if e.label:
            attrs.append(f"{label_key}={_q(e.label)}")
        lines.append(f"  {e.source} -> {e.target}" + (f" [{', '.join(attrs)}]" if attrs else "")
                     + ";")
    lines.append("}")
    return "\n".join(lines) + "\n"


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    result = BuildResult(versions={"graphviz": render.graphviz_version()})
    with tempfile.TemporaryDirectory() as tmpname:
        for item in seeding.plan(seed, NAME, LOOKS, max(1, round(PER_LOOK * scale))):
            flow = mermaid11.make_flow(item.rng, "theme-default")
            text = to_dot(flow, item.subset, item.rng)
            png = Path(tmpname) / f"{item.stem}.png"
            size = graphviz.draw(text, "dot", png, result)
            if size is None:
                continue
            gt = dot_truth.graph_document(text, "flowchart", *size) | {
                "subset": item.subset, "source": NAME,
                "config": {"engine": "dot", "look": item.subset},
                "input": {"generator": "tools/realtools/sources/mermaid11.py make_flow",
                          "seed": item.seed, "dot": text}}
            write_item(out_dir, item.stem, png, gt)
            result.ids.append(item.stem)
    return result
