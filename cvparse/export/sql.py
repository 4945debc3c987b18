"""ER schemas as SQL DDL: the textbook ER-to-relational mapping, one CREATE TABLE per relation.

Mapping (every column is ``TEXT``: a diagram draws no types):

* entity -> table; attributes -> columns, a composite parent -> its components, a derived
  attribute -> a comment above the table (computed, not stored), a multivalued attribute ->
  table ``<Entity>_<attr>`` keyed by the owner's key plus the value, FK to the owner.
* ``primary_keys`` -> PRIMARY KEY.  A strong entity without one gets a surrogate
  ``<entity>_id``.
* weak entity (its owner = the other side of an identifying relationship, ``weak: true``)
  -> owner's key columns + its partial key as PRIMARY KEY, FK to the owner; the identifying
  relationship's attributes become columns.  If no participant is marked weak, the many side
  of a binary 1:N identifying relationship is taken as the weak one.
* IS-A subclass -> the superclass key as PRIMARY KEY and FK (first IS-A naming it wins).
* binary 1:N -> FK column(s) on the N side (plus the relationship's attributes); 1:1 -> FK on
  the second entity, UNIQUE; M:N, n-ary, or a missing cardinality -> a join table named after
  the relationship with an FK to every participant, all FK columns forming the key.
* a name used by a relationship but absent from ``entities`` becomes an attribute-less table.

Identifiers are double-quoted when not plain or when reserved, cut to PostgreSQL's 63
bytes, and made unique case-insensitively after the cut (a clash gets a prefix, then
``_2``, ``_3``...).  Tables are emitted in
document order, moved after the tables they reference (a reference cycle keeps document
order).  The output is deterministic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model import Entity, ERSchema, IsA, Relationship

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RESERVED = {
    "ABORT", "ACTION", "ADD", "ALL", "ALTER", "AND", "ANY", "AS", "ASC", "BETWEEN", "BY",
    "CASCADE", "CASE", "CHECK", "COLLATE", "COLUMN", "CONSTRAINT", "CREATE", "CROSS",
    "CURRENT", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "DATE", "DEFAULT",
    "DELETE", "DESC", "DISTINCT", "DROP", "ELSE", "END", "ESCAPE", "EXCEPT", "EXISTS",
    "FOREIGN", "FROM", "FULL", "GROUP", "HAVING", "IN", "INDEX", "INNER", "INSERT",
    "INTERSECT", "INTO", "IS", "JOIN", "KEY", "LEFT", "LIKE", "LIMIT", "MATCH", "NATURAL",
    "NOT", "NULL", "OF", "OFFSET", "ON", "OR", "ORDER", "OUTER", "PRIMARY", "REFERENCES",
    "RIGHT", "ROW", "ROWS", "SELECT", "SET", "TABLE", "THEN", "TIME", "TIMESTAMP", "TO",
    "TRANSACTION", "UNION", "UNIQUE", "UPDATE", "USER", "USING", "VALUES", "VIEW", "WHEN",
    "WHERE", "WITH",
}
_ONE = {"1", "0..1", "1..1", "one"}


def quote_ident(name: str) -> str:
    """``name`` as an SQL identifier: bare when plain and not reserved, else double-quoted."""
    if _PLAIN.fullmatch(name) and name.upper() not in _RESERVED:
        return name
    return '"' + name.replace('"', '""') + '"'


def _clean(name: str, fallback: str) -> str:
    return " ".join(name.split()) or fallback


MAX_IDENTIFIER_BYTES = 63
"""PostgreSQL keeps the first 63 bytes of an identifier (NAMEDATALEN - 1) and drops the
rest, so two long names sharing those bytes would be one name there."""


def _fit(name: str, suffix: str = "") -> str:
    """``name`` cut to fit ``MAX_IDENTIFIER_BYTES`` of UTF-8 with ``suffix`` after it."""
    room = MAX_IDENTIFIER_BYTES - len(suffix.encode())
    return name.encode()[:room].decode("utf-8", "ignore") + suffix


def _fresh(candidates: list[str], taken: set[str]) -> str:
    """The first candidate not in ``taken`` (case-insensitive), else the last one numbered;
    every name is cut to PostgreSQL's identifier length first, so what is unique here is
    unique there."""
    for c in map(_fit, candidates):
        if c.casefold() not in taken:
            taken.add(c.casefold())
            return c
    base, k = candidates[-1], 2
    while _fit(base, f"_{k}").casefold() in taken:
        k += 1
    taken.add(_fit(base, f"_{k}").casefold())
    return _fit(base, f"_{k}")


@dataclass
class _ForeignKey:
    columns: list[str]
    table: str  # referenced entity name (resolved to its table when rendered)
    ref_columns: list[str]
    cascade: bool = False


@dataclass
class _Table:
    name: str
    columns: list[str] = field(default_factory=list)
    not_null: set[str] = field(default_factory=set)
    primary_key: list[str] = field(default_factory=list)
    unique: list[list[str]] = field(default_factory=list)
    foreign_keys: list[_ForeignKey] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)

    def add(self, *candidates: str) -> str:
        col = _fresh(list(candidates), self.taken)
        self.columns.append(col)
        return col


def _is_one(card: str) -> bool:
    return card.strip().lower() in _ONE


def _attribute_columns(e: Entity, attr: str) -> list[str]:
    """Stored columns of one attribute: its components if composite, else itself."""
    return [_clean(c, "part") for c in e.composite.get(attr, [])] or [_clean(attr, "attr")]


class _Builder:
    """Builds the tables of one schema (state lives for one :func:`to_sql` call)."""

    def __init__(self, schema: ERSchema):
        self.schema = schema
        names = list(schema.entities)
        for r in schema.relationships:
            ends = [r.superclass, *r.subclasses] if isinstance(r, IsA) else r.entities
            names.extend(n for n in ends if n not in names)
        self.entities = {n: schema.entities.get(n) or Entity(name=n) for n in names}
        self.table_names: set[str] = set()
        self.tables: dict[str, _Table] = {
            n: _Table(_fresh([_clean(n, "entity")], self.table_names)) for n in names}
        self.extra_tables: list[tuple[str, _Table]] = []  # (after entity, table)
        self.keys: dict[str, list[str]] = {}
        self.parent = self._parents()
        self.owners, self.identifying = self._owners()
        self._break_cycles()
        self.stored: dict[str, set[str]] = {n: set() for n in names}  # attrs already columns
        self.notes: list[str] = []

    # --- who depends on whom -----------------------------------------------------------
    def _parents(self) -> dict[str, str]:
        parent: dict[str, str] = {}
        for isa in self.schema.isas:
            for sub in isa.subclasses:
                if sub != isa.superclass:
                    parent.setdefault(sub, isa.superclass)
        return parent

    def _owners(self) -> tuple[dict[str, list[str]], list[tuple[Relationship, str]]]:
        """Weak entity -> owners, and the identifying relationships with their weak entity."""
        owners: dict[str, list[str]] = {}
        identifying = []
        for r in self.schema.plain_relationships:
            if not r.weak or len(set(r.entities)) < 2:
                continue
            weak = [n for n in dict.fromkeys(r.entities) if self.entities[n].weak]
            if len(weak) != 1 and len(r.entities) == 2:
                ones = [_is_one(c) for c in r.cardinalities]
                many = [i for i in (0, 1) if not ones[i] and r.cardinalities[i].strip()]
                weak = [r.entities[many[0]]] if ones.count(True) == 1 and many else []
            if len(weak) != 1:
                continue
            identifying.append((r, weak[0]))
            for n in r.entities:
                if n != weak[0] and n not in owners.setdefault(weak[0], []):
                    owners[weak[0]].append(n)
        return owners, identifying

    def _break_cycles(self) -> None:
        """Drop key-inheritance links (IS-A, weak -> owner) that would close a cycle."""
        kept: dict[str, set[str]] = {}

        def reaches(a: str, b: str) -> bool:
            stack, seen = [a], set()
            while stack:
                x = stack.pop()
                if x == b:
                    return True
                if x not in seen:
                    seen.add(x)
                    stack.extend(kept.get(x, ()))
            return False

        for sub, sup in list(self.parent.items()):
            if reaches(sup, sub):
                del self.parent[sub]
            else:
                kept.setdefault(sub, set()).add(sup)
        for weak, owners in self.owners.items():
            for o in list(owners):
                if reaches(o, weak):
                    owners.remove(o)
                else:
                    kept.setdefault(weak, set()).add(o)

    # --- entity tables -----------------------------------------------------------------
    def key(self, name: str) -> list[str]:
        """Primary-key columns of an entity's table (built on first use)."""
        if name not in self.keys:
            self.keys[name] = self._build_key(name)
        return self.keys[name]

    def _inherit(self, table: _Table, ref: str, prefix: str, cascade: bool,
                 avoid: frozenset = frozenset()) -> list[str]:
        """Copy ``ref``'s key into ``table`` as an FK; names in ``avoid`` get the prefix."""
        ref_key = self.key(ref)
        cols = [table.add(*([c] if c.casefold() not in avoid else []), f"{prefix}_{c}")
                for c in ref_key]
        table.foreign_keys.append(_ForeignKey(list(cols), ref, ref_key, cascade))
        return cols

    def _own_names(self, name: str) -> frozenset:
        e = self.entities[name]
        return frozenset(c.casefold() for a in e.attributes if a not in e.derived
                         for c in _attribute_columns(e, a))

    def _build_key(self, name: str) -> list[str]:
        e, table = self.entities[name], self.tables[name]
        avoid = self._own_names(name)
        if name in self.parent:
            sup = self.parent[name]
            return self._inherit(table, sup, self.tables[sup].name, True, avoid)
        cols = []
        for owner in self.owners.get(name, []):
            cols += self._inherit(table, owner, self.tables[owner].name, True, avoid)
        for attr in dict.fromkeys(e.primary_keys):
            if attr not in e.multivalued and attr not in e.derived:
                cols += [table.add(c) for c in _attribute_columns(e, attr)]
                self.stored[name].add(attr)
        if not cols:
            cols = [table.add(f"{table.name.lower()}_id", "id")]
        return cols

    def entity_table(self, name: str) -> None:
        e, table = self.entities[name], self.tables[name]
        key = self.key(name)
        table.primary_key = key
        table.not_null.update(key)
        for attr in dict.fromkeys(e.attributes):
            if attr in self.stored[name]:
                continue
            if attr in e.derived:
                table.comments.append(f"{table.name}.{_clean(attr, 'attr')} is derived "
                                      f"(computed, not stored)")
            elif attr in e.multivalued:
                self.multivalued_table(name, attr)
            else:
                for c in _attribute_columns(e, attr):
                    table.add(c)

    def multivalued_table(self, name: str, attr: str) -> None:
        owner = self.tables[name]
        table = _Table(_fresh([f"{owner.name}_{_clean(attr, 'attr')}"], self.table_names))
        cols = self._inherit(table, name, owner.name, True)
        cols += [table.add(c, f"{attr}_{c}") for c in _attribute_columns(self.entities[name],
                                                                        attr)]
        table.primary_key = cols
        table.not_null.update(cols)
        self.extra_tables.append((name, table))

    # --- relationships ----------------------------------------------------------------
    def relationship(self, r: Relationship, index: int) -> None:
        ends = r.entities
        attrs = [_clean(a, "attr") for a in r.attributes]
        if not ends:
            self.notes.append(f"relationship {_clean(r.name, '?')} joins no entity: skipped")
            return
        if len(ends) == 2 and all(c.strip() for c in r.cardinalities):
            one = [_is_one(c) for c in r.cardinalities]
            if one[0] or one[1]:
                side = 1 if one[0] else 0  # the N side (1:1: the second entity)
                table = self.tables[ends[side]]
                prefix = _clean(r.name, "rel")
                cols = self._inherit(table, ends[1 - side], prefix, False)
                if one[0] and one[1]:
                    table.unique.append(cols)
                for a in attrs:
                    table.add(a, f"{prefix}_{a}")
                return
        name = _clean(r.name, "_".join(ends) or f"relationship_{index + 1}")
        table = _Table(_fresh([name, f"{name}_rel"], self.table_names))
        cols = []
        for n in ends:
            cols += self._inherit(table, n, self.tables[n].name, False)
        for a in attrs:
            table.add(a, f"{name}_{a}")
        table.primary_key = list(dict.fromkeys(cols))
        table.not_null.update(cols)
        self.extra_tables.append(("", table))

    def identifying_attributes(self) -> None:
        for r, weak in self.identifying:
            table = self.tables[weak]
            for a in r.attributes:
                table.add(_clean(a, "attr"), f"{_clean(r.name, 'rel')}_{_clean(a, 'attr')}")

    def build(self) -> list[_Table]:
        for name in self.entities:
            self.entity_table(name)
        self.identifying_attributes()
        handled = {id(r) for r, _ in self.identifying}
        for i, r in enumerate(self.schema.plain_relationships):
            if id(r) not in handled:
                self.relationship(r, i)
        ordered: list[_Table] = []
        for name in self.entities:
            ordered.append(self.tables[name])
            ordered += [t for owner, t in self.extra_tables if owner == name]
        ordered += [t for owner, t in self.extra_tables if owner == ""]
        return _dependency_order(ordered, {n: t.name for n, t in self.tables.items()})


def _dependency_order(tables: list[_Table], table_of: dict[str, str]) -> list[_Table]:
    """Stable topological order: each table after those it references, where possible."""
    deps = {t.name: {table_of[fk.table] for fk in t.foreign_keys} - {t.name} for t in tables}
    done: set[str] = set()
    out: list[_Table] = []
    pending = list(tables)
    while pending:
        ready = next((t for t in pending if deps[t.name] <= done), pending[0])
        pending.remove(ready)
        done.add(ready.name)
        out.append(ready)
    return out


def _render(table: _Table, table_of: dict[str, str]) -> str:
    q = quote_ident
    lines = [f"-- {c}" for c in table.comments]
    body = [f"    {q(c)} TEXT{' NOT NULL' if c in table.not_null else ''}"
            for c in table.columns]
    if table.primary_key:
        body.append(f"    PRIMARY KEY ({', '.join(map(q, table.primary_key))})")
    for cols in table.unique:
        body.append(f"    UNIQUE ({', '.join(map(q, cols))})")
    for fk in table.foreign_keys:
        body.append(f"    FOREIGN KEY ({', '.join(map(q, fk.columns))}) REFERENCES "
                    f"{q(table_of[fk.table])} ({', '.join(map(q, fk.ref_columns))})"
                    + (" ON DELETE CASCADE" if fk.cascade else ""))
    lines.append(f"CREATE TABLE {q(table.name)} (\n" + ",\n".join(body) + "\n);")
    return "\n".join(lines)


def to_sql(schema: ERSchema) -> str:
    """SQL DDL (one ``CREATE TABLE`` per relation) for an ER schema; see the module notes."""
    builder = _Builder(schema)
    tables = builder.build()
    table_of = {n: t.name for n, t in builder.tables.items()}
    parts = ["-- Relational schema generated by cvparse from an ER diagram."
             + "".join(f"\n-- {n}" for n in builder.notes)]
    parts += [_render(t, table_of) for t in tables]
    return "\n\n".join(parts) + "\n"
