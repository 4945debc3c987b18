"""Real database schemas for the ER sources: a small DDL reader, table subsets, ER truth.

The inputs are ``CREATE TABLE`` scripts that projects committed (``inputs/schemas/*.sql``,
provenance beside them).  :func:`parse_ddl` reads the part of DDL every dialect shares:
columns with their declared type, ``NOT NULL``, column and table ``PRIMARY KEY``,
``UNIQUE``, ``REFERENCES`` and ``FOREIGN KEY`` clauses (also ``ALTER TABLE ... ADD``).  A
source draws a connected subset of a schema's tables (:func:`table_subsets`), and
:func:`er_truth` writes the FORMATS.md section 2 document of such a subset: tables as
entities with bare column names, keys, types, NOT NULL and foreign keys, and one binary
relationship per foreign key between two drawn tables.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from tools.realtools.corpus import INPUTS

SCHEMA_DIR = INPUTS / "schemas"

_COLUMN_STOP = {"not", "null", "primary", "references", "default", "unique", "check",
                "generated", "constraint", "auto_increment", "autoincrement", "collate",
                "identity", "on", "comment"}


@dataclass
class Column:
    name: str
    type: str
    not_null: bool = False
    primary_key: bool = False
    unique: bool = False


@dataclass
class ForeignKey:
    """``columns`` of the owning table refer to ``ref_columns`` of ``ref_table``."""

    columns: list[str]
    ref_table: str
    ref_columns: list[str]


@dataclass
class Table:
    name: str
    columns: list[Column] = field(default_factory=list)
    foreign_keys: list[ForeignKey] = field(default_factory=list)

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name.lower() == name.lower()), None)

    @property
    def primary_keys(self) -> list[str]:
        return [c.name for c in self.columns if c.primary_key]


@dataclass
class Schema:
    """One committed schema: its tables in file order and where it came from."""

    name: str
    tables: dict[str, Table]
    provenance: dict


# --- reading DDL ------------------------------------------------------------------------

def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"--[^\n]*", " ", text)


def _split_top(text: str, sep: str) -> list[str]:
    """Split on ``sep`` outside parentheses and quotes."""
    out, depth, quote, cur = [], 0, "", []
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"`":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]


def _ident(text: str) -> str:
    """A bare identifier: quotes dropped, a schema prefix (``public.x``) dropped."""
    name = text.strip().strip('"`[]')
    return name.split(".")[-1].strip('"`[]')


def _names(group: str) -> list[str]:
    return [_ident(x) for x in group.split(",") if x.strip()]


_FK = re.compile(r"foreign\s+key\s*\(([^)]*)\)\s*references\s+([\w\".`]+)\s*(?:\(([^)]*)\))?",
                 re.I)
_REF = re.compile(r"references\s+([\w\".`]+)\s*(?:\(([^)]*)\))?", re.I)
_TOKEN = re.compile(r"[\w$]+(?:\s*\([^)]*\))?|\S")


def _column(item: str) -> tuple[Column, ForeignKey | None]:
    head = re.match(r"\s*([\"`\[]?[\w$ ]+?[\"`\]]?|\w+)\s+(.*)$", item, re.S)
    name, rest = (_ident(head.group(1)), head.group(2)) if head else (_ident(item), "")
    tokens = _TOKEN.findall(rest)
    type_words: list[str] = []
    for tok in tokens:
        if tok.split("(")[0].strip().lower() in _COLUMN_STOP:
            break
        type_words.append(re.sub(r"\s+", "", tok) if "(" in tok else tok)
    low = " " + re.sub(r"\s+", " ", rest.lower()) + " "
    col = Column(name=name, type=" ".join(type_words),
                 not_null=" not null " in low or " primary key " in low,
                 primary_key=" primary key " in low, unique=" unique " in low)
    ref = _REF.search(rest)
    fk = None
    if ref:
        fk = ForeignKey([name], _ident(ref.group(1)), _names(ref.group(2) or ""))
    return col, fk


def _table_item(table: Table, item: str) -> None:
    body = re.sub(r"^constraint\s+[\w\"`]+\s+", "", item.strip(), flags=re.I)
    low = body.lower()
    if low.startswith("primary key"):
        for n in _names(body[body.index("(") + 1:body.rindex(")")]):
            col = table.column(n)
            if col:
                col.primary_key = col.not_null = True
    elif low.startswith("foreign key"):
        m = _FK.search(body)
        if m:
            table.foreign_keys.append(ForeignKey(_names(m.group(1)), _ident(m.group(2)),
                                                 _names(m.group(3) or "")))
    elif re.match(r"unique\s*\(", low):
        cols = _names(body[body.index("(") + 1:body.rindex(")")]) if "(" in body else []
        if len(cols) == 1 and table.column(cols[0]):
            table.column(cols[0]).unique = True
    elif re.match(r"check\s*\(|(unique\s+|fulltext\s+)?(key|index)\s+[\w`\"]*\s*\(|exclude\b",
                  low):
        return
    else:
        col, fk = _column(body)
        table.columns.append(col)
        if fk:
            table.foreign_keys.append(fk)


def parse_ddl(text: str) -> dict[str, Table]:
    """The tables a DDL script creates, in file order (see the module docstring)."""
    tables: dict[str, Table] = {}
    for stmt in _split_top(_strip_comments(text), ";"):
        m = re.match(r"create\s+(?:temporary\s+)?table\s+(?:if\s+not\s+exists\s+)?"
                     r"([\w\".`]+)\s*\((.*)\)[^)]*$", stmt, re.I | re.S)
        if m:
            table = Table(_ident(m.group(1)))
            for item in _split_top(m.group(2), ","):
                _table_item(table, item)
            tables[table.name] = table
            continue
        m = re.match(r"alter\s+table\s+(?:only\s+)?([\w\".`]+)\s+add\s+(.*)$", stmt,
                     re.I | re.S)
        if m and _ident(m.group(1)) in tables:
            _table_item(tables[_ident(m.group(1))], m.group(2))
    for t in tables.values():          # a referenced column list left out means the PK
        for fk in t.foreign_keys:
            if not fk.ref_columns and fk.ref_table in tables:
                fk.ref_columns = tables[fk.ref_table].primary_keys
    return tables


def load_schemas(directory: Path = SCHEMA_DIR) -> list[Schema]:
    """Every committed schema with its provenance record, in name order."""
    prov = json.loads((directory / "PROVENANCE.json").read_text(encoding="utf-8"))
    out = []
    for entry in sorted(prov["files"], key=lambda e: e["file"]):
        text = (directory / entry["file"]).read_text(encoding="utf-8")
        out.append(Schema(Path(entry["file"]).stem, parse_ddl(text), entry))
    return out


# --- subsets and truth ------------------------------------------------------------------

def fk_edges(tables: dict[str, Table]) -> list[tuple[str, ForeignKey]]:
    """(owning table, foreign key) for every key whose target is among ``tables``."""
    return [(t.name, fk) for t in tables.values() for fk in t.foreign_keys
            if fk.ref_table in tables]


def table_subsets(schema: Schema, rng: random.Random, count: int, lo: int = 3,
                  hi: int = 12) -> list[list[str]]:
    """``count`` table-name lists, each a connected part of the foreign-key graph of
    ``lo``..``hi`` tables (fewer if the schema's component is smaller), grown from a random
    table by random neighbours; the schema's file order is kept inside each list."""
    names = list(schema.tables)
    nbrs: dict[str, set[str]] = {n: set() for n in names}
    for owner, fk in fk_edges(schema.tables):
        if fk.ref_table != owner:
            nbrs[owner].add(fk.ref_table)
            nbrs[fk.ref_table].add(owner)
    seeds = [n for n in names if nbrs[n]]
    out = []
    for _ in range(count):
        start = rng.choice(seeds)
        want = rng.randint(lo, hi)
        chosen = [start]
        frontier = sorted(nbrs[start])
        while frontier and len(chosen) < want:
            nxt = frontier.pop(rng.randrange(len(frontier)))
            if nxt in chosen:
                continue
            chosen.append(nxt)
            frontier.extend(sorted(nbrs[nxt] - set(chosen) - set(frontier)))
        out.append([n for n in names if n in chosen])
    return out


def subset(schema: Schema, names: list[str]) -> dict[str, Table]:
    return {n: schema.tables[n] for n in names}


def pick(all_schemas: list[Schema], rng: random.Random, index: int, hi: int = 12
         ) -> tuple[Schema, list[str], dict[str, Table]]:
    """The ``index``-th drawing's schema (in turn) and a random connected subset of its
    tables: (schema, table names, tables)."""
    schema = all_schemas[index % len(all_schemas)]
    names = table_subsets(schema, rng, 1, hi=hi)[0]
    return schema, names, subset(schema, names)


def provenance(schema: Schema, names: list[str], **extra) -> dict:
    """The ``input`` record of a drawing of ``names``: schema, tables, source file."""
    return {"schema": schema.name, "tables": names, **extra, **schema.provenance}


def is_one_to_one(table: Table, fk: ForeignKey) -> bool:
    """The key's columns are the owning table's whole primary key or one unique column:
    each referenced row has at most one owner."""
    if sorted(c.lower() for c in fk.columns) == sorted(p.lower() for p in table.primary_keys):
        return True
    return len(fk.columns) == 1 and bool(table.column(fk.columns[0])
                                         and table.column(fk.columns[0]).unique)


def fk_optional(table: Table, fk: ForeignKey) -> bool:
    """A nullable key column: the owner may refer to nothing."""
    return any(not (table.column(c) and table.column(c).not_null) for c in fk.columns)


def er_truth(tables: dict[str, Table], *, types: dict[str, dict[str, str]] | None = None,
             drawn_not_null: bool = True, all_foreign_keys: bool = False,
             cardinalities=None, name: str = "") -> dict:
    """The ER document of drawn tables.

    ``types`` overrides the type text per table and column (as the tool prints it; a column
    left out has no type drawn); ``drawn_not_null`` says whether the picture marks NOT NULL;
    ``all_foreign_keys`` whether rows mark every key column (else only the keys whose line
    is drawn, to a table of the picture, are known from it).
    ``cardinalities(table, fk) -> (owner_card, referenced_card)`` gives each relationship's
    ends; the default is crow's-foot reading in ERUnderstand's terms: ``N`` on the owning
    table (``1`` for a one-to-one key) and ``1`` on the referenced table.  The
    relationship's ``name`` is the text drawn on its line, ``name`` (none: ``""``).
    """
    entities = {}
    for t in tables.values():
        cols = [c.name for c in t.columns]
        ttypes = types[t.name] if types is not None else {c.name: c.type for c in t.columns}
        ent = {"attributes": cols, "primary_keys": t.primary_keys, "multivalued": [],
               "derived": [], "composite": {}, "weak": False,
               "types": {c: ttypes[c] for c in cols if c in ttypes and ttypes[c]},
               "foreign_keys": {c: fk.ref_table for fk in t.foreign_keys
                                if all_foreign_keys or fk.ref_table in tables
                                for c in fk.columns}}
        if drawn_not_null:
            ent["not_null"] = [c.name for c in t.columns if c.not_null]
        entities[t.name] = ent
    rels = []
    for owner, fk in fk_edges(tables):
        table = tables[owner]
        if cardinalities is None:
            cards = ("1" if is_one_to_one(table, fk) else "N", "1")
        else:
            cards = cardinalities(table, fk)
        rels.append({"name": name, "entities": [owner, fk.ref_table],
                     "cardinalities": list(cards), "weak": False, "attributes": [],
                     "foreign_key": fk.columns})
    return {"kind": "er", "entities": entities, "relationships": rels}
