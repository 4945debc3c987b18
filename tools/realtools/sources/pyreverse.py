"""pylint's pyreverse on installed Python packages: its class diagrams drawn by Graphviz.

pyreverse (:mod:`tools.realtools.pymodels`) writes the class diagram of one to three
modules of a pinned PyPI package as .dot, under each option set's flags (names only,
public or all members, colourised, module-qualified names); Graphviz's ``dot`` draws that
file as pyreverse's own ``-o png`` would (the page capped at 4000 pixels).  The ground
truth is read from the .dot pyreverse wrote (:func:`tools.realtools.pymodels.dot_truth`),
never from the picture.  Pages hold 2-25 classes.
"""

from __future__ import annotations

import random
import tempfile
from importlib.metadata import version
from pathlib import Path

from tools.realtools import render
from tools.realtools.corpus import BuildResult, Requires
from tools.realtools.imagesize import graph_size_attr
from tools.realtools.pymodels import PACKAGES, PageSource, distribution
from tools.realtools.store import keep, next_stem

NAME = "pyreverse"
FAMILY = "uml"
REQUIRES = Requires(apt=("graphviz",),
                    pip=("pylint>=3",) + tuple(f"{distribution(p)}=={v}"
                                               for p, v in PACKAGES.items()))

OPTION_SETS = {
    "names-only": ["-k"],
    "members": [],
    "colorized": ["--colorized"],
    "all-members": ["-f", "ALL"],
    "module-names-colorized": ["-m", "y", "--colorized", "-k"],
}
PER_SET = 16


def build(out_dir: Path, *, seed: int, scale: float) -> BuildResult:
    rng = random.Random(f"{seed}:{NAME}")
    result = BuildResult(versions={"pylint": version("pylint"),
                                   "graphviz": render.graphviz_version(),
                                   **{p: version(distribution(p)) for p in PACKAGES}})
    per_set = max(1, round(PER_SET * scale))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pages = PageSource(rng, work)
        for subset_name, options in OPTION_SETS.items():
            for _ in range(per_set):
                page = pages.next_page(options)
                if page is None:
                    break
                modules, dot, gt = page
                stem = next_stem(result, NAME)
                src = dot.replace('charset="utf-8"', 'charset="utf-8"\n' + graph_size_attr(96), 1)
                png = render.graphviz(src, work / f"{stem}.png")
                gt.update(subset=subset_name, source=NAME, config={"options": options},
                          input=PageSource.provenance(modules))
                keep(result, out_dir, stem, png, gt)
        result.skipped += pages.failed
    return result
