"""The page is built once per parse and each fact derived from it is computed once."""

from pathlib import Path

import numpy as np
import pytest

from cvparse.pipeline import parse
from cvparse.primitives.items import Facts, Inventory, Scale
from cvparse.primitives.inventory import build_inventory
from cvparse.primitives.page import make_page
from tests.primitives.synth import canvas, to_array

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def test_a_fact_is_computed_once_and_counted():
    facts = Facts()
    calls = []
    for _ in range(3):
        assert facts.get("x", lambda: calls.append(1) or 42) == 42
    assert calls == [1] and facts.computed == {"x": 1}


@pytest.mark.parametrize("image, kind, expected", [
    ("uml/test/uml_test_0001_s10.png", "uml",
     {"strong_ink", "solid_blobs", "class_boxes", "uml_boxes", "phantom_shapes", "marker_mask",
      "line_text"}),
    ("topology/test/topology_test_0027.png", "topology",
     {"solid_blobs", "phantom_shapes", "sides_run_on", "legend_rows", "marker_mask",
      "line_text"}),
    ("er/realtools/plantuml_ie/plantuml_ie_0000.png", "er",
     {"cell_stacks", "phantom_shapes", "marker_mask", "line_text"}),
])
def test_each_derived_fact_is_computed_once_per_parse(image, kind, expected):
    r = parse(FIXTURES / image, kind=kind)
    assert r.page is not None and r.inventory.page is r.page
    computed = r.page.facts.computed + r.inventory.facts.computed
    assert expected <= set(computed)
    assert all(n == 1 for n in computed.values()), computed


def test_the_inventory_holds_its_page_and_image():
    img, draw = canvas(200, 120)
    draw.rectangle([40, 30, 160, 90], outline=(0, 0, 0), width=2)
    rgb = to_array(img)
    page = make_page(rgb)
    inv = build_inventory(page, ocr=False)
    assert inv.page is page and inv.image is rgb and inv.ink is page.ink
    assert inv.scale == page.scale and inv.background == page.background


def test_late_reads_go_through_the_page_and_are_counted():
    rgb = np.full((40, 60, 3), 255, np.uint8)
    page = make_page(rgb)
    seen = []
    page.ocr = lambda crops, th, psm: seen.append((len(crops), th, psm)) or [[] for _ in crops]
    inv = Inventory(width=60, height=40, scale=page.scale, background=page.background,
                    page=page)
    crops = [np.full((10, 10), 255, np.uint8)] * 3
    assert inv.read(crops) == [[], [], []]
    assert inv.read([]) == []
    assert seen == [(3, page.scale.text_height, 6)]
    assert [n for n, _ in page.reads] == [3]


def test_an_inventory_without_a_page_reads_directly():
    inv = Inventory(width=10, height=10, scale=Scale(stroke=1.0, text_height=12.0),
                    background=(255, 255, 255))
    assert inv.read([]) == []
