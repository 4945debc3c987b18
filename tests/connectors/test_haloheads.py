"""Heads a white halo set apart from their lines, joined to them again (issue 19)."""

from cvparse.connectors.haloheads import bridge_halos
from tests.primitives.test_halos import SCALE, _head, _mask, _pieces, _short_line


def test_a_line_stopped_short_by_the_halo_joins_its_head():
    mask = _mask(_short_line)
    assert _pieces(mask) == 2
    joined = bridge_halos(mask, mask, SCALE)
    assert _pieces(joined) == 1
    # only the gap is filled: the head and line keep their outline elsewhere
    assert joined.sum() - mask.sum() < 60
    assert not joined[:50].any() and not joined[71:].any()


def test_a_head_is_not_bridged_to_a_letter_by_it():
    mask = _mask(lambda d: _short_line(d, letter=True))
    joined = bridge_halos(mask, mask, SCALE)
    assert _pieces(joined) == 2  # line and head joined, the letter left alone
    assert (joined[:, 170:] == mask[:, 170:]).all()


def test_a_head_still_on_its_line_is_left_alone():
    def draw(d):
        d.line([(10, 60), (160, 60)], fill=255, width=3)
        d.polygon(_head((168, 60), 0.0, 14), fill=255)
        d.line([(10, 80), (190, 80)], fill=255, width=2)  # another line passing by
    mask = _mask(draw)
    assert (bridge_halos(mask, mask, SCALE) == mask).all()


def test_a_corner_of_a_head_cut_off_in_the_mask_is_no_head():
    def draw(d):
        d.line([(10, 60), (160, 60)], fill=255, width=3)
        d.polygon(_head((168, 60), 0.0, 14), fill=255)
        d.line([(172, 10), (172, 110)], fill=255, width=2)  # a line passing by the tip
    ink = _mask(draw)
    mask = ink.copy()
    mask[:, 164:166] = False  # the tip cut off (a node's cleared margin)
    mask[:, 170:] = ink[:, 170:]
    joined = bridge_halos(mask, ink, SCALE)
    assert (joined == mask).all()
