"""Dispatch a document to the text of an output format."""

from __future__ import annotations

from typing import Callable

from ..model import Document, ERSchema, Graph, UMLModel

FORMATS = ("json", "mermaid", "plantuml", "sql", "dot", "graphml", "drawio")
"""Every implemented output format (``cvparse parse --format``)."""

_ACCEPTS: dict[str, tuple[type, ...]] = {
    "json": (Graph, ERSchema, UMLModel),
    "mermaid": (Graph,),
    "plantuml": (UMLModel,),
    "sql": (ERSchema,),
    "dot": (Graph, ERSchema),
    "graphml": (Graph,),
    "drawio": (Graph, ERSchema, UMLModel),
}
_KIND_NAMES = {Graph: "a flowchart or topology diagram", ERSchema: "an ER diagram",
               UMLModel: "a UML class diagram"}


def _writer(fmt: str) -> Callable[[Document], str]:
    """The writer of ``fmt``, imported on demand (networkx loads only for GraphML)."""
    if fmt == "json":
        return lambda doc: doc.to_json() + "\n"
    if fmt == "mermaid":
        from .mermaid import to_mermaid
        return to_mermaid
    if fmt == "plantuml":
        from .plantuml import to_plantuml
        return to_plantuml
    if fmt == "sql":
        from .sql import to_sql
        return to_sql
    if fmt == "dot":
        from .dot import to_dot
        return to_dot
    if fmt == "graphml":
        from .graphml import to_graphml
        return to_graphml
    from .drawio import to_drawio
    return to_drawio


def export(doc: Document, fmt: str) -> str:
    """The document as ``fmt`` text; ValueError for an unknown format or one that cannot
    hold this kind of document (e.g. ``sql`` of a flowchart)."""
    if fmt not in FORMATS:
        raise ValueError(f"format {fmt!r} is not supported (available: {', '.join(FORMATS)})")
    accepted = _ACCEPTS[fmt]
    if not isinstance(doc, accepted):
        needs = " or ".join(_KIND_NAMES[t] for t in accepted)
        raise ValueError(f"format {fmt} needs {needs}, not {doc.kind}")
    return _writer(fmt)(doc)
