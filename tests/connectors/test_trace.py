"""Connector tracing on tiny synthetic drawings: crossings, dashes, dots, bends, T-junctions."""

import cv2
import numpy as np

from cvparse.connectors.trace import trace_connectors
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
