"""Class boxes drawn as fills alone: compartments found as rounded shapes of their own are
joined into one box, and a badge found as a box inside it does not stand for a class."""

import numpy as np

from cvparse.pipeline import parse
from cvparse.primitives.classboxes import _mark_inside, stacked_fills
from tests.primitives.synth import canvas, font


def test_stacked_compartments_join_into_one_box():
    head, body = (20, 10, 180, 40), (21, 35, 181, 120)
    assert stacked_fills([body, head], 2.0) == [(20, 10, 181, 120)]


def test_side_by_side_or_distant_boxes_stay_apart():
    a, b = (20, 10, 180, 40), (220, 10, 380, 40)
    below = (20, 200, 180, 260)  # same sides, far below: another class
    narrower = (40, 35, 160, 120)  # sides disagree: not a compartment of a
    assert sorted(stacked_fills([a, b, below, narrower], 2.0)) == sorted([a, b, below,
                                                                           narrower])


def test_only_small_boxes_inside_are_marks():
    outer = (0, 0, 300, 200)
    assert _mark_inside((10, 5, 25, 30), outer, 12.0)
    assert not _mark_inside((10, 5, 120, 90), outer, 12.0)  # a class in a filled package
    assert not _mark_inside((290, 5, 310, 30), outer, 12.0)  # reaches out of the box


def _filled_classes(names: list[str]) -> np.ndarray:
    """Borderless rounded class boxes in the cerulean look: a lighter rounded name
    compartment over a rounded body, white text, a round badge."""
    img, d = canvas(460, 150, (255, 255, 255))
    for k, name in enumerate(names):
        x = 20 + 220 * k
        d.rounded_rectangle((x, 95 - 70, x + 190, 120), 8, fill=(60, 160, 225))
        d.rounded_rectangle((x, 20, x + 190, 58), 8, fill=(75, 170, 230))
        d.ellipse((x + 8, 28, x + 30, 50), fill=(240, 240, 240))
        d.text((x + 40, 30), name, fill=(255, 255, 255), font=font(16))
        d.text((x + 10, 68), "name : str", fill=(255, 255, 255), font=font(14))
        d.text((x + 10, 90), "size : int", fill=(255, 255, 255), font=font(14))
    return np.asarray(img)


def test_borderless_rounded_boxes_are_classes():
    doc = parse(_filled_classes(["Timeout", "Client"]), kind="uml").document
    assert sorted(c.name for c in doc.classes) == ["Client", "Timeout"]
