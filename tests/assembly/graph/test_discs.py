"""Solid start discs at the loose ends of flowchart lines become nodes."""

from cvparse.assembly.graph.discs import solid_discs
from cvparse.pipeline import parse
from cvparse.primitives.inventory import build_inventory

from ...primitives.synth import canvas, font, to_array


def _start_page(disc: bool = True):
    """A filled disc (or a small dot), a line with a filled head down to a box."""
    img, draw = canvas(240, 200)
    r = 11 if disc else 3
    draw.ellipse([110 - r, 25 - r, 110 + r, 25 + r], fill=(30, 30, 30))
    draw.line([(110, 25), (110, 100)], fill=(30, 30, 30), width=2)
    draw.polygon([(103, 92), (117, 92), (110, 106)], fill=(30, 30, 30))
    draw.rounded_rectangle([50, 106, 170, 150], radius=10, outline=(30, 30, 30), width=2)
    draw.text((80, 118), "Pack", fill=(0, 0, 0), font=font(16))
    return to_array(img)


def test_a_filled_disc_is_found_and_a_head_is_not():
    inv = build_inventory(_start_page(), ocr=False)
    discs = solid_discs(inv)
    assert len(discs) == 1
    assert abs(discs[0].cx - 110) <= 2 and abs(discs[0].cy - 25) <= 2
    assert solid_discs(build_inventory(_start_page(disc=False), ocr=False)) == []


def test_the_line_from_a_start_disc_is_an_edge():
    doc = parse(_start_page(), kind="flowchart").document
    start = [n for n in doc.nodes if n.shape == "circle"]
    assert len(start) == 1 and start[0].label == ""
    box = next(n for n in doc.nodes if n.label == "Pack")
    assert [(e.source, e.target, e.directed) for e in doc.edges] == [
        (start[0].id, box.id, True)]


def test_a_dot_at_a_line_end_is_no_node():
    doc = parse(_start_page(disc=False), kind="flowchart").document
    assert [n.label for n in doc.nodes] == ["Pack"]
    assert doc.edges == []
