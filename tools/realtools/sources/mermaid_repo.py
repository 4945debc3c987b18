"""Mermaid flowcharts committed to public repositories, drawn by mermaid-cli 11 as committed and in other themes.

The charts lie in ``inputs/mermaid_repo/`` with PROVENANCE.json (repository, commit, path,
licence).  Subset ``as-committed`` draws each file unchanged (its own front matter, if any,
chooses theme and look); ``theme-neutral``, ``theme-dark`` (on a dark page) and
``theme-forest`` draw its chart without the front matter in that theme.  Ground truth is
the chart read by the project's Mermaid reader (:mod:`cvparse.metrics.mermaid`), used only
where :func:`usable` finds every statement of the file readable, so nothing the reader
would skip is drawn.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from cvparse.metrics.mermaid import parse_mermaid
from tools.realtools import render
from tools.realtools.corpus import BuildResult, Requires, committed_inputs, input_record
from tools.realtools.store import keep, next_stem

NAME = "mermaid_repo"
FAMILY = "flowchart"
REQUIRES = Requires(apt=("chromium",), npm=("tools/realtools/node",))
SUBSET_MB = 0.45
"""This source's share of the committed CI subset (MB), so the total stays under 15 MB."""

LOOKS = {"as-committed": None, "theme-neutral": ("neutral", "white"),
         "theme-dark": ("dark", "#1e1e1e"), "theme-forest": ("forest", "white")}
FRONT_MATTER = re.compile(r"\A\s*---[ \t]*\n.*?\n---[ \t]*\n", re.S)
HEADER = re.compile(r"^(flowchart|graph)(\s+(TB|TD|BT|RL|LR))?\s*;?$", re.I)
NOT_DRAWN = re.compile(r"^(%%|classDef\s|class\s|style\s|linkStyle\s|click\s|direction\s"
                       r"|subgraph\b|end$)")
"""Statements that style, group or script the chart but add no node or link."""
REFUSED = ("fa:", "<img", '"`', "@{")
"""Icons, images, Markdown strings and shape objects: drawn text the reader does not take."""


def usable(text: str) -> str:
    """Why a committed chart cannot be scored ('' if it can): not a flowchart, or a
    statement the Mermaid reader does not read in full."""
    body = FRONT_MATTER.sub("", text)
    lines = [ln.strip() for ln in body.splitlines() if ln.strip()]
    if not lines or not HEADER.match(lines[0]):
        return "not a flowchart"
    for line in lines[1:]:
        for piece in (p.strip() for p in line.split(";")):
            if not piece or NOT_DRAWN.match(piece):
                continue
            if any(r in piece for r in REFUSED):
                return f"unsupported text in {piece[:60]!r}"
            chart = parse_mermaid(f"flowchart TD\n{piece}", strict=True)
            if not chart.nodes and not chart.links:
                return f"unread statement {piece[:60]!r}"
    n = len(parse_mermaid(body).nodes)
    return "" if 3 <= n <= 60 else f"{n} nodes (need 3-60)"


def document(text: str, width: int, height: int) -> dict:
    """The FORMATS.md flowchart document of a committed chart."""
    doc = parse_mermaid(FRONT_MATTER.sub("", text)).to_graph("flowchart").to_dict()
    return doc | {"width": width, "height": height}


def repo_inputs() -> list[tuple[Path, dict]]:
    """The committed files with their provenance records, in record order."""
    return committed_inputs(NAME)


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    from PIL import Image

    result = BuildResult(versions={"mermaid": render.mermaid_version()})
    files = repo_inputs()
    charts = []
    for path, prov in files[:max(1, round(len(files) * scale))]:
        text = path.read_text(encoding="utf-8")
        why = usable(text)
        if why:
            result.skipped.append({"id": path.name, "reason": why})
            continue
        charts.append((text, input_record(NAME, path, prov)))
    with tempfile.TemporaryDirectory() as tmp:
        for k, (look, theme) in enumerate(LOOKS.items()):
            # each look starts at another chart, so the CI subset's round robin over the
            # looks takes different charts
            order = charts[k % max(1, len(charts)):] + charts[:k % max(1, len(charts))]
            codes = [t if theme is None else FRONT_MATTER.sub("", t) for t, _ in order]
            stems = [next_stem(result, NAME, i) for i in range(len(codes))]
            pngs = [Path(tmp) / f"{s}.png" for s in stems]
            name, page = theme or ("default", "white")
            render.mermaid(codes, pngs, theme=name, background=page)
            for stem, png, code, (_, where) in zip(stems, pngs, codes, order):
                with Image.open(png) as im:
                    gt = document(code, *im.size)
                gt |= {"subset": look, "source": NAME,
                       "config": {"theme": name if theme else "as committed",
                                  "background": page},
                       "input": where}
                keep(result, out_dir, stem, png, gt)
    return result
