"""``--kind auto``: the family read off tiny synthetic drawings of each notation."""

from __future__ import annotations

import math

import pytest

from cvparse.pipeline import parse
from tests.primitives.synth import canvas, font, to_array

F = font(18)


def _label(d, cx, cy, text):
    d.text((cx, cy), text, fill="black", font=F, anchor="mm")


def chen():
    img, d = canvas(640, 360)
    d.rectangle((40, 150, 170, 200), outline="black", width=2)
    _label(d, 105, 175, "Person")
    d.polygon([(260, 175), (330, 140), (400, 175), (330, 210)], outline="black", width=2)
    _label(d, 330, 175, "owns")
    d.rectangle((480, 150, 610, 200), outline="black", width=2)
    _label(d, 545, 175, "Car")
    d.line((170, 175, 260, 175), fill="black", width=2)
    d.line((400, 175, 480, 175), fill="black", width=2)
    for cx, cy, name in ((70, 50, "name"), (200, 60, "age"), (90, 300, "email"),
                         (545, 60, "plate")):
        d.ellipse((cx - 55, cy - 22, cx + 55, cy + 22), outline="black", width=2)
        _label(d, cx, cy, name)
        d.line((cx, cy + 22 if cy < 175 else cy - 22, 105 if cx < 300 else 545,
                150 if cy < 175 else 200), fill="black", width=2)
    return img


def isa():
    img, d = canvas(560, 360)
    d.rectangle((210, 20, 350, 70), outline="black", width=2)
    _label(d, 280, 45, "Vehicle")
    d.polygon([(280, 120), (230, 190), (330, 190)], outline="black", width=2)
    _label(d, 280, 170, "ISA")
    d.line((280, 70, 280, 120), fill="black", width=2)
    for x, name in ((60, "Truck"), (380, "Bus")):
        d.rectangle((x, 280, x + 130, 330), outline="black", width=2)
        _label(d, x + 65, 305, name)
        d.line((280, 190, x + 65, 280), fill="black", width=2)
    return img


def class_boxes(rows: int):
    """Two boxes joined by a line: ``rows`` compartments each (3 = UML, 5 = table)."""
    img, d = canvas(600, 60 + 34 * rows)
    for x, name in ((40, "Order"), (380, "Item")):
        d.rectangle((x, 20, x + 180, 20 + 34 * rows), outline="black", width=2)
        for r in range(rows):
            if r:
                d.line((x, 20 + 34 * r, x + 180, 20 + 34 * r), fill="black", width=2)
            _label(d, x + 90, 37 + 34 * r, name if r == 0 else f"field{r}")
    d.line((220, 37, 380, 37), fill="black", width=2)
    return img


def network(straight: bool):
    """Labelled boxes around a hub joined by straight diagonal lines, or stacked boxes
    joined by vertical lines (a flowchart drawn with straight arrows)."""
    img, d = canvas(640, 600)
    if straight:
        centres = [(320, 240)] + [(320 + 220 * math.cos(a), 240 + 170 * math.sin(a))
                                  for a in (0.5, 1.6, 2.7, 3.8, 5.0)]
        edges = [(0, k) for k in range(1, 6)]
    else:
        centres = [(320, 40 + 125 * k) for k in range(5)]
        edges = [(k, k + 1) for k in range(4)]
    for k, (cx, cy) in enumerate(centres):
        d.rectangle((cx - 45, cy - 20, cx + 45, cy + 20), outline="black", width=2)
        _label(d, cx, cy, f"N{k}")
    for a, b in edges:
        (x1, y1), (x2, y2) = centres[a], centres[b]
        dx, dy = x2 - x1, y2 - y1
        t1 = min(45 / abs(dx) if dx else 9, 20 / abs(dy) if dy else 9)
        t2 = 1 - t1
        ex, ey = x1 + t2 * dx, y1 + t2 * dy
        d.line((x1 + t1 * dx, y1 + t1 * dy, ex, ey), fill="black", width=2)
        if not straight:  # arrowhead pointing down the chain
            d.polygon([(ex, ey), (ex - 7, ey - 14), (ex + 7, ey - 14)], fill="black")
    return img


def icons():
    img, d = canvas(640, 300)
    spots = [(100, 80), (320, 200), (540, 80)]
    for k, (cx, cy) in enumerate(spots):
        d.rounded_rectangle((cx - 24, cy - 18, cx + 24, cy + 18), 6, fill=(40, 90, 160))
        _label(d, cx, cy + 38, f"Host {k}")
    d.line((124, 80, 296, 200), fill="black", width=2)
    d.line((344, 200, 516, 80), fill="black", width=2)
    return img


def routed(curved: bool):
    """A fan of boxes joined by splines (a flowchart renderer) or by lines bending at right
    angles (an orthogonal router), arrowheads at the right-hand ends."""
    img, d = canvas(700, 560)
    src = (80, 280)
    d.rectangle((src[0] - 50, src[1] - 20, src[0] + 50, src[1] + 20), outline="black", width=2)
    _label(d, *src, "N0")
    for k, ty in enumerate((60, 170, 390, 500)):
        tx = 560
        d.rectangle((tx - 50, ty - 20, tx + 50, ty + 20), outline="black", width=2)
        _label(d, tx, ty, f"N{k + 1}")
        x0, y0, x1 = src[0] + 50, src[1] + (k - 1.5) * 8, tx - 50
        if curved:  # cubic Bezier leaving and arriving horizontally
            ts = [i / 60 for i in range(61)]
            mx = (x0 + x1) / 2
            pts = [((1 - t) ** 3 * x0 + 3 * (1 - t) ** 2 * t * mx + 3 * (1 - t) * t * t * mx
                    + t ** 3 * x1, (1 - t) ** 3 * y0 + 3 * (1 - t) ** 2 * t * y0
                    + 3 * (1 - t) * t * t * ty + t ** 3 * ty) for t in ts]
        else:
            mx = 240 + 40 * k
            pts = [(x0, y0), (mx, y0), (mx, ty), (x1, ty)]
        d.line(pts, fill="black", width=2, joint="curve")
        d.polygon([(x1, ty), (x1 - 14, ty - 7), (x1 - 14, ty + 7)], fill="black")
    return img


def badged_classes():
    """Two class boxes drawn without member compartments, each name led by a round
    class-kind badge, joined by a dashed arrow."""
    img, d = canvas(420, 300)
    for y, name in ((30, "Service"), (200, "Store")):
        d.rectangle((110, y, 310, y + 50), outline="black", width=2)
        d.ellipse((122, y + 10, 152, y + 40), outline="black", fill=(170, 210, 170), width=2)
        _label(d, 137, y + 25, "C")
        _label(d, 225, y + 25, name)
    for y in range(82, 186, 14):
        d.line((210, y, 210, y + 7), fill="black", width=2)
    d.line((200, 186, 210, 198), fill="black", width=2)
    d.line((220, 186, 210, 198), fill="black", width=2)
    return img


@pytest.mark.parametrize("draw, expected", [
    (chen, "er"), (isa, "er"), (lambda: class_boxes(3), "uml"),
    (lambda: class_boxes(5), "er"), (lambda: network(True), "topology"),
    (lambda: network(False), "flowchart"), (icons, "topology"),
    (lambda: routed(True), "flowchart"), (lambda: routed(False), "topology"),
    (badged_classes, "uml"),
], ids=["chen", "isa", "uml", "tables", "straight-graph", "stacked-flow", "icons",
        "splines", "right-angles", "badged-classes"])
def test_guessed_family(draw, expected):
    r = parse(to_array(draw()), kind="auto")
    assert r.guessed_kind == expected
    assert r.kind == expected and r.document.kind == expected


def test_forced_kind_keeps_the_guess_for_reference():
    r = parse(to_array(isa()), kind="flowchart")
    assert r.kind == "flowchart" and r.document.kind == "flowchart"
    assert r.guessed_kind == "er"
