"""Connector tracing on tiny synthetic drawings: crossings, dashes, dots, bends, T-junctions."""

import dataclasses

import cv2
import numpy as np

from cvparse.connectors.lines import Connector, End
from cvparse.connectors.plates import _local_paper, label_plates
from cvparse.connectors.gaps import bridge_gaps
from cvparse.connectors.joins import join_crossings
from cvparse.connectors.trace import _chain, _Piece, _vertices_on, trace_connectors
from cvparse.primitives.items import Inventory, Scale, TextItem
from cvparse.primitives.inventory import build_inventory

INK = (0, 0, 0)


def _page(w: int = 300, h: int = 200) -> np.ndarray:
    return np.full((h, w, 3), 255, np.uint8)


def _trace(rgb: np.ndarray):
    inv = build_inventory(rgb, ocr=False)
    return inv, trace_connectors(inv)


def _ends(conn) -> set[tuple[int, int]]:
    return {tuple(int(round(v)) for v in conn.points[0]),
            tuple(int(round(v)) for v in conn.points[-1])}


def _near(p, q, tol: float = 4.0) -> bool:
    return abs(p[0] - q[0]) <= tol and abs(p[1] - q[1]) <= tol


def _has_end(conn, q, tol: float = 4.0) -> bool:
    return any(_near(p, q, tol) for p in _ends(conn))


def test_two_crossing_lines_stay_two_straight_connectors():
    rgb = _page()
    cv2.line(rgb, (20, 100), (280, 100), INK, 2)
    cv2.line(rgb, (150, 20), (150, 180), INK, 2)
    _, conns = _trace(rgb)
    assert len(conns) == 2
    horizontal = [c for c in conns if _has_end(c, (20, 100)) and _has_end(c, (280, 100))]
    vertical = [c for c in conns if _has_end(c, (150, 20)) and _has_end(c, (150, 180))]
    assert len(horizontal) == 1 and len(vertical) == 1
    # the horizontal one does not wander off along the vertical one
    assert np.ptp(horizontal[0].points[:, 1]) <= 4


def test_dashed_line_is_one_dashed_connector():
    rgb = _page()
    for x in range(20, 276, 16):
        cv2.rectangle(rgb, (x, 99), (x + 7, 100), INK, -1)
    _, conns = _trace(rgb)
    assert len(conns) == 1
    assert _has_end(conns[0], (20, 100)) and _has_end(conns[0], (267, 100))
    assert conns[0].style == "dashed"


def test_dotted_line_is_one_dotted_connector():
    rgb = _page()
    for x in range(20, 280, 6):
        cv2.rectangle(rgb, (x, 99), (x + 1, 100), INK, -1)
    _, conns = _trace(rgb)
    assert len(conns) == 1
    assert conns[0].style == "dotted"
    assert conns[0].length > 240


def test_two_close_parallel_dotted_lines_are_not_merged():
    rgb = _page()
    for x in range(20, 280, 6):
        cv2.rectangle(rgb, (x, 90), (x + 1, 91), INK, -1)
        cv2.rectangle(rgb, (x, 100), (x + 1, 101), INK, -1)
    _, conns = _trace(rgb)
    assert len(conns) == 2
    for c in conns:
        assert np.ptp(c.points[:, 1]) <= 3


def test_orthogonal_bend_is_one_connector_between_the_two_tips():
    rgb = _page()
    cv2.line(rgb, (20, 40), (200, 40), INK, 2)
    cv2.line(rgb, (200, 40), (200, 180), INK, 2)
    _, conns = _trace(rgb)
    assert len(conns) == 1
    assert _has_end(conns[0], (20, 40)) and _has_end(conns[0], (200, 180))
    # the end directions point out of the line: left at the first tip, down at the other
    dirs = {tuple(int(round(v)) for v in e.point): e.direction for e in conns[0].ends}
    for p, d in dirs.items():
        if _near(p, (20, 40)):
            assert d[0] < -0.9
        else:
            assert d[1] > 0.9


def test_line_ending_on_another_line_leaves_that_line_whole():
    rgb = _page()
    cv2.line(rgb, (20, 60), (280, 60), INK, 2)
    cv2.line(rgb, (150, 60), (150, 180), INK, 2)
    _, conns = _trace(rgb)
    assert len(conns) == 2
    whole = [c for c in conns if _has_end(c, (20, 60)) and _has_end(c, (280, 60))]
    stem = [c for c in conns if _has_end(c, (150, 180))]
    assert len(whole) == 1 and len(stem) == 1
    assert _has_end(stem[0], (150, 60), tol=5)
    # the stem's end at the junction lands on the whole line, its free tip on nothing
    landing = {_near(e.point, (150, 60), 5): e.on_connector for e in stem[0].ends}
    assert landing[True] == conns.index(whole[0])
    assert landing[False] is None
    assert all(e.on_connector is None for e in whole[0].ends)


def test_gap_bridging_does_not_jump_across_a_box():
    rgb = _page(400, 200)
    cv2.rectangle(rgb, (170, 80), (230, 120), INK, 2)
    cv2.line(rgb, (20, 100), (165, 100), INK, 2)
    cv2.line(rgb, (235, 100), (380, 100), INK, 2)
    inv, conns = _trace(rgb)
    assert len(inv.shapes) == 1
    assert len(conns) == 2
    assert all(np.ptp(c.points[:, 0]) < 170 for c in conns)


def test_lines_crossing_at_a_shallow_angle_stay_two_whole_lines():
    rgb = _page(400, 200)
    cv2.line(rgb, (20, 70), (380, 130), INK, 3)
    cv2.line(rgb, (20, 130), (380, 70), INK, 3)
    _, conns = _trace(rgb)
    assert len(conns) == 2
    down = [c for c in conns if _has_end(c, (20, 70)) and _has_end(c, (380, 130))]
    up = [c for c in conns if _has_end(c, (20, 130)) and _has_end(c, (380, 70))]
    assert len(down) == 1 and len(up) == 1


def test_speck_of_noise_beside_a_dotted_line_does_not_cut_it():
    rgb = _page()
    for x in range(20, 280, 6):
        cv2.rectangle(rgb, (x, 99), (x + 2, 101), INK, -1)
    rgb[96, 151] = INK  # one stray dark pixel next to the dots
    _, conns = _trace(rgb)
    assert len(conns) == 1
    assert conns[0].length > 240


def _label_on_line(rgb, x1, y1, x2, y2, text="Yes"):
    cv2.rectangle(rgb, (x1, y1), (x2, y2), (232, 232, 232), -1)
    cv2.putText(rgb, text, (x1 + 3, y2 - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.4, INK, 1,
                cv2.LINE_AA)


def _only_plate(rgb: np.ndarray):
    """The page's inventory (no OCR) and the box of its one label plate."""
    inv = build_inventory(rgb, ocr=False)
    plates = label_plates(inv)
    assert len(plates) == 1
    return inv, plates[0]


def test_label_on_a_pale_plate_over_a_line_is_bridged():
    rgb = _page(300, 300)
    cv2.line(rgb, (150, 20), (150, 280), INK, 2)
    _label_on_line(rgb, 134, 140, 168, 160)
    inv, (x1, y1, x2, y2) = _only_plate(rgb)
    assert x1 <= 136 and x2 >= 166 and y1 <= 142 and y2 >= 158
    conns = trace_connectors(inv)
    assert len(conns) == 1
    assert _has_end(conns[0], (150, 20)) and _has_end(conns[0], (150, 280))


def test_grey_plate_under_light_letters_on_a_dark_page_is_a_plate():
    # a dark theme: light line and letters, the plate a mid grey about 0.4 of their
    # contrast off the paper
    rgb = np.full((300, 300, 3), 20, np.uint8)
    light = (220, 220, 220)
    cv2.line(rgb, (150, 20), (150, 280), light, 2)
    cv2.rectangle(rgb, (134, 140), (168, 160), (100, 100, 100), -1)
    cv2.putText(rgb, "Yes", (137, 156), cv2.FONT_HERSHEY_SIMPLEX, 0.4, light, 1, cv2.LINE_AA)
    inv = Inventory(width=300, height=300, scale=Scale(stroke=2.0, text_height=15.0),
                    background=(20, 20, 20), ink=rgb.max(axis=2) > 40, image=rgb)
    plates = label_plates(inv)
    assert len(plates) == 1
    x1, y1, x2, y2 = plates[0]
    assert x1 <= 136 and x2 >= 166 and y1 <= 142 and y2 >= 158


def test_dark_blob_or_line_is_no_label_plate():
    rgb = _page(300, 300)
    cv2.line(rgb, (150, 20), (150, 280), INK, 2)
    cv2.rectangle(rgb, (134, 140), (168, 160), INK, -1)  # solid dark: not a pale plate
    inv = build_inventory(rgb, ocr=False)
    assert label_plates(inv) == []


def test_plate_grazed_by_a_line_is_found_though_the_closing_spans_paper():
    # a line running just past the plate: closing the plate's tint joins it to the
    # line's fringe across a strip of paper, which is no part of the plate's colour
    rgb = _page(160, 160)
    cv2.line(rgb, (0, 65), (160, 65), (51, 51, 51), 2, cv2.LINE_AA)
    cv2.rectangle(rgb, (60, 70), (83, 89), (232, 232, 232), -1)
    cv2.putText(rgb, "No", (62, 86), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (51, 51, 51), 1,
                cv2.LINE_AA)
    rgb = cv2.imdecode(cv2.imencode(".jpg", rgb, [cv2.IMWRITE_JPEG_QUALITY, 85])[1], 1)
    inv = Inventory(width=160, height=160, scale=Scale(stroke=2.0, text_height=15.0),
                    background=(255, 255, 255), ink=rgb.min(axis=2) < 235, image=rgb)
    plates = label_plates(inv)
    assert len(plates) == 1
    x1, y1, x2, y2 = plates[0]
    assert x1 <= 61 and x2 >= 82 and y1 <= 71 and y2 >= 88


def test_line_cut_by_a_label_just_before_its_arrowhead_keeps_its_stub():
    rgb = _page(300, 300)
    cv2.rectangle(rgb, (100, 230), (200, 280), INK, 2)
    cv2.line(rgb, (150, 20), (150, 218), INK, 2)
    cv2.fillPoly(rgb, [np.array([[143, 216], [157, 216], [150, 229]], np.int32)], INK)
    _label_on_line(rgb, 134, 184, 168, 202)  # leaves ~12 px of line above the head
    inv = build_inventory(rgb, ocr=False)
    conns = [c for c in trace_connectors(inv) if c.length > 50]
    assert len(conns) == 1
    assert _has_end(conns[0], (150, 20)) and max(conns[0].points[:, 1]) >= 215


def test_label_right_above_an_arrowhead_is_bridged_to_the_head():
    rgb = _page(300, 300)
    cv2.rectangle(rgb, (100, 230), (200, 280), INK, 2)
    cv2.line(rgb, (150, 20), (150, 218), INK, 2)
    cv2.fillPoly(rgb, [np.array([[143, 216], [157, 216], [150, 229]], np.int32)], INK)
    _label_on_line(rgb, 134, 192, 168, 210)  # nothing of the line left under the plate
    inv = build_inventory(rgb, ocr=False)
    conns = [c for c in trace_connectors(inv) if c.length > 50]
    assert len(conns) == 1
    assert _has_end(conns[0], (150, 20)) and max(conns[0].points[:, 1]) >= 215


def _piece(a: int, b: int, p, q) -> _Piece:
    n = int(max(abs(q[0] - p[0]), abs(q[1] - p[1]))) + 1
    pts = np.stack([np.linspace(p[0], q[0], n), np.linspace(p[1], q[1], n)], axis=1).round()
    return _Piece(pts=pts, a=a, b=b, length=float(np.hypot(q[0] - p[0], q[1] - p[1])))


def test_lines_meeting_in_a_v_next_to_a_shape_are_not_chained_into_one():
    # two arrowhead flanks meeting on a node's border: a V whose tip is next to the shape
    pieces = [_piece(1, 3, (120, 180), (150, 200)), _piece(2, 3, (180, 180), (150, 200))]
    away = np.zeros((300, 300), bool)
    assert len(_chain(pieces, 10, _vertices_on(pieces, away))) == 1  # a bend in open space
    near = away.copy()
    near[195:, :] = True
    assert len(_chain(pieces, 10, _vertices_on(pieces, near))) == 2


def test_two_arrowheads_side_by_side_on_a_box_are_not_one_line():
    rgb = _page(300, 300)
    cv2.rectangle(rgb, (90, 230), (210, 280), INK, 2)
    for x_top, x_tip in ((60, 141), (240, 159)):
        cv2.line(rgb, (x_top, 20), (x_tip, 214), INK, 2)
        cv2.fillPoly(rgb, [np.array([[x_tip - 8, 212], [x_tip + 8, 212], [x_tip, 229]],
                                    np.int32)], INK)
    _, conns = _trace(rgb)
    long = [c for c in conns if c.length > 100]
    assert len(long) == 2
    for c in long:
        # each runs from its own top end down to the box, never up the other line
        assert sum(p[1] < 40 for p in (c.points[0], c.points[-1])) == 1


def _conn(p, q, lands: tuple = (None, None)) -> Connector:
    n = int(max(abs(q[0] - p[0]), abs(q[1] - p[1]))) + 1
    pts = np.stack([np.linspace(p[0], q[0], n), np.linspace(p[1], q[1], n)], axis=1)
    u = (np.array(q, float) - p) / np.linalg.norm(np.array(q, float) - p)
    return Connector(points=pts, ends=(End(tuple(map(float, p)), tuple(-u), on_connector=lands[0]),
                                       End(tuple(map(float, q)), tuple(u), on_connector=lands[1])))


def test_halves_of_a_line_cut_by_a_crossing_line_are_joined():
    halves = [_conn((0, 100), (95, 101), (None, 2)), _conn((112, 103), (200, 105), (2, None))]
    conns = halves + [_conn((80, 0), (125, 200))]
    assert join_crossings(conns, 30, None)
    assert len(conns) == 2
    whole = [c for c in conns if c.points[0][0] == 0]
    assert len(whole) == 1 and tuple(whole[0].ends[1].point) == (200.0, 105.0)


def test_ends_landing_on_different_lines_or_not_facing_are_not_joined():
    apart = [_conn((0, 100), (95, 101), (None, 2)), _conn((112, 103), (200, 105), (3, None)),
             _conn((80, 0), (125, 200)), _conn((110, 0), (110, 90))]
    assert not join_crossings(apart, 30, None)
    side = [_conn((0, 100), (95, 101), (None, 2)), _conn((112, 200), (112, 103), (None, 2)),
            _conn((80, 0), (125, 200))]
    assert not join_crossings(side, 30, None)


def test_halves_of_a_dashed_line_stopping_short_of_a_crossing_line_are_joined():
    """The dash lying on the crossing line went with it: the halves end a gap short of
    it, landing on nothing.  They are joined where they face each other across another
    connector, away from shapes, one half long enough to show the pattern."""
    def dashed(p, q, style="dashed"):
        c = _conn(p, q)
        c.style = style
        return c

    free = np.zeros((210, 210), bool)
    conns = [dashed((0, 100), (90, 101)), dashed((118, 103), (200, 105)),
             _conn((80, 0), (125, 200))]
    assert join_crossings(conns, 30, None, free)
    assert len(conns) == 2 and {c.style for c in conns} == {"dashed", "solid"}
    # no line between the ends (a gap of the line itself, not a crossing)
    assert not join_crossings([dashed((0, 100), (90, 101)), dashed((118, 103), (200, 105))],
                              30, None, free)
    # a solid line's ends across a crossing stay apart, and so do ends near a shape
    assert not join_crossings([_conn((0, 100), (90, 101)), _conn((118, 103), (200, 105)),
                               _conn((80, 0), (125, 200))], 30, None, free)
    near = free.copy()
    near[90:110, 85:95] = True
    assert not join_crossings([dashed((0, 100), (90, 101)), dashed((118, 103), (200, 105)),
                               _conn((80, 0), (125, 200))], 30, None, near)
    # the outline of an icon between them (a closed loop) is no crossing line
    loop = Connector(points=np.array([[100, 80], [112, 80], [112, 120], [100, 120], [100, 81]],
                                     float), ends=(End((100, 80), (0, -1)), End((100, 81), (0, 1))))
    assert not join_crossings([dashed((0, 100), (90, 101)), dashed((118, 103), (200, 105)),
                               loop], 30, None, free)


def _misread(inv, text, box):
    """Pretend OCR read the ink in ``box`` as free text ``text``."""
    x1, y1, x2, y2 = box
    inv.texts.append(TextItem(text, box))
    if inv.text_mask is None:
        inv.text_mask = np.zeros(inv.ink.shape, bool)
    inv.text_mask[y1:y2, x1:x2] |= inv.ink[y1:y2, x1:x2]


def test_short_line_between_two_nodes_read_as_a_letter_is_still_traced():
    rgb = _page(200, 300)
    cv2.rectangle(rgb, (60, 20), (140, 80), INK, 2)
    cv2.rectangle(rgb, (60, 160), (140, 220), INK, 2)
    cv2.line(rgb, (100, 81), (100, 159), INK, 2)
    inv = build_inventory(rgb, ocr=False)
    _misread(inv, "I", (94, 82, 107, 158))
    conns = trace_connectors(inv)
    assert len(conns) == 1 and conns[0].length > 60


def _stacked_nodes_with_short_arrow(rgb: np.ndarray) -> None:
    cv2.rectangle(rgb, (60, 20), (140, 80), INK, 2)
    cv2.rectangle(rgb, (60, 112), (140, 170), INK, 2)
    cv2.line(rgb, (100, 81), (100, 100), INK, 2)
    head = np.array([[93, 98], [107, 98], [100, 111]], np.int32)
    cv2.fillPoly(rgb, [head], INK)


def test_shaft_of_a_short_arrow_read_as_a_letter_is_still_traced():
    # the box OCR gave the letter holds the shaft only; the head lies below it
    rgb = _page(200, 200)
    _stacked_nodes_with_short_arrow(rgb)
    inv = build_inventory(rgb, ocr=False)
    _misread(inv, "I", (90, 80, 111, 97))
    conns = trace_connectors(inv)
    assert len(conns) == 1 and conns[0].length >= 12


def test_letter_beside_a_node_that_runs_into_no_line_is_still_cleared():
    rgb = _page(200, 200)
    cv2.rectangle(rgb, (60, 20), (140, 80), INK, 2)
    cv2.line(rgb, (100, 81), (100, 96), INK, 2)  # a letter-like stroke, nothing past it
    inv = build_inventory(rgb, ocr=False)
    _misread(inv, "I", (90, 80, 111, 99))
    assert not trace_connectors(inv)


def test_real_word_on_a_line_between_two_nodes_is_still_cleared():
    rgb = _page(200, 300)
    cv2.rectangle(rgb, (60, 20), (140, 80), INK, 2)
    cv2.rectangle(rgb, (60, 160), (140, 220), INK, 2)
    cv2.line(rgb, (100, 81), (100, 159), INK, 2)
    inv = build_inventory(rgb, ocr=False)
    _misread(inv, "Yes", (94, 82, 107, 158))
    assert all(c.length < 60 for c in trace_connectors(inv))


def _arc(radius: float, a0: float, a1: float) -> np.ndarray:
    t = np.radians(np.linspace(a0, a1, int(abs(a1 - a0) * radius * np.pi / 180)))
    return np.stack([100 + radius * np.cos(t), 100 + radius * np.sin(t)], axis=1)


def test_gap_on_a_tight_curve_is_bridged_though_its_ends_are_not_opposed():
    # two pieces of one circle 13 px apart: their end directions differ by ~45 degrees
    pieces = [_arc(30, 0, 100), _arc(30, 125, 220)]
    joined, gaps = bridge_gaps(pieces, 18, 10, 3)
    assert len(joined) == 1 and gaps == [1]
    # but not two lines meeting at a right angle across the same gap
    corner = [np.array([[0.0, 100], [90, 100]]), np.array([[100.0, 110], [100, 200]])]
    assert len(bridge_gaps(corner, 18, 10, 3)[0]) == 2


def _jpeg(rgb: np.ndarray) -> np.ndarray:
    """``rgb`` saved as JPEG and read back (colour kept at half resolution)."""
    data = cv2.imencode(".jpg", rgb[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
    return np.ascontiguousarray(cv2.imdecode(data, cv2.IMREAD_COLOR)[..., ::-1])


def test_tinted_plate_whose_hue_jpeg_smeared_between_its_letters_is_found():
    # a pale yellow plate barely taller than its dark blue word, on a dark red line
    rgb = _page(300, 300)
    cv2.line(rgb, (150, 20), (150, 280), (163, 21, 21), 2)
    cv2.rectangle(rgb, (126, 142), (174, 158), (255, 242, 204), -1)
    cv2.putText(rgb, "Invalid", (128, 155), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (11, 42, 74), 1,
                cv2.LINE_AA)
    _, (x1, y1, x2, y2) = _only_plate(_jpeg(rgb))
    assert x1 <= 128 and x2 >= 172 and y1 <= 144 and y2 >= 156


def test_hue_halo_along_dark_dots_on_a_tinted_page_is_no_plate():
    # a dotted and a bold line close together on a yellow page: the hue JPEG smears
    # round them is flat and pale like a plate's tint, but lies all along the ink
    rgb = np.full((200, 300, 3), (228, 254, 105), np.uint8)
    for x in range(20, 280, 7):
        cv2.rectangle(rgb, (x, 100), (x + 2, 102), (51, 51, 51), -1)
    cv2.line(rgb, (20, 111), (280, 111), (51, 51, 51), 4)
    rgb = _jpeg(rgb)
    inv = build_inventory(rgb, ocr=False)
    assert label_plates(inv) == []


def test_a_head_the_halo_set_apart_from_its_line_is_one_piece_of_the_mask():
    """Between two boxes, a line whose head a white halo cut off a few pixels short: the
    connector mask holds line and head as one piece (issue 19)."""
    from cvparse.connectors.trace import connector_mask
    from cvparse.arrays import components

    img = np.full((200, 420, 3), 250, np.uint8)
    cv2.rectangle(img, (20, 70), (120, 130), (60, 60, 60), 2)
    cv2.rectangle(img, (300, 70), (400, 130), (60, 60, 60), 2)
    cv2.line(img, (121, 100), (264, 100), (16, 28, 140), 3)
    head = np.array([[299, 100], [268, 84], [268, 116]], np.int32)  # 3 px past the line
    cv2.fillPoly(img, [head], (16, 28, 140))
    inv = build_inventory(img, ocr=False)
    assert len(inv.shapes) == 2
    between = connector_mask(inv)[:, 125:295].astype(np.uint8)
    assert components(between, 8)[0] - 1 == 1


def test_paper_under_a_node_is_the_paper_round_it_not_its_outline():
    # The box's right and bottom sides end inside a coarse cell of the paper map; an
    # arrowhead darkens the cells above it.  The cells round the box must be paper only,
    # or the box is painted grey and the white round the arrowhead reads as a tint.
    rgb = _page(300, 300)
    cv2.rectangle(rgb, (100, 230), (200, 280), INK, 2)
    cv2.line(rgb, (150, 20), (150, 218), INK, 2)
    cv2.fillPoly(rgb, [np.array([[143, 216], [157, 216], [150, 229]], np.int32)], INK)
    inv = build_inventory(rgb, ocr=False)
    assert len(inv.shapes) == 1
    inv = dataclasses.replace(inv, scale=Scale(stroke=3.0, text_height=10.0))
    assert int(_local_paper(inv)[232:278, 104:196].min()) == 255


def _stacked_page(second_top: int, stroke_span: tuple[int, int]) -> np.ndarray:
    """A box over a second box starting at ``second_top``, with a 2 px vertical stroke
    spanning ``stroke_span`` (y) between them."""
    rgb = _page(200, 200)
    for top in (20, second_top):
        cv2.rectangle(rgb, (40, top), (160, top + 50), INK, 2)
    cv2.line(rgb, (100, stroke_span[0]), (100, stroke_span[1]), INK, 2)
    return rgb


def _stacked_trace(second_top: int, stroke_span: tuple[int, int]):
    """The connectors of :func:`_stacked_page` traced as a flowchart's, and the debris
    floor (a stroke's remains shorter than it are debris unless they join two boxes)."""
    inv = build_inventory(_stacked_page(second_top, stroke_span), ocr=False)
    return trace_connectors(inv, close_nodes=True), 3 * inv.scale.stroke + 4


def test_line_between_nodes_a_head_length_apart_is_kept():
    # the boxes 15 px apart: after the margin cleared round both, a few pixels of the
    # line between them are left, shorter than debris
    conns, floor = _stacked_trace(85, (71, 84))
    assert len(conns) == 1 and conns[0].length < floor
    # (as a flowchart lays its nodes out: on other pages it stays debris)
    inv = build_inventory(_stacked_page(85, (71, 84)), ocr=False)
    assert trace_connectors(inv) == []


def test_speck_pointing_at_a_far_node_is_no_line():
    # a speck as short, near one box, pointing across a wide gap at the other: debris,
    # though both boxes lie ahead of its ends
    assert _stacked_trace(115, (76, 83))[0] == []


def test_band_of_page_coloured_ink_between_fills_is_no_line():
    from cvparse.connectors.trace import _page_toned

    rgb = _page(100, 60)
    rgb[20:40, 10:40] = (240, 240, 240)  # a node's fill
    line = np.array([[45.0, 30.0], [60.0, 30.0]])  # running over the white page beside it
    assert _page_toned(rgb, line, (255, 255, 255))
    rgb[29:31, 45:61] = (120, 120, 120)  # a grey line drawn there
    assert not _page_toned(rgb, line, (255, 255, 255))
