"""Lines stopping short of a table (a label between the end and the box) reach it."""

import numpy as np

from cvparse.assembly.er.ports import end_direction, loose_end_links, under_text_links
from cvparse.connectors.lines import Connector, End
from cvparse.primitives.items import Inventory, Scale, Shape, TextItem
from cvparse.primitives.regions import Region


def _cell(x1, y1, x2, y2):
    m = np.ones((y2 - y1, x2 - x1), bool)
    r = Region(bbox=(x1, y1, x2, y2), filled=m, paper_area=int(m.sum()),
               contour=np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]]))
    return Shape(kind="rect", bbox=(x1, y1, x2, y2), interior=r, outer=r)


def _page():
    """Two tables of a name cell over two rows each, 300 px apart."""
    shapes = [_cell(0, 0, 100, 20), _cell(0, 20, 100, 40), _cell(0, 40, 100, 60),
              _cell(400, 0, 500, 20), _cell(400, 20, 500, 40), _cell(400, 40, 500, 60)]
    inv = Inventory(width=600, height=300, scale=Scale(stroke=1.0, text_height=14.0),
                    background=(255, 255, 255), shapes=shapes)
    head = {0: 0, 1: 0, 2: 0, 3: 3, 4: 3, 5: 3}
    return inv, head


def _line(points, nodes=(None, None)):
    pts = np.asarray(points, float)
    d0, d1 = pts[0] - pts[1], pts[-1] - pts[-2]
    return Connector(points=pts, ends=(End(tuple(pts[0]), tuple(d0 / np.linalg.norm(d0)),
                                           nodes[0]),
                                       End(tuple(pts[-1]), tuple(d1 / np.linalg.norm(d1)),
                                           nodes[1])), style="dashed")


def test_ends_short_of_both_tables_join_them():
    inv, head = _page()
    line = _line([(140, 30), (250, 30), (360, 50)])  # 40 px short of each side
    links = loose_end_links(inv, [line], head)
    assert [(ln.a, ln.b) for ln in links] == [(0, 3)]


def test_an_end_pointing_away_from_a_far_table_stays_loose():
    inv, head = _page()
    line = _line([(250, 200), (250, 120), (150, 100)])
    assert loose_end_links(inv, [line], head) == []


def test_a_loop_back_to_its_table_needs_two_rows_and_to_leave_it():
    inv, head = _page()
    loop = _line([(110, 30), (170, 30), (170, 50), (110, 50)])
    assert [(ln.a, ln.b) for ln in loose_end_links(inv, [loop], head)] == [(0, 0)]
    glyph = _line([(108, 30), (112, 40), (108, 50)])
    assert loose_end_links(inv, [glyph], head) == []


def test_end_direction_looks_past_the_last_pixels():
    pts = np.array([(0, 0), (10, 0), (20, 0), (21, 5)], float)
    d = end_direction(pts, False, 15)
    assert d[0] > 0.9


def test_a_line_cut_by_its_label_is_one_link_that_keeps_the_label():
    inv, head = _page()
    inv.texts = [TextItem("has_rows", (220, 22, 280, 36))]
    # table 0's row, a label drawn over the line, table 3's row
    left = _line([(100, 30), (214, 30)], (1, None))
    right = _line([(286, 30), (400, 30)], (None, 4))
    links, used = under_text_links(inv, [left, right], head)
    assert [(ln.a, ln.b, ln.under) for ln in links] == [(0, 3, (0,))]
    assert used == {0, 1}
    assert loose_end_links(inv, [left, right], head, used) == []


def test_three_pieces_at_one_text_are_left_alone():
    inv, head = _page()
    inv.texts = [TextItem("x_y", (220, 22, 280, 36))]
    pieces = [_line([(100, 30), (214, 30)], (1, None)), _line([(286, 30), (400, 30)], (None, 4)),
              _line([(250, 120), (250, 42)], (None, None))]
    assert under_text_links(inv, pieces, head) == ([], set())


def test_a_piece_along_a_line_joining_the_same_tables_is_that_line():
    from cvparse.assembly.er.links import Link

    inv, head = _page()
    whole = Link(0, 3, np.array([(100, 30), (250, 30), (400, 30)], float))
    piece = _line([(130, 36), (360, 36)], (None, 3))   # beside it, within a text height
    other = _line([(130, 55), (250, 100), (360, 50)], (None, 3))   # off it
    assert loose_end_links(inv, [piece], head, have=[whole]) == []
    assert [(ln.a, ln.b) for ln in loose_end_links(inv, [piece], head)] == [(0, 3)]
    assert [(ln.a, ln.b) for ln in loose_end_links(inv, [other], head, have=[whole])] == [(0, 3)]
