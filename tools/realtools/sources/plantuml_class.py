"""PlantUML class diagrams of real packages' classes, by the current jar and Debian's 1.2020.02.

The model of each page is pyreverse's reading of one to three modules of a pinned PyPI
package (:mod:`tools.realtools.pymodels`), written as PlantUML the way people write it:
``abstract class`` where pyreverse found abstract methods (``{abstract}`` members),
``interface`` where every method is abstract and there are no attributes (its subclasses
then realize it: ``..|>``), ``<<exception>>`` on exception classes, ``--|>`` inheritance,
``*--`` / ``o--`` composition and aggregation from the whole, ``-->`` association, each
with pyreverse's role name as label.  Option sets pick the release and the look: themes
that ship inside the jar (``plain``, ``cerulean``, ``sketchy-outline``), ``monochrome``,
``hide members``, left-to-right layout.  Ground truth is that model: class names, the
member lines as written (``hide members``: none drawn), typed directed relations.
Subset ``repo`` draws class diagrams committed to public repositories
(``inputs/plantuml_class/``, with PROVENANCE.json), unchanged, in both releases; their
ground truth is read from the text by :mod:`tools.realtools.puml_class`.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from tools.realtools import puml_class, render
from tools.realtools.corpus import BuildResult, Requires, readable_inputs, unnamed_puml
from tools.realtools.pymodels import PACKAGES, PageSource, distribution, redraw_kinds
from tools.realtools.store import keep, keep_read, next_stem

NAME = "plantuml_class"
FAMILY = "uml"
REQUIRES = Requires(apt=("plantuml", "default-jre-headless"),
                    pip=("pylint>=3",) + tuple(f"{distribution(p)}=={v}"
                                               for p, v in PACKAGES.items()),
                    npm=("tools/realtools/node",))

OPTION_SETS = {
    "current": {"release": "current", "skin": []},
    "current-plain": {"release": "current", "skin": ["!theme plain"]},
    "current-cerulean": {"release": "current", "skin": ["!theme cerulean"]},
    "current-sketchy": {"release": "current", "skin": ["!theme sketchy-outline"]},
    "current-names-only-lr": {"release": "current",
                              "skin": ["left to right direction", "hide members"]},
    "debian": {"release": "debian", "skin": []},
    "debian-monochrome": {"release": "debian", "skin": ["skinparam monochrome true"]},
    "debian-names-only": {"release": "debian", "skin": ["hide members", "hide circle"]},
}
PER_SET = 10
MAX_CLASSES = 16
"""Classes per page at most: their member lists make boxes larger than pyreverse's."""
ARROWS = {"inheritance": "--|>", "realization": "..|>", "composition": "*--",
          "aggregation": "o--", "association": "-->"}
"""Each relation type as PlantUML writes it from its ``source`` to its ``target``."""


def diagram(doc: dict, skin: list[str]) -> tuple[str, dict]:
    """PlantUML text of a pyreverse model and the ground truth of its drawing."""
    kinds, rels = redraw_kinds(doc)
    hidden = "hide members" in skin
    lines = ["@startuml", *skin]
    classes = []
    for c in doc["classes"]:
        kind = kinds[c["name"]]
        head = {"interface": "interface", "abstract": "abstract class"}.get(kind, "class")
        stereo = " <<exception>>" if kind == "exception" else ""
        abstract = set(c.get("abstract_methods", []))
        lines.append(f"{head} {c['name']}{stereo} {{")
        lines += [f"  {a}" for a in c["attributes"]]
        lines += [f"  {'{abstract} ' if m in abstract else ''}{m}" for m in c["methods"]]
        lines.append("}")
        classes.append({"name": c["name"], "attributes": [] if hidden else c["attributes"],
                        "methods": [] if hidden else c["methods"],
                        "stereotype": kind})
    for r in rels:
        label = f" : {r['label']}" if r.get("label") else ""
        lines.append(f"{r['source']} {ARROWS[r['type']]} {r['target']}{label}")
    lines.append("@enduml")
    return "\n".join(lines) + "\n", {"kind": "uml", "classes": classes, "relations": rels}


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    rng = random.Random(f"{seed}:{NAME}")
    result = BuildResult(versions={r: render.plantuml_version(r) for r in ("current", "debian")})
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
                text, gt = diagram(model, opts["skin"])
                gt.update(subset=subset_name, source=NAME, config=opts,
                          input={**PageSource.provenance(modules), "diagram": text})
                items.append((text, gt))
            stems = [next_stem(result, NAME, i) for i in range(len(items))]
            pngs = render.plantuml([t for t, _ in items], [work / f"{s}.png" for s in stems],
                                   release=opts["release"])
            for stem, png, (_, gt) in zip(stems, pngs, items):
                keep(result, out_dir, stem, png, gt)
        result.skipped += pages.failed
        _build_repo(work, out_dir, result, scale)
    return result


def _build_repo(work: Path, out_dir: Path, result: BuildResult, scale: float) -> None:
    """Subset ``repo``: the committed class diagrams the reader takes, in both releases."""
    repo = readable_inputs(NAME, puml_class.read, puml_class.Unsupported, result,
                           scale, clean=unnamed_puml)
    for release in ("current", "debian"):
        stems = [next_stem(result, NAME, i) for i in range(len(repo))]
        pngs = render.plantuml([t for t, _ in repo], [work / f"{s}.png" for s in stems],
                               release=release)
        items = [(text, {"subset": "repo", "source": NAME, "config": {"release": release},
                          "input": where}) for text, where in repo]
        keep_read(result, out_dir, stems, pngs, items, puml_class.document)
