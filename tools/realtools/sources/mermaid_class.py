"""Mermaid ``classDiagram`` of real packages' classes drawn by mermaid-cli 11, in its themes.

The model of each page is pyreverse's reading of one to three modules of a pinned PyPI
package (:mod:`tools.realtools.pymodels`), written the way people write Mermaid:
``<<interface>>`` / ``<<abstract>>`` / ``<<exception>>`` annotations (see
:func:`tools.realtools.pymodels.redraw_kinds`), attributes as ``name : Type`` lines,
methods as ``name(args) Return`` (Mermaid draws ``name(args) : Return``; an abstract one
ends in ``*`` and is drawn in italics), relations ``Parent <|-- Child``,
``Interface <|.. Impl``, ``Whole *-- Part``, ``Whole o-- Part``, ``A --> B`` with the role
name as label.  Mermaid reads Markdown in member text, so members whose names start with
``_`` (private, dunder) and attributes with parentheses are left out of the chart, and so
of the truth.  Ground truth is the chart's model as Mermaid draws its text.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from tools.realtools import render
from tools.realtools.corpus import BuildResult, Requires
from tools.realtools.pymodels import PACKAGES, PageSource, distribution, redraw_kinds
from tools.realtools.store import keep, next_stem

NAME = "mermaid_class"
FAMILY = "uml"
REQUIRES = Requires(apt=("chromium",),
                    pip=("pylint>=3",) + tuple(f"{distribution(p)}=={v}"
                                               for p, v in PACKAGES.items()),
                    npm=("tools/realtools/node",))

OPTION_SETS = {
    "default": {"theme": "default"},
    "neutral-lr": {"theme": "neutral", "direction": "LR"},
    "dark": {"theme": "dark", "background": "#333333"},
    "forest": {"theme": "forest"},
    "names-only": {"theme": "default", "members": False},
}
NATURAL_SIZE = {"class": {"useMaxWidth": False}}
"""Draw at the diagram's own size: by default mermaid-cli shrinks it into an 800-pixel page,
where a page of tables is unreadably small."""
PER_SET = 10
MAX_CLASSES = 16
"""Classes per page at most: their member lists make boxes larger than pyreverse's."""
ARROWS = {"inheritance": "<|--", "realization": "<|..", "composition": "*--",
          "aggregation": "o--", "association": "-->"}
"""Mermaid arrows, written ``left ARROW right``; the first three put the target (superclass,
interface) or the source (the whole) on the left, as :data:`LEFT` says."""
LEFT = {"inheritance": "target", "realization": "target", "composition": "source",
        "aggregation": "source", "association": "source"}


def method_parts(text: str) -> tuple[str, str]:
    """pyreverse's ``name(args): Return`` as (``name(args)``, ``Return``)."""
    head, sep, ret = text.rpartition("):")
    return (head + ")", ret.strip()) if sep else (text, "")


def chart(doc: dict, opts: dict) -> tuple[str, dict]:
    """Mermaid text of a pyreverse model and the ground truth of its drawing."""
    kinds, rels = redraw_kinds(doc)
    members = opts.get("members", True)
    lines = ["classDiagram"] + ([f"    direction {opts['direction']}"]
                                if opts.get("direction") else [])
    classes = []
    for c in doc["classes"]:
        kind = kinds[c["name"]]
        attrs = [a for a in c["attributes"] if not a.startswith("_") and "(" not in a]
        meths = [m for m in c["methods"] if not m.startswith("_")]
        abstract = set(c.get("abstract_methods", []))
        body = [f"        <<{kind}>>"] if kind != "class" else []
        drawn_methods = []
        if members:
            body += [f"        {a}" for a in attrs]
            for m in meths:
                call, ret = method_parts(m)
                star = "*" if m in abstract else ""
                body.append(f"        {call}{star} {ret}".rstrip())
                drawn_methods.append(f"{call} : {ret}" if ret else call)
        if body:
            lines += [f"    class {c['name']} {{", *body, "    }"]
        else:
            lines.append(f"    class {c['name']}")
        classes.append({"name": c["name"], "attributes": attrs if members else [],
                        "methods": drawn_methods, "stereotype": kind})
    for r in rels:
        left, right = ((r["target"], r["source"]) if LEFT[r["type"]] == "target"
                       else (r["source"], r["target"]))
        label = f" : {r['label']}" if r.get("label") else ""
        lines.append(f"    {left} {ARROWS[r['type']]} {right}{label}")
    return "\n".join(lines) + "\n", {"kind": "uml", "classes": classes, "relations": rels}


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    rng = random.Random(f"{seed}:{NAME}")
    result = BuildResult(versions={"mermaid": render.mermaid_version()})
    per_set = max(1, round(PER_SET * scale))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pages = PageSource(rng, work)
        for subset_name, opts in OPTION_SETS.items():
            items = []
            for _ in range(per_set):
                page = pages.next_page([], details=True, max_classes=MAX_CLASSES)
                if page is None:
                    break
                modules, _dot, model = page
                text, gt = chart(model, opts)
                gt.update(subset=subset_name, source=NAME, config=opts,
                          input={**PageSource.provenance(modules), "chart": text})
                items.append((text, gt))
            stems = [next_stem(result, NAME, i) for i in range(len(items))]
            pngs = render.mermaid([t for t, _ in items], [work / f"{s}.png" for s in stems],
                                  theme=opts["theme"],
                                  background=opts.get("background", "white"),
                                  config=NATURAL_SIZE)
            for stem, png, (_, gt) in zip(stems, pngs, items):
                keep(result, out_dir, stem, png, gt)
        result.skipped += pages.failed
    return result
