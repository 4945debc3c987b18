"""Filled heads claimed by the connector ends that point at them (issue 19)."""

import math

import numpy as np
from PIL import Image, ImageDraw

from cvparse.connectors.headclaims import claim_heads
from cvparse.connectors.lines import Connector, End
from cvparse.primitives.items import Scale

SCALE = Scale(stroke=2.0, text_height=12.5)


def _head(tip: tuple[float, float], angle: float, size: float) -> list[tuple[float, float]]:
    """A filled head: back corners at +-0.82 pi from the direction of travel."""
    return [tip] + [(tip[0] + size * math.cos(angle + math.pi + s * 0.18 * math.pi),
                     tip[1] + size * math.sin(angle + math.pi + s * 0.18 * math.pi))
                    for s in (1, -1)]


def _ink(draw) -> np.ndarray:
    img = Image.new("L", (240, 160), 0)
    draw(ImageDraw.Draw(img))
    return np.asarray(img) > 128


def _line(a, b, markers=("none", "none")) -> Connector:
    a, b = np.asarray(a, float), np.asarray(b, float)
    u = (b - a) / float(np.hypot(*(b - a)))
    return Connector(points=np.array([a, b]),
                     ends=(End(point=tuple(a), direction=tuple(-u), marker=markers[0]),
                           End(point=tuple(b), direction=tuple(u), marker=markers[1])),
                     width=3.0)


def test_a_line_stopped_short_of_its_haloed_head_claims_it():
    """The halo leaves a gap between the line's end and its head: the end reads plain
    until it claims the head lying straight ahead."""
    def draw(d):
        d.line([(20, 80), (150, 80)], fill=255, width=3)
        d.polygon(_head((172, 80), 0.0, 14), fill=255)  # base about 10 px past the end

    traced = [_line((20, 80), (150, 80))]
    lines = claim_heads(traced, _ink(draw), SCALE)
    assert [e.marker for e in lines[0].ends] == ["none", "arrow"]
    assert [e.marker for e in traced[0].ends] == ["none", "none"]  # new lines, not these


def test_a_tail_beside_a_neighbours_head_is_plain():
    """A tail leaving a node side next to another line's head took that head's ink for
    its own; the head goes to the line pointing at it and the tail reads plain."""
    def draw(d):
        d.line([(20, 40), (150, 74)], fill=255, width=3)  # its head at (168, 78)
        d.polygon(_head((168, 79), math.atan2(34, 130), 14), fill=255)
        d.line([(164, 85), (40, 140)], fill=255, width=3)  # a tail leaving by the head

    ink = _ink(draw)
    head_line = _line((20, 40), (150, 74))
    tail_line = _line((40, 140), (164, 85), markers=("none", "arrow"))
    head_line, tail_line = claim_heads([head_line, tail_line], ink, SCALE)
    assert head_line.ends[1].marker == "arrow"
    assert tail_line.ends[1].marker == "none"


def test_a_head_drawn_across_an_ends_heading_is_not_claimed():
    """A head pointing across a line's heading (upwards, beside a line running right) is
    no head of that line."""
    def draw(d):
        d.line([(20, 80), (150, 80)], fill=255, width=3)
        d.polygon(_head((162, 72), -math.pi / 2, 14), fill=255)

    lines = [_line((20, 80), (150, 80))]
    lines = claim_heads(lines, _ink(draw), SCALE)
    assert lines[0].ends[1].marker == "none"


def test_ends_near_no_solid_head_keep_their_reading():
    def draw(d):
        d.line([(20, 80), (200, 80)], fill=255, width=3)
        d.line([(200, 80), (188, 72)], fill=255, width=2)  # an open head's arms
        d.line([(200, 80), (188, 88)], fill=255, width=2)

    lines = [_line((20, 80), (200, 80), markers=("none", "open_arrow"))]
    lines = claim_heads(lines, _ink(draw), SCALE)
    assert [e.marker for e in lines[0].ends] == ["none", "open_arrow"]


def test_a_line_with_two_heads_hands_one_to_a_headless_line():
    """A tail runs in right under another line's head (its end nearer the head's middle
    than the head's own line, which the halo stopped short): the tail's line already
    has a head at its far end, so the head goes to the line that has none."""
    angle = math.atan2(34, 130)

    def draw(d):
        d.line([(20, 40), (150, 74)], fill=255, width=3)
        d.polygon(_head((168, 79), angle, 14), fill=255)
        d.line([(40, 60), (160, 80)], fill=255, width=3)  # runs in under the head
        d.polygon(_head((28, 58), math.pi + 0.16, 14), fill=255)  # its own head

    ink = _ink(draw)
    head_line = _line((20, 40), (150, 74))
    tail_line = _line((40, 60), (160, 80), markers=("arrow", "arrow"))
    head_line, tail_line = claim_heads([head_line, tail_line], ink, SCALE)
    assert head_line.ends[1].marker == "arrow"
    assert [e.marker for e in tail_line.ends] == ["arrow", "none"]


def test_a_tail_does_not_claim_a_head_across_its_own_node():
    """A tail leaving the bottom of a short node heads up through it, on to where an
    open head meets the thick border at its top: a solid bump, widest at the border.  It
    lies across the tail's own node, so the tail stays plain, and the entering line
    (its last leg too short to give its heading) keeps the head the width test read."""
    node = (100, 64, 180, 84)

    def draw(d):
        d.rectangle(node, outline=255, width=4)
        d.line([(30, 30), (140, 30), (140, 64)], fill=255, width=2)
        d.line([(133, 55), (140, 64), (147, 55)], fill=255, width=2)  # an open head
        d.line([(140, 86), (140, 150)], fill=255, width=2)

    def lines():
        entering = _line((30, 30), (140, 58), markers=("none", "arrow"))
        entering.ends[1].direction = (-0.49, 0.87)  # the short last leg bent the heading
        return entering, _line((140, 150), (140, 86))

    entering, tail = lines()
    entering, tail = claim_heads([entering, tail], _ink(draw), SCALE,
                                 boxes=[(None, node), (None, node)])
    assert entering.ends[1].marker == "arrow"
    assert [e.marker for e in tail.ends] == ["none", "none"]
    # without the node boxes the tail takes the bump and the entering line reads plain
    entering, tail = lines()
    entering, tail = claim_heads([entering, tail], _ink(draw), SCALE)
    assert tail.ends[1].marker == "arrow" and entering.ends[1].marker == "none"


def test_a_haloed_head_reaching_into_its_node_is_still_claimed():
    """The head whose tip reaches a few pixels into the node the end docks to lies
    mostly before that node's box: the own-node rule leaves it to its line."""
    def draw(d):
        d.rectangle((169, 50, 230, 110), outline=255, width=2)
        d.line([(20, 80), (150, 80)], fill=255, width=3)
        d.polygon(_head((172, 80), 0.0, 14), fill=255)

    lines = [_line((20, 80), (150, 80))]
    lines = claim_heads(lines, _ink(draw), SCALE, boxes=[(None, (169, 50, 230, 110))])
    assert [e.marker for e in lines[0].ends] == ["none", "arrow"]


def test_a_head_whose_tip_reaches_into_a_border_still_points_along_its_line():
    """The stretch of border under a head's tip widens the blob at its tip, so it no
    longer narrows that way; its reach ahead of its middle still says where it points."""
    def draw(d):
        d.line([(20, 80), (146, 80)], fill=255, width=3)
        d.polygon(_head((172, 80), 0.0, 14), fill=255)
        d.line([(168, 20), (168, 150)], fill=255, width=3)  # the node's border

    lines = [_line((20, 80), (146, 80))]
    lines = claim_heads(lines, _ink(draw), SCALE, boxes=[(None, (167, 20, 230, 150))])
    assert [e.marker for e in lines[0].ends] == ["none", "arrow"]


def test_a_tail_beside_a_joined_head_is_plain_where_its_line_has_a_head():
    """A tail leaving a node side right beside another line's head, joined to that
    line, takes the head's ink for its own.  The tail's line has a head at its other
    end, the tail points at no head: it is plain, and the line has one head."""
    def draw(d):
        d.line([(190, 40), (127, 62)], fill=255, width=3)
        d.polygon(_head((116, 65), math.atan2(20, -58), 14), fill=255)
        d.line([(129, 70), (129, 126)], fill=255, width=3)
        d.polygon(_head((129, 152), math.pi / 2, 14), fill=255)  # haloed, apart

    joined = _line((190, 40), (127, 62), markers=("none", "arrow"))
    tail = _line((129, 70), (129, 126), markers=("arrow", "none"))
    joined, tail = claim_heads([joined, tail], _ink(draw), SCALE)
    assert [e.marker for e in joined.ends] == ["none", "arrow"]
    assert [e.marker for e in tail.ends] == ["none", "arrow"]


def test_a_joined_neighbours_head_leaves_a_single_headed_line_alone():
    """Beside a joined head, an end read as a head stays one where its line has no
    other head: two heads drawn into one blob (staggered ends) look the same."""
    def draw(d):
        d.line([(190, 40), (127, 62)], fill=255, width=3)
        d.polygon(_head((116, 65), math.atan2(20, -58), 14), fill=255)
        d.line([(124, 70), (124, 140)], fill=255, width=3)

    joined = _line((190, 40), (127, 62), markers=("none", "arrow"))
    other = _line((124, 140), (124, 70), markers=("none", "arrow"))
    joined, other = claim_heads([joined, other], _ink(draw), SCALE)
    assert [e.marker for e in other.ends] == ["none", "arrow"]
