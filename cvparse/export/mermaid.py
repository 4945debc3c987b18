"""Graph documents as Mermaid flowcharts (the FORMATS.md dialect)."""

from __future__ import annotations

from ..model import Graph


def to_mermaid(graph: Graph, direction: str | None = None) -> str:
    """Mermaid text of ``graph``; round-trips through the metrics' Mermaid parser."""
    from ..metrics.mermaid import write_mermaid

    return write_mermaid(graph, direction)
