"""``longest_runs`` finds every row's longest run at once: the same as row by row."""

import numpy as np

from cvparse.primitives.underline import longest_runs


def _plain_longest_runs(ink):
    h, w = ink.shape
    m = ink.astype(np.int8)
    pad = np.zeros((h, 1), np.int8)
    d = np.diff(np.hstack([pad, m, pad]), axis=1)
    length, start = np.zeros(h, int), np.zeros(h, int)
    for y in range(h):
        s, e = np.flatnonzero(d[y] == 1), np.flatnonzero(d[y] == -1)
        if s.size:
            k = int((e - s).argmax())
            length[y], start[y] = e[k] - s[k], s[k]
    return length, start, start + length


def test_longest_runs_equal_row_by_row():
    rng = np.random.default_rng(4)
    masks = [rng.random((40, 70)) < p for p in (0.1, 0.5, 0.9)]
    tie = np.zeros((3, 20), bool)
    tie[0, 2:5] = tie[0, 9:12] = True  # two equally long runs: the leftmost wins
    tie[2, :] = True
    masks += [tie, np.zeros((5, 8), bool), np.ones((4, 6), bool), np.zeros((0, 5), bool)]
    for ink in masks:
        for got, want in zip(longest_runs(ink), _plain_longest_runs(ink)):
            assert np.array_equal(got, want)
    assert longest_runs(tie)[1][0] == 2


def test_a_line_just_long_enough_is_found_and_one_too_short_is_not():
    from cvparse.primitives.underline import find_underlines

    crop = np.full((30, 60), 255, np.uint8)
    crop[8:18, 10:14] = crop[8:18, 20:24] = crop[8:18, 30:34] = 0  # three letter stems
    crop[20:22, 10:34] = 0  # a 24 px line under them
    assert [(u.y1, u.y2, u.x1, u.x2) for u in find_underlines(crop, 2, 24)] == [(20, 22, 10, 34)]
    assert find_underlines(crop, 2, 24.5) == []
    assert find_underlines(np.zeros((0, 5), np.uint8), 2, 3) == []
