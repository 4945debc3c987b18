"""SQL export: the ER-to-relational mapping, checked by executing it in SQLite."""

import glob
import sqlite3
from pathlib import Path

import pytest

from cvparse.export.sql import quote_ident, to_sql
from cvparse.model import Entity, ERSchema, Relationship, document_from_json

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "er"


def _db(script: str) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.executescript("PRAGMA foreign_keys = ON;\n" + script)
    # raises "foreign key mismatch" if an FK does not reference a whole primary/unique key
    db.execute("PRAGMA foreign_key_check").fetchall()
    return db


def _columns(db, table: str) -> list[str]:
    return [r[1] for r in db.execute(f"PRAGMA table_info({quote_ident(table)})")]


def _pk(db, table: str) -> list[str]:
    rows = sorted((r[5], r[1]) for r in db.execute(f"PRAGMA table_info({quote_ident(table)})")
                  if r[5])
    return [name for _, name in rows]


def _fks(db, table: str) -> set[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """(referenced table, local columns, referenced columns) per foreign key."""
    groups: dict[int, list] = {}
    for r in db.execute(f"PRAGMA foreign_key_list({quote_ident(table)})"):
        groups.setdefault(r[0], []).append(r)
    return {(rows[0][2], tuple(r[3] for r in rows), tuple(r[4] for r in rows))
            for rows in groups.values()}


def test_full_schema_executes_and_maps_every_construct(schema):
    db = _db(to_sql(schema))
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"Customer", "Customer_phone", "Order", "OrderLine", "Product",
                      "Employee", "Account", "Savings", "Checking", "Work Group", "likes",
                      "supplies"}
    # composite expanded, derived and multivalued not stored
    assert _columns(db, "Customer") == ["customer_id", "name", "street", "city", "zip"]
    assert _pk(db, "Customer_phone") == ["customer_id", "phone"]
    assert _fks(db, "Customer_phone") == {("Customer", ("customer_id",), ("customer_id",))}
    # 1:N -> FK on the N side, with the relationship's attribute
    assert ("Customer", ("customer_id",), ("customer_id",)) in _fks(db, "Order")
    assert "since" in _columns(db, "Order")
    # weak entity: owner key + partial key, FK to the owner, identifying rel's attribute
    assert _pk(db, "OrderLine") == ["order_id", "line_no"]
    assert _fks(db, "OrderLine") == {("Order", ("order_id",), ("order_id",)),
                                     ("Product", ("sku",), ("sku",))}
    assert "position" in _columns(db, "OrderLine")
    # recursive 1:N: a second, prefixed column referencing the same table
    assert _fks(db, "Employee") >= {("Employee", ("supervises_ssn",), ("ssn",))}
    # 1:1: FK on the second entity, unique
    assert ("Work Group", ("work group_id",), ("work group_id",)) in _fks(db, "Employee")
    # M:N and ternary: join tables keyed by every participant
    assert _pk(db, "likes") == ["customer_id", "sku"] and "order" in _columns(db, "likes")
    assert {t for t, _, _ in _fks(db, "supplies")} == {"Employee", "Product", "Customer"}
    assert _pk(db, "supplies") == ["ssn", "sku", "customer_id"]
    # IS-A: the superclass key is the subclass key and an FK; undeclared subclass too
    for sub in ("Savings", "Checking"):
        assert _pk(db, sub) == ["acct_no"]
        assert _fks(db, sub) == {("Account", ("acct_no",), ("acct_no",))}
    assert "rate" in _columns(db, "Savings")


def test_derived_attributes_become_comments(schema):
    text = to_sql(schema)
    assert "-- Customer.age is derived" in text
    assert "age TEXT" not in text


def test_one_to_one_is_unique(schema):
    db = _db(to_sql(schema))
    db.execute('INSERT INTO "Work Group" VALUES (?, ?)', ("g1", "a"))
    db.execute("INSERT INTO Employee (ssn, \"work group_id\") VALUES ('e1', 'g1')")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO Employee (ssn, \"work group_id\") VALUES ('e2', 'g1')")


def test_foreign_keys_are_enforced(schema):
    db = _db(to_sql(schema))
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO OrderLine (order_id, line_no) VALUES ('missing', '1')")


def test_output_is_deterministic_and_referenced_tables_come_first(schema):
    text = to_sql(schema)
    assert text == to_sql(schema)
    order = [ln.split("CREATE TABLE ")[1].split(" (")[0] for ln in text.splitlines()
             if ln.startswith("CREATE TABLE")]
    assert order.index('"Order"') < order.index("OrderLine")
    assert order.index("Product") < order.index("OrderLine")
    assert order.index("Account") < order.index("Savings")


def test_identifiers_are_quoted_only_when_needed():
    assert quote_ident("name") == "name"
    assert quote_ident("order") == '"order"'
    assert quote_ident("first name") == '"first name"'
    assert quote_ident('a"b') == '"a""b"'


def test_clashing_names_and_weak_key_with_owner_key_name():
    schema = ERSchema(entities={
        "Room": Entity("Room", ["id"], ["id"]),
        "Key": Entity("Key", ["id", "Id"], ["id"], weak=True),
    }, relationships=[Relationship("issues", ["Room", "Key"], ["1", "N"], weak=True)])
    db = _db(to_sql(schema))
    assert _pk(db, "Key") == ["Room_id", "id"]
    assert _columns(db, "Key") == ["Room_id", "id", "Id_2"]


@pytest.mark.parametrize("path", sorted(glob.glob(str(FIXTURES / "*" / "er_*.json")))[:40])
def test_fixture_schemas_execute(path):
    schema = document_from_json(Path(path).read_text())
    db = _db(to_sql(schema))
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert set(schema.entities) <= tables


def _postgres_names(script: str) -> list[list[str]]:
    """Per CREATE TABLE: the table name and its column names, as PostgreSQL keeps them
    (folded to lower case unless quoted, cut to 63 bytes)."""
    import re

    def kept(ident: str) -> str:
        name = ident[1:-1].replace('""', '"') if ident.startswith('"') else ident.lower()
        return name.encode()[:63].decode("utf-8", "ignore")

    ident = r'("(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_]*)'
    out = []
    for table, body in re.findall(rf"CREATE TABLE {ident} \((.*?)\n\);", script, re.S):
        cols = [kept(m.group(1)) for line in body.splitlines()
                if (m := re.match(rf"\s+{ident} TEXT", line))]
        out.append([kept(table)] + cols)
    return out


def test_long_names_stay_distinct_in_postgresql():
    long = "customer_preferred_shipping_address_for_international_orders_"
    e = Entity(long + "primary", [long + "line_one", long + "line_two", "id"], ["id"])
    f = Entity(long + "secondary", [long + "x"], [long + "x"])
    schema = ERSchema(entities={e.name: e, f.name: f},
                      relationships=[Relationship("r", [e.name, f.name], ["N", "1"])])
    script = to_sql(schema)
    _db(script)  # still valid SQL
    tables = _postgres_names(script)
    assert len(tables) == 2
    assert len({t[0] for t in tables}) == 2  # the two entity tables
    for names in tables:
        cols = names[1:]
        assert len(cols) == len(set(cols)) and all(len(c.encode()) <= 63 for c in cols)
    assert max(len(n.encode()) for t in tables for n in t) == 63


def test_names_cut_at_a_character_boundary():
    e = Entity("é" * 40, ["ü" * 40], ["ü" * 40])
    script = to_sql(ERSchema(entities={e.name: e}))
    [[table, col]] = _postgres_names(script)
    assert table == "é" * 31 and col == "ü" * 31
