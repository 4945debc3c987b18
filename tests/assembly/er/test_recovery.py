"""ER assembly where perception lost something: cardinalities cut by their line, IS-A
lines on any side of the triangle, schema-style names set beside a line."""

import cv2
import numpy as np
import pytest

from cvparse.assembly.er import assemble_er
from cvparse.assembly.er.cut_glyphs import _lost_cardinality, recover_cardinalities
from cvparse.assembly.er.links import Link
from cvparse.connectors.lines import Connector, End
from cvparse.model import IsA, Relationship
from cvparse.primitives.items import Inventory, TextItem

from ..line_page import line_page
from .test_assemble import _conn, _inv, _shape


def _page_with_line(glyph: str) -> tuple[Inventory, Connector]:
    """A line from (40, 60) to (300, 60) with ``glyph`` drawn touching it from above."""
    rgb = np.full((120, 340, 3), 255, np.uint8)
    cv2.line(rgb, (40, 60), (300, 60), (0, 0, 0), 2)
    cv2.putText(rgb, glyph, (200, 58), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 1,
                cv2.LINE_AA)
    return line_page(rgb, 40.0, 300.0, 60.0)


@pytest.mark.parametrize("glyph", ["N", "1"])
def test_cardinality_touching_its_line_is_read(glyph):
    inv, conn = _page_with_line(glyph)
    assert recover_cardinalities(inv, [Link(0, 1, conn.points)], {}, [conn]) == {0: glyph}


def test_line_already_with_a_cardinality_is_left_alone():
    inv, conn = _page_with_line("N")
    assert recover_cardinalities(inv, [Link(0, 1, conn.points)], {0: "1"}, [conn]) == {}


def test_bare_line_gets_no_cardinality():
    inv, conn = _page_with_line("")
    assert recover_cardinalities(inv, [Link(0, 1, conn.points)], {}, [conn]) == {}


def test_readings_of_a_cut_cardinality():
    tall, wide = (0, 0, 6, 14), (0, 0, 14, 6)
    assert _lost_cardinality("N", wide, 16) == "N"
    assert _lost_cardinality("Mv", wide, 16) == "M"      # a line remnant read as a letter
    assert _lost_cardinality("l", tall, 16) == "1"       # a lone upright bar
    assert _lost_cardinality("l", wide, 16) == ""        # a flat stroke is no 1
    assert _lost_cardinality("\\", tall, 16) == ""
    assert _lost_cardinality("N1", wide, 16) == ""       # a digit beside: no guess


def test_isa_superclass_is_the_entity_with_its_own_key():
    # Lines reach the triangle's sides and base; the apex tells nothing.
    shapes = [
        _shape("triangle", (300, 200, 360, 250), "ISA"),          # 0 apex up at y=200
        _shape("rect", (100, 120, 200, 160), "Teller"),            # 1 near the apex
        _shape("rect", (450, 220, 550, 260), "Employee"),          # 2 on the side
        _shape("rect", (280, 350, 380, 390), "Officer"),           # 3 below the base
        _shape("ellipse", (460, 300, 560, 340), "emp_id", underlined=["emp_id"]),  # 4
        _shape("ellipse", (60, 40, 160, 80), "till"),              # 5
    ]
    conns = [_conn(1, (200, 150), 0, (322, 210)), _conn(2, (450, 240), 0, (345, 235)),
             _conn(3, (330, 350), 0, (330, 250)), _conn(4, (500, 300), 2, (500, 260)),
             _conn(5, (110, 80), 1, (140, 120))]
    er = assemble_er(_inv(shapes), conns)
    (isa,) = [r for r in er.relationships if isinstance(r, IsA)]
    assert isa.superclass == "Employee" and sorted(isa.subclasses) == ["Officer", "Teller"]


def test_schema_name_set_beside_the_line_is_found():
    shapes = [_shape("rect", (100, 100, 200, 160), "orders"),
              _shape("rect", (100, 400, 200, 460), "customers")]
    conns = [_conn(0, (150, 160), 1, (150, 400))]
    # A long name ending just left of the line: its centre is far from it.
    texts = [TextItem("placed_by", (40, 270, 146, 286)), TextItem("N", (154, 170, 164, 184)),
             TextItem("1", (154, 380, 160, 394))]
    er = assemble_er(_inv(shapes, texts), conns)
    (rel,) = [r for r in er.relationships if isinstance(r, Relationship)]
    assert rel.name == "placed_by"
    assert dict(zip(rel.entities, rel.cardinalities)) == {"orders": "N", "customers": "1"}


def test_isa_arrow_left_unattached_at_its_hollow_head():
    # Subclass box below, superclass box above; the line stops where the hollow head
    # begins, a head length short of the superclass box.
    shapes = [_shape("rect", (300, 100, 420, 140), "Person"),
              _shape("rect", (300, 300, 420, 340), "Student")]
    ink = np.zeros((600, 800), np.uint8)
    cv2.rectangle(ink, (300, 100), (419, 139), 1, 2)
    cv2.rectangle(ink, (300, 300), (419, 339), 1, 2)
    cv2.line(ink, (360, 300), (360, 162), 1, 2)
    cv2.polylines(ink, [np.array([[360, 142], [350, 162], [370, 162]], np.int32)], True, 1, 2)
    inv = _inv(shapes)
    inv.ink = ink.astype(bool)
    pts = np.array([[360.0, 300.0], [360.0, 162.0]])
    conn = Connector(points=pts, ends=(End((360.0, 300.0), (0.0, 1.0), node=1),
                                       End((360.0, 162.0), (0.0, -1.0))))
    er = assemble_er(inv, [conn])
    (isa,) = [r for r in er.relationships if isinstance(r, IsA)]
    assert isa.superclass == "Person" and isa.subclasses == ["Student"]


def test_unattached_line_end_without_a_head_links_nothing():
    shapes = [_shape("rect", (300, 100, 420, 140), "Person"),
              _shape("rect", (300, 300, 420, 340), "Student")]
    ink = np.zeros((600, 800), np.uint8)
    cv2.line(ink, (360, 300), (360, 162), 1, 2)
    inv = _inv(shapes)
    inv.ink = ink.astype(bool)
    pts = np.array([[360.0, 300.0], [360.0, 162.0]])
    conn = Connector(points=pts, ends=(End((360.0, 300.0), (0.0, 1.0), node=1),
                                       End((360.0, 162.0), (0.0, -1.0))))
    assert assemble_er(inv, [conn]).relationships == []


def test_full_height_glyph_as_wide_as_tall_is_no_one():
    # What is left of an M drawn across its line reads as a 1 or a bar: too wide for one.
    assert _lost_cardinality("1", (0, 0, 14, 13), 16) == "N"
    assert _lost_cardinality("l", (0, 0, 16, 12), 16) == "N"
    assert _lost_cardinality("1", (0, 0, 6, 14), 16) == "1"
