"""The connector stage as one call, and the reading of ends a later repair cuts: new
connectors, the caller's left as they were."""

import cv2
import numpy as np

from cvparse.connectors.stage import build, read_cut_ends
from cvparse.primitives.inventory import build_inventory


def _arrow_page():
    """Two boxes and a line between them with a filled head at the right box."""
    rgb = np.full((100, 260, 3), 255, np.uint8)
    for x in (10, 170):
        cv2.rectangle(rgb, (x, 30), (x + 80, 70), (0, 0, 0), 2)
    cv2.line(rgb, (91, 50), (158, 50), (0, 0, 0), 2)
    cv2.fillPoly(rgb, [np.array([[169, 50], [155, 43], [155, 57]])], (0, 0, 0))
    return rgb


def test_reading_cut_ends_again_gives_new_connectors():
    inv = build_inventory(_arrow_page(), ocr=False)
    lines = build(inv)
    assert len(lines) == 1
    head = next(k for k in (0, 1) if lines[0].ends[k].marker == "arrow")
    for e in lines[0].ends:
        e.marker = "none"  # as if a repair had cut the line there
    assert read_cut_ends(lines, [[False, False]], inv) is lines  # nothing cut
    cut = [[k == head for k in (0, 1)]]
    again = read_cut_ends(lines, cut, inv)
    assert again[0] is not lines[0] and again[0].ends[head].marker == "arrow"
    assert [e.marker for e in lines[0].ends] == ["none", "none"]
