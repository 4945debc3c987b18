"""Legend reading: swatch rows, their style and colour, and typing edges by them."""

import numpy as np
from PIL import ImageDraw

from cvparse.assembly.graph.legend import drawn_pattern, drawn_width, edge_type, find_legends
from cvparse.connectors.lines import Connector, End
from cvparse.primitives.items import Scale
from cvparse.primitives.inventory import build_inventory
from cvparse.primitives.swatches import swatch_rows

from ...primitives.synth import canvas, font, to_array

RED, BLUE = (200, 30, 30), (30, 60, 200)


def _dashed(draw: ImageDraw.ImageDraw, x1: int, x2: int, y: int, colour, width=2,
            dash=8, gap=5) -> None:
    x = x1
    while x < x2:
        draw.line([(x, y), (min(x + dash, x2), y)], fill=colour, width=width)
        x += dash + gap


def _dotted(draw, x1, x2, y, colour):
    for x in range(x1, x2, 5):
        draw.rectangle([x, y - 1, x + 1, y], fill=colour)


def _page():
    """A legend box (red solid = "alpha", blue dashed = "beta") and two such lines."""
    img, draw = canvas(420, 260)
    draw.rectangle([20, 20, 170, 100], outline=(40, 40, 40), width=2)
    draw.line([(32, 45), (72, 45)], fill=RED, width=2)
    draw.text((82, 36), "alpha", fill=(20, 20, 20), font=font(16))
    _dashed(draw, 32, 72, 75, BLUE)
    draw.text((82, 66), "beta", fill=(20, 20, 20), font=font(16))
    draw.line([(220, 150), (400, 150)], fill=RED, width=2)
    _dashed(draw, 220, 400, 210, BLUE)
    return to_array(img)


def _inventory(rgb, ocr=True):
    """The page's inventory, with the image the legend reader samples colours from."""
    inv = build_inventory(rgb, ocr=ocr)
    return inv


def _connector(x1, x2, y):
    pts = np.array([[x, y] for x in range(x1, x2 + 1)], float)
    return Connector(points=pts, ends=(End((x1, y), (-1.0, 0.0)), End((x2, y), (1.0, 0.0))),
                     width=2.0)


def test_swatch_rows_find_line_samples_left_of_text():
    ink = np.zeros((60, 140), bool)
    ink[10:12, 5:45] = True                       # solid swatch
    for x in range(5, 45, 12):                    # dashed swatch
        ink[40:42, x:x + 7] = True
    for y0 in (4, 34):                            # a word of letter-high marks after each
        for x in range(55, 100, 9):
            ink[y0:y0 + 12, x:x + 5] = True
    rows = swatch_rows(ink, Scale(stroke=2, text_height=14))
    assert [r[2] for r in rows] == ["solid", "dashed"]
    assert rows[0][0][0] == 5 and rows[0][0][2] == 45


def test_blurred_round_dots_of_a_thick_dotted_swatch_read_as_dotted():
    import cv2

    ink = np.zeros((60, 140), np.uint8)
    ink[10:13, 5:45] = 1                          # solid swatch, 3 px thick
    for x in range(8, 45, 9):                     # dots grown by blur to 7 px round
        cv2.circle(ink, (x, 41), 3, 1, -1)
    for y0 in (5, 35):                            # a word of letter-high marks after each
        for x in range(55, 100, 9):
            ink[y0:y0 + 12, x:x + 5] = 1
    rows = swatch_rows(ink.astype(bool), Scale(stroke=3, text_height=12))
    assert [r[2] for r in rows] == ["solid", "dotted"]
    # the same-sized letters with a counter ("o") are no dots: no second swatch
    ring = np.zeros((60, 140), np.uint8)
    ring[10:13, 5:45] = 1
    for x in range(8, 45, 9):
        cv2.circle(ring, (x, 41), 3, 1, 1)
    for y0 in (5, 35):
        for x in range(55, 100, 9):
            ring[y0:y0 + 12, x:x + 5] = 1
    assert [r[2] for r in swatch_rows(ring.astype(bool), Scale(stroke=3, text_height=12))
            ] == ["solid"]


def test_bold_swatch_thicker_than_two_lines_is_a_line_sample():
    ink = np.zeros((60, 140), bool)
    ink[8:15, 5:45] = True                        # bold sample, 7 px for 2 px lines
    ink[40:42, 5:45] = True                       # plain sample
    for y0 in (5, 35):                            # a word of letter-high marks after each
        for x in range(55, 100, 9):
            ink[y0:y0 + 12, x:x + 5] = True
    rows = swatch_rows(ink, Scale(stroke=2, text_height=13))
    assert [r[0][1] for r in rows] == [8, 40]
    # a word of touching small letters is no bar: it leaves holes in its box
    ink[8:15, 5:45] = False
    for x in range(5, 45, 4):
        ink[8:15, x] = ink[8, x:x + 4] = True
    assert [r[0][1] for r in swatch_rows(ink, Scale(stroke=2, text_height=13))] == [40]


def test_bold_swatch_is_not_run_into_the_small_letters_after_it():
    """Drawn with thick lines (stroke 4), small letters are no bigger than a dot or dash:
    a bold bar's row ends at the bar, not at the end of its word."""
    import cv2

    ink = np.zeros((30, 120), np.uint8)
    ink[10:16, 5:36] = 1                          # bold sample, 6 px
    ink[8:17, 44:50] = 1                          # a small bold letter filling its box
    for cx in (56, 66):                           # two touching letters with counters
        cv2.ellipse(ink, (cx, 12), (5, 4), 0, 0, 360, 1, 1)
    rows = swatch_rows(ink.astype(bool), Scale(stroke=4, text_height=18))
    assert [(r[0][0], r[0][2], r[2]) for r in rows] == [(5, 36, "solid")]


def test_underline_is_no_swatch():
    ink = np.zeros((40, 140), bool)
    for x in range(10, 60, 9):                    # a word ...
        ink[5:17, x:x + 5] = True
    ink[20:22, 8:62] = True                       # ... underlined: no text beside the line
    assert swatch_rows(ink, Scale(stroke=2, text_height=14)) == []


def test_drawn_pattern_tells_solid_dashed_dotted():
    img, draw = canvas(300, 120)
    draw.line([(10, 20), (290, 20)], fill=(0, 0, 0), width=2)
    _dashed(draw, 10, 290, 60, (0, 0, 0))
    _dotted(draw, 10, 290, 100, (0, 0, 0))
    inv = _inventory(to_array(img), ocr=False)
    got = [drawn_pattern(_connector(10, 290, y), inv) for y in (20, 60, 100)]
    assert got == ["solid", "dashed", "dotted"]


def test_legend_is_read_and_types_edges():
    inv = _inventory(_page())
    legends = find_legends(inv)
    assert len(legends) == 1
    entries = legends[0].entries
    assert [e.type for e in entries] == ["alpha", "beta"]
    assert [e.swatch.style for e in entries] == ["solid", "dashed"]
    assert entries[0].swatch.colour[0] > 150 and entries[1].swatch.colour[2] > 150
    assert edge_type(_connector(225, 395, 150), legends, inv) == "alpha"
    assert edge_type(_connector(225, 395, 210), legends, inv) == "beta"


def test_same_colour_legend_types_by_pattern():
    img, draw = canvas(420, 260)
    draw.rectangle([20, 20, 170, 100], outline=(40, 40, 40), width=2)
    grey = (80, 80, 80)
    _dashed(draw, 32, 72, 45, grey)
    draw.text((82, 36), "decay", fill=(20, 20, 20), font=font(16))
    _dotted(draw, 32, 72, 75, grey)
    draw.text((82, 66), "flow", fill=(20, 20, 20), font=font(16))
    _dotted(draw, 220, 400, 150, grey)
    inv = _inventory(to_array(img))
    legends = find_legends(inv)
    assert [e.type for e in legends[0].entries] == ["decay", "flow"]
    # the pattern under the line decides (trace may call a dotted line solid)
    assert edge_type(_connector(225, 395, 150), legends, inv) == "flow"


def test_box_without_swatches_is_no_legend():
    img, draw = canvas(300, 200)
    draw.rectangle([20, 20, 200, 100], outline=(40, 40, 40), width=2)
    draw.text((40, 45), "Process step", fill=(20, 20, 20), font=font(16))
    inv = _inventory(to_array(img))
    assert find_legends(inv) == []


def test_short_and_bold_dashed_lines_read_as_dashed():
    """A dashed line too short to show its pattern between the ends keeps the tracer's
    reading; a bold dashed line is measured, not taken for solid."""
    img, draw = canvas(300, 120)
    _dashed(draw, 10, 290, 30, (0, 0, 0), width=4, dash=14, gap=6)
    inv = _inventory(to_array(img), ocr=False)
    bold = _connector(10, 290, 30)
    assert drawn_pattern(bold, inv) == "dashed"
    th = inv.scale.text_height
    short = _connector(100, 100 + int(th), 90)
    short.style = "dashed"
    assert drawn_pattern(short, inv) == "dashed"
    short.style = "solid"
    assert drawn_pattern(short, inv) == "solid"


def test_plain_ends_leave_room_for_the_pattern():
    """Between two plain ends only a little is cut off: a short dashed stretch still shows
    its gaps when no arrowhead needs skipping."""
    img, draw = canvas(200, 60)
    _dashed(draw, 20, 56, 30, (0, 0, 0))
    inv = _inventory(to_array(img), ocr=False)
    c = _connector(20, 56, 30)
    th = inv.scale.text_height
    assert 2 * th + 8 > 36  # too short for a text height cut at both ends
    assert drawn_pattern(c, inv) == "dashed"


def test_drawn_width_measures_the_line_not_its_neighbour():
    """A thin line drawn close beside a bold one measures thin, the bold one bold."""
    img, draw = canvas(300, 120)
    draw.line([(10, 40), (290, 40)], fill=(40, 40, 40), width=5)
    draw.line([(10, 50), (290, 50)], fill=(10, 10, 10), width=2)
    inv = _inventory(to_array(img), ocr=False)
    bold, thin = _connector(10, 290, 40), _connector(10, 290, 50)
    assert 4.0 <= drawn_width(bold, inv) <= 6.0
    assert 1.5 <= drawn_width(thin, inv) <= 2.6


def test_rows_alike_but_for_width_type_by_the_nearest_width():
    """Two solid rows of one colour, thin and bold: each line takes the row nearest its
    own width, whatever the page's typical connector width is."""
    img, draw = canvas(420, 260)
    ink = (50, 50, 50)
    draw.rectangle([20, 20, 170, 100], outline=(40, 40, 40), width=2)
    draw.line([(32, 45), (72, 45)], fill=ink, width=2)
    draw.text((82, 36), "fiber", fill=(20, 20, 20), font=font(16))
    draw.line([(32, 75), (72, 75)], fill=ink, width=5)
    draw.text((82, 66), "serial", fill=(20, 20, 20), font=font(16))
    draw.line([(220, 150), (400, 150)], fill=ink, width=5)
    draw.line([(220, 160), (400, 160)], fill=ink, width=2)
    inv = _inventory(to_array(img))
    legends = find_legends(inv)
    assert [e.type for e in legends[0].entries] == ["fiber", "serial"]
    assert edge_type(_connector(225, 395, 150), legends, inv) == "serial"
    assert edge_type(_connector(225, 395, 160), legends, inv) == "fiber"


def test_head_past_the_traced_end_is_skipped_from_there():
    """A short dashed line traced up to the gap before its last dash: its head lies past
    the traced end, so less of the line is skipped for it and a whole dash still shows."""
    img, draw = canvas(200, 60)
    _dashed(draw, 20, 67, 30, (0, 0, 0), dash=8, gap=5)  # dashes 20-28, ..., 59-67
    draw.polygon([(80, 30), (67, 23), (67, 37)], fill=(0, 0, 0))  # the head after it
    inv = _inventory(to_array(img), ocr=False)
    c = _connector(20, 54, 30)  # the trace stops at the gap before the last dash
    c.ends[1].marker = "arrow"
    c.style = "solid"
    assert drawn_pattern(c, inv) == "dashed"  # a whole head's cut leaves no whole dash


def test_a_sample_ending_in_a_head_is_a_swatch_and_teeth_are_not():
    ink = np.zeros((60, 140), bool)
    ink[10:14, 5:45] = True                       # a line four pixels thick ...
    for k, x in enumerate(range(45, 57)):         # ... ending in a filled head
        half = max(0, 6 - k // 2)
        ink[12 - half:12 + half, x] = True
    ink[8:20, 62:70] = True                       # text-high ink after it
    ink[38:45, 5:45] = False
    for x in range(5, 45, 4):                     # touching small letters: teeth
        ink[38:45, x] = ink[38, x:x + 4] = True
    ink[36:48, 62:70] = True
    rows = swatch_rows(ink, Scale(stroke=2, text_height=13))
    assert [r[0][1] for r in rows] == [6]


def _grid_page():
    """A legend laid out in two columns: red "Alpha" and blue "Beta" on one line, a green
    sample with an arrowhead for "Gamma" under the first."""
    img, draw = canvas(480, 260)
    draw.rectangle([20, 20, 330, 100], outline=(40, 40, 40), width=2)
    draw.line([(32, 45), (80, 45)], fill=RED, width=4)
    draw.text((90, 36), "Alpha", fill=(20, 20, 20), font=font(16))
    draw.line([(190, 45), (238, 45)], fill=BLUE, width=4)
    draw.text((248, 36), "Beta", fill=(20, 20, 20), font=font(16))
    draw.line([(32, 75), (72, 75)], fill=(30, 150, 60), width=4)
    draw.polygon([(82, 75), (70, 69), (70, 81)], fill=(30, 150, 60))
    draw.text((90, 66), "Gamma", fill=(20, 20, 20), font=font(16))
    draw.line([(220, 150), (400, 150)], fill=BLUE, width=4)
    return to_array(img)


def test_a_grid_legend_with_a_headed_sample_reads_every_entry_in_lower_case():
    inv = _inventory(_grid_page())
    legends = find_legends(inv)
    assert len(legends) == 1
    assert [e.type for e in legends[0].entries] == ["Alpha", "Beta", "Gamma"]
    assert edge_type(_connector(220, 400, 150), legends, inv) == "beta"
