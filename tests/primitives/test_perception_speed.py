"""The fast paths of the perception stage give exactly what the plain formulas give."""

import numpy as np

from cvparse.primitives import arrowheads, freetext
from cvparse.primitives.items import Scale
from cvparse.primitives.inventory import page_ink
from cvparse.primitives.ocr import read_crops, read_crops_later
from cvparse.arrays import colour_distance
from cvparse.primitives.paper import background_colour, ink_mask, paper_map
from cvparse.primitives.scale import estimate_scale

from .plain import plain_distance, plain_head_sides, plain_ink_mask
from .synth import canvas, font, to_array


def _page(text_size=22, w=360, h=220):
    img, draw = canvas(w, h, bg=(250, 246, 230))
    draw.rectangle((20, 20, 160, 90), outline=(20, 20, 20), width=2, fill=(200, 220, 255))
    draw.ellipse((200, 40, 330, 120), outline=(120, 0, 0), width=3)
    draw.line((160, 55, 200, 80), fill=(0, 0, 0), width=2)
    draw.text((40, 40), "Order", fill=(0, 0, 0), font=font(text_size))
    draw.text((40, 150), "free text", fill=(30, 30, 30), font=font(text_size))
    rgb = to_array(img)
    noise = np.random.default_rng(1).integers(-6, 7, rgb.shape)
    return np.clip(rgb.astype(int) + noise, 0, 255).astype(np.uint8)


def test_colour_distance_is_bit_identical_to_the_float_formula():
    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, (37, 53, 3), dtype=np.uint8)
    other = rng.integers(0, 256, (37, 53, 3), dtype=np.uint8)
    for ref in (other, (255, 255, 255), (0, 0, 0), np.array([12, 200, 7]),
                np.array([12.5, 200.0, 7.0]), (0.25, 3, 9)):
        fast, plain = colour_distance(rgb, ref), plain_distance(rgb, ref)
        assert fast.dtype == plain.dtype == np.float32
        assert np.array_equal(fast.view(np.uint32), plain.view(np.uint32))


def test_ink_mask_is_identical_to_the_plain_formula():
    for size in (8, 22):
        rgb = _page(text_size=size)
        for k in (7, 15, 45):
            paper = paper_map(rgb, k)
            ink = ink_mask(rgb, paper)
            assert ink.any() and not ink.all()
            assert np.array_equal(ink, plain_ink_mask(rgb, paper))


def test_page_ink_matches_the_step_by_step_computation():
    for size in (8, 22):  # tiny text reuses the first median; normal text does not
        rgb = _page(text_size=size)
        paper, ink, fine, scale = page_ink(rgb)
        first_scale = estimate_scale(ink_mask(rgb, paper_map(rgb, 15)))
        ref_paper = paper_map(rgb, max(15, 2 * first_scale.text_height))
        ref_ink = ink_mask(rgb, ref_paper)
        ref_scale = estimate_scale(ref_ink)
        ref_fine = ink_mask(rgb, paper_map(rgb, max(7, 4 * ref_scale.stroke + 1)),
                            background=background_colour(rgb), fills=ref_paper)
        assert np.array_equal(paper, ref_paper)
        assert np.array_equal(ink, ref_ink)
        assert np.array_equal(fine, ref_fine)
        assert scale == ref_scale


def test_head_sides_vectorised_matches_ray_by_ray():
    img, draw = canvas(200, 160, bg=(255, 255, 255))
    draw.line((20, 80, 150, 80), fill=(0, 0, 0), width=2)
    draw.line((150, 80, 135, 70), fill=(0, 0, 0), width=2)
    draw.line((150, 80, 135, 90), fill=(0, 0, 0), width=2)
    draw.line((30, 20, 90, 140), fill=(0, 0, 0), width=2)
    near = (to_array(img)[..., 0] < 128)
    rng = np.random.default_rng(3)
    hits = 0
    for th in (4.0, 12.0, 16.25):
        scale = Scale(stroke=2.0, text_height=th)
        tips = [((150, 80), (-130, 0)), ((20, 80), (130, 0)), ((0, 0), (5, 5))]
        tips += [((int(x), int(y)), (int(a), int(b))) for x, y, a, b in
                 rng.integers(-20, 200, (40, 4))]
        for tip, back in tips:
            want = plain_head_sides(near, tip, back, scale)
            assert arrowheads.head_sides(near, tip, back, scale) == want
            hits += bool(want)
    assert hits > 0


def test_labels_read_in_the_background_match_a_direct_read():
    img, draw = canvas(200, 40)
    draw.text((8, 6), "Customer", fill=(0, 0, 0), font=font(24))
    crop = to_array(img)[..., 0]
    later = read_crops_later([crop], text_height=28)
    assert later() == read_crops([crop], text_height=28)
    assert read_crops_later([], text_height=28)() == []


def _plain_thin_fraction(mask, xs, ys, d, stroke):
    h, w = mask.shape
    nx, ny = -float(d[1]), float(d[0])
    norm = max(1e-6, float(np.hypot(nx, ny)))
    nx, ny = nx / norm, ny / norm
    reach = int(np.ceil(stroke)) + 3
    runs = np.ones(len(xs))
    for sign in (1, -1):
        alive = np.ones(len(xs), bool)
        for k in range(1, reach + 1):
            px = np.clip(np.round(xs + sign * k * nx).astype(int), 0, w - 1)
            py = np.clip(np.round(ys + sign * k * ny).astype(int), 0, h - 1)
            alive &= mask[py, px]
            runs += alive
    return float((runs <= stroke + 2).mean())


def test_thin_fraction_vectorised_matches_step_by_step():
    img, draw = canvas(220, 120, bg=(255, 255, 255))
    draw.line((10, 30, 200, 30), fill=(0, 0, 0), width=2)
    draw.line((10, 100, 200, 60), fill=(0, 0, 0), width=3)
    draw.text((40, 32), "Main", fill=(0, 0, 0), font=font(22))
    mask = to_array(img)[..., 0] < 128
    h, w = mask.shape
    values = set()
    for x1, y1, x2, y2 in ((10, 30, 200, 30), (10, 100, 200, 60), (40, 33, 90, 33),
                           (0, 0, 219, 119)):
        n = max(abs(x2 - x1), abs(y2 - y1)) + 1
        xs = np.linspace(x1, x2, n).round().astype(int).clip(0, w - 1)
        ys = np.linspace(y1, y2, n).round().astype(int).clip(0, h - 1)
        for stroke in (1.0, 2.0, 2.5):
            want = _plain_thin_fraction(mask, xs, ys, (x2 - x1, y2 - y1), stroke)
            assert freetext._thin_fraction(mask, xs, ys, (x2 - x1, y2 - y1), stroke) == want
            values.add(want)
    assert len(values) > 2


def test_region_masks_match_the_plain_numpy_forms():
    import cv2

    from cvparse.primitives.regions import (
        enclosed_regions,
        fill_holes,
        region_from_mask,
    )

    ring = np.zeros((40, 50), bool)
    ring[5:35, 8:45] = True
    ring[10:30, 14:40] = False  # a hole
    ring[18:22, 20:24] = True  # an island in the hole
    plain = np.zeros(ring.shape, np.uint8)
    contours, _ = cv2.findContours(ring.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    cv2.drawContours(plain, contours, -1, 1, thickness=cv2.FILLED)
    filled = fill_holes(ring)
    assert filled.dtype == bool and np.array_equal(filled, plain.astype(bool))
    assert np.array_equal(fill_holes(ring[::-1].copy()), filled[::-1])
    r = region_from_mask(np.pad(filled, ((3, 0), (7, 0))), 100, 200, 5)
    assert r.bbox == (100 + 7 + 8, 200 + 3 + 5, 100 + 7 + 45, 200 + 3 + 35)
    assert r.area == int(filled.sum()) == 30 * 37
    assert r.contour[:, 0].min() == r.bbox[0] and r.contour[:, 1].max() == r.bbox[3] - 1
    page = np.zeros((60, 80), bool)
    page[10:50, 10:70] = True
    page[12:48, 12:68] = False  # one closed box
    page[20:30, 20:23] = True  # a letter inside
    (inside,) = enclosed_regions(page, 50)
    assert inside.bbox == (12, 12, 68, 48) and inside.area == 36 * 56
    assert inside.paper_area == 36 * 56 - 30


def test_colour_distance_to_one_colour_on_views_rows_and_pixels():
    rng = np.random.default_rng(3)
    rgb = rng.integers(0, 256, (41, 67, 3), dtype=np.uint8)
    for part in (rgb[5:30, 9:50], rgb[::-1], rgb[:1], rgb[:, :1], rgb[:1, :1], rgb[:0]):
        for ref in ((255, 255, 255), np.array([3, 250, 128], np.uint8)):
            fast, plain = colour_distance(part, ref), plain_distance(part, ref)
            assert fast.shape == part.shape[:2] and fast.dtype == np.float32
            assert np.array_equal(fast.view(np.uint32), plain.view(np.uint32))


def test_colour_distance_in_row_bands_is_bit_identical(monkeypatch):
    """Band by band (many bands here) the distances are those of the whole-image formula,
    for colour refs in half steps (the fill palette's), other float refs, image refs and
    float images."""
    from cvparse import arrays

    monkeypatch.setattr(arrays, "BAND_PIXELS", 150)
    rng = np.random.default_rng(5)
    rgb = rng.integers(0, 256, (29, 61, 3), dtype=np.uint8)
    other = rng.integers(0, 256, rgb.shape, dtype=np.uint8)
    assert len(arrays.row_bands(*rgb.shape[:2])) > 10
    for img, ref in ((rgb, (37.5, 101.5, 254.5)), (rgb, np.array([0.5, 0.0, 255.0])),
                     (rgb, np.array([12.3, 200.0, 7.7])), (rgb, other),
                     (rgb, (-3.0, 260.0, 9.0)), (rgb.astype(np.float32) / 3, (1.5, 2, 3)),
                     (rgb.astype(np.float32), other.astype(np.float32)),
                     (rgb[None, 3, :5], (255, 255, 255))):
        fast, plain = colour_distance(img, ref), plain_distance(img, ref)
        assert fast.shape == plain.shape and fast.dtype == plain.dtype == np.float32
        assert np.array_equal(fast.view(np.uint32), plain.view(np.uint32)), ref
