"""Attribute ownership when a relationship line runs across an attribute ellipse."""

from cvparse.assembly.er import assemble_er
from cvparse.model import Relationship

from .test_assemble import _conn, _ink_inv, _shape


def _payment_page(own_line_to_diamond: bool):
    shapes = [_shape("rect", (100, 300, 200, 340), "Payment"),                 # 0
              _shape("diamond", (500, 280, 600, 340), "split_into"),           # 1
              _shape("ellipse", (300, 260, 400, 330), "item_count", dashed=True),  # 2
              _shape("rect", (700, 290, 800, 330), "Installment"),             # 3
              _shape("ellipse", (100, 150, 200, 190), "pay_id")]                # 4
    # Payment - split_into runs across the ellipse's lower part; item_count's own line
    # leaves Payment's border where that line does, so only the piece from the ellipse
    # to the diamond was traced.
    lines = [((150, 320), (550, 310)), ((150, 320), (350, 295)), ((600, 310), (700, 310))]
    if own_line_to_diamond:
        lines[1] = ((350, 295), (550, 310))
    inv = _ink_inv(shapes, lines=lines)
    conns = [_conn(2, (400, 313), 1, (500, 311)), _conn(1, (600, 310), 3, (700, 310)),
             _conn(4, (150, 190), 0, (150, 300))]
    return assemble_er(inv, conns)


def test_piece_of_a_line_across_an_attribute_is_no_link_of_it():
    er = _payment_page(own_line_to_diamond=False)
    assert er.entities["Payment"].derived == ["item_count"]
    (rel,) = [r for r in er.relationships if isinstance(r, Relationship)]
    assert rel.attributes == [] and sorted(rel.entities) == ["Installment", "Payment"]


def test_attribute_with_its_own_line_to_the_relationship_keeps_it():
    er = _payment_page(own_line_to_diamond=True)
    (rel,) = [r for r in er.relationships if isinstance(r, Relationship)]
    assert rel.attributes == ["item_count"]
