"""The page's scale survives a wide median that turns small filled boxes into ink blobs."""

from pathlib import Path

import pytest

from cvparse.image import load_image
from cvparse.primitives.inventory import page_ink

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.mark.parametrize("name", ["flowchart_dev_0113.jpg", "flowchart_dev_0144.jpg"])
def test_one_letter_nodes_keep_their_text_height(name):
    # Mermaid's 16 px font: about 15 px here; the wide median alone gave 46 and 6
    scale = page_ink(load_image(FIXTURES / "flowchart" / "dev" / name))[3]
    assert 12 <= scale.text_height <= 19


def test_large_text_keeps_the_wide_median_ink():
    # 2x UML page with two one-letter classes: the filled diamond must stay solid ink
    image = load_image(FIXTURES / "uml" / "dev" / "uml_dev_0014_s20.png")
    _, ink, _, scale = page_ink(image)
    assert scale.text_height >= 24
    x, y = 51, 215  # inside the composition diamond
    assert ink[y - 2:y + 3, x - 2:x + 3].all()


def test_small_filled_boxes_do_not_thicken_the_stroke():
    # pale one-letter boxes on a blue page: the wide median took their fill for ink
    image = load_image(FIXTURES / "flowchart" / "dev" / "flowchart_dev_0108.jpg")
    _, ink, _, scale = page_ink(image)
    assert scale.stroke <= 4
    assert not ink[100:110, 118:126].any()  # paper inside the "L" box, beside the letter


@pytest.mark.parametrize("name", ["flowchart_style_0018.jpg", "flowchart_style_0025.jpg"])
def test_fills_the_wide_median_took_for_ink_leave_the_first_pass(name):
    # dark page (forest theme) and nodes narrower than the wide median: that pass measured
    # lines of 9 and 6 px beside 15 px text; the lines are drawn about 3 px wide
    scale = page_ink(load_image(FIXTURES / "flowchart" / "style" / name))[3]
    assert scale.stroke <= 4
    assert 12 <= scale.text_height <= 19


def test_fill_of_a_small_box_taken_for_ink_is_its_majority_colour():
    import numpy as np

    from cvparse.primitives.inventory import _fill_colour
    from cvparse.primitives.regions import Region

    rgb = np.zeros((40, 30, 3), np.uint8)
    rgb[:] = (236, 236, 255)  # pale fill ...
    rgb[12:28, 14:17] = (50, 50, 60)  # ... around a dark "I"
    ink = np.ones((40, 30), bool)
    ink[12:28, 14:17] = False  # the page median saw the fill as ink, the letter as paper
    region = Region(bbox=(0, 0, 30, 40), filled=np.ones((40, 30), bool), paper_area=1200,
                    contour=np.zeros((0, 2), int))
    assert _fill_colour(region, rgb, ink) == (236, 236, 255)
    ink[:] = False
    ink[12:28, 14:17] = True  # the usual case: the letter is ink
    assert _fill_colour(region, rgb, ink) == (236, 236, 255)
