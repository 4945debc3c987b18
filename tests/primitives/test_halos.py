"""A box whose border a white-haloed arrowhead cut open, closed again (issue 19)."""

import math

import numpy as np
from PIL import Image, ImageDraw

from cvparse.primitives.elements import Scale
from cvparse.primitives.halos import bridge_halos, solid_blobs
from cvparse.primitives.labelling import components
from cvparse.primitives.regions import enclosed_regions
from cvparse.primitives.shapes import classify

SCALE = Scale(stroke=2.0, text_height=12.5)


def _head(tip: tuple[float, float], angle: float, size: float) -> list[tuple[float, float]]:
    """A filled head: back corners at +-0.82 pi from the direction of travel."""
    back = [(tip[0] + size * math.cos(angle + math.pi + s * 0.18 * math.pi),
             tip[1] + size * math.sin(angle + math.pi + s * 0.18 * math.pi)) for s in (1, -1)]
    return [tip, back[0], back[1]]


def _haloed_box(size: float = 13) -> np.ndarray:
    """A box with a line coming in from the left, its head drawn after the box over a
    white margin a few pixels wide all round, the tip five pixels inside the border."""
    img = Image.new("L", (200, 120), 255)
    d = ImageDraw.Draw(img)
    d.line([(10, 60), (75, 60)], fill=0, width=2)
    d.rounded_rectangle([70, 35, 170, 85], radius=6, outline=0, width=2, fill=245)
    tip, angle = (75.0, 60.0), 0.0
    halo = _head(tip, angle, size + 5)
    d.polygon(halo, fill=255)
    d.line(halo + [halo[0]], fill=255, width=6, joint="curve")
    d.polygon(_head(tip, angle, size), fill=0)
    return np.asarray(img) < 128


def _box_region(mask: np.ndarray):
    return [r for r in enclosed_regions(mask, 20) if r.area > 2000]


def test_a_haloed_head_opens_the_border_and_the_bridge_closes_it():
    ink = _haloed_box()
    assert not _box_region(ink)  # the halo cut the border: the inside leaks out
    regions = _box_region(bridge_halos(ink, ink, SCALE))
    assert len(regions) == 1
    x1, y1, x2, y2 = regions[0].bbox
    assert x1 <= 78 and x2 >= 165 and y1 <= 40 and y2 >= 80
    kind, fit = classify(regions[0].filled)
    assert kind in ("rect", "round_rect") and fit >= 0.86


def test_lines_and_letters_are_not_heads():
    img = Image.new("L", (200, 120), 255)
    d = ImageDraw.Draw(img)
    d.line([(10, 20), (190, 20)], fill=0, width=2)
    d.line([(10, 30), (180, 110)], fill=0, width=3)
    d.text((20, 60), "Label text", fill=0)
    ink = np.asarray(img) < 128
    assert not solid_blobs(ink, SCALE).any()
    assert (bridge_halos(ink, ink, SCALE) == ink).all()


def test_a_filled_box_is_no_head():
    ink = np.zeros((120, 200), bool)
    ink[20:100, 20:120] = True  # 80 px: far larger than a head beside 12 px text
    assert not solid_blobs(ink, SCALE).any()
    img = Image.new("L", (200, 120), 0)
    ImageDraw.Draw(img).polygon(_head((100, 60), 0.0, 13), fill=255)
    head = np.asarray(img) > 128
    assert solid_blobs(head, SCALE).sum() >= 0.9 * head.sum()


def test_a_line_stopped_short_by_the_halo_joins_its_head():
    """The halo also shaves the end of the line off: the head stands apart, a few pixels
    ahead of it.  Bridged, line and head are one piece of ink again."""
    img = Image.new("L", (200, 120), 0)
    d = ImageDraw.Draw(img)
    d.line([(10, 60), (150, 60)], fill=255, width=3)
    d.polygon(_head((168, 60), 0.0, 14), fill=255)  # its base 3 px past the line end
    mask = np.asarray(img) > 128
    assert components(mask.astype(np.uint8), 8)[0] - 1 == 2
    joined = bridge_halos(mask, mask, SCALE, fill=False)
    assert components(joined.astype(np.uint8), 8)[0] - 1 == 1
    # only the gap is filled: the head and line keep their outline elsewhere
    assert joined.sum() - mask.sum() < 60
    assert not joined[:50].any() and not joined[71:].any()


def test_without_fill_heads_outside_the_mask_stay_out():
    ink = np.zeros((120, 200), bool)
    img = Image.new("L", (200, 120), 0)
    ImageDraw.Draw(img).polygon(_head((100, 60), 0.0, 13), fill=255)
    ink |= np.asarray(img) > 128
    assert not bridge_halos(np.zeros_like(ink), ink, SCALE, fill=False).any()
    assert bridge_halos(np.zeros_like(ink), ink, SCALE).sum() >= 0.9 * ink.sum()


def test_a_light_corner_the_wide_median_took_for_ink_is_no_head():
    """On a dark page the wide median reads the inside corner of a light box as ink: a
    solid wedge, light inside, whose only dark pixels are the border lines it sits in."""
    rgb = np.full((60, 60, 3), (90, 40, 120), np.uint8)
    rgb[10:, 10:] = (236, 236, 255)
    rgb[10:13, 10:] = rgb[10:, 10:13] = 0
    ink = np.zeros((60, 60), bool)
    ink[10:28, 10:28] = np.tril(np.ones((18, 18), bool))[::-1]
    ink[10:13, 10:] = ink[10:, 10:13] = True
    assert solid_blobs(ink, SCALE).any()
    assert not solid_blobs(ink, SCALE, rgb).any()
    head = Image.new("L", (60, 60), 255)
    ImageDraw.Draw(head).polygon(_head((40, 30), 0.0, 14), fill=20)
    grey = np.asarray(head)
    assert solid_blobs(grey < 128, SCALE, np.dstack([grey] * 3)).any()
