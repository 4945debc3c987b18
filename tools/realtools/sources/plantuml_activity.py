"""PlantUML activity diagrams (new syntax) as flowcharts, by the current jar and Debian's 1.2020.02.

Generated processes are structured the way people write activity diagrams: ``start``, a
run of ``:action;`` boxes, ``if / else / endif`` tests (some branches ending in
``stop``), ``while`` and ``repeat`` loops, labelled arrows (``-> text;``), dashed or
coloured links, ``stop`` / ``end``; labels come from the process vocabulary of the
project's flowchart generator.  Subset ``repo`` draws activity diagrams committed to public
repositories (``inputs/plantuml_activity/``, with PROVENANCE.json), unchanged, in both
releases.  Other subsets are looks: default skins of both releases, themes that ship in
the current jar (``plain``, ``bluegray``, ``sketchy-outline``), ``monochrome`` and
``handwritten`` on 1.2020.02, and ``scale`` 1 or 1.5.  Ground truth is read from the text
by :mod:`tools.realtools.puml_activity` (start / stop discs and merge diamonds are
unlabelled nodes; tests are hexagons; actions rounded boxes).
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from tools.realtools import puml_activity, render, seeding
from tools.realtools.corpus import (BuildResult, Requires, committed_inputs, readable_inputs,
                                    unnamed_puml)
from tools.realtools.sources import mermaid11
from tools.realtools.store import keep_read, next_stem

NAME = "plantuml_activity"
FAMILY = "flowchart"
REQUIRES = Requires(apt=("plantuml", "default-jre-headless"), npm=("tools/realtools/node",))

OPTION_SETS = {
    "current": {"release": "current", "skin": []},
    "current-plain": {"release": "current", "skin": ["!theme plain"]},
    "current-bluegray": {"release": "current", "skin": ["!theme bluegray"]},
    "current-sketchy": {"release": "current", "skin": ["!theme sketchy-outline"]},
    "debian": {"release": "debian", "skin": []},
    "debian-monochrome": {"release": "debian", "skin": ["skinparam monochrome true"]},
    "debian-handwritten": {"release": "debian", "skin": ["skinparam handwritten true"]},
}
PER_SET = 10
SUBSET_MB = 0.45
"""This source's share of the committed CI subset (MB), so the total stays under 15 MB."""


class _Writer:
    """Writes one random activity program, counting the boxes it has drawn."""

    def __init__(self, rng: random.Random) -> None:
        v = mermaid11._vocab()
        self.rng = rng
        self.v = v
        self.steps = iter(rng.sample(v.STEPS, len(v.STEPS)))
        self.tests = iter(rng.sample(v.DECISIONS, len(v.DECISIONS)))
        self.lines: list[str] = []
        self.boxes = 0

    def action(self, ind: str) -> None:
        rng = self.rng
        if self.boxes and rng.random() < 0.12:
            style = rng.choice(("", "[#blue]", "[dashed]", "[#red,bold]"))
            label = rng.choice(self.v.EDGE_LABELS) if rng.random() < 0.7 else ""
            self.lines.append(f"{ind}-{style}->{' ' + label if label else ''};")
        self.lines.append(f"{ind}:{next(self.steps)};")
        self.boxes += 1

    def block(self, ind: str, depth: int, budget: int) -> None:
        """Statements worth about ``budget`` boxes; loops and tests only to ``depth`` 2."""
        rng = self.rng
        while budget > 0:
            kind = rng.choices(("action", "if", "while", "repeat"),
                               weights=(5, 3 if depth < 2 else 0, 1 if depth < 2 else 0,
                                        1 if depth < 2 else 0))[0]
            if kind == "action":
                self.action(ind)
                budget -= 1
                continue
            yes, no = rng.choice(self.v.BRANCH_LABELS)
            test = next(self.tests)
            inner = rng.randint(1, 2)
            if kind == "if":
                self.lines.append(f"{ind}if ({test}) then ({yes})")
                self.block(ind + "  ", depth + 1, inner)
                if rng.random() < 0.75:
                    self.lines.append(f"{ind}else ({no})")
                    self.block(ind + "  ", depth + 1, 1)
                    if rng.random() < 0.3:
                        self.lines.append(f"{ind}  {rng.choice(('stop', 'end'))}")
                self.lines.append(f"{ind}endif")
            elif kind == "while":
                self.lines.append(f"{ind}while ({test}) is ({yes})")
                self.block(ind + "  ", depth + 1, inner)
                self.lines.append(f"{ind}endwhile ({no})")
            else:
                self.lines.append(f"{ind}repeat")
                self.block(ind + "  ", depth + 1, inner)
                self.lines.append(f"{ind}repeat while ({test}) is ({yes}) not ({no})")
            budget -= inner + 1


def make_diagram(rng: random.Random, skin: list[str]) -> str:
    """The PlantUML text of one generated activity diagram in a look."""
    w = _Writer(rng)
    w.lines = ["@startuml", *skin]
    if rng.random() < 0.3:
        w.lines.append("scale 1.5")
    w.lines.append("start")
    w.block("", 0, rng.randint(4, 9))
    w.lines += [rng.choice(("stop", "stop", "end")), "@enduml"]
    return "\n".join(w.lines) + "\n"


def repo_inputs() -> list[tuple[Path, dict]]:
    """The committed files with their provenance records, in record order."""
    return committed_inputs(NAME)


def _render(items: list[tuple[str, dict]], release: str, work: Path, out_dir: Path,
            result: BuildResult) -> None:
    stems = [next_stem(result, NAME, i) for i in range(len(items))]
    pngs = render.plantuml([t for t, _ in items], [work / f"{s}.png" for s in stems],
                           release=release)
    keep_read(result, out_dir, stems, pngs, items, puml_activity.document)


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    result = BuildResult(versions={r: render.plantuml_version(r) for r in ("current", "debian")})
    per_set = max(1, round(PER_SET * scale))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for subset_name, opts in OPTION_SETS.items():
            items = []
            for item in seeding.plan(seed, NAME, (subset_name,), per_set):
                text = make_diagram(item.rng, opts["skin"])
                items.append((text, {"subset": subset_name, "source": NAME, "config": opts,
                                     "input": {"generator": f"{__name__}.make_diagram",
                                               "seed": item.seed, "diagram": text}}))
            _render(items, opts["release"], work, out_dir, result)
        repo = readable_inputs(NAME, puml_activity.read, puml_activity.Unsupported, result,
                               scale, clean=unnamed_puml)
        for release in ("current", "debian"):
            items = [(text, {"subset": "repo", "source": NAME, "config": {"release": release},
                             "input": where}) for text, where in repo]
            _render(items, release, work, out_dir, result)
    return result
