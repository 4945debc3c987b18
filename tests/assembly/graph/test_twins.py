"""Two lines side by side, one each way, traced as one two-headed connector."""

import numpy as np

from cvparse.assembly.graph.twins import is_twin, twin_lines
from cvparse.connectors.lines import Connector, End


def _page(xs, grey=None):
    """A white page with vertical 2 px lines at columns ``xs`` from y 20 to 120 (the gap
    between two of them, if any, drawn ``grey``)."""
    rgb = np.full((140, 60, 3), 255, np.uint8)
    for x in xs:
        rgb[20:120, x:x + 2] = 0
    if grey is not None:
        rgb[20:120, min(xs) + 2:max(xs)] = grey
    return rgb


def _two_headed(x: float, width: float) -> Connector:
    pts = np.array([[x, y] for y in range(20, 121, 4)], float)
    return Connector(points=pts, ends=(End((x, 20), (0.0, -1.0), marker="arrow"),
                                       End((x, 120), (0.0, 1.0), marker="arrow")),
                     width=width)


def test_two_lines_with_a_lighter_seam_are_twins():
    # two 2 px lines a pixel apart, the pixel between them a light grey: one stroke of
    # ink 5 px wide, with a seam down its middle
    rgb = _page([28, 31], grey=(190, 190, 190))
    conn = _two_headed(30.5, 5.0)
    assert is_twin(conn, rgb, (255, 255, 255), stroke=2.0)
    assert twin_lines([conn], rgb, (255, 255, 255), 2.0) == {0}


def test_one_bold_line_is_no_twin():
    rgb = np.full((140, 60, 3), 255, np.uint8)
    rgb[20:120, 28:33] = 0  # one line 5 px wide, one tone across
    conn = _two_headed(30.5, 5.0)
    assert not is_twin(conn, rgb, (255, 255, 255), stroke=2.0)
    assert twin_lines([conn], rgb, (255, 255, 255), 2.0) == set()


def test_a_line_with_one_head_is_never_split():
    rgb = _page([28, 31], grey=(190, 190, 190))
    conn = _two_headed(30.5, 5.0)
    conn.ends[0].marker = "none"
    assert twin_lines([conn], rgb, (255, 255, 255), 2.0) == set()
