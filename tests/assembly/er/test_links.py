"""Shape links of lines that merge into another line just before a shape."""

import numpy as np
import pytest

from cvparse.assembly.er.links import merged_ends, shape_links
from cvparse.connectors.lines import Connector, End

from .test_assemble import _inv, _shape


def _page():
    shapes = [_shape("diamond", (40, 40, 120, 80), "a"),      # 0
              _shape("diamond", (70, 100, 150, 140), "b"),    # 1
              _shape("rect", (400, 140, 500, 180), "E")]      # 2
    # 0 -> 2 traced whole; 1's line runs into it 12 px before the box and stops there.
    whole = Connector(points=np.array([[120.0, 60.0], [400.0, 160.0]]),
                      ends=(End((120.0, 60.0), (-1.0, 0.0), node=0),
                            End((400.0, 160.0), (1.0, 0.0), node=2)))
    d = np.array([388.0, 157.0]) - np.array([150.0, 120.0])
    d /= np.linalg.norm(d)
    short = Connector(points=np.array([[150.0, 120.0], [388.0, 157.0]]),
                      ends=(End((150.0, 120.0), tuple(-d), node=1),
                            End((388.0, 157.0), tuple(d), node=None, on_connector=0)))
    return _inv(shapes), [whole, short]


def test_line_merging_before_a_box_is_linked_to_the_box():
    inv, conns = _page()
    assert merged_ends(inv, conns) == {(1, 1): 2}
    pairs = {frozenset((ln.a, ln.b)) for ln in shape_links(inv, conns)}
    assert pairs == {frozenset((0, 2)), frozenset((1, 2))}


@pytest.mark.parametrize("tip, direction", [
    ((260.0, 110.0), (0.7, -0.7)),    # lands on the other line far from its end
    ((388.0, 175.0), (0.2, -0.98)),   # meets the other line at a wide angle
], ids=["far-from-the-ends", "wide-angle"])
def test_line_that_does_not_merge_before_the_box_stays_loose(tip, direction):
    inv, conns = _page()
    c = conns[1]
    conns[1] = Connector(points=np.array([[150.0, 120.0], tip]),
                         ends=(c.ends[0], End(tip, direction, on_connector=0)))
    assert merged_ends(inv, conns) == {}
