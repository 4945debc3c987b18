"""Schema-style relationship lines: a name the line touches, lost to free text, is read
again from the glyphs beside the line."""

import cv2
import numpy as np

from cvparse.assembly.er_edges import recover_names
from cvparse.assembly.er_links import Link

from .line_page import line_page

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
    from cvparse.assembly.er_edges import extend_names
    from cvparse.primitives.elements import TextItem

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
