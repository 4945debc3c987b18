"""UML class names: the class-kind badge is cut out of the name crop, a name is one
identifier, and a whole synthetic diagram reads with its direction taken from the drawing."""

import cv2
import numpy as np
import pytest

from cvparse.assembly.uml.classes import _class_name, _name_crop
from cvparse.pipeline import parse
from cvparse.primitives.glyphs import REPEATS, repeat_glyph, repeated_letter
from tests.primitives.synth import canvas, font, to_array


def _header(name, badge=True, fill=(254, 254, 206)):
    img, d = canvas(150, 40, fill)
    if badge:
        d.ellipse((6, 8, 30, 32), fill=(173, 209, 178), outline=(60, 60, 60), width=1)
        d.text((12, 10), "C", fill=(0, 0, 0), font=font(16))
    d.text((40, 10), name, fill=(0, 0, 0), font=font(16))
    return to_array(img)


def test_badge_is_removed_from_the_name_crop():
    with_badge = _name_crop(_header("Dog"), (0, 0, 150, 40), 1)
    without = _name_crop(_header("Dog", badge=False), (0, 0, 150, 40), 1)
    # the crop holds the name only: as wide as the name drawn alone, not the badge too
    assert abs(with_badge.shape[1] - without.shape[1]) <= 2
    assert abs(int((with_badge < 128).sum()) - int((without < 128).sum())) <= 3


def test_light_fill_under_a_badge_covering_most_of_the_compartment():
    img, d = canvas(44, 30, (255, 255, 255))
    d.ellipse((1, 1, 27, 27), fill=(173, 209, 178), outline=(60, 60, 60), width=1)
    d.text((30, 7), "M", fill=(0, 0, 0), font=font(14))
    crop = _name_crop(to_array(img), (0, 0, 44, 30), 0)
    assert crop.shape[1] < 20  # the letter, not the badge
    assert crop[0].min() == 255 and crop[:, -1].min() == 255  # white margin kept


def test_name_crop_keeps_a_letter_as_close_to_the_right_border_as_to_the_left():
    # A tight box: border line centres at x = 10 and x = 40, a letter stem three pixels
    # inside each; both stems are kept at an inset of three (the box's ends are centres).
    img = np.full((30, 51, 3), 255, np.uint8)
    img[5, 10:41] = img[25, 10:41] = 0
    img[5:26, 10] = img[5:26, 40] = 0
    img[10:19, 13] = img[10:19, 37] = 0
    img[13:19, 20:26] = 0  # a letter between them
    crop = _name_crop(img, (10, 5, 40, 25), 3)
    n, _, stats, _ = cv2.connectedComponentsWithStats((crop < 128).astype(np.uint8), 8)
    assert n - 1 == 3
    assert sorted(stats[1:, 2].tolist()) == [1, 1, 6]  # two stems and the letter, no border


def _blank_crop(w, h=20):
    crop = np.full((h, w), 255, np.uint8)
    crop[4:16, 3:w - 3] = 0
    return crop


@pytest.mark.parametrize("lines, width, name", [
    (["«interface»", "Flyable"], 60, "Flyable"),
    (["s"], 14, "S"),           # a lone letter whose cases look alike is a capital
    (["5"], 14, "S"),           # a class name cannot be a digit
    (["DB"], 14, "D"),          # one glyph is one letter
    (["MV"], 34, "MV"),         # two letters touching are not one glyph
    (["0rder"], 60, "Order"),
    (["lOException"], 90, "IOException"),
    (["WSGlTransport"], 120, "WSGITransport"),   # an l between capitals is an I
    (["_lOBase"], 70, "_IOBase"),
    (["HtmlParser"], 90, "HtmlParser"),          # after a lower-case letter it stays
    (["listItem"], 60, "listItem"),
])
def test_class_name_rules(lines, width, name):
    assert _class_name(lines, _blank_crop(width)) == name


def _diagram(tmp_path, left, right, triangle_at_right):
    """Two boxes side by side joined by a line with a hollow triangle at one end."""
    img, d = canvas(360, 120)
    for x, name in ((20, left), (220, right)):
        d.rectangle((x, 30, x + 120, 90), outline=(0, 0, 0), width=2)
        d.line((x, 60, x + 120, 60), fill=(0, 0, 0), width=2)
        d.text((x + 20, 36), name, fill=(0, 0, 0), font=font(16))
    y = 45
    if triangle_at_right:
        d.line((141, y, 200, y), fill=(0, 0, 0), width=1)
        d.polygon([(219, y), (200, y - 9), (200, y + 9)], outline=(0, 0, 0))
    else:
        d.line((160, y, 219, y), fill=(0, 0, 0), width=1)
        d.polygon([(141, y), (160, y - 9), (160, y + 9)], outline=(0, 0, 0))
    path = tmp_path / "uml.png"
    img.save(path)
    return str(path)


@pytest.mark.parametrize("left, right, triangle_at_right, parent", [
    ("Dog", "Animal", True, "Animal"),
    ("Dog", "Animal", False, "Dog"),     # the drawing, not the names, decides
])
def test_inheritance_direction_follows_the_triangle(tmp_path, left, right, triangle_at_right,
                                                    parent):
    doc = parse(_diagram(tmp_path, left, right, triangle_at_right), kind="uml").document
    assert sorted(c.name for c in doc.classes) == sorted([left, right])
    assert len(doc.relations) == 1
    rel = doc.relations[0]
    assert rel.type == "inheritance"
    assert rel.target == parent and rel.source == ({left, right} - {parent}).pop()


@pytest.mark.parametrize("text, letter", [
    ("TTT", "T"), ("sss", "S"), ("000", "O"), ("PPp", "P"),
    ("lozeze)", ""),   # many more characters than copies: not a consistent reading
    ("Tr1", ""),       # the copies disagree
])
def test_letter_from_a_repeated_glyph(text, letter):
    assert repeated_letter(text) == letter


def test_repeated_glyph_is_letter_spaced_copies():
    crop = np.full((20, 14), 255, np.uint8)
    crop[4:16, 5:9] = 0
    wide = repeat_glyph(crop)
    assert wide.shape[0] == 20
    n, _, stats, _ = cv2.connectedComponentsWithStats((wide < 128).astype(np.uint8), 8)
    assert n - 1 == REPEATS and (stats[1:, cv2.CC_STAT_AREA] == 48).all()


def _small_name(stem_apart: bool) -> np.ndarray:
    """A capital then three lower-case letters two thirds as tall, in tight small text."""
    img = np.full((24, 70, 3), 255, np.uint8)
    img[6:15, 8:10] = 0                      # the capital's stem, as tall as the line
    bowl = 11 if stem_apart else 8
    img[6, bowl:15] = img[10, bowl:15] = 0   # ... and its bowl
    img[6:11, 15] = 0
    for x in (18, 26, 34):
        img[9:15, x:x + 5] = 0
        img[10:14, x + 1:x + 4] = 255
    return img


def test_capital_starting_a_small_name_is_no_badge_nor_border():
    """A capital starting a name of lower-case letters stands about 1.5 times their height
    (a badge stands clearly taller); a capital's stem as tall as a tight crop is no border
    remnant unless it lies along a side."""
    for stem_apart, rect, parts in ((False, (2, 2, 48, 20), 4), (True, (2, 5, 48, 15), 5)):
        crop = _name_crop(_small_name(stem_apart), rect, 1)
        n = cv2.connectedComponentsWithStats((crop < 128).astype(np.uint8), 8)[0]
        assert n - 1 == parts                # the capital's parts and three letters


def test_borderless_box_is_cut_to_its_fill():
    # pyreverse's colourised look: a fill without border, found with a rim of paper and
    # blend; that rim would read as a text line of its own and split the name off
    from cvparse.primitives.classboxes import _fill_extent, text_compartments

    rgb = np.full((60, 200, 3), 255, np.uint8)
    fill = np.array([119, 170, 221], np.uint8)
    rgb[6:54, 5:190] = fill
    rgb[5, 5:190] = (164, 198, 232)  # blended edge row
    img, d = canvas(150, 20, tuple(int(v) for v in fill))
    d.text((4, 0), "rich.padding.Padding", fill=(0, 0, 0), font=font(14))
    rgb[20:40, 20:170] = to_array(img)
    bbox = _fill_extent(rgb, (3, 3, 192, 57), fill.astype(float))
    assert bbox == (5, 6, 189, 53)
    assert text_compartments(rgb, bbox, fill.astype(float), 14) == []


@pytest.mark.parametrize("reads, name", [
    # the upscaled copy echoes a capital in lower case; the other copy has it once
    ([("NodevVisitor", 59.0), ("NodeVisitor", 59.0)], "NodeVisitor"),
    ([("ColorTriplet", 80.0), ("ColortTriplet", 85.0)], "ColorTriplet"),
    # sans-serif l and I echo each other the same way
    ([("_NamedTextIOWrapper", 70.0), ("_NamedTextlIOWrapper", 80.0)], "_NamedTextIOWrapper"),
    # otherwise the more confident read wins, the larger copy on a tie
    ([("FrozeneError", 66.0), ("FrozenError", 82.0)], "FrozenError"),
    ([("Parser", 70.0), ("Parsar", 70.0)], "Parser"),
    # a valid name beats an invalid one however confident
    ([("Foo Bar!", 95.0), ("FooBar", 40.0)], "FooBar"),
    ([("FooBar", 40.0), ("", 0.0)], "FooBar"),
])
def test_name_read_chosen_between_the_two_copies(reads, name):
    from cvparse.assembly.uml.classes import _better_read
    assert _better_read(reads) == name
