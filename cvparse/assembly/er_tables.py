"""Table-like entity boxes: a name row over attribute rows (Silberschatz style, schemas)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..primitives.elements import Inventory


@dataclass
class TableEntity:
    """One entity drawn as a box of text rows: name, then one attribute per row."""

    shapes: list[int]
    """Inventory indices of the box's cells, the name cell first."""
    name: str
    attributes: list[str] = field(default_factory=list)
    primary_keys: list[str] = field(default_factory=list)
    multivalued: list[str] = field(default_factory=list)
    derived: list[str] = field(default_factory=list)
    composite: dict[str, list[str]] = field(default_factory=dict)


def table_entities(inv: Inventory) -> list[TableEntity]:
    """Every table-like entity box of the page."""
    return []
