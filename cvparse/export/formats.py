"""Dispatch a document to the text of an output format."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..model import DOC_KINDS, GRAPH_KINDS, Document

FORMATS = ("json", "mermaid", "plantuml", "sql", "dot", "graphml", "drawio")
"""Every implemented output format (``cvparse parse --format``)."""

FAMILIES: dict[str, tuple[str, ...]] = {
    "json": DOC_KINDS,
    "mermaid": DOC_KINDS,
    "plantuml": ("er", "uml"),
    "sql": ("er",),
    "dot": GRAPH_KINDS + ("er",),
    "graphml": GRAPH_KINDS,
    "drawio": DOC_KINDS,
}
"""The format x family table: the document kinds each format can hold (docs/formats.md
prints the same table; a test keeps the two equal)."""

_FAMILY_NAMES = ((GRAPH_KINDS, "a flowchart or topology diagram"), (("er",), "an ER diagram"),
                 (("uml",), "a UML class diagram"))


def refusal(fmt: str, kind: str) -> str | None:
    """Why ``fmt`` cannot hold a document of ``kind``, or None when it can.

    The command line asks this before parsing when ``--kind`` names a family, so an
    impossible pair costs no parse.
    """
    if fmt not in FORMATS:
        return f"format {fmt!r} is not supported (available: {', '.join(FORMATS)})"
    if kind in FAMILIES[fmt]:
        return None
    needs = " or ".join(name for kinds, name in _FAMILY_NAMES if set(kinds) <= set(FAMILIES[fmt]))
    return f"format {fmt} needs {needs}, not {kind}"


def _writer(fmt: str) -> Callable[[Any], str]:
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
    hold this kind of document (e.g. ``sql`` of a flowchart).

    Parameters
    ----------
    doc : Graph, ERSchema or UMLModel
        A document (:mod:`cvparse.model`).
    fmt : str
        One of :data:`FORMATS` that the document's family takes (:data:`FAMILIES`).

    Returns
    -------
    str
        The file's text, ending in a newline.

    Examples
    --------
    >>> from cvparse.model import Edge, Graph, Node
    >>> g = Graph(kind="flowchart", nodes=[Node("a", "Start", "rect"), Node("b", "End", "rect")],
    ...           edges=[Edge("a", "b")])
    >>> print(export(g, "mermaid"), end="")
    flowchart TB
        a[Start]
        b[End]
        a --> b
    """
    why = refusal(fmt, doc.kind)
    if why:
        raise ValueError(why)
    return _writer(fmt)(doc)
