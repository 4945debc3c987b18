"""The connector stage's inputs per family, found by perception before lines are traced."""

import numpy as np

from cvparse.primitives.classboxes import uml_boxes
from cvparse.primitives.inventory import build_inventory
from cvparse.primitives.lineink import ConnectorInputs, connector_inputs
from cvparse.primitives.phantoms import phantom_shapes
from cvparse.primitives.tables import table_boxes

from .synth import canvas, to_array


def _table_page():
    """A table of a name row over an attribute row, and a line leaving it."""
    img, draw = canvas(360, 220)
    draw.rectangle([40, 40, 200, 80], outline=(0, 0, 0), width=2)
    draw.rectangle([40, 79, 200, 180], outline=(0, 0, 0), width=2)
    draw.line([(201, 120), (330, 120)], fill=(0, 0, 0), width=2)
    return to_array(img)


def test_an_er_table_is_cleared_to_its_outline_a_stroke_and_a_pixel_in():
    inv = build_inventory(_table_page(), ocr=False)
    (x1, y1, x2, y2), = table_boxes(inv)
    k = int(round(inv.scale.stroke)) + 1
    got = connector_inputs(inv, "er")
    assert got.clear == ((x1 + k, y1 + k, x2 - k, y2 - k),)
    assert got.ink is not None and got.ink.shape == inv.ink.shape


def test_other_families_trace_in_the_inventory_ink_with_nothing_more_cleared():
    # (a flowchart's layout lets its nodes sit close; it casts no shadow here)
    inv = build_inventory(_table_page(), ocr=False)
    phantoms = frozenset(phantom_shapes(inv))
    assert connector_inputs(inv, "flowchart") == ConnectorInputs(phantoms=phantoms,
                                                                 close_nodes=True)
    assert connector_inputs(inv, "topology") == ConnectorInputs(phantoms=phantoms)


def test_the_phantom_shapes_are_found_before_the_lines_once():
    import cv2

    # two lines from above into a box across a frame's side close off an area, no node
    rgb = np.full((260, 400, 3), 255, np.uint8)
    cv2.rectangle(rgb, (120, 150), (280, 220), (0, 0, 0), 2)
    cv2.line(rgb, (20, 90), (380, 90), (0, 0, 0), 2)
    for x in (170, 230):
        cv2.line(rgb, (x, 10), (x, 149), (0, 0, 0), 2)
    inv = build_inventory(rgb, ocr=False)
    got = connector_inputs(inv, "flowchart").phantoms
    assert len(got) == 1 and got == frozenset(phantom_shapes(inv))
    assert inv.facts.computed["phantom_shapes"] == 1


def test_a_uml_page_is_traced_in_its_strong_ink_with_its_class_boxes_cleared():
    inv = build_inventory(_table_page(), ocr=False)
    got = connector_inputs(inv, "uml")
    assert isinstance(got.ink, np.ndarray) and not (got.ink & ~inv.ink).any()
    assert got.clear == tuple(b.bbox for b in uml_boxes(inv)) == ((40, 40, 200, 180),)


def test_a_flowchart_traces_its_lines_without_the_shadows_its_nodes_cast():
    # a node with a grey shadow offset down and right, and a line leaving its bottom
    rgb = np.full((200, 320, 3), 255, np.uint8)
    rgb[44:106, 104:226] = 170
    rgb[40:101, 100:221] = 255
    rgb[40:42, 100:221] = rgb[99:101, 100:221] = rgb[40:101, 100:102] = 0
    rgb[40:101, 219:221] = 0
    rgb[106:190, 159:161] = 0
    rgb[42:44, 221:300] = 170  # a light line leaving the node's side by its top corner
    inv = build_inventory(rgb, ocr=False)
    assert inv.ink[70, 223] and inv.ink[103, 130]
    inv.shapes[0].label = "Step"  # as OCR would read it: a node, not an empty area
    got = connector_inputs(inv, "flowchart")
    assert got.ink is not None
    assert not got.ink[70, 223] and not got.ink[103, 130]  # the shadow's bands
    assert got.ink[150, 160]  # the line
    assert got.ink[43, 230]  # the light line, where it leaves the node


def test_an_area_two_bowed_lines_close_off_between_two_class_boxes_is_no_shape():
    import cv2

    from cvparse.connectors.stage import build

    # two class boxes one above the other, joined by two lines that bow apart: the area
    # between the lines (with a role name written in it) is found as a shape
    rgb = np.full((360, 300, 3), 255, np.uint8)
    for y1, y2 in ((20, 100), (260, 340)):
        cv2.rectangle(rgb, (60, y1), (240, y2), (0, 0, 0), 2)
        cv2.line(rgb, (60, y1 + 30), (240, y1 + 30), (0, 0, 0), 2)
    cv2.ellipse(rgb, (150, 180), (40, 79), 0, 0, 360, (0, 0, 0), 2)
    cv2.putText(rgb, "role", (128, 186), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1)
    inv = build_inventory(rgb, ocr=False)
    lens = [k for k, s in enumerate(inv.shapes) if s.bbox[1] > 90 and s.bbox[3] < 270]
    assert lens
    got = connector_inputs(inv, "uml")
    assert set(lens) <= got.phantoms
    assert not set(lens) & set(connector_inputs(inv, "flowchart").phantoms)
    lines = build(inv, ink=got.ink, clear=got.clear, phantoms=got.phantoms)
    assert sum(c.length > 100 for c in lines) >= 2  # both lines are traced


def test_page_coloured_paper_the_wide_ink_took_for_ink_is_no_line():
    # where shadows darken the wide median's paper, plain page pixels beside a line
    # come out as ink; the fine ink sees them as paper, and they are not traced
    rgb = np.full((200, 320, 3), 255, np.uint8)
    rgb[44:106, 104:226] = 170  # the node's shadow
    rgb[40:101, 100:221] = 255
    rgb[40:42, 100:221] = rgb[99:101, 100:221] = 0
    rgb[40:101, 100:102] = rgb[40:101, 219:221] = 0
    rgb[101:190, 159:161] = 0
    inv = build_inventory(rgb, ocr=False)
    inv.shapes[0].label = "Step"
    inv.ink[140:146, 150:170] = True  # the swollen wide ink round the line
    got = connector_inputs(inv, "flowchart")
    assert got.ink is not None
    assert not got.ink[140:146, 150:158].any() and not got.ink[140:146, 162:170].any()
    assert got.ink[140:146, 159:161].all()  # the line itself
