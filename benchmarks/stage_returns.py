"""How often a parse goes back to a stage it has already left.

The image flows image -> page and primitives -> connectors -> assembly -> export.  This
script traces :func:`cvparse.pipeline.parse` with :func:`sys.setprofile` and counts the
calls that go back up that chain: a function of one stage calling into an earlier stage
(an assembler cropping and reading pixels again), and the pipeline calling a stage after
it has called a later one (assembly work before the lines are traced).  Calls into the
data types (``primitives/items.py``, ``connectors/lines.py``, ``model.py``) and into
methods and properties (a box's compartments, a region's area, the page's
:meth:`~cvparse.primitives.page.Page.read`) are reading data, not going back, and are
left out; so is a call back whose whole work was to read page facts another call had
computed already (:class:`~cvparse.primitives.items.Facts`: no fact computed, no
NumPy or OpenCV call made), which is listed apart.  Modules of no stage
(``cvparse/arrays.py``: connected components and colour distances, arithmetic that knows
nothing of diagrams) are called like NumPy or OpenCV, not counted either; what a stage
does with them to the page's pixels is its own work.  Each distinct (caller function,
callee) pair counts once over all images; ``--calls`` also lists how many calls each
made::

    python -m benchmarks.stage_returns --limit 3
"""

from __future__ import annotations

import argparse
import sys
import types
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import FIXTURES, IMAGE_SUFFIXES
from cvparse.primitives.items import Facts

FACTS_GET = Facts.get.__code__

STAGES = {"cvparse.image": 0, "cvparse.page": 1, "cvparse.primitives": 1,
          "cvparse.connectors": 2, "cvparse.assembly": 3, "cvparse.export": 4}
"""Module prefix -> position of its stage in the flow."""
DATA = ("items", "lines", "model", "vocabulary", "params", "_lazy")
"""Modules (last dotted part) that hold data types: calls into them are not returns."""
PIPELINE = "cvparse.pipeline"
DATACLASS_MADE = "__create_fn__.<locals>."
"""How the qualified names of the methods :mod:`dataclasses` generates begin (Python
3.11): ``Region(...)`` runs ``__create_fn__.<locals>.__init__``, a method, not a
function of the module the class is in."""


def stage_of(module: str) -> int | None:
    """The stage of a module, ``None`` for the pipeline, data types and the rest."""
    if module.rsplit(".", 1)[-1] in DATA:
        return None
    best = None
    for prefix, stage in STAGES.items():
        if module == prefix or module.startswith(prefix + "."):
            best = stage
    return best


ARRAYS = ("numpy", "cv2", "scipy", "skimage", "PIL")
"""Libraries whose calls are work on arrays (pixels, masks): a call that makes one reads
the page again, whatever it is called through."""


def _array_work(fn) -> bool:
    """Whether a C function (a ``c_call`` of the profile hook) belongs to :data:`ARRAYS`:
    by its module, the module it is bound to (``cv2.dilate``) or its object's type
    (``ndarray.any``)."""
    owner = getattr(fn, "__self__", None)
    names = (getattr(fn, "__module__", None),
             owner.__name__ if isinstance(owner, types.ModuleType) else None,
             type(owner).__module__ if owner is not None else None)
    return any(n and n.split(".")[0] in ARRAYS for n in names)


@dataclass
class _Open:
    """A call back to an earlier stage that has not returned yet, and what it did."""

    frame: object
    key: tuple[str, str]
    hits: int = 0
    """Facts it read that another call had computed already."""
    misses: int = 0
    """Facts it computed."""
    work: bool = False
    """Whether it (or anything it called) worked on arrays."""


class Tracer:
    """A profile hook that records each call going back to an earlier stage.

    A return whose whole call only read page facts computed before (``Facts.get``
    finding its value; no fact computed, no array work) is reading data, like a method
    call, and is kept apart in :attr:`reads`; every other one counts, in
    :attr:`returns`.
    """

    def __init__(self) -> None:
        self.returns: Counter[tuple[str, str]] = Counter()
        self.reads: Counter[tuple[str, str]] = Counter()
        self.reached = -1  # the latest stage the pipeline has called
        self.open: list[_Open] = []

    @staticmethod
    def _name(frame) -> str:
        """Module and function; a comprehension or lambda counts as its function."""
        name = frame.f_code.co_qualname.split(".<locals>")[0]
        return f"{frame.f_globals.get('__name__', '?')}.{name}"

    def __call__(self, frame, event, arg) -> None:
        if event == "c_call":
            if self.open and _array_work(arg):
                for o in self.open:
                    o.work = True
            return
        if event == "return":
            if self.open and self.open[-1].frame is frame:
                o = self.open.pop()
                fact_read = o.hits and not o.misses and not o.work
                (self.reads if fact_read else self.returns)[o.key] += 1
            return
        if event != "call" or frame.f_back is None:
            return
        callee_mod = frame.f_globals.get("__name__", "")
        if self.open:
            self._note(frame, callee_mod)
        if not callee_mod.startswith("cvparse"):
            return
        if "." in frame.f_code.co_qualname.split(".<locals>")[-1].lstrip("."):
            return  # a method or property: reading an object's data
        if frame.f_code.co_qualname.startswith(DATACLASS_MADE):
            return  # a method dataclasses wrote (``__init__``): making a data object
        if "<" in frame.f_code.co_name:
            return  # comprehensions and lambdas run inside their caller's function
        callee = stage_of(callee_mod)
        if callee is None:
            return
        back = frame.f_back
        caller_mod = back.f_globals.get("__name__", "")
        if caller_mod == PIPELINE:
            back_to = callee < self.reached
            self.reached = max(self.reached, callee)
        else:
            caller = stage_of(caller_mod)
            back_to = caller is not None and callee < caller
        if back_to:
            self.open.append(_Open(frame, (self._name(back), self._name(frame))))

    def _note(self, frame, module: str) -> None:
        """Mark the open returns with what the call starting in ``frame`` does: read a
        fact (hit or miss), or work on arrays."""
        if frame.f_code is FACTS_GET:
            hit = frame.f_locals["name"] in frame.f_locals["self"].values
            for o in self.open:
                if hit:
                    o.hits += 1
                else:
                    o.misses += 1
        elif module.split(".")[0] in ARRAYS:
            for o in self.open:
                o.work = True


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
    reads: Counter[tuple[str, str]] = Counter()
    for image, kind in images(args.limit):
        tracer = Tracer()
        sys.setprofile(tracer)
        try:
            parse(image, kind=kind)
        finally:
            sys.setprofile(None)
        total.update(tracer.returns)
        reads.update(tracer.reads)
    only_read = {k: n for k, n in reads.items() if k not in total}
    if args.calls:
        for (caller, callee), n in sorted(total.items()):
            print(f"{n:6d}  {caller} -> {callee}")
        for (caller, callee), n in sorted(only_read.items()):
            print(f"{n:6d}  {caller} -> {callee}  (reads facts only)")
    print(f"{len(total)} distinct returns to a stage already left "
          f"({sum(total.values())} calls) over {len(images(args.limit))} images, "
          f"{cvparse.__file__}")
    print(f"{len(only_read)} more pairs only read page facts computed before "
          f"({sum(only_read.values())} calls), not counted")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
