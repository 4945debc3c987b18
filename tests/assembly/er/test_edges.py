"""Schema-style relationship lines: a name the line touches, lost to free text, is read
again from the glyphs beside the line."""

import cv2
import numpy as np

from cvparse.assembly.er.edges import recover_names
from cvparse.assembly.er.links import Link

from ..line_page import line_page

FONT = cv2.FONT_HERSHEY_SIMPLEX


def _page(name: str, x: int) -> tuple:
    """A line from (40, 60) to (400, 60) with ``name`` written above it from ``x`` on,
    its first letter touching the line when ``x`` is 0 (the text starts on the line)."""
    rgb = np.full((120, 440, 3), 255, np.uint8)
    cv2.line(rgb, (40, 60), (400, 60), (0, 0, 0), 2)
    cv2.putText(rgb, name, (x, 58), FONT, 0.6, (0, 0, 0), 2)
    return line_page(rgb, 40.0, 400.0, 60.0)


def test_name_touching_its_line_is_read_again():
    inv, conn = _page("insured", 170)
    assert recover_names(inv, [Link(0, 1, conn.points)], [0]) == {0: "insured"}


def test_bare_line_and_named_line_get_no_name():
    inv, conn = _page("", 170)
    assert recover_names(inv, [Link(0, 1, conn.points)], [0]) == {}
    inv, conn = _page("insured", 170)
    assert recover_names(inv, [Link(0, 1, conn.points)], []) == {}


def test_cardinality_beside_the_line_is_no_name():
    inv, conn = _page("N", 200)
    assert recover_names(inv, [Link(0, 1, conn.points)], [0]) == {}


def test_name_read_in_part_is_extended_over_the_letters_the_line_touches():
    from cvparse.assembly.er.edges import extend_names
    from cvparse.primitives.items import TextItem

    rgb = np.full((200, 440, 3), 255, np.uint8)
    cv2.putText(rgb, "writes", (150, 100), FONT, 0.6, (0, 0, 0), 2)
    (w, h), _ = cv2.getTextSize("writes", FONT, 0.6, 2)
    cv2.line(rgb, (150, 20), (150, 180), (0, 0, 0), 2)   # the line runs down the "w"
    inv, _ = line_page(rgb, 150.0, 150.0, 20.0)
    # Free text read only the letters clear of the line.
    cut = 150 + w // 3
    inv.texts = [TextItem("tes", (cut, 100 - h, 150 + w, 102))]
    line = Link(0, 1, np.array([[150.0, 20.0], [150.0, 180.0]]))
    got = extend_names(inv, [line], {0: "tes"}, {0: inv.texts[0].bbox})
    assert got == {0: "writes"}


def _triangle_page():
    """Two entity boxes and an IS-A triangle (base up) whose base the two lines from the
    boxes meet at one point; the triangle's inside as a shape, the boxes as shapes."""
    from cvparse.primitives.items import Inventory, Scale, Shape
    from cvparse.primitives.regions import region_from_mask

    h, w = 200, 400
    inside = np.zeros((h, w), np.uint8)
    cv2.fillPoly(inside, [np.array([[162, 102], [238, 102], [200, 138]])], 1)
    shapes = []
    for mask in (inside,):
        region = region_from_mask(mask, 0, 0, int(mask.sum()))
        shapes.append(Shape(kind="triangle", bbox=region.bbox, interior=region, outer=region))
    for box in ((10, 20, 90, 50), (310, 20, 390, 50)):
        m = np.zeros((h, w), np.uint8)
        m[box[1]:box[3], box[0]:box[2]] = 1
        region = region_from_mask(m, 0, 0, int(m.sum()))
        shapes.append(Shape(kind="rect", bbox=region.bbox, interior=region, outer=region))
    inv = Inventory(width=w, height=h, scale=Scale(stroke=2, text_height=16),
                    background=(255, 255, 255), shapes=shapes)
    return inv


def test_line_through_a_triangle_corner_is_no_direct_relationship():
    from cvparse.assembly.er.edges import touches_connector_shape

    inv = _triangle_page()
    role = {0: "isa", 1: "entity", 2: "entity"}
    # both lines end on the triangle's base (its border 2 px above the inside): traced as one
    joined = np.array([[90.0, 40.0], [200.0, 99.0], [310.0, 40.0]])
    assert touches_connector_shape(inv, Link(1, 2, joined), role)
    # a line passing well clear of the triangle joins the boxes directly
    clear = np.array([[90.0, 40.0], [200.0, 70.0], [310.0, 40.0]])
    assert not touches_connector_shape(inv, Link(1, 2, clear), role)
    # an attribute ellipse on the way is no connector shape
    assert not touches_connector_shape(inv, Link(1, 2, joined), {0: "attribute", 1: "entity",
                                                                 2: "entity"})



def _marked_page():
    """Two boxes joined by two lines, each with a filled crow's foot at the right box and
    a plain end at the left one; OCR has read the upper foot (with its circle) as "5"."""
    from cvparse.primitives.items import Inventory, Scale, Shape, TextItem
    from cvparse.primitives.regions import Region

    ink = np.zeros((140, 440), np.uint8)
    boxes = [(20, 30, 120, 110), (320, 30, 420, 110)]
    shapes = []
    for x1, y1, x2, y2 in boxes:
        cv2.rectangle(ink, (x1, y1), (x2, y2), 1, 2)
        r = Region(bbox=(x1, y1, x2, y2), filled=np.ones((y2 - y1, x2 - x1), bool),
                   paper_area=(y2 - y1) * (x2 - x1),
                   contour=np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]]))
        shapes.append(Shape(kind="rect", bbox=(x1, y1, x2, y2), interior=r, outer=r,
                            label=""))
    ends = []
    for y in (50, 90):
        cv2.line(ink, (121, y), (319, y), 1, 2)
        cv2.fillPoly(ink, [np.array([(306, y), (320, y - 5), (320, y + 5)], np.int32)], 1)
        cv2.circle(ink, (300, y), 5, 1, 2)
        pts = np.array([[121.0, y], [306.0, y]])
        ends.append((Link(0, 1, pts), Link(1, 0, pts[::-1])))
    inv = Inventory(width=440, height=140, scale=Scale(stroke=2, text_height=14),
                    background=(255, 255, 255), shapes=shapes,
                    texts=[TextItem("5", (294, 42, 318, 58))], ink=ink.astype(bool))
    return inv, [e[0] for e in ends] + [e[1] for e in ends]


def test_a_drawn_crows_foot_overrules_its_own_misreading():
    from cvparse.assembly.er.edges import end_cardinalities

    inv, ends = _marked_page()
    cards = end_cardinalities(inv, ends, {0: "entity", 1: "entity"}, [], set())
    assert cards == {0: "N", 1: "N", 2: "1", 3: "1"}


def _written_page():
    """The marked page's two lines, a crow's-foot-like blot at the upper line's right end
    (a label's glyphs beside the line) and the range ``0..N`` read at the lower one's."""
    from cvparse.primitives.items import TextItem

    inv, ends = _marked_page()
    ink = inv.ink.astype(np.uint8)
    ink[80:102, 280:320] = 0  # the lower line's foot and circle give way to its label
    cv2.line(ink, (121, 90), (319, 90), 1, 2)
    inv.ink = ink.astype(bool)
    inv.texts = [TextItem("0..N", (282, 94, 318, 108))]
    return inv, ends


def test_a_page_that_writes_ranges_is_read_from_its_text_not_from_marks():
    from cvparse.assembly.er.edges import end_cardinalities

    inv, ends = _written_page()
    cards = end_cardinalities(inv, ends, {0: "entity", 1: "entity"}, [], set())
    # the blot is no foot; ends without a reading get the label OCR loses most
    assert cards == {0: "1", 1: "0..N", 2: "1", 3: "1"}


def test_a_lone_zero_on_a_written_page_is_the_rest_of_its_range():
    from cvparse.assembly.er.edges import written_cardinalities

    cards = {0: "0..N", 1: "0", 2: "{0,1}", 3: "0..N", 5: "1"}
    assert written_cardinalities(cards, 6) == {0: "0..N", 1: "0..N", 2: "{0,1}",
                                               3: "0..N", 4: "1", 5: "1"}
    assert written_cardinalities({0: "0"}, 1) == {0: "0"}  # no range to complete it with


def test_a_circle_read_as_a_letter_at_a_line_end_is_no_name():
    """The circle of an ``o{`` end lies on the line and reads as ``O``; the name written
    beside the line a little farther off is the relationship's."""
    from cvparse.assembly.er.edges import edge_relationships
    from cvparse.primitives.items import TextItem

    inv, ends = _marked_page()
    inv.texts = [TextItem("O", (295, 43, 305, 57)), TextItem("places", (190, 24, 240, 38))]
    rels = edge_relationships(inv, [ends[0]], {0: "entity", 1: "entity"}, {0: "A", 1: "B"},
                              set(), [])
    assert [r.name for r in rels] == ["places"]
    # a one-letter word in the middle of the line stays a name
    inv.texts = [TextItem("R", (200, 36, 210, 48))]
    rels = edge_relationships(inv, [ends[0]], {0: "entity", 1: "entity"}, {0: "A", 1: "B"},
                              set(), [])
    assert [r.name for r in rels] == ["R"]


def test_a_name_placed_off_its_curve_is_still_its_lines():
    """A spline bends away from the point its label was placed at: the left-over word
    nearest the unnamed line, a little over one and a half text heights off, names it."""
    from cvparse.assembly.er.edges import edge_relationships
    from cvparse.primitives.items import TextItem

    inv, ends = _marked_page()
    inv.texts = [TextItem("places", (190, 12, 240, 25))]  # 25 px above the upper line
    role, names = {0: "entity", 1: "entity"}, {0: "A", 1: "B"}
    assert [r.name for r in edge_relationships(inv, [ends[0]], role, names, set(), [])] \
        == ["places"]
    # over four text heights off the lower line: no name of it
    inv.texts = [TextItem("places", (190, 5, 240, 18))]
    assert [r.name for r in edge_relationships(inv, [ends[1]], role, names, set(), [])] \
        == [""]


def test_a_garbled_name_is_snapped_to_the_column_it_reads_for():
    from cvparse.assembly.er.edges import edge_relationships
    from cvparse.primitives.items import TextItem

    inv, ends = _marked_page()
    inv.texts = [TextItem("enti_y_id", (190, 36, 250, 48))]
    rels = edge_relationships(inv, [ends[0]], {0: "entity", 1: "entity"}, {0: "A", 1: "B"},
                              set(), [], {"entity_id", "user_id"})
    assert [r.name for r in rels] == ["entity_id"]


def test_a_short_group_at_another_lines_end_is_its_label_not_a_name():
    """Glyphs beside a line's middle but at another line's end (a cardinality or end
    mark where lines fan out of one port) read as letters: no name.  A long name there
    is still read."""
    inv, conn = _page("ly", 200)
    other = Link(2, 3, np.array([[300.0, 10.0], [228.0, 40.0]]))
    assert recover_names(inv, [Link(0, 1, conn.points)], [0])  # read as some name alone
    assert recover_names(inv, [Link(0, 1, conn.points), other], [0]) == {}
    inv, conn = _page("insured", 170)
    other = Link(2, 3, np.array([[300.0, 10.0], [200.0, 40.0]]))
    assert recover_names(inv, [Link(0, 1, conn.points), other], [0]) == {0: "insured"}


def test_a_reading_ocr_is_unsure_of_in_every_word_is_no_name(monkeypatch):
    """Glyphs that are no word (a mark, a range's dots) read as letters score low."""
    import cvparse.assembly.er.edges as edges
    from cvparse.primitives.ocr import Word

    inv, conn = _page("insured", 170)
    real = edges.read_words

    def guessed(conf):
        def read(*a, **k):
            return [(crop, [Word(w.text, w.bbox, conf, w.line) for w in ws])
                    for crop, ws in real(*a, **k)]
        return read

    monkeypatch.setattr(edges, "read_words", guessed(20.0))
    assert recover_names(inv, [Link(0, 1, conn.points)], [0]) == {}
    monkeypatch.setattr(edges, "read_words", guessed(90.0))
    assert recover_names(inv, [Link(0, 1, conn.points)], [0]) == {0: "insured"}


def test_an_unread_end_faces_the_other_ends_multiplicity():
    """On a page that writes ranges, an end without a reading opposite a one is the
    many-range the page writes most; opposite a many, or with nothing read, ``1``."""
    from cvparse.assembly.er.edges import written_cardinalities

    # three lines: ends k and k + 3 are one line's two
    cards = {0: "1", 1: "{0,1}", 2: "0..N", 3: "0..N"}
    assert written_cardinalities(cards, 6) == {0: "1", 1: "{0,1}", 2: "0..N",
                                               3: "0..N", 4: "0..N", 5: "1"}
    assert written_cardinalities({0: "1"}, 2) == {0: "1", 1: "1"}  # no many-range read


def test_a_name_its_line_runs_through_is_read_with_the_cut_letters_put_back():
    from cvparse.assembly.er.edges import extend_names
    from cvparse.primitives.items import TextItem

    rgb = np.full((200, 440, 3), 255, np.uint8)
    cv2.putText(rgb, "contains", (150, 100), FONT, 0.6, (0, 0, 0), 2)
    (w, h), _ = cv2.getTextSize("contains", FONT, 0.6, 2)
    x = 150 + w // 2   # the line (thinner than the letters) runs down the word's middle
    cv2.line(rgb, (x, 20), (x, 180), (0, 0, 0), 1)
    inv, _ = line_page(rgb, x, x, 20.0)
    # Free text read the letters clear of the line, the box spanning them all.
    inv.texts = [TextItem("con ns", (150, 100 - h, 150 + w, 102))]
    line = Link(0, 1, np.array([[x, 20.0], [x, 180.0]]))
    got = extend_names(inv, [line], {0: "con ns"}, {0: inv.texts[0].bbox})
    assert got == {0: "contains"}


def test_a_line_struck_through_a_word_gives_back_only_the_letters_crossing_strokes():
    from cvparse.assembly.er.cut_glyphs import crossing_strokes

    ink = np.zeros((20, 30), bool)
    ink[10, :] = True                  # a flat line through the row
    ink[4:17, 5] = ink[4:17, 20] = True   # two stems crossing it
    flat = np.zeros_like(ink)
    flat[9:12, :] = True               # the band its removal cleared
    own = ink & ~flat
    got = crossing_strokes(own, ink, np.zeros_like(ink), flat, 7, (0, 0, 30, 20))
    assert got[10, 5] and got[10, 20]
    assert not got[10, 12] and not got[10, 0]


def test_a_steep_line_through_a_word_gives_back_all_the_words_ink():
    from cvparse.assembly.er.cut_glyphs import crossing_strokes

    ink = np.zeros((20, 30), bool)
    ink[:, 15] = True                  # a steep line
    ink[6:14, 14:17] = True            # a letter drawn inside its band
    steep = np.zeros_like(ink)
    steep[:, 13:18] = True
    own = ink & ~steep
    got = crossing_strokes(own, ink, steep, np.zeros_like(ink), 7, (5, 5, 25, 15))
    assert got[6:14, 14:17].all()
    assert not got[0:5, 15].any()      # the line above the word stays out
