"""The image plan of a source: which subset each image belongs to and the RNG it is drawn from.

Every image gets its own ``random.Random`` seeded by ``<seed>:<source>:<subset>:<i>``, so an
image does not change when another subset or the image count changes, and stems are numbered
in plan order (``<source>_0000``, ...).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass
class Planned:
    stem: str
    subset: str
    index: int
    seed: str
    rng: random.Random


def plan(seed: int, source: str, subsets: tuple[str, ...], count: int,
         interleave: bool = False) -> Iterator[Planned]:
    """``count`` images of each subset, subset after subset (or round-robin)."""
    order = ([(s, i) for i in range(count) for s in subsets] if interleave
             else [(s, i) for s in subsets for i in range(count)])
    for k, (subset, i) in enumerate(order):
        key = f"{seed}:{source}:{subset}:{i}"
        yield Planned(f"{source}_{k:04d}", subset, i, key, random.Random(key))
