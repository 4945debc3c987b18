"""Dispatch a document to the text of an output format."""

from __future__ import annotations

from ..model import Document, Graph

FORMATS = ("json", "mermaid")
"""Formats implemented so far; the others of FORMATS.md are refused with a clear message."""


def export(doc: Document, fmt: str) -> str:
    """The document as ``fmt`` text (``json`` for every kind, ``mermaid`` for graphs)."""
    if fmt == "json":
        return doc.to_json() + "\n"
    if fmt == "mermaid":
        if not isinstance(doc, Graph):
            raise ValueError(f"format mermaid needs a flowchart or topology diagram, "
                             f"not {doc.kind}")
        from .mermaid import to_mermaid

        return to_mermaid(doc)
    raise ValueError(f"format {fmt!r} is not supported yet (available: {', '.join(FORMATS)})")
