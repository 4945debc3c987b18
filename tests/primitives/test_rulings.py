"""Faint page-wide rulings of a grid or ruled background, erased before reading (issue 19)."""

import numpy as np
from PIL import Image, ImageDraw

from cvparse.primitives.rulings import erase_rulings

PAGE = (252, 248, 242)
RULE = (238, 231, 218)
INK = (25, 25, 25)


def _page(draw_rules, draw_ink) -> np.ndarray:
    img = Image.new("RGB", (400, 300), PAGE)
    d = ImageDraw.Draw(img)
    draw_rules(d)
    draw_ink(d)
    return np.asarray(img).copy()


def _grid(d, rows: bool = True, cols: bool = True) -> None:
    for k in range(0, 400, 50):
        if cols:
            d.line([(k, 0), (k, 299)], fill=RULE, width=1)
    for k in range(0, 300, 50):
        if rows:
            d.line([(0, k), (399, k)], fill=RULE, width=1)


def _diagram(d) -> None:
    d.rectangle([60, 70, 160, 130], fill=(255, 255, 255), outline=INK, width=2)
    d.line([(160, 100), (300, 180)], fill=INK, width=2)
    d.line([(20, 150), (380, 150)], fill=INK, width=2)  # a drawn line along a ruling


def test_a_grid_is_erased_and_the_drawing_kept():
    rgb = _page(_grid, _diagram)
    out = erase_rulings(rgb)
    rule = (np.abs(rgb.astype(int) - RULE).sum(axis=2) == 0)
    rule[145:156] = False  # the ruling the drawn line covers is no longer page-wide
    assert rule.sum() > 2000
    assert (np.abs(out[rule].astype(int) - PAGE).sum(axis=1) == 0).all()
    inked = (np.abs(rgb.astype(int) - INK).sum(axis=2) == 0)
    assert (out[inked] == rgb[inked]).all()  # the line on the ruling at y=150 stays too


def test_ruled_paper_loses_its_lines():
    rgb = _page(lambda d: _grid(d, cols=False), _diagram)
    out = erase_rulings(rgb)
    left = np.abs(out.astype(int) - RULE).sum(axis=2) == 0
    assert left[:145].sum() == 0 and left[156:].sum() == 0


def test_a_plain_page_is_returned_as_it_is():
    rgb = _page(lambda d: None, _diagram)
    assert erase_rulings(rgb) is rgb


def test_a_tinted_fill_and_a_few_light_lines_are_no_rulings():
    def draw(d):
        d.rectangle([0, 100, 399, 199], fill=RULE)  # a page-wide light band: no line
        d.line([(0, 40), (399, 40)], fill=RULE, width=1)  # two light lines, no pattern
        d.line([(0, 260), (399, 260)], fill=RULE, width=1)
    rgb = _page(draw, _diagram)
    assert erase_rulings(rgb) is rgb


def test_a_ruling_along_a_light_tile_edge_goes_too():
    """A light tile laid out on the grid: where a ruling runs along its edge the ruling is
    not thin (the tile beside it is faint too), yet it is still the ruling."""
    def draw(d):
        _grid(d)
        d.rectangle([201, 101, 249, 149], fill=(245, 245, 245))  # inside one grid cell
        d.line([(215, 135), (235, 115)], fill=INK, width=3)  # the tile's glyph

    rgb = _page(lambda d: None, draw)
    out = erase_rulings(rgb)
    rule = np.abs(rgb.astype(int) - RULE).sum(axis=2) == 0
    assert rule[100, 190:260].all() and rule[90:160, 200].all()  # the rulings by the tile
    assert (np.abs(out[rule].astype(int) - PAGE).sum(axis=1) == 0).all()
    tile = (np.abs(rgb.astype(int) - (245, 245, 245)).sum(axis=2) == 0)
    assert (out[tile] == rgb[tile]).all()
