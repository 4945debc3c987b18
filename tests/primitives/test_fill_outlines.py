"""A pale box whose border is fainter than the ink threshold is still closed by its fill."""

import numpy as np
import pytest

from cvparse.primitives.inventory import build_inventory, page_ink
from cvparse.primitives.paper import fill_outlines
from cvparse.primitives.regions import enclosed_regions


def _pale_box(page, fill, border, inner) -> np.ndarray:
    """A 100 x 50 box: fill, a 1 px border a little darker than the fill and a row of
    antialiasing half way between, with a dark 2 px line (antialiased sides) running up
    from the middle of its top edge, where the median's paper turns."""
    rgb = np.zeros((120, 160, 3), np.uint8)
    rgb[:] = page
    rgb[40:90, 30:130] = border
    rgb[41:89, 31:129] = inner
    rgb[42:88, 32:128] = fill
    rgb[5:40, 78] = rgb[5:40, 81] = (88, 88, 88)
    rgb[5:40, 79:81] = (11, 11, 11)
    rgb[40, 79:81] = (183, 172, 149)
    return rgb


PALE_CASES = [
    # page, fill, border, antialiasing: each border within the ink threshold of its fill
    ((255, 255, 255), (255, 244, 221), (245, 234, 211), (249, 236, 209)),  # cream theme
    ((40, 170, 60), (120, 220, 130), (110, 208, 120), (115, 214, 125)),  # on green
    ((20, 20, 24), (60, 60, 72), (74, 74, 88), (67, 67, 80)),  # slate on a dark page
]


def _found(boxes) -> bool:
    """The box's inside (on its antialiased border at most) is one of ``boxes``."""
    return any(abs(x1 - 31) <= 2 and abs(y1 - 41) <= 2 and abs(x2 - 129) <= 2
               and abs(y2 - 89) <= 2 for x1, y1, x2, y2 in boxes)


@pytest.mark.parametrize("page,fill,border,inner", [PALE_CASES[0], PALE_CASES[2]])
def test_the_ring_of_a_pale_fill_closes_it_on_any_page(page, fill, border, inner):
    rgb = _pale_box(page, fill, border, inner)
    paper = np.zeros_like(rgb)
    paper[:] = page
    paper[41:89, 31:129] = fill
    ring = fill_outlines(rgb, paper, page, 24.0, np.zeros(rgb.shape[:2], bool))
    boxes = [r.bbox for r in enclosed_regions(ring, 200)]
    assert _found(boxes), boxes  # closed by the ring alone
    assert not ring[50:80, 40:120].any()  # not the inside
    assert not ring[:30, :70].any()  # nor the page away from the box


def test_a_plate_on_the_page_gets_no_ring():
    # a label's grey plate with no border, on a line: it is no box to close
    rgb = np.full((60, 120, 3), 255, np.uint8)
    rgb[28:31, :] = (40, 40, 40)  # the line
    rgb[20:40, 40:80] = (232, 232, 232)  # the plate over it
    rgb[25:35, 55:58] = (40, 40, 40)  # a letter
    paper = np.full_like(rgb, 255)
    paper[20:40, 40:80] = (232, 232, 232)
    ink = np.zeros(rgb.shape[:2], bool)
    ink[28:31, :] = True
    assert not fill_outlines(rgb, paper, (255, 255, 255), 24.0, ink).any()


@pytest.mark.parametrize("page,fill,border,inner", PALE_CASES)
def test_a_pale_box_with_a_line_on_its_border_is_enclosed(page, fill, border, inner):
    # the cream box leaked out at the line's foot before its fill's ring was added
    fine = page_ink(_pale_box(page, fill, border, inner))[2]
    boxes = [r.bbox for r in enclosed_regions(fine, 200)]
    assert _found(boxes), boxes


def test_a_pale_box_becomes_a_shape():
    rgb = _pale_box(*PALE_CASES[0])
    shapes = build_inventory(rgb, ocr=False).shapes
    assert [s.kind for s in shapes] == ["rect"]


@pytest.mark.parametrize("page,fill,border,inner", PALE_CASES)
def test_rings_and_page_ink_are_the_same_band_by_band(monkeypatch, page, fill, border, inner):
    """Row bands a few rows high (label lookups, counts, the ring's neighbour labels,
    colour distances) give exactly the masks of one band over the whole image."""
    from cvparse import arrays

    rgb = _pale_box(page, fill, border, inner)
    rgb[95:110, 20:60] = fill  # a second fill, open to the page, across band edges
    whole = page_ink(rgb)
    monkeypatch.setattr(arrays, "BAND_PIXELS", 3 * rgb.shape[1] + 7)
    banded = page_ink(rgb)
    assert whole[2].any()
    for a, b in zip(whole[:3], banded[:3]):
        assert np.array_equal(a, b)
    assert whole[3] == banded[3]


def test_banded_label_steps_match_the_whole_map_formulas(monkeypatch):
    import cv2

    from cvparse import arrays
    from cvparse.primitives import paper as paper_mod

    rng = np.random.default_rng(2)
    parts = rng.integers(0, 40, (23, 31)).astype(np.int32)
    ring = rng.random(parts.shape) < 0.4
    drawn = ring & (rng.random(parts.shape) < 0.5)
    mask = rng.random(parts.shape) < 0.5
    kernel = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    near = cv2.dilate(parts.astype(np.float32), kernel)
    monkeypatch.setattr(arrays, "BAND_PIXELS", 2 * parts.shape[1])
    counts, inked = paper_mod._ring_counts(parts, ring, drawn, kernel, 40)
    assert np.array_equal(counts, np.bincount(near[ring].astype(np.int64), minlength=40))
    assert np.array_equal(inked, np.bincount(near[drawn].astype(np.int64), minlength=40))
    assert np.array_equal(paper_mod._label_counts(parts, mask, 40),
                          np.bincount(parts[mask], minlength=40))
    which = np.array([3, 17, 39])
    assert np.array_equal(paper_mod._labelled(parts, which, 40),
                          np.isin(parts, which).view(np.uint8))



@pytest.mark.parametrize("page,fill,border,inner", [PALE_CASES[0], PALE_CASES[2]])
def test_a_pale_box_inside_a_closed_frame_gets_its_ring(page, fill, border, inner):
    # a group frame's dark border (ink) closes the frame all round; the box's faint
    # border is no ink, so the box's inside joins the frame's, not the page's paper
    rgb = _pale_box(page, fill, border, inner)
    ink = np.zeros(rgb.shape[:2], bool)
    ink[2:118, 2:158] = True
    ink[4:116, 4:156] = False
    ink[5:40, 78:82] = True  # the line down to the box
    paper = np.zeros_like(rgb)
    paper[:] = page
    paper[41:89, 31:129] = fill
    ring = fill_outlines(rgb, paper, page, 24.0, ink)
    boxes = [r.bbox for r in enclosed_regions(ring | ink, 200)]
    assert _found(boxes), boxes
    assert not ring[50:80, 40:120].any()  # not the inside
    assert not ring[10:30, 10:60].any()  # nor the frame's inside away from the box
