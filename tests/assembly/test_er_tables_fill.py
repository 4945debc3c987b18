"""Table cells read their text against the cell's own fill, not the page's paper."""

import cv2
import numpy as np

from cvparse.assembly.er_tables import table_entities, text_lines
from cvparse.primitives.elements import Inventory, Scale, Shape
from cvparse.primitives.regions import Region

PAPER, FILL, INK = (255, 252, 240), (215, 230, 248), (30, 60, 110)


def _filled_box_page():
    """A tinted one-line box on tinted paper, and a page ink mask that (like a paper
    estimate lagging behind the fill) marks the fill's top and bottom bands as ink."""
    img = np.full((120, 240, 3), PAPER, np.uint8)
    x1, y1, x2, y2 = 40, 30, 200, 90
    cv2.rectangle(img, (x1, y1), (x2 - 1, y2 - 1), FILL, -1)
    cv2.rectangle(img, (x1, y1), (x2 - 1, y2 - 1), INK, 2)
    cv2.putText(img, "Name", (80, 68), cv2.FONT_HERSHEY_SIMPLEX, 0.7, INK, 2, cv2.LINE_AA)
    text = (np.abs(img.astype(int) - FILL).sum(axis=2) > 60)
    ink = text.copy()
    ink[y1:y1 + 12, x1:x2] = True
    ink[y2 - 12:y2, x1:x2] = True
    ix1, iy1, ix2, iy2 = x1 + 2, y1 + 2, x2 - 2, y2 - 2
    m = np.ones((iy2 - iy1, ix2 - ix1), bool)
    contour = np.array([[ix1, iy1], [ix2, iy1], [ix2, iy2], [ix1, iy2]])
    r = Region(bbox=(ix1, iy1, ix2, iy2), filled=m, paper_area=int(m.sum()), contour=contour)
    shape = Shape(kind="rect", bbox=(x1, y1, x2, y2), interior=r, outer=r, fill=FILL)
    inv = Inventory(width=240, height=120, scale=Scale(stroke=2.0, text_height=16.0),
                    background=PAPER, shapes=[shape], ink=ink, image=img)
    return inv, shape


def test_fill_bands_are_not_text_lines():
    inv, shape = _filled_box_page()
    assert len(text_lines(shape, inv.ink, 2.0, 16.0)) == 3  # the page ink alone misleads
    lines = text_lines(shape, inv.ink, 2.0, 16.0, inv.image)
    assert len(lines) == 1
    assert lines[0].crop.shape[0] < 2 * 16.0


def test_filled_single_line_box_is_not_a_table():
    inv, _ = _filled_box_page()
    assert table_entities(inv) == []
