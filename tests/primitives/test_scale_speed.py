"""``stroke_width`` (runs of the flattened mask, columns from an OpenCV transpose) gives
the widths of the plain row-by-row formula."""

import numpy as np

from cvparse.primitives.scale import stroke_width


def _run_lengths(mask):
    """Lengths of all horizontal runs of True in ``mask``, row by row."""
    m = mask.astype(np.int8)
    pad = np.zeros((m.shape[0], 1), np.int8)
    d = np.diff(np.hstack([pad, m, pad]), axis=1)
    return np.flatnonzero(d == -1) - np.flatnonzero(d == 1)


def _plain_stroke_width(ink):
    runs = np.concatenate([_run_lengths(ink), _run_lengths(ink.T)])
    runs = runs[runs <= 20]
    if runs.size == 0:
        return 1.0
    return float(max(1, np.bincount(runs).argmax()))


def test_stroke_width_equals_the_plain_formula():
    rng = np.random.default_rng(7)
    page = np.zeros((120, 200), bool)
    page[10:13, 5:190] = True  # a line 3 px thick
    page[20:110, 50:52] = True  # a line 2 px wide
    page[60:64, 100:180] = True
    for ink in (page, page[:, ::3], page[5:, 7:].T, rng.random((60, 90)) < 0.3,
                np.zeros((30, 30), bool), rng.integers(0, 2, (40, 50)).astype(np.uint8)):
        assert stroke_width(ink) == _plain_stroke_width(ink)
    assert stroke_width(page) == 3.0


def test_text_height_frames_equal_one_by_one():
    import cv2

    from cvparse.primitives.scale import text_height

    def plain(ink):
        n, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
        x, y, w, h = (stats[1:, i] for i in range(4))
        limit = max(12, ink.shape[0] // 8)
        ok = (h >= 5) & (h <= limit) & (w <= 3 * h) & (w >= 1)
        frames = np.zeros(len(h), bool)
        for i in np.flatnonzero(ok):
            frames[i] = ((x > x[i]) & (y > y[i]) & (x + w < x[i] + w[i])
                         & (y + h < y[i] + h[i])).any()
        letters = h[ok & ~frames]
        framed.append(int(frames.sum()))
        return 16.0 if letters.size < 3 else float(np.percentile(letters, 75) * 1.25)

    framed = []
    rng = np.random.default_rng(9)
    for trial in range(4):
        ink = np.zeros((400, 600), bool)
        for _ in range(300 * (trial + 1)):  # letters, some framed by a box around them
            x0, y0 = int(rng.integers(0, 580)), int(rng.integers(0, 380))
            hh, ww = int(rng.integers(5, 18)), int(rng.integers(2, 12))
            ink[y0:y0 + hh, x0:x0 + ww] = rng.random((len(ink[y0:y0 + hh]),
                                                      len(ink[0, x0:x0 + ww]))) < 0.6
            if rng.random() < 0.1 and x0 >= 3 and y0 >= 3 and y0 + hh + 3 < 400:
                ink[y0 - 3, x0 - 3:x0 + ww + 3] = ink[y0 + hh + 2, x0 - 3:x0 + ww + 3] = True
                ink[y0 - 3:y0 + hh + 3, x0 - 3] = ink[y0 - 3:y0 + hh + 3, x0 + ww + 2] = True
        assert text_height(ink) == plain(ink)
    assert sum(framed) > 0
