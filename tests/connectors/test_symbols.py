"""The learned end-marker classifier: crop normalisation and the ONNX runtime."""

import subprocess
import sys

import numpy as np
import pytest

from cvparse.connectors import symbols
from cvparse.connectors.symbols import (AHEAD, BEHIND, CLASSES, CROP, EndView, advance_to_tip,
                                        classify_crops, classify_views, end_crop)

from .test_markers import draw_end

TIP_COL = int(round(CROP * BEHIND / (BEHIND + AHEAD)))


@pytest.mark.parametrize("angle", [0, 37, 90, 250])
@pytest.mark.parametrize("unit", [10, 25])
def test_crop_turns_the_line_to_come_in_from_the_left(angle, unit):
    mask, tip, d = draw_end("none", unit, angle, border=False)
    crop = end_crop(mask, EndView(tip=tip, direction=d, unit=unit))
    assert crop.shape == (CROP, CROP) and crop.dtype == np.float32
    assert crop.max() == pytest.approx(1.0)
    centre = crop[CROP // 2 - 2:CROP // 2 + 2]
    assert centre[:, 2:TIP_COL - 2].max(axis=0).min() > 0.3  # the line, all the way to the tip
    assert crop[:, TIP_COL + 3:].max() < 0.05  # nothing beyond the tip
    assert crop[:4].max() < 0.05 and crop[-4:].max() < 0.05  # nothing far off the line


@pytest.mark.parametrize("marker", ["arrow", "triangle", "filled_diamond"])
def test_crop_is_scale_invariant(marker):
    """The same marker drawn twice as large, seen with twice the unit, gives the same crop."""
    small_mask, small_tip, d = draw_end(marker, 12, 30)
    big_mask, big_tip, _ = draw_end(marker, 24, 30)
    small = end_crop(small_mask, EndView(small_tip, d, 12)) > 0.4
    big = end_crop(big_mask, EndView(big_tip, d, 24)) > 0.4
    assert (small & big).sum() / (small | big).sum() > 0.5


def test_advance_to_tip_walks_through_the_head():
    mask, tip, d = draw_end("arrow", 20, 0, border=False)
    start = (tip[0] - 15, tip[1])
    x, y = advance_to_tip(mask, start, d, 30)
    assert abs(x - tip[0]) <= 1.5 and abs(y - tip[1]) <= 0.5
    # never further than asked
    x, _ = advance_to_tip(mask, start, d, 5)
    assert x == pytest.approx(start[0] + 5)


def test_missing_model_means_no_opinion(monkeypatch):
    monkeypatch.setattr(symbols, "model_path", lambda: None)
    mask, tip, d = draw_end("arrow", 16, 0)
    with pytest.warns(RuntimeWarning, match="end-marker model"):
        assert classify_views(mask, [EndView(tip, d, 16)]) is None
    assert classify_crops(np.zeros((1, CROP, CROP), np.float32)) is None


needs_model = pytest.mark.skipif(symbols.model_path() is None, reason="models/symbols.onnx absent")


@needs_model
def test_session_is_created_once_and_single_threaded():
    path = str(symbols.model_path())
    first = symbols._session(path)
    assert symbols._session(path) is first
    assert first.get_session_options().intra_op_num_threads == 1


@needs_model
@pytest.mark.parametrize("unit, angle", [(12, 0), (18, 120), (28, 270)])
def test_network_names_synthetic_ends(unit, angle):
    markers = ["none", "arrow", "triangle", "diamond", "filled_diamond"]
    views, crops = [], []
    for m in markers:
        mask, tip, d = draw_end(m, unit * 0.8, angle)
        crops.append(end_crop(mask, EndView(tip, d, unit)))
        views.append(m)
    probs = classify_crops(np.stack(crops))
    assert probs.shape == (len(markers), len(CLASSES))
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-5)
    assert [CLASSES[i] for i in probs.argmax(axis=1)] == markers


@needs_model
def test_runtime_does_not_import_training_libraries():
    code = ("import sys, numpy as np\n"
            "from cvparse.connectors import symbols\n"
            "p = symbols.classify_crops(np.zeros((2, symbols.CROP, symbols.CROP), np.float32))\n"
            "assert p.shape == (2, len(symbols.CLASSES))\n"
            "assert not any(m in sys.modules for m in ('torch', 'sklearn'))\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_advance_to_tip_finds_a_head_a_little_off_the_heading():
    # the last dash and its head lie two pixels beside the traced heading: a one-pixel
    # path misses them, a path a stroke wide reaches the head's tip
    mask = np.zeros((40, 80), bool)
    mask[19:22, 5:30] = True      # the traced line, ending at x = 29
    mask[21:24, 34:50] = True     # the last dash, two pixels lower, after a gap
    d = (1.0, 0.0)
    x, _ = advance_to_tip(mask, (29.0, 20.0), d, 40, gap=5)
    assert x < 31
    x, _ = advance_to_tip(mask, (29.0, 20.0), d, 40, gap=5, across=2)
    assert x == pytest.approx(49)
