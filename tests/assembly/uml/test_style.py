"""UML relations drawn in other looks (thick strokes), on tiny synthetic drawings."""

import numpy as np
from PIL import Image, ImageDraw

from cvparse.assembly.uml.assemble import _drawn_marker, _end_window, _half_diamond
from cvparse.assembly.uml.classes import _name_crop
from cvparse.connectors.markers import read_end_symbols, width_profile

STROKE, TH = 3.0, 11.0


def _thick_triangle_mask():
    """A box (y 100..160) with a 3-px border; a 3-px line up from below ends in a hollow
    triangle, outline 3 px, whose tip touches the box's bottom side at x 100."""
    img = Image.new("L", (200, 260), 0)
    d = ImageDraw.Draw(img)
    d.rectangle((40, 100, 160, 160), outline=255, width=3)
    d.polygon([(100, 163), (90, 182), (110, 182)], outline=255, width=3)
    d.line((100, 182, 100, 240), fill=255, width=3)
    return np.asarray(img) > 0


def test_thick_marker_called_plain_keeps_its_drawn_shape():
    free = _thick_triangle_mask()
    free[:164] = False  # the box and its border are not part of the marker
    tip, inward = (100.0, 164.0), np.array([0.0, -1.0])
    w = _end_window(free, tip, inward, 26, STROKE, TH)
    shape = read_end_symbols(free, [(w.tip, w.inward, w.length)], 1.2 * TH, STROKE)[0]
    assert shape == "triangle"
    assert w.marker_span >= TH
    # the page reading said plain (a classifier taught on thin strokes): the drawn wide
    # ink of a whole marker's length overrules it
    assert _drawn_marker("none", shape, w.marker_span, STROKE, TH) == "triangle"
    # a reading that names a marker is kept as it is
    assert _drawn_marker("arrow", shape, w.marker_span, STROKE, TH) == "arrow"


def test_bare_thick_line_end_stays_bare():
    free = _thick_triangle_mask()
    tip, inward = (100.0, 239.0), np.array([0.0, 1.0])  # the far, bare end, pointing down
    w = _end_window(free, tip, inward, 26, STROKE, TH)
    assert w.marker_span == 0
    assert _drawn_marker("triangle", "triangle", w.marker_span, STROKE, TH) == "none"


def test_short_wide_run_does_not_overrule_the_reading():
    # a couple of stroke widths of wide ink (a corner, anti-aliasing) is no marker
    assert _drawn_marker("none", "arrow", 5.0, STROKE, TH) == "none"


def _name_box(speck_gap):
    """A name compartment (RGB, pale fill) with "Il" written as two bars, an i-like word
    and a 2x2 speck ``speck_gap`` px above the text line."""
    img = Image.new("RGB", (80, 40), (250, 250, 220))
    d = ImageDraw.Draw(img)
    d.rectangle((20, 16, 21, 28), fill=(0, 0, 0))  # a capital I: one bar
    d.rectangle((26, 20, 27, 28), fill=(0, 0, 0))  # the stem of an i ...
    d.rectangle((26, 17, 27, 18), fill=(0, 0, 0))  # ... and its dot, just above it
    d.rectangle((32, 16, 40, 28), outline=(0, 0, 0))
    d.rectangle((22, 16 - speck_gap - 2, 23, 16 - speck_gap - 1), fill=(0, 0, 0))
    return np.asarray(img)


def test_speck_far_above_a_name_is_dropped_but_an_i_dot_is_kept():
    crop = _name_crop(_name_box(speck_gap=9), (0, 0, 80, 40), 0)
    # the crop starts at the text line (plus its 2-px margin): the speck is gone
    assert crop.shape[0] == 28 - 16 + 1 + 4
    assert (crop[2:4, :] < 128).any()  # the top of the letters is there
    # a speck close to the line (an i's dot) is text: it stays
    near = _name_crop(_name_box(speck_gap=2), (0, 0, 80, 40), 0)
    assert near.shape[0] == 28 - (16 - 2 - 2) + 1 + 4


def _end_profile(draw):
    """Width profile of the end at y 60 of a vertical line at x 50 (box above y 60)."""
    img = Image.new("L", (100, 120), 0)
    d = ImageDraw.Draw(img)
    d.line((50, 60, 50, 110), fill=255, width=3)
    draw(d)
    free = np.asarray(img) > 0
    free[:60] = False  # the box and its thick border (the diamond's near half is under it)
    return width_profile(free, (50.0, 60.0), (0.0, -1.0), 30, 1.2 * TH)


def test_diamond_half_hidden_under_a_thick_border_is_a_diamond():
    # a filled diamond centred on the border row 58: only its far half shows
    ext, cnt = _end_profile(lambda d: d.polygon([(50, 48), (57, 58), (50, 72), (43, 58)],
                                                fill=255))
    assert _half_diamond(ext, cnt, STROKE) == "filled_diamond"


def test_arrowhead_pointing_into_the_box_is_not_a_half_diamond():
    # filled arrowhead, tip at the border, widest 12 px away from it
    ext, cnt = _end_profile(lambda d: d.polygon([(50, 60), (57, 72), (43, 72)], fill=255))
    assert _half_diamond(ext, cnt, STROKE) is None
    # a bare line end
    ext, cnt = _end_profile(lambda d: None)
    assert _half_diamond(ext, cnt, STROKE) is None


def test_class_box_with_light_grey_sides_and_black_name_is_found():
    # current PlantUML: 1 px mid-grey rounded sides, names in black; the sides are far
    # lighter than the text, so they are not in the page's strong ink
    from PIL import ImageFont

    from cvparse.pipeline import parse

    img = Image.new("RGB", (220, 150), "white")
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((40, 20, 180, 120), radius=5, fill=(241, 241, 241),
                        outline=(133, 133, 133), width=1)
    d.line((40, 52, 180, 52), fill=(133, 133, 133))
    d.line((40, 86, 180, 86), fill=(133, 133, 133))
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 16)
    d.text((84, 27), "Store", fill="black", font=font)
    d.text((48, 60), "color: String", fill="black", font=font)
    model = parse(np.asarray(img), kind="uml").document
    assert [c.name for c in model.classes] == ["Store"]


def test_class_drawn_as_a_fill_alone_is_split_by_its_text_gaps():
    # pyreverse's colourised look: a filled rectangle, no border, no separator lines;
    # the name is the first text line, members follow after a wider gap
    from PIL import ImageFont

    from cvparse.pipeline import parse

    img = Image.new("RGB", (260, 170), "white")
    d = ImageDraw.Draw(img)
    d.rectangle((30, 15, 230, 150), fill=(119, 170, 221))
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 15)
    d.text((100, 22), "Writer", fill="black", font=font)
    for i, member in enumerate(("output : str", "settings : dict", "visitor")):
        d.text((40, 56 + 20 * i), member, fill="black", font=font)
    model = parse(np.asarray(img), kind="uml").document
    assert [c.name for c in model.classes] == ["Writer"]
    assert len(model.classes[0].attributes) == 3  # the members are not in the name


def test_role_name_behind_a_half_diamond_does_not_hide_it():
    # pyreverse writes the role name beside the line just behind the diamond: wide ink
    # further back is no part of the marker
    def draw(d):
        d.polygon([(50, 48), (57, 58), (50, 72), (43, 58)], fill=255)
        d.rectangle((53, 78, 75, 84), fill=255)  # the label's ink, 6 px behind the tip
    ext, cnt = _end_profile(draw)
    assert _half_diamond(ext, cnt, STROKE) == "filled_diamond"


def test_fill_alone_box_keeps_a_triangle_side_along_its_edge():
    # a line meeting a borderless box at a slant: one side of its hollow triangle runs
    # along the fill's edge, right under the box; the ring round the fill loses only the
    # fill's blend with the paper
    from cvparse.assembly.uml.assemble import _without_boxes
    from cvparse.primitives.boxes import Box

    rgb = np.full((80, 120, 3), 255, np.uint8)
    rgb[10:41, 10:110] = (119, 170, 221)     # the fill, y 10..40
    rgb[41, 10:110] = (187, 212, 238)        # its blend with the paper, one row below
    rgb[41, 40:56] = (0, 0, 0)               # the triangle side lying along its edge
    dark = np.zeros((80, 120), bool)
    dark[10:42, 10:110] = True               # fill and blend both count as ink
    box = Box(bbox=(10, 10, 109, 40), separators=[])
    free = _without_boxes(dark, [box], 2.0, [True], rgb)
    assert free[41, 40:56].all()             # the triangle side stays
    assert not free[41, 10:40].any() and not free[10:41].any()  # fill and blend go
    bordered = _without_boxes(dark, [box], 2.0, [False], rgb)
    assert not bordered[41].any()            # a bordered box clears its border pad


def test_slanted_approach_lets_the_marker_start_off_the_tip():
    from cvparse.assembly.uml.assemble import slant_reach

    box = (40, 20, 160, 60)
    square = slant_reach((100.0, 62.0), np.array([0.0, -1.0]), box, TH)
    slant = slant_reach((100.0, 62.0), np.array([0.9, -0.44]), box, TH)
    side = slant_reach((162.0, 40.0), np.array([-0.44, 0.9]), box, TH)  # right side
    assert square == 0.0 and slant > TH and side > TH
    # a triangle met at a slant whose side along the border was cleared with it: the
    # wide ink starts 12 px from the tip, after line-wide ink; it is still this end's
    free = np.zeros((120, 120), bool)
    free[62:100, 60] = True                # line-wide ink: the triangle's other side
    free[74:77, 52:69] = True              # ... and its base, 12 px from the tip
    tip, inward = (60.0, 62.0), np.array([0.0, -1.0])
    assert _end_window(free, tip, inward, 30, STROKE, TH).marker_span == 0
    assert _end_window(free, tip, inward, 30, STROKE, TH, 1.5 * TH).marker_span >= 12


def test_fine_dashes_are_dashed_and_a_broken_hairline_is_not():
    from cvparse.assembly.uml.assemble import _dashed

    rgb = np.full((40, 120, 3), 255, np.uint8)
    for x in range(10, 110, 5):  # 3 px dashes, 2 px gaps
        rgb[10, x:x + 3] = 150
    rgb[30, 10:110] = 180  # a light solid line whose ink mask is broken
    dark = (rgb < 200).any(axis=2)
    dark[30, 10:110] = True
    dark[30, 40:42] = dark[30, 70:72] = False
    contrast = (255 - rgb[..., 0]).astype(np.float32)
    dashes = np.array([[10.0, 10.0], [110.0, 10.0]])
    hairline = np.array([[10.0, 30.0], [110.0, 30.0]])
    assert _dashed(dark, dashes, (1.0, 1.0), 1.0, 10.0, contrast) is True
    assert _dashed(dark, hairline, (1.0, 1.0), 1.0, 10.0, contrast) is False
