"""Filled heads found as solid blobs, and boxes a haloed head cut open (issue 19)."""

import math

import numpy as np
from PIL import Image, ImageDraw

from cvparse.arrays import components
from cvparse.primitives.halos import solid_blobs
from cvparse.primitives.items import Scale

SCALE = Scale(stroke=2.0, text_height=12.5)


def _head(tip: tuple[float, float], angle: float, size: float) -> list[tuple[float, float]]:
    """A filled head: back corners at +-0.82 pi from the direction of travel."""
    back = [(tip[0] + size * math.cos(angle + math.pi + s * 0.18 * math.pi),
             tip[1] + size * math.sin(angle + math.pi + s * 0.18 * math.pi)) for s in (1, -1)]
    return [tip, back[0], back[1]]


def _mask(draw) -> np.ndarray:
    img = Image.new("L", (200, 120), 0)
    draw(ImageDraw.Draw(img))
    return np.asarray(img) > 128


def _pieces(mask: np.ndarray) -> int:
    return components(mask.astype(np.uint8), 8)[0] - 1


def _short_line(d, letter: bool = False) -> None:
    d.line([(10, 60), (150, 60)], fill=255, width=3)
    d.polygon(_head((168, 60), 0.0, 14), fill=255)  # its base 3 px past the line end
    if letter:
        d.rectangle([172, 56, 174, 66], fill=255)  # a letter's stem by the tip


def test_lines_letters_and_filled_boxes_are_not_heads():
    def draw(d):
        d.line([(10, 20), (190, 20)], fill=255, width=2)
        d.line([(10, 30), (180, 110)], fill=255, width=3)
        d.text((20, 60), "Label text", fill=255)
        d.rectangle([120, 50, 136, 66], fill=255)  # a filled square, head-sized
        d.ellipse([150, 50, 166, 66], fill=255)    # a filled disc
    mask = _mask(draw)
    assert not solid_blobs(mask, SCALE).any()
    big = np.zeros((120, 200), bool)
    big[20:100, 20:120] = True  # 80 px: far larger than a head beside 12 px text
    assert not solid_blobs(big, SCALE).any()
    head = _mask(lambda d: d.polygon(_head((100, 60), 0.0, 13), fill=255))
    assert solid_blobs(head, SCALE).sum() >= 0.9 * head.sum()


def test_a_box_cut_open_by_a_haloed_head_is_found():
    """The halo under a head whose tip reaches into a box erases the border on both
    flanks: the box encloses nothing until the head is grown by its halo."""
    from cvparse.primitives.inventory import build_inventory

    img = Image.new("RGB", (260, 160), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([120, 50, 230, 110], radius=4, fill=(250, 250, 250),
                        outline=(54, 68, 86), width=2)
    d.line([(20, 80), (110, 80)], fill=(25, 25, 25), width=3)
    tip = (125, 80)
    d.polygon(_head(tip, 0.0, 20), fill=(255, 255, 255))  # the halo, drawn first
    d.polygon(_head(tip, 0.0, 15), fill=(25, 25, 25))
    rgb = np.asarray(img).copy()
    boxes = [s for s in build_inventory(rgb, ocr=False).shapes if s.bbox[2] - s.bbox[0] > 80]
    assert len(boxes) == 1
    x1, y1, x2, y2 = boxes[0].bbox
    assert abs(x1 - 120) <= 3 and abs(x2 - 231) <= 3 and abs(y1 - 50) <= 3
