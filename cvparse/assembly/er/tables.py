"""Table-like entity boxes: a name cell over attribute rows (Silberschatz style, schemas).

Cells are rectangles stacked edge to edge with the same left and right sides.  The top
cell holds the entity name; every text line below is one attribute: underlined = primary
key, ``{x}`` = multivalued, ``x()`` = derived, indented under another line = a component
of that composite attribute.  The lines are cut from the ink by its row profile in
perception (:func:`~cvparse.primitives.celllines.text_lines`) and read in one batched OCR
call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ...model import Entity, Relationship
from ...primitives.items import Inventory
from ...primitives.ocr import glyph_height
from ...primitives.celllines import text_lines
from ...primitives.tables import cell_stacks, table_outline
from ...primitives.wordjoin import join_label
from .rows import name_column, split_cells, typed_rows


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
    weak: bool = False
    """Drawn with a double border (round the whole box, or one of its cells)."""
    types: dict[str, str] = field(default_factory=dict)
    """Column types as the rows write them (schema tables)."""
    not_null: list[str] = field(default_factory=list)
    foreign_keys: list[str] = field(default_factory=list)
    """Columns a row marks as foreign keys (the table they refer to is the lines')."""


_MULTI = re.compile(r"^\{(.*)\}$")
_DERIVED = re.compile(r"^(.*?)\s*[(\[{<CQ]\s*\)$")
"""``name()``: a derived attribute.  OCR of a batch of lines reads the ``(`` of a closing
``()`` as a bracket or a round letter (``total_costQ)``) more often than alone."""


def _clean(text: str) -> str:
    text = re.sub(r"\s*_\s*", "_", text.strip())
    return re.sub(r"\s+", " ", text)


def table_entities(inv: Inventory) -> list[TableEntity]:
    """Every table-like entity box of the page, its rows read in one OCR call.

    A table needs a name row and at least one attribute line: stacked rows, or a single
    box holding several text lines.  A row of several cells is one column of the schema
    (name, type, key markers in some order); a cell of several lines holds one column
    per line.  Rows that write types or markers are split by :mod:`.rows`.
    """
    if inv.ink is None:
        return []
    th, stroke = inv.scale.text_height, inv.scale.stroke
    found = []
    crops: list[np.ndarray] = []
    for rows in cell_stacks(inv):
        lines = [[text_lines(inv.shapes[i], inv.ink, stroke, th, inv.image) for i in r]
                 for r in rows]
        if len(rows) == 1:
            if len(lines[0][0]) < 2:
                continue
            lines = [[lines[0][0][:1]], [lines[0][0][1:]]]
        found.append(([i for r in rows for i in r], lines))
        crops.extend(ln.crop for row in lines for c in row for ln in c)
    if not found:
        return []
    read = iter(inv.read(crops, th))
    glyph = float(np.median([g for g in (glyph_height(c) for c in crops) if g > 0] or [th]))
    out = []
    for cells, lines in found:
        texts = [[[(_clean(join_label(next(read), ln.crop, ln.underlined,
                                      glyph_height(ln.crop) or glyph)), ln) for ln in c]
                  for c in row] for row in lines]
        header = [t for t, _ in texts[0][0] if t]
        name = " ".join(header) or inv.shapes[cells[0]].label
        t = TableEntity(shapes=cells, name=_clean(name),
                        weak=any(inv.shapes[i].double for i in cells))
        out.append(t)
        # (cell texts, first line): one per line of a one-cell row, one per wider row
        rows = []
        for row in texts[1:]:
            if len(row) == 1:
                rows.extend(([text], ln) for text, ln in row[0] if text)
            elif row[0] or any(row[1:]):
                cell_text = [" ".join(text for text, _ in c if text) for c in row]
                first = next((ln for c in row for _, ln in c), None)
                if first is not None and any(cell_text):
                    rows.append((cell_text, first))
        if not rows:
            continue
        wide = [c for c, _ in rows if len(c) >= 2]
        typed = bool(wide) or typed_rows([c[0] for c, _ in rows])
        column = name_column(wide)
        base = min(ln.x for _, ln in rows)
        parent = None
        for cell_text, ln in rows:
            if typed:
                facts = split_cells(cell_text, column)
                label = _clean(facts.name)
                if not label or label in t.attributes:
                    continue
                t.attributes.append(label)
                if ln.underlined or facts.primary_key:
                    t.primary_keys.append(label)
                if facts.type:
                    t.types[label] = facts.type
                if facts.not_null:
                    t.not_null.append(label)
                if facts.foreign_key:
                    t.foreign_keys.append(label)
                continue
            text = cell_text[0]
            indented = ln.x - base >= 0.5 * th
            m, d = _MULTI.match(text), _DERIVED.match(text)
            label = _clean(m.group(1) if m else d.group(1) if d else text)
            if not label:
                continue
            if indented and parent is not None:
                t.composite.setdefault(parent, []).append(label)
                continue
            t.attributes.append(label)
            parent = label
            if ln.underlined:
                t.primary_keys.append(label)
            if m:
                t.multivalued.append(label)
            if d:
                t.derived.append(label)
    return out


SHADOW_DEPTH = 1.0
"""A shadow piece is thinner than this many text heights: no name fits in it."""


def shadow_pieces(inv: Inventory, tables: list[TableEntity]) -> dict[int, int]:
    """Shapes that are the drop shadow behind a table (PlantUML and others draw an
    offset dark band along a box's sides): unlabelled, a text height thick or less,
    within a few strokes of a table's side and running along it for most of their
    length.  Returns each such shape's index with the table's name cell, so that a
    line ending on the shadow ends at the table and the shadow is no entity or
    attribute of its own."""
    th, stroke = inv.scale.text_height, inv.scale.stroke
    gap = 3 * stroke + 3
    taken = {i for t in tables for i in t.shapes}
    boxes = [(t.shapes[0], *table_outline(inv, t.shapes)) for t in tables]
    out: dict[int, int] = {}
    for i, s in enumerate(inv.shapes):
        if i in taken or clean_text(s.label):
            continue
        x1, y1, x2, y2 = s.bbox
        w, h = x2 - x1, y2 - y1
        if min(w, h) > SHADOW_DEPTH * th:
            continue
        for head, bx1, by1, bx2, by2 in boxes:
            if w <= h:  # upright: beside the left or right side, along it
                near = min(abs(x1 - bx2), abs(x2 - bx1), abs(x1 - bx1), abs(x2 - bx2)) <= gap
                along = min(y2, by2 + gap) - max(y1, by1 - gap)
                long = h
            else:  # flat: beside the top or bottom side
                near = min(abs(y1 - by2), abs(y2 - by1), abs(y1 - by1), abs(y2 - by2)) <= gap
                along = min(x2, bx2 + gap) - max(x1, bx1 - gap)
                long = w
            if near and along >= 0.8 * long:
                out[i] = head
                break
    return out


def clean_text(label: str | None) -> str:
    """A shape's label with everything but letters and digits removed."""
    return re.sub(r"[^0-9A-Za-z]", "", label or "")


def foreign_keys(entities: dict[str, Entity], relationships: list, marked: dict[str, list[str]]
                 ) -> dict[str, dict[str, str]]:
    """The foreign keys of schema tables: per table, column -> referenced table.

    Columns refer to the other table of a line between the two when they carry that
    table's whole primary key by name (the usual way a schema names a foreign key) and
    are not just the table's own key again, or, a column marked FK of a table with a
    single line, to that line's other table.  Tables
    that say nothing of keys or types get none (a Chen picture has no foreign keys).
    """
    partners: dict[str, list[str]] = {}
    for r in relationships:
        if isinstance(r, Relationship) and len(r.entities) == 2 and r.entities[0] != r.entities[1]:
            a, b = r.entities
            partners.setdefault(a, []).append(b)
            partners.setdefault(b, []).append(a)
    out: dict[str, dict[str, str]] = {}
    for name, e in entities.items():
        if "types" not in e.extra and not marked.get(name):
            continue
        refs: dict[str, str] = {}
        for other in dict.fromkeys(partners.get(name, [])):
            pks = entities[other].primary_keys
            held = [c for c in e.attributes if c in pks and c not in refs]
            # the other table's whole key, not just this table's own key again
            if held and set(held) == set(pks) and (
                    not set(held) <= set(e.primary_keys) or len(pks) < len(e.primary_keys)
                    or set(held) & set(marked.get(name, []))):
                refs.update((c, other) for c in held)
        others = list(dict.fromkeys(partners.get(name, [])))
        for col in marked.get(name, []):
            if col not in refs and len(others) == 1:
                refs[col] = others[0]
        if refs:
            out[name] = refs
    return out
