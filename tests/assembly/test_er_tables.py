"""Table rows read as attributes: the derived mark ``()`` as OCR reads it."""

from cvparse.assembly.er_tables import _DERIVED


def test_derived_mark_read_with_a_misread_bracket():
    assert _DERIVED.match("total_cost()").group(1) == "total_cost"
    assert _DERIVED.match("total_costQ)").group(1) == "total_cost"
    assert _DERIVED.match("age ( )").group(1) == "age"
    assert _DERIVED.match("salary") is None
    assert _DERIVED.match("f(x)") is None
    assert _DERIVED.match("price)") is None
