"""One module per real-tool source of the corpus, found by :func:`all_sources`.

A source module defines:

``NAME``
    the source's name (``graphviz``, ``eralchemy``, ...), used as its folder name;
``FAMILY``
    ``flowchart`` | ``er`` | ``uml`` | ``topology``: the parse kind and the scoring task;
``REQUIRES``
    a :class:`tools.realtools.corpus.Requires` naming the apt, pip and npm packages it needs
    (``python -m tools.realtools setup`` installs the union);
``build(out_dir, *, seed, scale) -> BuildResult``
    renders its images into ``out_dir`` with :func:`tools.realtools.corpus.write_item`, one
    ground-truth document per image, and returns what it rendered.  ``scale`` (1.0 = the
    full corpus) multiplies its image count, so a quick check can render a few.

Ground truth is a FORMATS.md document of the family with these extra keys: ``subset`` (the
option set, e.g. ``neato`` or ``theme-dark``: the benchmark report's row), ``source``,
``config`` (the options used) and ``input`` (where the diagram's content came from:
generator and seed, or repository, commit, path and licence of a committed source file).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def all_sources() -> dict[str, ModuleType]:
    """Every source module of this package, by ``NAME``, in name order."""
    found: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(mod, "NAME") and hasattr(mod, "build"):
            found[mod.NAME] = mod
    return dict(sorted(found.items()))
