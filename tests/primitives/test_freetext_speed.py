"""``line_strokes`` tests every Hough segment at once: it must cut exactly what testing
segment by segment (the plain loop kept here) cuts."""

import cv2
import numpy as np

from cvparse.primitives import arrowheads, freetext
from cvparse.primitives.items import Scale

from .synth import canvas, font, to_array


def _plain_line_strokes(mask, scale):
    length = max(8, int(round(1.0 * scale.text_height)))
    m8 = mask.astype(np.uint8)
    segs = cv2.HoughLinesP(m8, 1, np.pi / 180, threshold=length, minLineLength=length,
                           maxLineGap=max(1, int(round(scale.stroke))))
    out = np.zeros(mask.shape, np.uint8)
    width = int(round(scale.stroke)) + 2
    h, w = mask.shape
    across_h = cv2.dilate(m8, np.ones((3, 1), np.uint8)).astype(bool)
    across_v = cv2.dilate(m8, np.ones((1, 3), np.uint8)).astype(bool)
    near_wide = cv2.dilate(m8, np.ones((3, 3), np.uint8)).astype(bool)
    for x1, y1, x2, y2 in (segs.reshape(-1, 4) if segs is not None else []):
        dx, dy = abs(int(x2) - int(x1)), abs(int(y2) - int(y1))
        n = max(dx, dy) + 1
        xs = np.linspace(x1, x2, n).round().astype(int).clip(0, w - 1)
        ys = np.linspace(y1, y2, n).round().astype(int).clip(0, h - 1)
        if dy <= 0.2 * dx:
            near, need = across_h, 0.97
        elif dx <= 0.2 * dy:
            near, need = across_v, 0.97
        else:
            near, need = near_wide, 0.9
        if near[ys, xs].mean() < need:
            continue
        if freetext._thin_fraction(mask, xs, ys, (x2 - x1, y2 - y1), scale.stroke) < 0.75:
            continue
        cv2.line(out, (int(x1), int(y1)), (int(x2), int(y2)), 1, width)
        for tip, back in (((x1, y1), (x2 - x1, y2 - y1)), ((x2, y2), (x1 - x2, y1 - y2))):
            sides = arrowheads.head_sides(near_wide, tip, back, scale)
            if sides and not arrowheads.clear_of_line(tip, back, sides, scale.stroke + 1.5):
                point = arrowheads.run_on(near_wide, tip, back, 0.8 * scale.text_height)
                found = (arrowheads.head_sides(near_wide, point, back, scale)
                         if point != tip else [])
                if arrowheads.clear_of_line(point, back, found, scale.stroke + 1.5):
                    cv2.line(out, (int(tip[0]), int(tip[1])), point, 1, width)
                    tip, sides = point, found
            for end in sides:
                cv2.line(out, (int(tip[0]), int(tip[1])), end, 1, width)
    return out.astype(bool) & mask


def _page(seed):
    rng = np.random.default_rng(seed)
    img, draw = canvas(480, 320)
    for _ in range(14):
        x1, y1, x2, y2 = (int(v) for v in rng.integers(0, [480, 320, 480, 320]))
        if rng.random() < 0.5:  # axis-parallel, like most connectors
            x2 = x1 if rng.random() < 0.5 else x2
            y2 = y1 if x2 != x1 else y2
        draw.line((x1, y1, x2, y2), fill=(0, 0, 0), width=int(rng.integers(1, 4)))
        if rng.random() < 0.5:  # an open arrowhead at the end
            a = np.arctan2(y1 - y2, x1 - x2)
            for s in (-0.5, 0.5):
                draw.line((x2, y2, x2 + 14 * np.cos(a + s), y2 + 14 * np.sin(a + s)),
                          fill=(0, 0, 0), width=2)
    for _ in range(6):
        xy = (int(rng.integers(0, 420)), int(rng.integers(0, 300)))
        draw.text(xy, "Mmn1 ab", fill=(0, 0, 0), font=font(int(rng.integers(10, 24))))
    return to_array(img)[..., 0] < 128


def test_line_strokes_equal_segment_by_segment():
    cut = 0
    for seed in range(8):
        mask = _page(seed)
        for scale in (Scale(stroke=2.0, text_height=16.0), Scale(stroke=1.0, text_height=9.0),
                      Scale(stroke=3.0, text_height=30.0)):
            got = freetext.line_strokes(mask, scale)
            assert np.array_equal(got, _plain_line_strokes(mask, scale))
            cut += int(got.sum())
    assert cut > 0
    empty = np.zeros((40, 40), bool)
    assert not freetext.line_strokes(empty, Scale(stroke=2.0, text_height=16.0)).any()
