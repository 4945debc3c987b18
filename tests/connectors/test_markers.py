"""End markers classified from width profiles of symbols drawn in the test."""

import math

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from cvparse.connectors.lines import Connector, End
from cvparse.connectors.markers import (SYMBOL_UNSURE, classify_ends, classify_symbol,
                                        pick_views, read_end_symbol, symbol_reading,
                                        width_profile)

W, H = 200, 120
TIP = (160, 60)  # where the line meets the (imaginary) box on its right
MARKERS = ["none", "arrow", "open_arrow", "triangle", "diamond", "filled_diamond"]


def _draw(marker: str) -> np.ndarray:
    img = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(img)
    x, y = TIP
    L, half = 22, 9
    base = x - L
    if marker in ("triangle", "arrow", "open_arrow"):
        d.line((20, y, base if marker != "open_arrow" else x, y), fill=255, width=2)
        pts = [(x, y), (base, y - half), (base, y + half)]
        if marker == "triangle":
            d.polygon(pts, outline=255, width=2)
        elif marker == "arrow":
            d.polygon(pts, fill=255)
        else:
            d.line((base, y - half, x, y, base, y + half), fill=255, width=2)
    elif marker in ("diamond", "filled_diamond"):
        d.line((20, y, base, y), fill=255, width=2)
        pts = [(x, y), (x - L / 2, y - half), (base, y), (x - L / 2, y + half)]
        if marker == "diamond":
            d.polygon(pts, outline=255, width=2)
        else:
            d.polygon(pts, fill=255)
    else:
        d.line((20, y, x, y), fill=255, width=2)
    return np.asarray(img) > 0


def draw_end(marker: str, unit: float, angle_deg: float, border: bool = True
             ) -> tuple[np.ndarray, tuple[float, float], tuple[float, float]]:
    """A line ending in ``marker`` drawn with OpenCV, ``unit`` = marker length in pixels,
    heading ``angle_deg``; with the border line of a box at the tip.  Returns the mask, the
    tip and the unit vector pointing out of the line at the tip."""
    size = int(6 * unit)
    img = np.zeros((2 * size, 2 * size), np.uint8)
    a = math.radians(angle_deg)
    d = np.array([math.cos(a), math.sin(a)])
    n = np.array([-d[1], d[0]])
    stroke = max(1, int(round(unit / 10)))
    tip = np.array([size, size], float)
    base, half = tip - d * unit, 0.42 * unit
    far = tip - d * 4 * unit

    def p(v):
        return tuple(int(round(c)) for c in v)

    if marker in ("none", "open_arrow"):
        cv2.line(img, p(far), p(tip), 255, stroke)
    else:
        cv2.line(img, p(far), p(base), 255, stroke)
    if marker == "open_arrow":
        cv2.line(img, p(tip), p(base + n * half), 255, stroke)
        cv2.line(img, p(tip), p(base - n * half), 255, stroke)
    elif marker in ("arrow", "triangle"):
        tri = np.array([p(tip), p(base + n * half), p(base - n * half)], np.int32)
        if marker == "arrow":
            cv2.fillPoly(img, [tri], 255)
        else:
            cv2.polylines(img, [tri], True, 255, stroke)
    elif marker in ("diamond", "filled_diamond"):
        mid = tip - d * unit / 2
        dia = np.array([p(tip), p(mid + n * half), p(base), p(mid - n * half)], np.int32)
        if marker == "filled_diamond":
            cv2.fillPoly(img, [dia], 255)
        else:
            cv2.polylines(img, [dia], True, 255, stroke)
    if border:
        edge = tip + d * stroke
        cv2.line(img, p(edge + n * 2 * unit), p(edge - n * 2 * unit), 255, stroke)
    return img > 0, (float(tip[0]), float(tip[1])), (float(d[0]), float(d[1]))


@pytest.mark.parametrize("marker", MARKERS)
def test_marker_shapes_are_told_apart(marker):
    mask = _draw(marker)
    extent, count = width_profile(mask, TIP, (1.0, 0.0), 60, 20)
    assert classify_symbol(extent, count, stroke=2.0) == marker


def test_profile_measures_extent_and_count():
    mask = _draw("arrow")
    extent, count = width_profile(mask, TIP, (1.0, 0.0), 40, 20)
    assert extent[-1] <= 3  # the plain line far from the tip
    assert extent.max() >= 16  # the arrowhead base
    assert np.all(count <= extent)


@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("unit", [14, 24, 36])
@pytest.mark.parametrize("angle", [0, 90, 180, 270])
def test_box_end_symbols_at_scales_and_headings(marker, unit, angle):
    """Geometry alone names every marker at a box border, at three sizes and four headings."""
    mask, tip, d = draw_end(marker, unit, angle)
    got = read_end_symbol(mask, tip, d, 2 * unit, 1.1 * unit, stroke=max(1, unit / 10))
    assert got == marker


@pytest.mark.parametrize("marker", ["arrow", "triangle", "filled_diamond"])
@pytest.mark.parametrize("angle", [30, 135, 225])
def test_box_end_symbols_at_slanted_headings(marker, angle):
    mask, tip, d = draw_end(marker, 24, angle)
    assert read_end_symbol(mask, tip, d, 48, 26, stroke=2) == marker


def _filled_profile(peak_at: float) -> tuple[np.ndarray, np.ndarray]:
    """Width profile of a filled symbol 20 samples long whose widest point lies at
    ``peak_at`` (0 = tip side, 1 = line side), followed by a plain 2-pixel line."""
    t = np.linspace(0, 1, 20)
    body = np.where(t <= peak_at, 2 + 14 * t / max(peak_at, 1e-6),
                    2 + 14 * (1 - t) / max(1 - peak_at, 1e-6))
    extent = np.concatenate([body, np.full(30, 2.0)]).round()
    return extent, extent.copy()


def test_reading_margin_is_small_only_near_a_threshold():
    label, margin = symbol_reading(*_filled_profile(0.5), 2.0)
    assert label == "filled_diamond" and margin >= SYMBOL_UNSURE
    label, margin = symbol_reading(*_filled_profile(1.0), 2.0)
    assert label == "arrow" and margin >= SYMBOL_UNSURE
    # widest point right at the diamond / arrowhead boundary: unsure either way
    _, margin = symbol_reading(*_filled_profile(0.76), 2.0)
    assert margin < SYMBOL_UNSURE


def _connector(mask_shape, a, b) -> Connector:
    pts = np.linspace(a, b, 50)
    d = (np.asarray(b, float) - np.asarray(a, float))
    d /= np.linalg.norm(d)
    return Connector(points=pts,
                     ends=(End(tuple(pts[0]), tuple(-d)), End(tuple(pts[-1]), tuple(d))),
                     width=2.0)


@pytest.mark.parametrize("unit", [12, 20])
@pytest.mark.parametrize("angle", [0, 60, 200])
def test_classify_ends_finds_the_arrowhead_end(unit, angle):
    """Width test on a traced line with a filled head at one end only."""
    mask, tip, d = draw_end("arrow", unit, angle, border=False)
    far = (tip[0] - 4 * unit * d[0], tip[1] - 4 * unit * d[1])
    near_tip = (tip[0] - 0.6 * unit * d[0], tip[1] - 0.6 * unit * d[1])
    conn = _connector(mask.shape, far, near_tip)
    classify_ends([conn], mask, stroke=max(1, unit / 10))
    assert [e.marker for e in conn.ends] == ["none", "arrow"]


def test_classify_ends_keeps_plain_lines_plain():
    mask, tip, d = draw_end("none", 16, 45, border=False)
    far = (tip[0] - 4 * 16 * d[0], tip[1] - 4 * 16 * d[1])
    conn = _connector(mask.shape, far, tip)
    classify_ends([conn], mask, stroke=2, text_height=16)
    assert [e.marker for e in conn.ends] == ["none", "none"]


def test_decide_keeps_a_wide_end_unless_the_classifier_is_very_sure():
    """A head that passed the width test survives a classifier only fairly sure of "none"
    (its crop may miss a head at a bend); a very sure "none" still wins."""
    from cvparse.connectors.markers import NET_SURE, NET_VETO, decide
    fairly = np.array([0.5 * (NET_SURE + NET_VETO), 1 - 0.5 * (NET_SURE + NET_VETO), 0, 0, 0, 0])
    very = np.array([NET_VETO + 0.5 * (1 - NET_VETO), 0.5 * (1 - NET_VETO), 0, 0, 0, 0])
    assert decide("arrow", True, fairly, wide=True) == "arrow"
    assert decide("arrow", True, fairly, wide=False) == "none"
    assert decide("arrow", True, very, wide=True) == "none"


@pytest.mark.parametrize("th", [12, 18])
def test_trace_run_on_past_a_head_along_a_border_is_cut_back(th):
    """A line comes down into a filled head that touches a box's top border; the trace
    went on along the border.  The end is cut back to the head's tip and reads as a head."""
    from cvparse.connectors.markers import trim_past_heads
    s = th / 12
    stroke = max(1, int(round(1.5 * s)))
    img = np.zeros((int(200 * s), int(200 * s)), np.uint8)
    x, tip_y, top = int(80 * s), int(120 * s), int(122 * s)
    cv2.rectangle(img, (int(40 * s), top), (int(180 * s), int(180 * s)), 255, stroke)
    cv2.line(img, (x, int(20 * s)), (x, tip_y - int(11 * s)), 255, stroke)
    half = int(round(7 * s))
    cv2.fillPoly(img, [np.array([[x - half, tip_y - int(12 * s)], [x + half, tip_y - int(12 * s)],
                                 [x, tip_y]], np.int32)], 255)
    mask = img > 0
    down = [[x, y] for y in range(int(20 * s), tip_y + 1)]
    along = [[x + k, tip_y] for k in range(1, int(14 * s))]
    pts = np.array(down + along, float)
    conn = Connector(points=pts, ends=(End(tuple(pts[0]), (0.0, -1.0)),
                                       End(tuple(pts[-1]), (1.0, 0.0))), width=float(stroke))
    trim_past_heads([conn], mask, float(stroke), float(th))
    ex, ey = conn.ends[1].point
    # at the head's tip, or across the border it runs into
    assert abs(ex - x) <= 2 and tip_y - 3 <= ey <= top + stroke + 1
    assert conn.ends[1].direction == pytest.approx((0.0, 1.0), abs=0.05)
    assert conn.points[-1][0] == pytest.approx(ex) and len(conn.points) < len(pts)
    classify_ends([conn], mask, stroke=float(stroke))
    assert [e.marker for e in conn.ends] == ["none", "arrow"]


def test_a_bend_without_a_head_is_not_cut():
    """An orthogonal route turning a corner near its end, with no head there, is kept."""
    from cvparse.connectors.markers import trim_past_heads
    img = np.zeros((160, 160), np.uint8)
    cv2.line(img, (60, 10), (60, 100), 255, 2)
    cv2.line(img, (60, 100), (75, 100), 255, 2)
    pts = np.array([[60, y] for y in range(10, 101)] + [[x, 100] for x in range(61, 76)], float)
    conn = Connector(points=pts, ends=(End((60.0, 10.0), (0.0, -1.0)),
                                       End((75.0, 100.0), (1.0, 0.0))), width=2.0)
    trim_past_heads([conn], img > 0, 2.0, 14.0)
    assert conn.ends[1].point == (75.0, 100.0) and len(conn.points) == len(pts)


def test_second_view_counts_only_where_it_finds_the_head_the_first_missed():
    none, arrow = np.eye(6)[0], np.eye(6)[1]
    # ends 0..2 read once each, then second views of ends 0 and 1
    probs = np.stack([none, arrow, none, arrow, none])
    out = pick_views(probs, [0, 1], 3)
    assert (out[0] == arrow).all()   # first view saw nothing, second a head
    assert (out[1] == arrow).all()   # first view's head is kept, not the second's none
    assert (out[2] == none).all()
    assert len(out) == 3


def _thick_line(head_half: int) -> tuple[np.ndarray, Connector]:
    """A 5-pixel line from x = 20 to 150 at y = 60, with a filled head ``head_half`` pixels
    wide each side ending at x = 160 (none when 0), and its traced centre line."""
    img = np.zeros((H, W), np.uint8)
    cv2.line(img, (20, 60), (150, 60), 255, 5)
    if head_half:
        cv2.fillPoly(img, [np.array([[148, 60 - head_half], [148, 60 + head_half], [160, 60]],
                                    np.int32)], 255)
    pts = np.linspace((20.0, 60.0), (158.0 if head_half else 150.0, 60.0), 60)
    conn = Connector(points=pts, ends=(End(tuple(pts[0]), (-1.0, 0.0)),
                                       End(tuple(pts[-1]), (1.0, 0.0))), width=5.0)
    return img > 0, conn


def test_a_small_head_on_a_thick_line_is_told_by_its_contrast_with_the_other_end():
    """A head of the same size as on thin lines, on a line thicker than the page's stroke
    (4: node outlines), is barely wider than its line in strokes; it is clearly wider
    than the other end.  A thick line without a head stays plain at both ends."""
    mask, conn = _thick_line(6)
    classify_ends([conn], mask, stroke=4.0)
    assert [e.marker for e in conn.ends] == ["none", "arrow"]
    mask, conn = _thick_line(0)
    classify_ends([conn], mask, stroke=4.0)
    assert [e.marker for e in conn.ends] == ["none", "none"]


def _two_heads() -> tuple[np.ndarray, Connector]:
    """A 5-pixel line from x = 30 to 150 at y = 60 with the same filled head at both ends
    (tips at x = 20 and 160), and its traced centre line."""
    img = np.zeros((H, W), np.uint8)
    cv2.line(img, (30, 60), (150, 60), 255, 5)
    for base, tip in ((148, 160), (32, 20)):
        cv2.fillPoly(img, [np.array([[base, 54], [base, 66], [tip, 60]], np.int32)], 255)
    pts = np.linspace((22.0, 60.0), (158.0, 60.0), 60)
    conn = Connector(points=pts, ends=(End(tuple(pts[0]), (-1.0, 0.0)),
                                       End(tuple(pts[-1]), (1.0, 0.0))), width=5.0)
    return img > 0, conn


@pytest.mark.parametrize("p_arrow, tail", [(0.7, "none"), (0.95, "arrow")])
def test_the_narrow_end_of_a_clear_head_is_a_head_only_when_the_classifier_is_sure(
        monkeypatch, p_arrow, tail):
    """A bold line (wider than the page's stroke) reads wide at its plain tail too, where
    the classifier decides; opposite a clearly wider head, a classifier only fairly sure of
    a head there does not make the line two-headed.  Equal heads at both ends stay heads."""
    import cvparse.connectors.markers as markers
    from cvparse.connectors.markers import HEAD_CONTRAST, PLAIN_MAX, end_widths, is_tail

    def fake(mask, views):
        return np.tile([1 - p_arrow, p_arrow, 0, 0, 0, 0], (len(views), 1))

    monkeypatch.setattr(markers, "classify_views", fake)
    mask, conn = _thick_line(6)
    (w0, w1), = end_widths([conn], mask, 2.0)
    assert w0 >= PLAIN_MAX and w1 >= HEAD_CONTRAST * w0 and is_tail(w0, w1)
    classify_ends([conn], mask, stroke=2.0, text_height=12.0)
    assert [e.marker for e in conn.ends] == [tail, "arrow"]
    mask, conn = _two_heads()
    classify_ends([conn], mask, stroke=2.0, text_height=12.0)
    assert [e.marker for e in conn.ends] == ["arrow", "arrow"]
