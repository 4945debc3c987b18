"""The paper median settles windows by their majority value and filters only the rest:
every value must be the one ``cv2.medianBlur`` gives."""

import cv2
import numpy as np
import pytest

from cvparse.primitives.paper import (
    _histogram,
    ink_mask,
    is_gray,
    median_filter,
    noise_level,
    paper_map,
)

from .plain import plain_ink_mask, plain_noise
from .synth import canvas, font, to_array


def _diagram(colour: bool, noise: int = 0) -> np.ndarray:
    img, draw = canvas(420, 260, bg=(255, 255, 255))
    fill = (200, 220, 255) if colour else (210, 210, 210)
    draw.rectangle((20, 20, 200, 140), outline=(0, 0, 0), width=2, fill=fill)
    draw.rectangle((0, 200, 419, 259), fill=(90, 90, 90) if not colour else (20, 90, 20))
    draw.ellipse((240, 30, 400, 120), outline=(0, 0, 0), width=3)
    draw.line((200, 80, 240, 75), fill=(0, 0, 0), width=2)
    draw.text((40, 60), "Customer", fill=(0, 0, 0), font=font(20))
    draw.text((260, 150), "free words here", fill=(40, 40, 40), font=font(14))
    rgb = to_array(img)
    if noise:
        jitter = np.random.default_rng(5).integers(-noise, noise + 1, rgb.shape)
        rgb = np.clip(rgb.astype(int) + jitter, 0, 255).astype(np.uint8)
    return rgb


@pytest.mark.parametrize("k", [3, 7, 9, 15, 31, 45])
def test_median_filter_equals_opencv(k):
    pages = [_diagram(False)[..., 0], _diagram(True)[..., 2], _diagram(False, noise=3)[..., 1],
             np.random.default_rng(k).integers(0, 256, (90, 130), dtype=np.uint8),
             np.full((50, 70), 37, np.uint8)]
    for page in pages:
        page = np.ascontiguousarray(page)
        assert np.array_equal(median_filter(page, k), cv2.medianBlur(page, k))


def test_median_filter_settles_edges_and_small_pages():
    page = np.ascontiguousarray(_diagram(False)[..., 0])
    for crop in (page[:40, :300], page[:, :33], page[190:, 380:], page[:20, :20]):
        crop = np.ascontiguousarray(crop)
        for k in (9, 15, 31):
            assert np.array_equal(median_filter(crop, k), cv2.medianBlur(crop, k))


def test_paper_map_equals_opencv_per_channel():
    for rgb in (_diagram(True), _diagram(False), _diagram(True, noise=6)):
        for k in (7, 15, 33):
            assert np.array_equal(paper_map(rgb, k), cv2.medianBlur(rgb, k))


def test_noise_level_shortcut_equals_the_formula():
    rng = np.random.default_rng(2)
    clean = np.zeros(5000, np.float32)
    clean[:1500] = rng.random(1500, dtype=np.float32) * 50
    cases = [clean, clean[:2001], np.zeros(7, np.float32), np.ones(9, np.float32),
             np.where(clean > 0, clean, 1e-7).astype(np.float32),  # tiny, not zero
             np.concatenate([clean, -np.ones(10, np.float32)]),  # negative values
             rng.random(3000, dtype=np.float32) * 9,  # noisy: no shortcut
             np.concatenate([np.zeros(61, np.float32), np.arange(1, 40, dtype=np.float32)]),
             np.concatenate([np.zeros(60, np.float32), np.arange(1, 41, dtype=np.float32)])]
    for dist in cases:
        assert noise_level(dist) == plain_noise(dist)


def test_ink_mask_gray_and_colour_equal_the_formula():
    noisy_gray = np.repeat(_diagram(False, noise=4)[..., :1], 3, axis=-1)
    for rgb in (_diagram(False), _diagram(True), noisy_gray, _diagram(True, 5)):
        for k in (9, 15, 31):
            paper = paper_map(rgb, k)
            ink = ink_mask(rgb, paper)
            assert ink.any() and not ink.all()
            assert np.array_equal(ink, plain_ink_mask(rgb, paper))


def test_known_grayness_gives_the_same_paper_and_ink():
    for rgb in (_diagram(False), _diagram(True)):
        gray = is_gray(rgb)
        for k in (9, 15, 31):
            paper = paper_map(rgb, k)
            assert np.array_equal(paper_map(rgb, k, gray), paper)
            assert np.array_equal(ink_mask(rgb, paper, gray=gray), ink_mask(rgb, paper))


def test_histogram_counts_like_bincount():
    rng = np.random.default_rng(4)
    for page in (np.ascontiguousarray(_diagram(True)[..., 1]),
                 rng.integers(0, 256, (300, 200), dtype=np.uint8),
                 np.full((40, 60), 255, np.uint8)):
        hist = _histogram(page)
        assert hist.dtype == np.int64
        assert np.array_equal(hist, np.bincount(page.ravel(), minlength=256))


def test_is_gray_sees_one_changed_value_anywhere():
    rng = np.random.default_rng(9)
    page = np.repeat(rng.integers(0, 256, (37, 53, 1), dtype=np.uint8), 3, axis=-1)
    assert is_gray(page) and is_gray(page[:, :, ::-1].copy())
    for y, x, c, delta in [(0, 0, 0, 1), (36, 52, 2, 255), (18, 20, 1, 128), (5, 9, 2, 3)]:
        other = page.copy()
        other[y, x, c] ^= delta
        assert not is_gray(other)
        assert not is_gray(other[::-1])  # a view not C-contiguous: the plain comparison
    assert not is_gray(page[..., :2]) and not is_gray(page[..., 0])
    assert is_gray(page.astype(np.float32))
