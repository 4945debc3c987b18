"""Table cells read their text against the cell's own fill, not the page's paper."""

import cv2
import numpy as np

from cvparse.assembly.er.tables import table_entities
from cvparse.primitives.celllines import text_lines
from cvparse.primitives.items import Inventory, Scale, Shape
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


def test_key_line_keeps_letter_bottoms_touching_a_soft_underline():
    # Small text: the key's thin underline is light grey and touches the letters'
    # baseline, so the page ink joins them; the page colours keep the letters whole.
    img = np.full((60, 140, 3), 255, np.uint8)
    x1, y1, x2, y2 = 10, 10, 130, 50
    cv2.rectangle(img, (x1, y1), (x2 - 1, y2 - 1), INK, 2)
    for x in range(30, 100, 12):
        cv2.rectangle(img, (x, 22), (x + 7, 29), INK, 1)  # "o"s, bottom row y=29
    band = img[29, 28:104]
    band[(band == 255).all(axis=1)] = 170  # the line's soft upper edge
    img[30, 28:104] = 170
    ink = np.abs(img.astype(int) - 255).sum(axis=2) > 150
    ix1, iy1, ix2, iy2 = x1 + 2, y1 + 2, x2 - 2, y2 - 2
    m = np.ones((iy2 - iy1, ix2 - ix1), bool)
    contour = np.array([[ix1, iy1], [ix2, iy1], [ix2, iy2], [ix1, iy2]])
    r = Region(bbox=(ix1, iy1, ix2, iy2), filled=m, paper_area=int(m.sum()), contour=contour)
    shape = Shape(kind="rect", bbox=(x1, y1, x2, y2), interior=r, outer=r, fill=(255, 255, 255))
    (key,) = text_lines(shape, ink, 1.0, 10.0, img)
    (cut,) = text_lines(shape, ink, 1.0, 10.0)
    assert key.underlined and cut.underlined
    bottom = 2 + 29 - 22  # the rings' bottom row in the crop (2 px margin)
    ring = slice(4, 12)  # the first ring (the line starts 2 px before it)
    assert (key.crop[bottom, ring] == 0).all()
    assert (cut.crop[bottom, ring] == 255).all()
    assert (key.crop[bottom + 1] == 255).all()  # the line itself is gone
