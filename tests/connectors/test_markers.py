"""End markers classified from width profiles of symbols drawn in the test."""

import numpy as np
import pytest
from PIL import Image, ImageDraw

from cvparse.connectors.markers import classify_symbol, width_profile

W, H = 200, 120
TIP = (160, 60)  # where the line meets the (imaginary) box on its right


def _draw(marker: str) -> np.ndarray:
    img = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(img)
    x, y = TIP
    L, half = 22, 9
    base = x - L
    if marker in ("triangle", "arrow", "open_arrow"):
        d.line((20, y, base if marker != "open_arrow" else x, y), fill=255, width=2)
        pts = [(x, y), (base, y - half), (base, y + half)]
        if marker == "triangle":
            d.polygon(pts, outline=255, width=2)
        elif marker == "arrow":
            d.polygon(pts, fill=255)
        else:
            d.line((base, y - half, x, y, base, y + half), fill=255, width=2)
    elif marker in ("diamond", "filled_diamond"):
        d.line((20, y, base, y), fill=255, width=2)
        pts = [(x, y), (x - L / 2, y - half), (base, y), (x - L / 2, y + half)]
        if marker == "diamond":
            d.polygon(pts, outline=255, width=2)
        else:
            d.polygon(pts, fill=255)
    else:
        d.line((20, y, x, y), fill=255, width=2)
    return np.asarray(img) > 0


@pytest.mark.parametrize("marker", ["none", "arrow", "open_arrow", "triangle", "diamond",
                                    "filled_diamond"])
def test_marker_shapes_are_told_apart(marker):
    mask = _draw(marker)
    extent, count = width_profile(mask, TIP, (1.0, 0.0), 60, 20)
    assert classify_symbol(extent, count, stroke=2.0) == marker


def test_profile_measures_extent_and_count():
    mask = _draw("arrow")
    extent, count = width_profile(mask, TIP, (1.0, 0.0), 40, 20)
    assert extent[-1] <= 3  # the plain line far from the tip
    assert extent.max() >= 16  # the arrowhead base
    assert np.all(count <= extent)
