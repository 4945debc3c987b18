"""Group frames on tiny synthetic drawings: a rectangle round a node is found and cleared,
the line crossing it keeps only a short gap; a rectangle holding no node is no frame."""

import cv2
import numpy as np

from cvparse.connectors.frames import clear_frames, frame_outlines


def _page() -> np.ndarray:
    mask = np.zeros((300, 400), np.uint8)
    cv2.rectangle(mask, (40, 60), (360, 260), 1, 2)  # the frame
    cv2.line(mask, (200, 0), (200, 120), 1, 2)  # a line crossing its top side
    return mask.astype(bool)


def test_frame_round_a_node_is_found_whatever_crosses_it():
    node = (150, 120, 250, 160)
    frames = frame_outlines(_page(), [node], 2.0, 15.0)
    assert len(frames) == 1
    x1, y1, x2, y2 = frames[0]
    assert abs(x1 - 40) <= 2 and abs(y1 - 60) <= 2 and abs(x2 - 360) <= 2 and abs(y2 - 260) <= 2


def test_rectangle_holding_no_node_is_no_frame():
    assert frame_outlines(_page(), [(370, 10, 395, 40)], 2.0, 15.0) == []
    assert frame_outlines(_page(), [], 2.0, 15.0) == []


def test_clearing_a_frame_leaves_the_crossing_line_with_a_short_gap():
    mask = _page()
    cleared = clear_frames(mask, frame_outlines(mask, [(150, 120, 250, 160)], 2.0, 15.0), 2.0)
    assert not cleared[60, 100] and not cleared[160, 40] and not cleared[260, 300]
    column = cleared[:, 200]
    gap = np.flatnonzero(~column[:121])
    assert column[:50].all() and column[75:120].all()
    assert 0 < len(gap) <= 12


def _rounded_page(radius: int, gaps: bool = False) -> np.ndarray:
    """A frame with rounded corners (a Graphviz ``style=rounded`` cluster); with
    ``gaps``, its top side broken where lines cross it."""
    mask = np.zeros((300, 400), np.uint8)
    x1, y1, x2, y2 = 40, 60, 360, 260
    cv2.line(mask, (x1 + radius, y1), (x2 - radius, y1), 1, 2)
    cv2.line(mask, (x1 + radius, y2), (x2 - radius, y2), 1, 2)
    cv2.line(mask, (x1, y1 + radius), (x1, y2 - radius), 1, 2)
    cv2.line(mask, (x2, y1 + radius), (x2, y2 - radius), 1, 2)
    for cx, cy, start in ((x1 + radius, y1 + radius, 180), (x2 - radius, y1 + radius, 270),
                          (x2 - radius, y2 - radius, 0), (x1 + radius, y2 - radius, 90)):
        cv2.ellipse(mask, (cx, cy), (radius, radius), 0, start, start + 90, 1, 2)
    if gaps:
        mask[55:66, 120:140] = 0
        mask[55:66, 250:262] = 0
    return mask.astype(bool)


def test_frame_with_rounded_corners_is_found():
    frames = frame_outlines(_rounded_page(12), [(150, 120, 250, 160)], 2.0, 15.0)
    assert len(frames) == 1
    x1, y1, x2, y2 = frames[0]
    assert abs(x1 - 40) <= 2 and abs(y1 - 60) <= 2 and abs(x2 - 360) <= 2 and abs(y2 - 260) <= 2


def test_frame_whose_side_is_broken_by_crossings_is_found():
    frames = frame_outlines(_rounded_page(4, gaps=True), [(150, 120, 250, 160)], 2.0, 15.0)
    assert len(frames) == 1
