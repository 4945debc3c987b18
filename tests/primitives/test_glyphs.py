"""One-letter labels: found from their ink and read as a row of copies of the glyph."""

import numpy as np

from cvparse.primitives.glyphs import is_single_glyph, tight
from cvparse.primitives.inventory import build_inventory
from tests.primitives.synth import canvas, font, to_array


def _boxes(labels, size):
    img, d = canvas(60 * len(labels) + 20, 80)
    for i, ch in enumerate(labels):
        x = 10 + 60 * i
        d.rounded_rectangle((x, 20, x + 40, 60), 5, outline=(120, 110, 200),
                            fill=(236, 236, 255), width=1)
        d.text((x + 20, 40), ch, fill=(40, 40, 40), font=font(size), anchor="mm")
    return build_inventory(to_array(img))


def test_single_glyph_from_the_tight_ink():
    crop = np.full((30, 60), 255, np.uint8)
    crop[8:22, 20:30] = 0
    assert is_single_glyph(tight(crop)) and not is_single_glyph(crop)
    crop[8:22, 36:46] = 0
    assert not is_single_glyph(tight(crop))


def test_small_capitals_and_digits_in_boxes():
    labels = "PYTZ17"
    inv = _boxes(labels, 13)
    assert [s.label for s in sorted(inv.shapes, key=lambda s: s.bbox[0])] == list(labels)


def test_symbol_lookalikes_of_a_lone_capital():
    from cvparse.primitives.glyphs import repeated_letter
    from cvparse.primitives.inventory import _one_letter

    assert repeated_letter("YY¥") == "Y" and repeated_letter("¥Y¥¥") == "Y"
    assert _one_letter("¥", []) == "Y" and _one_letter("|", []) == "I"
    assert _one_letter("7", []) == "7"  # a digit with no other reading stays
