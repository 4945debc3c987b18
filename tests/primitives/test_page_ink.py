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


def _double_ellipse_page(fill=(218, 232, 245), page=(255, 253, 243)):
    """A double-bordered ellipse on a cream page, the fill only inside the inner border
    (as Graphviz draws peripheries=2): the gap between the borders shows the page.
    Drawn four times larger and shrunk, so edges are smoothed as a renderer smooths them."""
    import cv2
    import numpy as np

    rgb = np.zeros((640, 1040, 3), np.uint8)
    rgb[:] = page
    centre, inner = (520, 320), (320, 152)
    cv2.ellipse(rgb, centre, inner, 0, 0, 360, fill, -1)
    cv2.ellipse(rgb, centre, inner, 0, 0, 360, (30, 60, 120), 5)
    cv2.ellipse(rgb, centre, (inner[0] + 20, inner[1] + 20), 0, 0, 360, (30, 60, 120), 5)
    cv2.putText(rgb, "email", (380, 352), cv2.FONT_HERSHEY_SIMPLEX, 2.8, (30, 60, 120), 8)
    return cv2.resize(rgb, (260, 160), interpolation=cv2.INTER_AREA)


def test_page_showing_between_double_borders_on_a_tint_is_no_ink():
    import cv2
    import numpy as np

    from cvparse.primitives.paper import background_colour, ink_mask, paper_map

    rgb = _double_ellipse_page()
    gap = np.zeros(rgb.shape[:2], np.uint8)  # the page pixels between the two borders
    cv2.ellipse(gap, (130, 80), (80 + 4, 38 + 4), 0, 0, 360, 1, -1)
    cv2.ellipse(gap, (130, 80), (80 + 1, 38 + 1), 0, 0, 360, 0, -1)
    gap = gap.astype(bool) & (rgb == rgb[0, 0]).all(axis=2)
    paper = paper_map(rgb, 9)  # the fine median of thin strokes
    # without the page colour, the median's tint is the paper of the gap: ink
    assert np.count_nonzero(ink_mask(rgb, paper)[gap]) > 0.9 * np.count_nonzero(gap)
    fills = paper_map(rgb, 31)  # the wide median: fills, no glyphs
    fine = ink_mask(rgb, paper, background=background_colour(rgb), fills=fills)
    # left: pixels where the median's colour steps (the page side of a fill's edge), and
    # at the ends, where the narrow median mixes both borders with the fill
    assert np.count_nonzero(fine[gap]) < 0.25 * np.count_nonzero(gap)
    assert fine[80 - 38, 130] and fine[80 - 38 - 5, 130]  # both borders stay ink
    assert np.count_nonzero(fine[70:90, 95:165]) > 50  # and the label


def test_page_coloured_text_on_a_strong_fill_stays_ink():
    import cv2
    import numpy as np

    from cvparse.primitives.paper import ink_mask

    rgb = np.full((80, 200, 3), 255, np.uint8)
    rgb[10:70, 10:190] = (40, 60, 110)  # dark header fill, white text
    cv2.putText(rgb, "Orders", (40, 50), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
    paper = np.zeros_like(rgb)
    paper[:] = (255, 255, 255)
    paper[10:70, 10:190] = (40, 60, 110)
    letters = rgb[20:60, 30:170].min(axis=2) > 200
    with_bg = ink_mask(rgb, paper, background=(255, 255, 255), fills=paper)[20:60, 30:170]
    assert with_bg[letters].all()
