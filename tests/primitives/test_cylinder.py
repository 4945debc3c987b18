"""Database cylinders: the body's template, and the lid ellipse folded into the node."""

import numpy as np

from cvparse.primitives.inventory import build_inventory
from cvparse.primitives.shapes import _cylinder_body, classify
from tests.primitives.synth import canvas, font, to_array


def test_cylinder_body_template_wins_over_rect_and_stadium():
    h, w, depth = 60, 90, 12
    u = (np.arange(w) + 0.5) / w * 2 - 1
    top = depth * np.sqrt(1 - u * u)
    y = np.arange(h)[:, None] + 0.5
    body = (y >= top) & (y <= top + h - depth)
    kind, fit = classify(body)
    assert kind == "cylinder" and fit > 0.95
    assert classify(np.ones((40, 90), bool))[0] == "rect"  # no arc: still a rect
    assert not _cylinder_body(90, 40, 90 * 40 - 40).any()  # arcs too shallow to be one


def test_lid_is_part_of_the_cylinder_node():
    img, d = canvas(320, 220)
    x1, x2, top, bottom, ry = 90, 230, 40, 170, 21
    fill = (225, 225, 250)
    d.ellipse((x1, bottom - 2 * ry, x2, bottom), fill=fill)
    d.rectangle((x1, top + ry, x2, bottom - ry), fill=fill)
    d.ellipse((x1, top, x2, top + 2 * ry), outline="black", fill=fill, width=2)
    d.line((x1, top + ry, x1, bottom - ry), fill="black", width=2)
    d.line((x2, top + ry, x2, bottom - ry), fill="black", width=2)
    d.arc((x1, bottom - 2 * ry, x2, bottom), 0, 180, fill="black", width=2)
    d.arc((x1, top, x2, top + 2 * ry), 0, 180, fill="black", width=2)
    d.text(((x1 + x2) / 2, (top + bottom) / 2 + 8), "Orders", fill="black", font=font(20),
           anchor="mm")
    inv = build_inventory(to_array(img))
    assert [s.kind for s in inv.shapes] == ["cylinder"]
    s = inv.shapes[0]
    assert s.label == "Orders"
    assert s.bbox[1] <= top + 3 and s.bbox[3] >= bottom - 3
