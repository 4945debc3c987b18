"""Lazy re-exports: a package names its public objects without importing their modules
until one is used, so that importing a package stays as light as importing one module."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, where: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports ``where[name]`` (a module
    path relative to the package) on first access of ``name``."""

    def __getattr__(name: str) -> Any:
        if name in where:
            return getattr(importlib.import_module(f".{where[name]}", package), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
