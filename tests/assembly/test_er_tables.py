"""Table rows read as attributes: the derived mark ``()`` as OCR reads it."""

from cvparse.assembly.er_tables import _DERIVED


def test_derived_mark_read_with_a_misread_bracket():
    assert _DERIVED.match("total_cost()").group(1) == "total_cost"
    assert _DERIVED.match("total_costQ)").group(1) == "total_cost"
    assert _DERIVED.match("age ( )").group(1) == "age"
    assert _DERIVED.match("salary") is None
    assert _DERIVED.match("f(x)") is None
    assert _DERIVED.match("price)") is None


def _table_page(double: bool):
    """A table entity (name row, then attribute rows), its border doubled or not, and a
    relationship diamond joined to it."""
    from PIL import ImageDraw

    from ..primitives.synth import canvas, font, to_array

    img, draw = canvas(520, 300)
    f = font(18)
    draw.rectangle([40, 40, 220, 230], outline=(0, 0, 0), width=2)
    if double:
        draw.rectangle([45, 45, 215, 225], outline=(0, 0, 0), width=2)
    draw.line([(45, 85), (215, 85)], fill=(0, 0, 0), width=2)
    draw.text((90, 55), "Booking", fill=(0, 0, 0), font=f)
    for k, word in enumerate(["booking_no", "nights", "rate"]):
        draw.text((58, 100 + 38 * k), word, fill=(0, 0, 0), font=f)
    draw.polygon([(400, 100), (480, 135), (400, 170), (320, 135)], outline=(0, 0, 0))
    draw.text((372, 124), "holds", fill=(0, 0, 0), font=f)
    ImageDraw.Draw(img).line([(220, 135), (320, 135)], fill=(0, 0, 0), width=2)
    return to_array(img)


def test_double_bordered_table_is_a_weak_entity_with_its_rows():
    """A weak entity in table notation has its double border round the whole box: the
    border pairs with one of its cells, and the table keeps all its rows and is weak."""
    from cvparse.pipeline import parse

    for double in (True, False):
        er = parse(_table_page(double), kind="er").document
        (name,) = [n for n in er.entities if n.lower().startswith("book")]
        assert er.entities[name].weak == double
        assert {"nights", "rate"} <= set(er.entities[name].attributes)
