"""Specialisation circles (``d`` / ``o``): an IS-A, not an attribute, with the superclass
on the double line."""

import cv2
import numpy as np

from cvparse.assembly.er import assemble_er
from cvparse.assembly.er.isa import doubled_share
from cvparse.assembly.er.links import Link
from cvparse.model import IsA

from .test_assemble import H, W, _conn, _inv, _shape


def _circle_page(double_to: int | None, keyed: int | None = None):
    """A ``d`` circle at (400, 300) joined to three entities; the line to entity
    ``double_to`` drawn as two parallel strokes."""
    shapes = [
        _shape("rect", (100, 80, 200, 120), "Alpha"),      # 0
        _shape("rect", (600, 80, 700, 120), "Beta"),       # 1
        _shape("rect", (350, 500, 450, 540), "Gamma"),     # 2
        _shape("circle", (385, 285, 415, 315), "d"),       # 3
    ]
    if keyed is not None:
        shapes.append(_shape("ellipse", (0, 0, 60, 30), "k", underlined=["k"]))
    ink = np.zeros((H, W), np.uint8)
    ends = {0: ((150, 120), (388, 292)), 1: ((650, 120), (412, 292)),
            2: ((400, 500), (400, 315))}
    conns = []
    for e, (p, q) in ends.items():
        if e == double_to:
            d = np.subtract(q, p) / np.linalg.norm(np.subtract(q, p))
            n = np.array([-d[1], d[0]]) * 3
            for s in (-1, 1):
                cv2.line(ink, tuple(int(v) for v in np.add(p, s * n)),
                         tuple(int(v) for v in np.add(q, s * n)), 1, 2)
        else:
            cv2.line(ink, p, q, 1, 2)
        conns.append(_conn(e, p, 3, q))
    if keyed is not None:
        conns.append(_conn(4, (30, 30), keyed, (120, 80)))
    inv = _inv(shapes)
    inv.ink = ink.astype(bool)
    return inv, conns


def test_double_line_measured_across_the_path():
    inv, conns = _circle_page(double_to=1)
    assert doubled_share(inv, Link(1, 3, conns[1].points)) > 0.9
    assert doubled_share(inv, Link(0, 3, conns[0].points)) == 0.0


def test_circle_is_an_isa_with_the_superclass_on_the_double_line():
    for sup, name in ((0, "Alpha"), (1, "Beta"), (2, "Gamma")):
        inv, conns = _circle_page(double_to=sup)
        er = assemble_er(inv, conns)
        [isa] = [r for r in er.relationships if isinstance(r, IsA)]
        assert isa.superclass == name and isa.name == "d"
        assert sorted(isa.subclasses) == sorted({"Alpha", "Beta", "Gamma"} - {name})
        assert all("d" not in e.attributes for e in er.entities.values())


def test_single_lines_fall_back_to_the_keyed_entity():
    inv, conns = _circle_page(double_to=None, keyed=2)
    er = assemble_er(inv, conns)
    [isa] = [r for r in er.relationships if isinstance(r, IsA)]
    assert isa.superclass == "Gamma"


def test_circle_on_one_entity_stays_an_attribute():
    inv, conns = _circle_page(double_to=None)
    er = assemble_er(inv, conns[:1])
    assert not [r for r in er.relationships if isinstance(r, IsA)]
    assert er.entities["Alpha"].attributes == ["d"]
