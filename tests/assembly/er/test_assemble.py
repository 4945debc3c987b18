"""Chen and table ER assembly from hand-built inventories (no image, no OCR)."""

import cv2
import numpy as np

from cvparse.assembly.er import assemble_er
from cvparse.assembly.er.cardinalities import assign_cardinalities
from cvparse.assembly.er.labels import clean_label
from cvparse.assembly.er.links import Link
from cvparse.connectors.lines import Connector, End
from cvparse.model import IsA, Relationship
from cvparse.primitives.items import Inventory, Scale, Shape, TextItem
from cvparse.primitives.regions import Region

W, H = 800, 600


def _region(x1, y1, x2, y2, kind="rect"):
    m = np.ones((y2 - y1, x2 - x1), bool)
    if kind == "triangle":  # apex up
        for r in range(m.shape[0]):
            half = (r + 1) * m.shape[1] / (2 * m.shape[0])
            c = m.shape[1] / 2
            m[r] = (np.arange(m.shape[1]) >= c - half) & (np.arange(m.shape[1]) < c + half)
    contour = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
    return Region(bbox=(x1, y1, x2, y2), filled=m, paper_area=int(m.sum()), contour=contour)


def _shape(kind, box, label, **kw):
    r = _region(*box, kind=kind)
    return Shape(kind=kind, bbox=box, interior=r, outer=r, label=label, **kw)


def _conn(a, pa, b, pb, style="solid"):
    pa, pb = np.array(pa, float), np.array(pb, float)
    d = (pb - pa) / np.linalg.norm(pb - pa)
    return Connector(points=np.array([pa, pb]),
                     ends=(End(tuple(pa), tuple(-d), node=a), End(tuple(pb), tuple(d), node=b)),
                     style=style)


def _inv(shapes, texts=()):
    return Inventory(width=W, height=H, scale=Scale(stroke=2, text_height=16),
                     background=(255, 255, 255), shapes=list(shapes), texts=list(texts),
                     ink=np.zeros((H, W), bool))


def test_chen_entities_attributes_relationship_and_cardinalities():
    shapes = [
        _shape("rect", (100, 100, 200, 140), "Customer"),                       # 0
        _shape("rect", (500, 100, 600, 140), "Order", double=True),             # 1 weak
        _shape("diamond", (300, 100, 400, 140), "places", double=True),         # 2
        _shape("ellipse", (80, 20, 180, 60), "cust_id", underlined=["cust_id"]),  # 3 pk
        _shape("ellipse", (200, 20, 300, 60), "phone", double=True),            # 4 mv
        _shape("ellipse", (60, 200, 160, 240), "age", dashed=True),             # 5 derived
        _shape("ellipse", (180, 200, 280, 240), "address"),                     # 6 composite
        _shape("ellipse", (180, 300, 280, 340), "street"),                      # 7 component
        _shape("ellipse", (300, 20, 400, 60), "since"),                         # 8 rel attr
    ]
    conns = [
        _conn(3, (130, 60), 0, (140, 100)), _conn(4, (250, 60), 0, (180, 100)),
        _conn(5, (110, 200), 0, (130, 140)), _conn(6, (230, 200), 0, (170, 140)),
        _conn(7, (230, 300), 6, (230, 240)), _conn(8, (350, 60), 2, (350, 100)),
        _conn(2, (300, 120), 0, (200, 120)), _conn(2, (400, 120), 1, (500, 120)),
    ]
    texts = [TextItem("1", (210, 100, 218, 114)), TextItem("N", (480, 100, 492, 114))]
    er = assemble_er(_inv(shapes, texts), conns)
    c = er.entities["Customer"]
    assert c.attributes == ["cust_id", "phone", "age", "address"]
    assert c.primary_keys == ["cust_id"] and c.multivalued == ["phone"]
    assert c.derived == ["age"] and c.composite == {"address": ["street"]}
    assert er.entities["Order"].weak and not c.weak
    (rel,) = [r for r in er.relationships if isinstance(r, Relationship)]
    assert rel.name == "places" and rel.weak and rel.attributes == ["since"]
    assert dict(zip(rel.entities, rel.cardinalities)) == {"Customer": "1", "Order": "N"}


def test_isa_superclass_is_on_the_apex_side():
    shapes = [
        _shape("triangle", (300, 200, 360, 250), "ISA"),      # apex up at y=200
        _shape("rect", (280, 80, 380, 120), "Account"),       # above the apex
        _shape("rect", (150, 350, 250, 390), "Savings"),
        _shape("rect", (400, 350, 500, 390), "Checking"),
    ]
    conns = [_conn(1, (330, 120), 0, (330, 200)), _conn(2, (200, 350), 0, (310, 250)),
             _conn(3, (450, 350), 0, (350, 250))]
    er = assemble_er(_inv(shapes), conns)
    (isa,) = [r for r in er.relationships if isinstance(r, IsA)]
    assert isa.superclass == "Account" and sorted(isa.subclasses) == ["Checking", "Savings"]


def test_recursive_and_ternary_relationships():
    shapes = [
        _shape("rect", (100, 100, 200, 140), "Employee"),
        _shape("diamond", (300, 100, 400, 140), "manages"),
        _shape("rect", (100, 300, 200, 340), "Part"),
        _shape("rect", (500, 300, 600, 340), "Supplier"),
        _shape("diamond", (300, 300, 400, 340), "supplies"),
    ]
    conns = [_conn(1, (300, 115), 0, (200, 110)), _conn(1, (300, 125), 0, (200, 130)),
             _conn(4, (300, 320), 2, (200, 320)), _conn(4, (400, 320), 3, (500, 320)),
             _conn(4, (350, 300), 0, (150, 140))]
    er = assemble_er(_inv(shapes), conns)
    rels = {r.name: r for r in er.relationships}
    assert rels["manages"].entities == ["Employee", "Employee"]
    assert sorted(rels["supplies"].entities) == ["Employee", "Part", "Supplier"]


def test_cardinality_goes_to_the_nearest_line_end():
    inv = _inv([], [TextItem("N", (190, 95, 198, 105)), TextItem("1", (100, 300, 108, 310))])
    lines = [Link(0, 1, np.array([[0.0, 100.0], [200.0, 100.0]])),
             Link(0, 2, np.array([[0.0, 200.0], [100.0, 320.0]]))]
    cards = assign_cardinalities(inv, lines, 40)
    assert cards == {0: "N", 1: "1"}


def test_clean_label_drops_spaces_around_underscores():
    assert clean_label(" end _ time ") == "end_time"
    assert clean_label("Order  Line") == "Order Line"
    # A space inside a CamelCase name is OCR's; plain words stay apart.
    assert clean_label("Temporary DigitalProduct") == "TemporaryDigitalProduct"
    assert clean_label("Order line") == "Order line"


def _ink_inv(shapes, lines=(), triangles=()):
    """An inventory whose ink holds the box outlines, straight lines and triangle outlines."""
    ink = np.zeros((H, W), np.uint8)
    for s in shapes:
        x1, y1, x2, y2 = s.bbox
        cv2.rectangle(ink, (x1, y1), (x2 - 1, y2 - 1), 1, 2)
    for p, q in lines:
        cv2.line(ink, p, q, 1, 2)
    for pts in triangles:
        cv2.polylines(ink, [np.array(pts, np.int32)], True, 1, 2)
    inv = _inv(shapes)
    inv.ink = ink.astype(bool)
    return inv


def test_untraced_line_between_centres_is_recovered_from_the_ink():
    shapes = [_shape("rect", (100, 100, 200, 140), "Fare"),
              _shape("diamond", (300, 100, 400, 140), "priced_at"),
              _shape("rect", (500, 100, 600, 140), "Booking"),
              _shape("rect", (300, 400, 400, 440), "Region")]
    # Fare - priced_at is drawn but was not traced; Region is not joined at all.
    inv = _ink_inv(shapes, lines=[((200, 120), (300, 120)), ((400, 120), (500, 120))])
    er = assemble_er(inv, [_conn(1, (400, 120), 2, (500, 120))])
    (rel,) = er.relationships
    assert sorted(rel.entities) == ["Booking", "Fare"]


def test_relationship_with_one_line_found_is_recursive():
    shapes = [_shape("rect", (100, 100, 200, 140), "Worker"),
              _shape("diamond", (300, 100, 400, 140), "trains")]
    texts = [TextItem("1", (205, 100, 213, 114)), TextItem("N", (205, 126, 215, 140))]
    er = assemble_er(_inv(shapes, texts), [_conn(1, (300, 120), 0, (200, 120))])
    (rel,) = er.relationships
    assert rel.entities == ["Worker", "Worker"]
    assert sorted(rel.cardinalities) == ["1", "N"]


def test_line_with_arrowhead_between_boxes_is_a_specialisation():
    shapes = [_shape("rect", (300, 100, 400, 140), "Account"),
              _shape("rect", (300, 300, 400, 340), "Savings"),
              _shape("rect", (550, 100, 650, 140), "Loan")]
    head = [(350, 142), (343, 156), (357, 156)]    # hollow head on Account's border
    lines = [((350, 156), (350, 300)), ((402, 120), (550, 120))]
    inv = _ink_inv(shapes, lines=lines, triangles=[head])
    conns = [_conn(1, (350, 300), 0, (350, 156)), _conn(2, (550, 120), 0, (402, 120))]
    er = assemble_er(inv, conns)
    (isa,) = [r for r in er.relationships if isinstance(r, IsA)]
    assert isa.superclass == "Account" and isa.subclasses == ["Savings"]
    # The plain line is a relationship between the boxes, not a specialisation.
    (rel,) = [r for r in er.relationships if isinstance(r, Relationship)]
    assert sorted(rel.entities) == ["Account", "Loan"]


def test_attribute_crossed_by_a_line_keeps_its_own_owner():
    shapes = [_shape("rect", (100, 300, 200, 340), "Flight"),
              _shape("diamond", (500, 300, 600, 340), "operates"),
              _shape("ellipse", (300, 280, 400, 360), "flight_no"),
              _shape("rect", (700, 300, 800, 340), "Airline")]
    # The Flight - operates line runs straight across the ellipse; the ellipse's own line
    # goes up-left to Flight's centre.
    lines = [((200, 320), (500, 320)), ((600, 320), (700, 320)), ((300, 316), (200, 318))]
    inv = _ink_inv(shapes, lines=lines)
    conns = [_conn(0, (200, 320), 2, (300, 320)), _conn(2, (400, 320), 1, (500, 320)),
             _conn(1, (600, 320), 3, (700, 320))]
    er = assemble_er(inv, conns)
    assert er.entities["Flight"].attributes == ["flight_no"]
    (rel,) = er.relationships
    assert rel.attributes == [] and sorted(rel.entities) == ["Airline", "Flight"]


def test_no_specialisation_on_a_page_drawn_with_crows_feet():
    # The page of the arrowhead test, but the Loan line ends in a crow's foot at each
    # end: crow's-foot notation draws no IS-A heads, so the head at Account is an end mark.
    shapes = [_shape("rect", (300, 100, 400, 140), "Account"),
              _shape("rect", (300, 300, 400, 340), "Savings"),
              _shape("rect", (550, 100, 650, 140), "Loan")]
    head = [(350, 142), (343, 156), (357, 156)]
    foot = [((530, 120), (548, 108)), ((530, 120), (548, 132)),
            ((420, 120), (402, 108)), ((420, 120), (402, 132))]
    lines = [((350, 156), (350, 300)), ((402, 120), (548, 120))] + foot
    inv = _ink_inv(shapes, lines=lines, triangles=[head])
    conns = [_conn(1, (350, 300), 0, (350, 156)), _conn(2, (548, 120), 0, (402, 120))]
    er = assemble_er(inv, conns)
    assert not [r for r in er.relationships if isinstance(r, IsA)]
    rels = [r for r in er.relationships if isinstance(r, Relationship)]
    assert sorted(sorted(r.entities) for r in rels) == [["Account", "Loan"],
                                                        ["Account", "Savings"]]
