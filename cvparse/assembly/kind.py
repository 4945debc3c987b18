"""Pick the diagram family from what perception found, and run that family's assembler."""

from __future__ import annotations

from ..connectors.elements import Connector
from ..model import Document
from ..primitives.elements import Inventory


def guess_kind(inv: Inventory) -> str:
    """``er``, ``uml`` or ``flowchart`` from the mix of shapes on the page.

    Chen ER diagrams are the only family that mixes relationship diamonds with attribute
    ellipses; UML class boxes are rectangles split into stacked compartments.
    """
    from .uml import class_boxes

    kinds = [s.kind for s in inv.shapes]
    n = max(len(kinds), 1)
    ellipses = sum(k in ("ellipse", "circle") for k in kinds)
    diamonds = sum(k == "diamond" for k in kinds)
    if ellipses >= 2 and diamonds >= 1 and ellipses / n >= 0.25:
        return "er"
    boxes = class_boxes(inv)
    if boxes and sum(len(b.compartments) >= 2 for b in boxes) >= max(1, len(boxes) // 2):
        return "uml"
    return "flowchart"


def assemble(kind: str, inv: Inventory, connectors: list[Connector]) -> Document:
    """The document of family ``kind`` built from the primitives."""
    if kind == "er":
        from .er import assemble_er

        return assemble_er(inv, connectors)
    if kind == "uml":
        from .uml import assemble_uml

        return assemble_uml(inv, connectors)
    from .graph import assemble_graph

    return assemble_graph(inv, connectors, "topology" if kind == "topology" else "flowchart")
