"""Table rows read as attributes: the derived mark ``()`` as OCR reads it."""

import os

import pytest

from cvparse.assembly.er.tables import _DERIVED

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def test_derived_mark_read_with_a_misread_bracket():
    assert _DERIVED.match("total_cost()").group(1) == "total_cost"
    assert _DERIVED.match("total_costQ)").group(1) == "total_cost"
    assert _DERIVED.match("age ( )").group(1) == "age"
    assert _DERIVED.match("salary") is None
    assert _DERIVED.match("f(x)") is None
    assert _DERIVED.match("price)") is None


def _table_page(double: bool):
    """A table entity (name row, then attribute rows), its border doubled or not, and a
    relationship diamond joined to it."""
    from PIL import ImageDraw

    from ...primitives.synth import canvas, font, to_array

    img, draw = canvas(520, 300)
    f = font(18)
    draw.rectangle([40, 40, 220, 230], outline=(0, 0, 0), width=2)
    if double:
        draw.rectangle([45, 45, 215, 225], outline=(0, 0, 0), width=2)
    draw.line([(45, 85), (215, 85)], fill=(0, 0, 0), width=2)
    draw.text((90, 55), "Booking", fill=(0, 0, 0), font=f)
    for k, word in enumerate(["booking_no", "nights", "rate"]):
        draw.text((58, 100 + 38 * k), word, fill=(0, 0, 0), font=f)
    draw.polygon([(400, 100), (480, 135), (400, 170), (320, 135)], outline=(0, 0, 0))
    draw.text((372, 124), "holds", fill=(0, 0, 0), font=f)
    ImageDraw.Draw(img).line([(220, 135), (320, 135)], fill=(0, 0, 0), width=2)
    return to_array(img)


def test_double_bordered_table_is_a_weak_entity_with_its_rows():
    """A weak entity in table notation has its double border round the whole box: the
    border pairs with one of its cells, and the table keeps all its rows and is weak."""
    from cvparse.pipeline import parse

    for double in (True, False):
        er = parse(_table_page(double), kind="er").document
        (name,) = [n for n in er.entities if n.lower().startswith("book")]
        assert er.entities[name].weak == double
        assert {"nights", "rate"} <= set(er.entities[name].attributes)


def _schema_page():
    """Two schema tables (name cell over one cell per column, rows written
    ``name [TYPE] NOT NULL``, the key starred) and a dashed line between them whose
    ends stop at the cardinalities written beside the tables."""
    from PIL import ImageDraw, ImageFont

    from ...primitives.synth import canvas, to_array

    img, draw = canvas(760, 260)
    f = ImageFont.truetype(DEJAVU, 15)
    tables = [(20, 40, "users", ["*user_id [INTEGER] NOT NULL", "email [TEXT]"]),
              (470, 40, "visits", ["*visit_id [INTEGER] NOT NULL", "user_id [INTEGER]",
                                   "seen [DATE] NOT NULL"])]
    for x, y, name, rows in tables:
        w = 270
        draw.rectangle([x, y, x + w, y + 30], outline=(0, 0, 0), width=1)
        draw.text((x + 90, y + 6), name, fill=(0, 0, 0), font=f)
        for k, row in enumerate(rows):
            top = y + 30 + 30 * k
            draw.rectangle([x, top, x + w, top + 30], outline=(0, 0, 0), width=1)
            draw.text((x + 8, top + 6), row, fill=(0, 0, 0), font=f)
    d = ImageDraw.Draw(img)
    draw.text((296, 76), "1", fill=(0, 0, 0), font=f)
    draw.text((430, 106), "0..N", fill=(0, 0, 0), font=f)
    for x in range(312, 414, 10):
        y = 85 + (x - 312) * 30 / 112
        d.line([(x, y), (x + 5, y + 1.3)], fill=(0, 0, 0), width=1)
    return to_array(img)


@pytest.mark.skipif(not os.path.exists(DEJAVU), reason="DejaVu Sans not installed")
def test_schema_rows_give_bare_names_types_keys_and_a_line():
    from cvparse.pipeline import parse

    er = parse(_schema_page(), kind="er").document
    users, visits = er.entities["users"], er.entities["visits"]
    assert users.attributes == ["user_id", "email"]
    assert visits.attributes == ["visit_id", "user_id", "seen"]
    assert users.primary_keys == ["user_id"] and visits.primary_keys == ["visit_id"]
    assert visits.extra["types"] == {"visit_id": "INTEGER", "user_id": "INTEGER",
                                     "seen": "DATE"}
    assert visits.extra["not_null"] == ["visit_id", "seen"]
    (rel,) = er.plain_relationships
    assert sorted(rel.entities) == ["users", "visits"]
    assert visits.extra["foreign_keys"] == {"user_id": "users"}


def test_foreign_keys_from_the_partner_tables_key_names_and_fk_marks():
    from cvparse.assembly.er.tables import foreign_keys
    from cvparse.model import Entity, Relationship

    typed = {"types": {}}
    ents = {"job": Entity("job", ["sched", "name"], ["sched", "name"], extra=dict(typed)),
            "trig": Entity("trig", ["sched", "name", "tname", "owner"],
                           ["sched", "tname"], extra=dict(typed)),
            "user": Entity("user", ["id"], ["id"], extra=dict(typed)),
            "chen": Entity("chen", ["id"], ["id"])}
    rels = [Relationship("", ["job", "trig"], ["1", "N"]),
            Relationship("", ["trig", "user"], ["N", "1"]),
            Relationship("", ["chen", "user"], ["N", "1"])]
    refs = foreign_keys(ents, rels, {"trig": ["owner"]})
    # trig holds job's whole key (sched in its own key too); owner is marked FK but
    # trig has two partners; user's key is trig's nowhere; chen's table says nothing.
    assert refs == {"trig": {"sched": "job", "name": "job"}}


def test_thin_unlabelled_bands_beside_a_table_are_its_shadow():
    from cvparse.assembly.er.tables import TableEntity, shadow_pieces

    from ...primitives.synth import cell, cells_inventory

    inv = cells_inventory([cell((100, 50, 220, 74), "Account"),  # 0 name row
                           cell((100, 73, 220, 160), "id"),      # 1 attribute row
                           cell((219, 54, 226, 164)),            # 2 shadow, right side
                           cell((104, 159, 226, 166)),           # 3 shadow, bottom side
                           cell((300, 54, 307, 164)),            # 4 thin, far off
                           cell((219, 180, 226, 290)),           # 5 thin, beside nothing
                           cell((221, 60, 340, 72), "x")])       # 6 labelled
    table = TableEntity(shapes=[0, 1], name="Account")
    assert shadow_pieces(inv, [table]) == {2: 0, 3: 0}
