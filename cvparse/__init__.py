"""cvparse: a classical (non-neural) diagram parser with the benchmarks' own metrics.

``cvparse.parse(path_or_array, kind="auto")`` returns a :class:`ParseResult` whose
``document`` is one of the documents of docs/formats.md (:mod:`cvparse.model`).  The
result types (``ParseResult``, ``Inventory``, ``Connector``, ``Scale``) and the errors
(``ImageError``, ``MissingImageError``) are importable from here; they load on first use,
so ``import cvparse`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import (DocumentError, Edge, Entity, ERSchema, Graph, IsA, Node, Relationship,
                    UMLClass, UMLModel, UMLRelation, document_from_dict, document_from_json)

__version__ = "0.1.0"

from ._lazy import lazy_exports

_LAZY = {"ParseResult": "pipeline", "ImageError": "image", "MissingImageError": "image",
         "Inventory": "primitives.items", "Scale": "primitives.items",
         "Connector": "connectors.lines", "Params": "params",
         "FamilyParams": "params", "GraphParams": "params"}
__getattr__ = lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

    from .params import Params
    from .pipeline import ParseResult
    from .vocabulary import Kind, Stage


def parse(source: str | Path | np.ndarray, kind: Kind = "auto", stage: Stage = "all", *,
          params: Params | None = None) -> ParseResult:
    """Parse one diagram image (path or RGB array); see :func:`cvparse.pipeline.parse`.

    Raises :class:`MissingImageError` (a ``FileNotFoundError``) for a path that does not
    exist and :class:`ImageError` (a ``ValueError``) for anything else that is not a usable
    image."""
    from .pipeline import parse as _parse

    return _parse(source, kind=kind, stage=stage, params=params)


__all__ = ["parse", "Params", "FamilyParams", "GraphParams", "ParseResult", "ImageError",
           "MissingImageError", "Inventory", "Scale", "Connector", "DocumentError", "Edge",
           "Entity", "ERSchema", "Graph", "IsA", "Node", "Relationship", "UMLClass",
           "UMLModel", "UMLRelation", "document_from_dict", "document_from_json",
           "__version__"]
