"""How often a parse goes back to a stage it has already left.

The image flows image -> page and primitives -> connectors -> assembly -> export.  This
script traces :func:`cvparse.pipeline.parse` with :func:`sys.setprofile` and counts the
calls that go back up that chain: a function of one stage calling into an earlier stage
(an assembler cropping and reading pixels again), and the pipeline calling a stage after
it has called a later one (assembly work before the lines are traced).  Calls into the
data types (``primitives/items.py``, ``connectors/lines.py``, ``model.py``) and into
methods and properties (a box's compartments, a region's area, the page's
:meth:`~cvparse.primitives.page.Page.read`) are reading data, not going back, and are
left out.  Each distinct (caller function,
callee) pair counts once over all images; ``--calls`` also lists how many calls each
made::

    python -m benchmarks.stage_returns --limit 3
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import FIXTURES, IMAGE_SUFFIXES

STAGES = {"cvparse.image": 0, "cvparse.page": 1, "cvparse.primitives": 1,
          "cvparse.connectors": 2, "cvparse.assembly": 3, "cvparse.export": 4}
"""Module prefix -> position of its stage in the flow."""
DATA = ("items", "lines", "model", "vocabulary", "params", "_lazy")
"""Modules (last dotted part) that hold data types: calls into them are not returns."""
PIPELINE = "cvparse.pipeline"


def stage_of(module: str) -> int | None:
    """The stage of a module, ``None`` for the pipeline, data types and the rest."""
    if module.rsplit(".", 1)[-1] in DATA:
        return None
    best = None
    for prefix, stage in STAGES.items():
        if module == prefix or module.startswith(prefix + "."):
            best = stage
    return best


class Tracer:
    """A profile hook that records each call going back to an earlier stage."""

    def __init__(self) -> None:
        self.returns: Counter[tuple[str, str]] = Counter()
        self.reached = -1  # the latest stage the pipeline has called

    @staticmethod
    def _name(frame) -> str:
        """Module and function; a comprehension or lambda counts as its function."""
        name = frame.f_code.co_qualname.split(".<locals>")[0]
        return f"{frame.f_globals.get('__name__', '?')}.{name}"

    def __call__(self, frame, event, arg) -> None:
        if event != "call" or frame.f_back is None:
            return
        callee_mod = frame.f_globals.get("__name__", "")
        if not callee_mod.startswith("cvparse"):
            return
        if "." in frame.f_code.co_qualname.split(".<locals>")[-1].lstrip("."):
            return  # a method or property: reading an object's data
        if "<" in frame.f_code.co_name:
            return  # comprehensions and lambdas run inside their caller's function
        callee = stage_of(callee_mod)
        if callee is None:
            return
        back = frame.f_back
        caller_mod = back.f_globals.get("__name__", "")
        if caller_mod == PIPELINE:
            if callee < self.reached:
                self.returns[(self._name(back), self._name(frame))] += 1
            self.reached = max(self.reached, callee)
            return
        caller = stage_of(caller_mod)
        if caller is not None and callee < caller:
            self.returns[(self._name(back), self._name(frame))] += 1


def images(limit: int) -> list[tuple[Path, str]]:
    """The first ``limit`` dev images of each family, with the family as the kind."""
    out = []
    for fam in ("er", "flowchart", "topology", "uml"):
        folder = FIXTURES / fam / "dev"
        found = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES
                       and not p.name.endswith(".overlay.png"))
        out += [(p, fam) for p in found[:limit]]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--limit", type=int, default=3, help="dev images per family")
    p.add_argument("--calls", action="store_true", help="list every pair with its calls")
    args = p.parse_args(argv)
    import cvparse
    from cvparse.pipeline import parse

    total: Counter[tuple[str, str]] = Counter()
    for image, kind in images(args.limit):
        tracer = Tracer()
        sys.setprofile(tracer)
        try:
            parse(image, kind=kind)
        finally:
            sys.setprofile(None)
        total.update(tracer.returns)
    if args.calls:
        for (caller, callee), n in sorted(total.items()):
            print(f"{n:6d}  {caller} -> {callee}")
    print(f"{len(total)} distinct returns to a stage already left "
          f"({sum(total.values())} calls) over {len(images(args.limit))} images, "
          f"{cvparse.__file__}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
