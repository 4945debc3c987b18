"""Imports run down the flow image -> page and primitives -> connectors -> assembly ->
export: no module imports one of a later stage, and the shared array and box helpers
import no stage at all."""

import ast
from pathlib import Path

import cvparse

ROOT = Path(cvparse.__file__).parent
ORDER = {"arrays": 0, "boxes": 0, "image": 0, "primitives": 1, "connectors": 2, "assembly": 3,
         "export": 4}
"""First part of a module's name under ``cvparse`` -> its place in the flow."""


def _imports(path: Path) -> list[str]:
    """The ``cvparse`` modules a file imports (relative imports resolved), anywhere in it."""
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    package = parts[:-1]  # the package a relative import starts from (an __init__ too)
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append(name)
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return [n for n in out if n == "cvparse" or n.startswith("cvparse.")]


def _place(module: str) -> int | None:
    parts = module.split(".")
    return ORDER.get(parts[1]) if len(parts) > 1 else None


def test_no_import_runs_up_the_flow():
    upward = []
    for path in sorted(ROOT.rglob("*.py")):
        module = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
        own = _place(module)
        if own is None:
            continue
        for name in _imports(path):
            other = _place(name)
            if other is not None and other > own:
                upward.append(f"{module} imports {name}")
    assert not upward


def test_the_array_helpers_import_no_stage():
    assert _imports(ROOT / "arrays.py") == []
    assert _imports(ROOT / "boxes.py") == []
