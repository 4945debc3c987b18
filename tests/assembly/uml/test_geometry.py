"""UML relation geometry on tiny synthetic drawings: where a line meets a box border, which
marker ink belongs to which end, dashed or solid, short lines between close boxes."""

import numpy as np
from PIL import Image, ImageDraw

from cvparse.assembly.uml.assemble import (
    _border_tip,
    _bridges,
    _crosses_box,
    _dashed,
    _end_window,
)
from cvparse.primitives.boxes import Box


def _mask(draw_fn, size=(300, 120)):
    img = Image.new("L", size, 0)
    draw_fn(ImageDraw.Draw(img))
    return np.asarray(img) > 0


def _two_boxes(d, gap_line=True, dashed=False):
    """Boxes at x 20..100 and 160..240 (y 20..80); a line between them at y 50 with a
    hollow triangle whose tip touches the right box."""
    d.rectangle((20, 20, 100, 80), outline=255, width=2)
    d.rectangle((160, 20, 240, 80), outline=255, width=2)
    d.polygon([(159, 50), (139, 40), (139, 60)], outline=255)
    if gap_line:
        if dashed:
            for x in range(102, 139, 8):
                d.line((x, 50, min(x + 3, 138), 50), fill=255)
        else:
            d.line((102, 50, 138, 50), fill=255)


def test_border_tip_is_first_pixel_outside_the_border():
    dark = _mask(_two_boxes)
    # the ray entered the right box one pixel inside its 2-px border, heading right
    tip = _border_tip(dark, (161.0, 50.0), np.array([1.0, 0.0]), 2, (160, 20, 240, 80))
    assert tip[0] == 159.0 and tip[1] == 50.0
    tip = _border_tip(dark, (99.0, 50.0), np.array([-1.0, 0.0]), 2, (20, 20, 100, 80))
    assert tip[0] == 101.0


def test_border_met_at_a_slant_is_left_behind():
    dark = _mask(_two_boxes)
    u = np.array([0.6, 0.8])  # heading down-right into the right box's top side
    tip = _border_tip(dark, (200.0, 21.0), u, 2, (160, 20, 240, 80))
    assert tip[1] < 20 - 1  # outside the border band
    assert abs((tip[0] - 200.0) * u[1] - (tip[1] - 21.0) * u[0]) < 1e-6  # on the line


def test_marker_of_the_opposite_end_is_not_read_at_the_bare_end():
    dark = _mask(_two_boxes)
    bare = _end_window(dark, (101.0, 50.0), np.array([-1.0, 0.0]), 55, stroke=1,
                       text_height=12)
    head = _end_window(dark, (159.0, 50.0), np.array([1.0, 0.0]), 55, stroke=1,
                       text_height=12)
    assert bare.marker_span == 0
    assert bare.length < 139 - 101  # stops before the triangle's base
    assert 18 <= head.marker_span <= 23  # the triangle is 20 px long


def test_dashed_and_solid_lines_between_markers():
    pts = np.array([[101.0, 50.0], [159.0, 50.0]])
    solid = _mask(lambda d: _two_boxes(d, dashed=False))
    dashed = _mask(lambda d: _two_boxes(d, dashed=True))
    skip = (1.0, 21.0)  # the triangle at the far end is not part of the line
    assert _dashed(solid, pts, skip, 1, 12) is False
    assert _dashed(dashed, pts, skip, 1, 12) is True
    assert _dashed(solid, pts, (1.0, 55.0), 1, 12) is None  # too little left to tell


def test_line_drawn_short_of_its_box_is_not_dashed():
    def draw(d):
        _two_boxes(d, gap_line=False)
        d.line((112, 50, 138, 50), fill=255)  # ends 11 px before the left box
    pts = np.array([[101.0, 50.0], [159.0, 50.0]])
    assert _dashed(_mask(draw), pts, (1.0, 21.0), 1, 12) is False


def test_single_dash_between_box_and_marker_is_dashed():
    def draw(d):
        _two_boxes(d, gap_line=False)
        d.line((112, 50, 119, 50), fill=255)  # one dash, blank on both sides
    pts = np.array([[101.0, 50.0], [159.0, 50.0]])
    assert _dashed(_mask(draw), pts, (1.0, 21.0), 1, 12) is True


def test_bridge_across_a_narrow_gap_with_a_short_dashed_line():
    dark = _mask(lambda d: _two_boxes(d, dashed=True))
    boxes = [Box((20, 20, 101, 81), []), Box((160, 20, 241, 81), [])]
    found = _bridges(boxes, dark, th=12)
    assert len(found) == 1
    (x1, y1), (x2, y2) = found[0].points
    assert y1 == y2 == 50 and x1 < 105 and x2 > 155


def test_no_bridge_between_boxes_with_nothing_between_them():
    dark = _mask(lambda d: (d.rectangle((20, 20, 100, 80), outline=255, width=2),
                            d.rectangle((160, 20, 240, 80), outline=255, width=2)))
    boxes = [Box((20, 20, 101, 81), []), Box((160, 20, 241, 81), [])]
    assert _bridges(boxes, dark, th=12) == []


def test_trace_through_a_middle_box_is_not_a_relation():
    boxes = [Box((20, 10, 100, 40), []), Box((20, 80, 100, 110), []), Box((20, 150, 100, 180), [])]
    through = np.array([[60.0, 41.0], [60.0, 149.0]])
    beside = np.array([[110.0, 25.0], [110.0, 165.0]])
    assert _crosses_box(through, boxes, (0, 2), stroke=2)
    assert not _crosses_box(beside, boxes, (0, 2), stroke=2)


def test_hollow_triangle_with_broken_sides_is_read_at_its_end():
    """At scale 1 a triangle's thin sides break into dots: blank cross-sections inside the
    marker are no step from line width to wide (the back of the opposite end's marker),
    also where the window ends before the line behind the triangle."""
    dark = np.zeros((60, 60), bool)
    for k in range(18):                      # apex at row 10 widening downwards
        if k % 3 == 2:
            continue                         # anti-aliased sides lost every third row
        half = 1 + k // 3
        dark[10 + k, 30 - half] = dark[10 + k, 30 + half] = True
    dark[10, 29:32] = True
    dark[28, 20:41] = True                   # the base
    dark[29:58, 30] = True                   # the line behind it
    w = _end_window(dark, (30.0, 10.0), np.array([0.0, -1.0]), 18, stroke=3, text_height=9)
    assert w.marker_span >= 12


def test_heading_is_read_behind_the_marker_a_trace_bends_into():
    from cvparse.assembly.uml.assemble import _approach

    # a 45-degree line whose trace, inside a hollow triangle 20 px long, runs on along
    # one of the triangle's sides to its corner: the heading is the line's own
    line = [(float(t), float(t)) for t in range(61)]
    side = [(60.0 + k, 60.0 + 2.0 * k) for k in range(1, 8)]
    pts = np.array(line + side)
    _, bent = _approach(pts, 30.0)
    far, u = _approach(pts, 30.0, 20.0)
    assert abs(float(np.dot(bent, [0.7071, 0.7071]))) < 0.99  # the old heading is off
    assert float(np.dot(u, [0.7071, 0.7071])) > 0.999
    assert abs(far[0] - far[1]) < 1e-6
    # a polyline too short for the skip keeps its whole length for the heading
    short = np.array([(float(t), 0.0) for t in range(25)])
    far, u = _approach(short, 30.0, 20.0)
    assert np.allclose(u, [1.0, 0.0]) and np.allclose(far, [0.0, 0.0])


def _slanted_triangle(axis_deg):
    """A box (y 150..220) and a line coming down to its top side at 45 degrees, ending in
    a hollow triangle whose tip touches the border at x 150 and whose axis lies
    ``axis_deg`` degrees from vertical (45: along the line)."""
    a = np.radians(axis_deg)
    u = np.array([np.sin(a), np.cos(a)])        # the marker's axis, pointing into the box
    n = np.array([-u[1], u[0]])
    tip = np.array([150.0, 148.0])
    base = tip - 16 * u
    img = Image.new("L", (300, 240), 0)
    d = ImageDraw.Draw(img)
    d.rectangle((60, 150, 240, 220), outline=255, width=1)
    d.polygon([tuple(tip), tuple(base + 7 * n), tuple(base - 7 * n)], outline=255)
    start = np.array([base[0] - 90, base[1] - 90])
    d.line((tuple(start), tuple(base)), fill=255)
    dark = np.asarray(img) > 0
    free = dark.copy()
    free[149:222, 59:242] = False
    # the trace runs down the line, then out to a corner of the triangle's base and a
    # few pixels on along its side (the tip itself is cleared with the border)
    line = np.linspace(start, base, 80)
    corner = base + 7 * n
    side = corner + np.outer(np.arange(1, 5), (tip - corner) / np.linalg.norm(tip - corner))
    return dark, free, np.vstack([line, [corner], side])


def test_the_marker_is_read_along_the_axis_it_is_drawn_symmetric_about():
    from cvparse.assembly.uml.assemble import _approach, _asymmetry, _end_hit
    from cvparse.primitives.boxes import Box

    box = [Box(bbox=(60, 150, 240, 220), separators=[])]
    dark, free, pts = _slanted_triangle(45.0)
    want = np.array([1.0, 1.0]) / 2 ** 0.5
    # the trace's last stretch bends off toward a corner of the triangle
    _, bent = _approach(pts, 27.5)
    assert float(np.dot(bent, want)) < np.cos(np.radians(6.0))
    hit = _end_hit(dark, free, pts, box, 1.0, 11.0)
    assert hit is not None and hit[0] == 0
    assert float(np.dot(hit[2], want)) > np.cos(np.radians(2.0))
    assert abs(hit[1][0] - 150) <= 2 and abs(hit[1][1] - 148) <= 2
    # read along its own axis the triangle is symmetric, along the bent heading not
    tip = (149.0, 147.0)
    assert _asymmetry(free, tip, want, 16.5, 13.0) < 0.5 * _asymmetry(free, tip, bent, 16.5,
                                                                       13.0)
