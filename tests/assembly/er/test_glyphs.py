"""ER assembly rules of session 4: cardinality glyphs matched against the page's own
read ones, repeated roles of an n-ary relationship, IS-A superclass by name, and line
pieces joined across a box corner."""

import cv2
import numpy as np

from cvparse.assembly.er.glyph_match import (
    _runs_along,
    glyph_templates,
    match_cardinalities,
    structure_mask,
)
from cvparse.assembly.er.isa import _name_extends
from cvparse.assembly.er.isa import chen_isas as _isas
from cvparse.assembly.er.links import Link, _end_chord, pass_through_pairs
from cvparse.assembly.er.relationships import drop_repeated_roles
from cvparse.connectors.lines import Connector, End
from cvparse.primitives.items import TextItem

from ..line_page import line_page
from .test_assemble import _conn, _inv, _shape

FONT = cv2.FONT_HERSHEY_SIMPLEX


def _glyph_page(hidden: str, line_through: bool = True):
    """A page with a read "N" and a read "1" (the templates) and a horizontal line from
    (40, 160) to (360, 160) carrying ``hidden`` drawn across it (or beside it)."""
    rgb = np.full((220, 400, 3), 255, np.uint8)
    cv2.putText(rgb, "N", (60, 50), FONT, 0.6, (0, 0, 0), 2)
    cv2.putText(rgb, "1", (160, 50), FONT, 0.6, (0, 0, 0), 2)
    cv2.line(rgb, (40, 160), (360, 160), (0, 0, 0), 2)
    y = 167 if line_through else 150
    cv2.putText(rgb, hidden, (260, y), FONT, 0.6, (0, 0, 0), 2)
    return line_page(rgb, 40.0, 360.0, 160.0, [TextItem("N", (58, 34, 76, 52)),
                                                TextItem("1", (158, 34, 172, 52))])


def test_templates_are_the_read_cardinalities():
    inv, conn = _glyph_page("N")
    found = sorted(t for t, _ in glyph_templates(inv, structure_mask(inv, [conn])))
    assert found == ["1", "N"]


def test_glyph_drawn_across_its_line_is_matched():
    for glyph in ("N", "1"):
        inv, conn = _glyph_page(glyph)
        assert match_cardinalities(inv, [Link(0, 1, conn.points)], {}, [conn]) == {0: glyph}


def test_glyph_beside_its_line_is_matched():
    inv, conn = _glyph_page("N", line_through=False)
    assert match_cardinalities(inv, [Link(0, 1, conn.points)], {}, [conn]) == {0: "N"}


def test_no_glyph_no_match_and_known_cardinality_kept():
    inv, conn = _glyph_page("")
    assert match_cardinalities(inv, [Link(0, 1, conn.points)], {}, [conn]) == {}
    inv, conn = _glyph_page("N")
    assert match_cardinalities(inv, [Link(0, 1, conn.points)], {0: "M"}, [conn]) == {}


def test_unknown_glyph_is_not_forced_onto_a_template():
    inv, conn = _glyph_page("W")
    assert match_cardinalities(inv, [Link(0, 1, conn.points)], {}, [conn]) == {}


def test_page_without_read_cardinalities_matches_nothing():
    inv, conn = _glyph_page("N")
    inv.texts = []
    assert match_cardinalities(inv, [Link(0, 1, conn.points)], {}, [conn]) == {}


def test_piece_along_its_own_line():
    line = np.array([[0.0, 0.0], [200.0, 0.0]])
    assert _runs_along(np.array([[20.0, 3.0], [90.0, 4.0]]), line, 8)
    assert not _runs_along(np.array([[20.0, 3.0], [90.0, 40.0]]), line, 8)


def test_repeated_roles_of_a_relationship_dropped():
    # a duplicate line without a cardinality
    assert drop_repeated_roles([("Loan", "1"), ("Collateral", ""), ("Collateral", "1")]) \
        == [("Loan", "1"), ("Collateral", "1")]
    # a recursive relationship keeps its two ends, the stray third one goes
    assert drop_repeated_roles([("Exam", ""), ("Student", "1"), ("Student", "N")]) \
        == [("Student", "1"), ("Student", "N")]
    # the same role twice with the same cardinality
    assert drop_repeated_roles([("Club", "1"), ("Student", "1"), ("Student", "1")]) \
        == [("Club", "1"), ("Student", "1")]
    # a true ternary and a recursive binary are left alone
    ternary = [("A", "1"), ("B", "N"), ("C", "")]
    assert drop_repeated_roles(ternary) == ternary
    assert drop_repeated_roles([("P", "1"), ("P", "")]) == [("P", "1"), ("P", "")]


def test_name_extends():
    assert _name_extends("SeniorFriendly", "Friendly")
    assert _name_extends("Inpatient", "Patient")
    assert _name_extends("junior_student_member", "StudentMember")
    assert not _name_extends("Friendly", "Friendly")
    assert not _name_extends("Friendly", "SeniorFriendly")


def test_isa_superclass_by_name_when_lines_tell_no_side():
    # Triangle apex up at the top; the superclass line comes in from below (a layout
    # without ports), next to a subclass line: the name decides.
    shapes = [_shape("triangle", (300, 200, 380, 250), "ISA"),             # 0
              _shape("rect", (100, 100, 220, 140), "SeniorFriendly"),      # 1 near apex
              _shape("rect", (300, 400, 380, 440), "Friendly"),            # 2
              _shape("rect", (480, 400, 620, 440), "RegionalFriendly")]    # 3
    inv = _inv(shapes)
    links = [Link(1, 0, np.array([[220.0, 130.0], [340.0, 201.0]])),
             Link(2, 0, np.array([[340.0, 400.0], [340.0, 249.0]])),
             Link(3, 0, np.array([[500.0, 400.0], [360.0, 249.0]]))]
    role = {0: "isa", 1: "entity", 2: "entity", 3: "entity"}
    names = {1: "SeniorFriendly", 2: "Friendly", 3: "RegionalFriendly"}
    [isa] = _isas(inv, links, role, names)
    assert isa.superclass == "Friendly"
    assert sorted(isa.subclasses) == ["RegionalFriendly", "SeniorFriendly"]
    # Without a name cue the apex rule stands.
    names = {1: "Alpha", 2: "Beta", 3: "Gamma"}
    [isa] = _isas(inv, links, role, names)
    assert isa.superclass == "Alpha"


def test_end_chord_ignores_the_wiggle_at_the_end():
    pts = np.array([[0.0, 0.0], [50.0, 50.0], [60.0, 60.0], [61.0, 64.0]])
    d = _end_chord(pts, 1, 16)
    assert np.allclose(d, [np.sqrt(0.5), np.sqrt(0.5)], atol=0.1)
    assert np.allclose(_end_chord(pts, 0, 16), -d, atol=0.1)


def test_line_clipping_a_box_corner_is_joined():
    # A straight line from (100, 100) to (300, 300) crosses the corner of a box at
    # (190..260, 190..260)... traced as two pieces whose end directions are noisy.
    shapes = [_shape("rect", (40, 40, 100, 100), "A"), _shape("rect", (300, 300, 360, 360), "B"),
              _shape("rect", (196, 140, 300, 204), "C")]
    inv = _inv(shapes)
    cv2.line(img := np.zeros((600, 800), np.uint8), (100, 100), (300, 300), 1, 2)
    inv.ink = img.astype(bool)
    c1 = _conn(0, (100, 100), 2, (197, 197))
    c2 = _conn(2, (203, 203), 1, (300, 300))
    # Short pieces traced with their end directions a little off.
    noisy = End(c1.ends[1].point, (0.88, 0.47), node=2)
    c1 = Connector(points=c1.points, ends=(c1.ends[0], noisy), style="solid")
    pairs = pass_through_pairs(inv, [c1, c2])
    assert pairs.get((0, 1)) == (1, 0)


def test_name_read_in_pieces_is_joined_in_the_page_style():
    from cvparse.assembly.er.edges import _same_row_words, _word_joiner

    texts = [TextItem("billed", (100, 50, 150, 64)), TextItem("by", (158, 50, 178, 66)),
             TextItem("far", (300, 50, 330, 64)), TextItem("below", (100, 90, 150, 104))]
    assert _same_row_words(1, texts, set(), 16) == [0, 1]
    assert _same_row_words(1, texts, {0}, 16) == [1]
    inv = _inv([_shape("rect", (0, 0, 50, 30), "Loan loan_id amount")], texts)
    assert _word_joiner(inv) == "_"
    inv = _inv([_shape("rect", (0, 0, 50, 30), "Loan id amount")], texts)
    assert _word_joiner(inv) == " "


def test_diamond_cut_along_its_diagonal_is_no_isa():
    from cvparse.assembly.er.isa import split_diamonds
    from cvparse.primitives.items import Shape

    from .test_assemble import _region

    up = _shape("triangle", (300, 100, 400, 130), "works")           # apex up, on top
    r = _region(300, 130, 400, 160, kind="triangle")
    down = Shape(kind="triangle", bbox=(300, 130, 400, 160), interior=r, outer=r, label="")
    down.interior.filled = down.interior.filled[::-1]                   # apex down, below
    lone = _shape("triangle", (600, 100, 680, 140), "ISA")
    assert split_diamonds(_inv([up, down, lone])) == {0, 1}
    assert split_diamonds(_inv([up, lone])) == set()
