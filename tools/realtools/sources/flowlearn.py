"""FlowLearn-style simulated flowcharts, drawn the way FlowLearn's get_mermaid.py draws them (Mermaid 10.6.1).

The chart content follows the distribution of the public FlowLearn script (facts, not its
code): 3-10 nodes ``entityN(text)``; text of 1-5 random words, words added only while the
label stays within 20 characters (subset ``word``), or one capital letter, distinct within
a chart (subset ``char``); for every node a link to a random other node, written from the
lower to the higher index and kept if new, then 0, 0, 1, 2 or 3 back-links from a higher to
a lower index (a back-link over an existing forward link makes a reciprocal pair); links
listed by source index; each link ``-->``, ``==>`` or ``-..->``; orientation TB, BT, RL, LR
or TD; background white (FFFFFF), silver (C0C0C0) or a random 6-digit hex colour, one third
each.  Mermaid's default theme draws the nodes and the ``#333`` lines whatever the
background.  Rendering and geometry are tools/gen_flowchart.py's (Mermaid 10.6.1 in
Debian's chromium, JPEG as FlowLearn's images).
"""

from __future__ import annotations

import random
import string
import sys
import tempfile
from pathlib import Path

from tools.realtools import labels, seeding
from tools.realtools.corpus import BuildResult, Requires, write_item

NAME = "flowlearn"
FAMILY = "flowchart"
REQUIRES = Requires(apt=("chromium", "nodejs", "npm", "wamerican"), npm=("tools/mermaid",))
"""tools/mermaid holds mermaid-cli 10.6.1, FlowLearn's renderer, which gen_flowchart drives."""

TOOLS = Path(__file__).resolve().parents[2]
PER_SUBSET = 75
ORIENTATIONS = ("TB", "BT", "RL", "LR", "TD")
LINKS = {"solid": "-->", "bold": "==>", "dotted": "-..->"}
MAX_LABEL_CHARS = 20
BACK_LINK_COUNTS = (0, 0, 1, 2, 3)


def _gen_flowchart():
    """tools/gen_flowchart.py (a script module: its siblings must be importable)."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    import gen_flowchart

    return gen_flowchart


def word_text(rng: random.Random, pool: tuple[str, ...]) -> str:
    """1-5 words, stopping before the label would pass 20 characters."""
    out = ""
    for _ in range(rng.randint(1, 5)):
        word = rng.choice(pool)
        if len(out + word) > MAX_LABEL_CHARS:
            break
        out += word + " "
    return out[:-1]


def links(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """FlowLearn's link list: one forward link per node, then 0-3 back-links, by source."""
    pairs: list[tuple[int, int]] = []
    for i in range(n):
        j = i
        while j == i:
            j = rng.randint(0, n - 1)
        pair = (min(i, j), max(i, j))
        if pair not in pairs:
            pairs.append(pair)
    for _ in range(rng.choice(BACK_LINK_COUNTS)):
        a = b = 0
        while a == b:
            a, b = rng.randint(0, n - 1), rng.randint(0, n - 1)
        pair = (max(a, b), min(a, b))
        if pair not in pairs:
            pairs.append(pair)
    return sorted(pairs, key=lambda p: p[0])


def background(rng: random.Random) -> str:
    choice = rng.choice(("FFFFFF", "C0C0C0", ""))
    return "#" + (choice or "".join(rng.choice("0123456789abcdef") for _ in range(6)))


def make_chart(rng: random.Random, subset: str, pool: tuple[str, ...]):
    """One chart as a tools/gen_flowchart.py ``Chart`` (its renderer's input)."""
    gf = _gen_flowchart()
    orientation = rng.choice(ORIENTATIONS)
    n = rng.randint(3, 10)
    if subset == "char":
        texts = rng.sample(string.ascii_uppercase, n)
    else:
        texts = [word_text(rng, pool) for _ in range(n)]
    nodes = [gf.ChartNode(f"entity{i}", t, "round_rect") for i, t in enumerate(texts)]
    edges = [gf.ChartEdge(f"entity{a}", f"entity{b}", rng.choice(tuple(LINKS)))
             for a, b in links(rng, n)]
    return gf.Chart(subset, orientation, background(rng), nodes, edges)


def to_mermaid(chart) -> str:
    """The chart as FlowLearn writes it: nodes first, then ``a --> b`` links."""
    lines = [f"flowchart {chart.orientation}"]
    lines += [f"{n.id}({n.label})" for n in chart.nodes]
    lines += [f"{e.source} {LINKS[e.style]} {e.target}" for e in chart.edges]
    return "\n".join(lines)


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    gf = _gen_flowchart()
    pool = tuple(w for w in labels.words(MAX_LABEL_CHARS))
    plan = list(seeding.plan(seed, NAME, ("word", "char"), max(1, round(PER_SUBSET * scale)),
                             interleave=True))
    charts = [make_chart(item.rng, item.subset, pool) for item in plan]
    codes = [to_mermaid(c) for c in charts]
    stems = [item.stem for item in plan]
    result = BuildResult()
    with tempfile.TemporaryDirectory() as tmpname:
        tmp = Path(tmpname)
        jobs = [{"id": s, "code": c, "background": ch.background, "out": str(tmp / f"{s}.jpg")}
                for s, c, ch in zip(stems, codes, charts)]
        rendered = gf.render(jobs)
        result.versions = dict(rendered["versions"])
        geo = {r["id"]: r for r in rendered["results"]}
        for item, stem, chart, code in zip(plan, stems, charts, codes):
            try:
                doc = gf.ground_truth(chart, code, geo[stem])
            except (RuntimeError, KeyError) as exc:
                result.skipped.append({"id": stem, "reason": str(exc)[:300]})
                continue
            doc.pop("source", None)
            doc |= {"subset": item.subset, "source": NAME,
                    "config": {"orientation": chart.orientation,
                               "background": chart.background, "theme": "default"},
                    "input": {"generator": "FlowLearn get_mermaid.py distribution",
                              "seed": item.seed, "code": code}}
            write_item(out_dir, stem, tmp / f"{stem}.jpg", doc)
            result.ids.append(stem)
    return result
