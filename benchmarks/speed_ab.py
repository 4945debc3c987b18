"""Node-stage CPU time of two cvparse checkouts, compared in one process image by image.

On a shared machine the same parse varies 10-20 % from run to run, which hides a change of
a few percent.  Two checkouts timed alternately in one process (order swapped every round)
see the same drift, so the ratio of their medians resolves it.  A checkout is any folder
holding ``cvparse/`` (e.g. ``git worktree add /tmp/base <rev>``)::

    python -m benchmarks.speed_ab --base /tmp/base --new . --family er --limit 2 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import FAMILY_TASK, default_set, format_table, select_items
from benchmarks.speed import one_core


@dataclass
class Checkout:
    """One checkout's ``cvparse`` modules, loaded beside another's in this process."""

    path: Path
    modules: dict[str, ModuleType] = field(default_factory=dict)


def _take_modules() -> dict[str, ModuleType]:
    """Remove and return every loaded ``cvparse`` module."""
    names = [n for n in sys.modules if n == "cvparse" or n.startswith("cvparse.")]
    return {n: sys.modules.pop(n) for n in names}


@contextmanager
def active(checkout: Checkout) -> Iterator[None]:
    """Make ``checkout``'s modules the ``cvparse`` the process sees (lazy imports inside
    a parse included), and put the previous ones back after."""
    saved = _take_modules()
    sys.modules.update(checkout.modules)
    added_path = not checkout.modules
    if added_path:
        sys.path.insert(0, str(checkout.path))
    try:
        yield
    finally:
        if added_path:
            sys.path.remove(str(checkout.path))
        checkout.modules.update(_take_modules())
        sys.modules.update(saved)


def parse_of(checkout: Checkout) -> Callable:
    """The checkout's ``cvparse.pipeline.parse``, run with the checkout active."""
    with active(checkout):
        from cvparse.pipeline import parse
        if Path(sys.modules["cvparse"].__file__).resolve().parent.parent != \
                checkout.path.resolve():
            raise SystemExit(f"speed_ab: {checkout.path} holds no cvparse package")

    def run(*args, **kwargs):
        with active(checkout):
            return parse(*args, **kwargs)

    return run


@dataclass
class Pair:
    """Median CPU seconds of one image under each checkout."""

    name: str
    base: float
    new: float


def compare(base: Path, new: Path, images: list[Path], kind: str, rounds: int,
            stage: str = "nodes") -> list[Pair]:
    """Per image, the median CPU time of ``stage`` under each checkout over ``rounds``
    rounds (the two alternate, which goes first swapping every round), after one
    warm-up parse each."""
    runs = [parse_of(Checkout(Path(base))), parse_of(Checkout(Path(new)))]
    times: list[dict[Path, list[float]]] = [{p: [] for p in images}, {p: [] for p in images}]
    if images:
        for run in runs:
            run(images[0], kind=kind, stage=stage)
    for r in range(rounds):
        for path in images:
            for k in ((0, 1) if r % 2 == 0 else (1, 0)):
                c0 = time.process_time()
                runs[k](path, kind=kind, stage=stage)
                times[k][path].append(time.process_time() - c0)
    return [Pair(p.stem, statistics.median(times[0][p]), statistics.median(times[1][p]))
            for p in images]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cvparse bench speed_ab", description=__doc__.split("\n")[0])
    p.add_argument("--base", required=True, help="checkout timed as the base")
    p.add_argument("--new", default=".", help="checkout compared with it (default: .)")
    p.add_argument("--family", default="er", choices=sorted(FAMILY_TASK))
    p.add_argument("--split", default="dev", help="fixture split (default: dev)")
    p.add_argument("--limit", type=int, default=2, help="images per subset (default 2)")
    p.add_argument("--rounds", type=int, default=5, help="timed rounds (default 5)")
    p.add_argument("--stage", default="nodes", choices=("nodes", "all"),
                   help="parse up to this stage: nodes, or all (tracing and assembly too; "
                        "default: nodes)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    images = [it.image for it in select_items(default_set(args.family, args.split), args.limit)]
    if not images:
        print("speed_ab: no fixture images found")
        return 1
    print(f"{len(images)} {args.family} images, {args.rounds} rounds, one core, "
          f"CPU ms of the {args.stage} stage (median per image)")
    with one_core():
        pairs = compare(Path(args.base), Path(args.new), images, args.family, args.rounds,
                        args.stage)
    rows = [[p.name, f"{1000 * p.base:.0f}", f"{1000 * p.new:.0f}",
             f"{100 * (p.new / p.base - 1):+.1f}%"] for p in pairs]
    b, n = sum(p.base for p in pairs), sum(p.new for p in pairs)
    rows.append(["all", f"{1000 * b:.0f}", f"{1000 * n:.0f}", f"{100 * (n / b - 1):+.1f}%"])
    print(format_table(["image", "base", "new", "change"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
