"""A schema table's row split into what it says: the column name, its type, NOT NULL and
key markers.

Schema tools write a column as one text (``InvoiceId [INTEGER] NOT NULL``,
``* SCHED_NAME : VARCHAR(120) <<PK>>``) or as cells side by side (name | type | PK FK,
or type | name | PK,FK).  The name is the first identifier that is no type, marker or
bullet; bracketed text, text after a colon, or a cell of SQL type words is the type;
``NOT NULL`` and a leading round bullet (mandatory) mark NOT NULL; ``PK`` / ``FK`` tokens,
bare or in guillemets, and a leading ``*`` mark keys.  The SQL type words are the
standard's and the common dialects' (general knowledge of SQL, not one tool's output).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SQL_TYPE_WORDS = frozenset("""
    int integer smallint bigint tinyint mediumint serial smallserial bigserial int2 int4
    int8 number numeric decimal dec real float float4 float8 double precision money
    char character varchar nchar nvarchar varying text tinytext mediumtext longtext clob
    nclob string blob tinyblob mediumblob longblob bytea binary varbinary bit boolean bool
    date time timetz timestamp timestamptz datetime datetime2 smalldatetime interval year
    uuid uniqueidentifier json jsonb xml enum set inet cidr macaddr geometry geography
    point oid rowid unsigned signed zone with without array
""".split())

_KEY = re.compile(r"^[\W_]*(PK|FK|UK|PK\W{0,2}FK|FK\W{0,2}PK)[\W_]*$", re.I)
_NOT_NULL = re.compile(r"(?<![A-Za-z0-9])N[O0]T[\s_]*NU[L1I]{2}(?![A-Za-z0-9])", re.I)
_BRACKETED = re.compile(r"\[([^\]]*)\]?")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_$#]*")
_TYPE = re.compile(r"^([A-Za-z_][A-Za-z0-9_ ]*?)\s*(\(\s*[\d\s,._*]*\s*\))?(\s*\[\s*\])?$")
_BULLET = re.compile(r"^[^A-Za-z0-9_\[(*]{1,2}$|^[eo]$")
"""A lone round bullet before the name (a mandatory column, PlantUML's IE notation): OCR
reads it as ``•``, ``·`` or a lowercase ``e`` or ``o``.  A ``*`` marks a key instead."""

_JOINED_BULLET = re.compile(r"^(\W{1,2}|[eo])_(?=[A-Z0-9_]+\b)")
"""A bullet OCR joined to an upper-case name with an underscore."""


@dataclass
class RowFacts:
    """What one table row says about its column."""

    name: str
    type: str = ""
    not_null: bool = False
    primary_key: bool = False
    foreign_key: bool = False


def is_type(text: str) -> bool:
    """Whether ``text`` reads as an SQL column type: type words with an optional size
    ``(n)`` / ``(p,s)`` and array mark ``[]``."""
    m = _TYPE.match(text.strip())
    if not m:
        return False
    words = m.group(1).lower().split()
    return bool(words) and all(w in SQL_TYPE_WORDS for w in words)


def _size(text: str) -> str:
    """A type's size as written: ``VARCHAR (40)`` -> ``VARCHAR(40)``, a closing
    bracket OCR reads as ``}`` or ``]`` put right; ``13_4`` or ``13.4`` (a comma some
    tools cannot draw, or OCR) stays as read."""
    text = re.sub(r"\(([\d\s,._]*)[}\]]$", r"(\1)", text.strip())  # OCR: ")" as "}"
    text = re.sub(r"\s*\(\s*", "(", text)
    text = re.sub(r"\s*\)", ")", text)
    return re.sub(r"\s*,\s*", ",", text)


def _markers(tokens: list[str], facts: RowFacts) -> list[str]:
    """``tokens`` without their key markers, which set ``facts``' key flags."""
    kept = []
    for tok in tokens:
        m = _KEY.match(tok)
        if m:
            word = m.group(1).upper()
            facts.primary_key |= "PK" in word
            facts.foreign_key |= "FK" in word
        else:
            kept.append(tok)
    return kept


def typed_text(text: str) -> bool:
    """Whether a row's text says more than a name: a bracketed or colon type, NOT NULL or
    a key marker."""
    return bool(_BRACKETED.search(text) or ":" in text or _NOT_NULL.search(text)
                or any(_KEY.match(t) for t in text.split()[1:]))


def split_text(text: str, typed: bool = True) -> RowFacts:
    """One row written as a single text: name, then type (bracketed, after a colon, or
    type words), then NOT NULL and markers, a bullet possibly first.  In a table whose
    rows are not ``typed`` (names only, as Chen-style tables write them) the text is the
    name as it stands."""
    if not typed:
        return RowFacts(name=text.strip())
    # OCR joins the words of a page that writes underscores with them: undo that
    # round brackets, colons and markers.
    text = re.sub(r"_*([\[\]:])_*", r" \1 ", text)
    text = re.sub(r"_+(?=[«<(]*[PFU]K\b)", " ", text)
    facts = RowFacts(name="")
    text = text.strip()
    star = re.match(r"^\*+_?", text)
    if star:  # a starred name: a key
        facts.primary_key = True
        text = text[star.end():]
    joined = _JOINED_BULLET.match(text)
    if joined:
        facts.not_null = True
        text = text[joined.end():]
    if _NOT_NULL.search(text):
        facts.not_null = True
        text = _NOT_NULL.sub(" ", text)
    kind = ""
    m = _BRACKETED.search(text)
    if m:
        kind = m.group(1)
        text = text[:m.start()] + " " + text[m.end():]
    elif ":" in text:
        text, kind = text.split(":", 1)
    tokens = _markers(text.split(), facts)
    if len(tokens) >= 2 and _BULLET.match(tokens[0]):
        facts.not_null = True  # a mandatory column's mark
        tokens = tokens[1:]
    kind_tokens = [t for t in _markers(kind.split(), facts) if re.search(r"\w", t)]
    if not kind_tokens and len(tokens) >= 2 and is_type(" ".join(tokens[1:])):
        kind_tokens, tokens = tokens[1:], tokens[:1]
    if kind and 2 <= len(tokens) <= 3 and all(_IDENT.fullmatch(t) for t in tokens):
        tokens = ["_".join(tokens)]  # an underscore OCR read as a space: names have none
    ident = _IDENT.search(" ".join(tokens[:1])) if tokens else None
    facts.name = ident.group(0).rstrip("_") or ident.group(0) if ident else " ".join(tokens)
    facts.type = _size(" ".join(kind_tokens)).strip("_ ")
    return facts


def typed_rows(texts: list[str]) -> bool:
    """Whether a table's single-text rows write types and markers: half of them or
    more say more than a name."""
    return bool(texts) and 2 * sum(typed_text(t) for t in texts) >= len(texts)


def name_column(rows: list[list[str]]) -> int:
    """Which cell of a table's rows holds the column name: the first, unless most rows
    with two cells or more have a type first and no type second (type | name | keys)."""
    multi = [r for r in rows if len(r) >= 2 and r[0].strip()]
    flipped = sum(1 for r in multi if is_type(r[0]) and not is_type(r[1]))
    return 1 if multi and flipped > len(multi) / 2 else 0


def split_cells(cells: list[str], column: int = 0) -> RowFacts:
    """One row of cells: the name from cell ``column`` (read as a single text), the type
    from the first other cell that reads as one, markers and NOT NULL from any."""
    if len(cells) == 1:
        return split_text(cells[0])
    column = min(column, len(cells) - 1)
    facts = split_text(cells[column], typed_text(cells[column]))
    for k, cell in enumerate(cells):
        if k == column:
            continue
        if _NOT_NULL.search(cell):
            facts.not_null = True
            cell = _NOT_NULL.sub(" ", cell)
        rest = _markers(cell.replace(",", " ").split(), facts)
        if rest and not facts.type and (is_type(cell) or k == column + 1 or
                                        (column == 1 and k == 0)):
            facts.type = _size(" ".join(_markers(cell.split(), RowFacts(""))))
    return facts
