"""Rows of dots and dashes among the glyphs: degenerate rows are no rows, not errors."""

import numpy as np

from cvparse.primitives.dashrows import extend_runs, run_gaps
from cvparse.primitives.items import Scale

SCALE = Scale(stroke=2.0, text_height=10.0)


def _dot(x, y, size=3.0):
    return (float(x), float(y), size, None)


def test_run_gaps_without_a_row_finds_no_gap():
    """``found`` emptied by the dashes given back to words: no row, so no gap in one (it
    raised IndexError on a 1-D points array)."""
    labels = np.zeros((40, 60), np.int32)
    stats = np.zeros((3, 5), np.int32)
    others = {2: (30.0, 20.0, 4.0, None)}
    assert run_gaps(set(), {1: _dot(10, 20)}, others, labels, stats, [2], 10.0) == set()
    assert run_gaps({7}, {1: _dot(10, 20)}, others, labels, stats, [2], 10.0) == set()


def test_run_gaps_still_finds_the_crossing_in_a_row():
    labels = np.zeros((40, 80), np.int32)
    pieces = {i: _dot(x, 20) for i, x in ((1, 10), (2, 18), (4, 34), (5, 42))}
    others = {3: (26.0, 20.0, 5.0, None)}  # where the third dot would be
    stats = np.zeros((6, 5), np.int32)
    stats[1:, :4] = [[9, 19, 3, 3], [17, 19, 3, 3], [24, 18, 5, 5], [33, 19, 3, 3],
                     [41, 19, 3, 3]]
    assert run_gaps({1, 2, 4, 5}, pieces, others, labels, stats, [3], 10.0) == {3}


def test_a_row_of_pieces_on_top_of_one_another_is_not_carried_on():
    """Three of four pieces at one place: the row's pitch is 0 (it divided by it)."""
    pieces = {1: _dot(10, 10), 2: _dot(10, 10), 3: _dot(10, 10), 4: _dot(20, 10),
              5: _dot(30, 10)}
    assert extend_runs({1, 2, 3, 4}, pieces, SCALE) == set()


def test_an_even_row_is_carried_on_past_a_gap():
    pieces = {i: _dot(10 + 8 * k, 10) for k, i in enumerate((1, 2, 3))}
    pieces[4] = _dot(10 + 8 * 4, 10)  # one pitch skipped
    pieces[5] = _dot(10 + 8 * 4 + 5, 25)  # off the axis
    assert extend_runs({1, 2, 3}, pieces, SCALE) == {4}
