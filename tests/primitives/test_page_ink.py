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
