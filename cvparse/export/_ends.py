"""Which ends of a graph edge carry an arrowhead, read from the document (shared by exporters)."""

from __future__ import annotations

from ..model import Edge


def arrowheads(edge: Edge) -> tuple[bool, bool]:
    """``(at_source, at_target)``.

    A directed edge has one head, at the target.  An undirected edge (FORMATS.md: no heads or
    heads at both ends) has both heads when the document says so: ``mermaid_link: "both"``
    from a Mermaid ``<-->``, ``heads: 2`` (fixtures) or two markers in ``heads`` (pipeline).
    """
    if edge.directed:
        return False, True
    heads = edge.extra.get("heads")
    if isinstance(heads, list) and len(heads) == 2:
        both = all(isinstance(h, str) and h != "none" for h in heads)
    else:
        both = heads == 2 or edge.extra.get("mermaid_link") == "both"
    return both, both
