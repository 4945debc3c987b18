"""Crow's-foot ends told from a bar or a plain end by the ink at the table's side."""

import cv2
import numpy as np

from cvparse.assembly.er.crowsfoot import is_crowsfoot

BOX = (100, 40, 200, 80)  # a table row; lines come in from the left at y = 60


def _end(kind: str) -> np.ndarray:
    ink = np.zeros((120, 240), np.uint8)
    cv2.rectangle(ink, BOX[:2], BOX[2:], 1, 1)
    cv2.line(ink, (20, 60), (100, 60), 1, 1)
    if kind == "many":
        for dy in (-9, 0, 9):
            cv2.line(ink, (82, 60), (100, 60 + dy), 1, 1)
    elif kind == "one":
        cv2.line(ink, (92, 52), (92, 68), 1, 1)
        cv2.line(ink, (88, 52), (88, 68), 1, 1)
    elif kind == "optional-one":
        cv2.line(ink, (95, 52), (95, 68), 1, 1)
        cv2.circle(ink, (84, 60), 5, 1, 1)
    return ink.astype(bool)


def test_a_crows_foot_is_many():
    assert is_crowsfoot(_end("many"), BOX, np.array([99.0, 60.0]), 1.0, 16.0)


def test_bars_circles_and_plain_ends_are_not():
    for kind in ("one", "optional-one", "plain"):
        assert not is_crowsfoot(_end(kind), BOX, np.array([99.0, 60.0]), 1.0, 16.0), kind


def _slanted(kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A line meeting the row's top side at 45 degrees, its marks square to the line;
    returns the ink, the end point and the unit direction out of the box."""
    ink = np.zeros((160, 240), np.uint8)
    cv2.rectangle(ink, (100, 100), (200, 140), 1, 1)
    end = np.array([150.0, 99.0])
    out = np.array([-1.0, -1.0]) / np.sqrt(2)
    across = np.array([1.0, -1.0]) / np.sqrt(2)
    far = end + 80 * out
    cv2.line(ink, tuple(far.astype(int)), tuple(end.astype(int)), 1, 1)
    if kind == "many":
        tip = end + 14 * out
        for s in (-10, 0, 10):
            foot = end + s * across / abs(across[0]) * 0.5 if s else end
            cv2.line(ink, tuple(np.rint(tip).astype(int)), tuple(np.rint(foot).astype(int)), 1, 1)
    elif kind == "one":
        for at in (7, 11):
            c = end + at * out
            cv2.line(ink, tuple(np.rint(c - 7 * across).astype(int)),
                     tuple(np.rint(c + 7 * across).astype(int)), 1, 1)
    return ink.astype(bool), end, out


def test_marks_square_to_a_slanted_line():
    ink, end, out = _slanted("one")
    assert not is_crowsfoot(ink, (100, 100, 200, 140), end, 1.0, 16.0, out)
    ink, end, out = _slanted("many")
    assert is_crowsfoot(ink, (100, 100, 200, 140), end, 1.0, 16.0, out)


def _filled(kind: str, stroke: int = 2) -> np.ndarray:
    """Small marks drawn filled, as Graphviz draws a crow's foot beside a circle."""
    ink = np.zeros((120, 240), np.uint8)
    cv2.rectangle(ink, BOX[:2], BOX[2:], 1, stroke)
    cv2.line(ink, (20, 60), (100, 60), 1, stroke)
    if kind == "many":  # a wedge, wide at the side, its prongs run together
        cv2.fillPoly(ink, [np.array([(86, 60), (100, 55), (100, 65)], np.int32)], 1)
        cv2.circle(ink, (80, 60), 5, 1, stroke)
    elif kind == "arrow":  # a filled arrowhead, its tip at the side
        cv2.fillPoly(ink, [np.array([(100, 60), (86, 55), (86, 65)], np.int32)], 1)
    elif kind == "bar":  # a thick bar a little off the side, then a circle
        cv2.line(ink, (94, 53), (94, 67), 1, stroke)
        cv2.circle(ink, (82, 60), 5, 1, stroke)
    return ink.astype(bool)


def test_a_filled_crows_foot_is_many():
    assert is_crowsfoot(_filled("many"), BOX, np.array([99.0, 60.0]), 2.0, 14.0)


def test_a_filled_arrowhead_or_a_thick_bar_is_not():
    for kind in ("arrow", "bar", "plain"):
        assert not is_crowsfoot(_filled(kind), BOX, np.array([99.0, 60.0]), 2.0, 14.0), kind


def _bent(kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Filled marks drawn square to the side at the end of a line that comes in at a
    slant (a spline bending into its end, or one of several lines meeting at one foot);
    returns the ink, the end point and the line's unit direction out of the box."""
    ink = np.zeros((120, 240), np.uint8)
    cv2.rectangle(ink, BOX[:2], BOX[2:], 1, 2)
    if kind == "many":  # a wedge narrowing from the side into the circle of an o{
        cv2.fillPoly(ink, [np.array([(100, 53), (100, 67), (88, 62), (88, 58)], np.int32)], 1)
        cv2.circle(ink, (82, 60), 5, 1, 2)
        start = (77, 60)
    else:  # a thick bar a little off the side, then a circle: |o
        cv2.line(ink, (94, 53), (94, 67), 1, 2)
        cv2.line(ink, (87, 60), (100, 60), 1, 2)
        cv2.circle(ink, (82, 60), 5, 1, 2)
        start = (77, 60)
    cv2.line(ink, start, (start[0] - 40, 20), 1, 2)
    out = np.array([-40.0, 20.0 - 60.0])
    return ink.astype(bool), np.array([99.0, 60.0]), out / np.linalg.norm(out)


def test_a_filled_foot_square_to_the_side_of_a_slanting_line_is_many():
    ink, end, out = _bent("many")
    assert is_crowsfoot(ink, BOX, end, 2.0, 14.0, out)
    ink, end, out = _bent("one")
    assert not is_crowsfoot(ink, BOX, end, 2.0, 14.0, out)
