"""Foreground/background separation that survives coloured backgrounds and filled shapes.

"Paper" is every large flat area: the page background and the fills inside shapes.  A wide
median filter removes thin things (lines, text, small markers) and leaves the paper colour
under every pixel; ink is whatever differs from its local paper colour by more than the
image's own noise allows, plus the edges between two paper colours (a fill without an
outline still separates its inside from the page).
"""

from __future__ import annotations

import cv2
import numpy as np


def background_colour(rgb: np.ndarray) -> tuple[int, int, int]:
    """Most common colour of the image border (quantised to absorb JPEG noise)."""
    h, w = rgb.shape[:2]
    m = max(1, min(h, w) // 50)
    border = np.concatenate([rgb[:m].reshape(-1, 3), rgb[-m:].reshape(-1, 3),
                             rgb[:, :m].reshape(-1, 3), rgb[:, -m:].reshape(-1, 3)])
    q = (border // 8).astype(np.int32)
    keys = q[:, 0] * 1024 + q[:, 1] * 32 + q[:, 2]
    top = np.bincount(keys).argmax()
    sel = border[keys == top]
    return tuple(int(v) for v in np.median(sel, axis=0))


def colour_distance(rgb: np.ndarray, ref: np.ndarray | tuple) -> np.ndarray:
    """Euclidean RGB distance of every pixel to ``ref`` (a colour or an image), float32."""
    ref_arr = np.asarray(ref)
    if (rgb.dtype == np.uint8 and rgb.ndim == 3 and rgb.shape[-1] == 3
            and (ref_arr.dtype == np.uint8
                 or (ref_arr.shape == (3,) and np.array_equal(ref_arr, np.round(ref_arr))
                     and ref_arr.min() >= 0 and ref_arr.max() <= 255))):
        return _uint8_distance(rgb, ref_arr.astype(np.uint8))
    d = rgb.astype(np.float32) - np.asarray(ref, dtype=np.float32)
    return np.sqrt((d * d).sum(axis=-1))


def _uint8_distance(rgb: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """``colour_distance`` of uint8 colours, bit-identical and several times faster.

    Squared channel differences of 8-bit colours are integers below 2**18, so float32
    holds each square and their sum exactly whatever the order of the additions; the
    square root is then the same correctly rounded float32 value.
    """
    if ref.ndim == 1:
        ref = np.broadcast_to(ref, rgb.shape)
    diff = cv2.absdiff(rgb, np.ascontiguousarray(ref)).astype(np.float32)
    cv2.multiply(diff, diff, dst=diff)
    sq = diff[..., 0] + diff[..., 1]
    sq += diff[..., 2]
    return np.sqrt(sq, out=sq)


def paper_map(rgb: np.ndarray, kernel: int) -> np.ndarray:
    """The paper colour under every pixel: a median wide enough to erase lines and text.

    The median runs per channel, so a gray page (three equal channels, common for
    diagrams) is filtered once and copied: the same result at a third of the cost.
    """
    k = max(3, int(kernel) | 1)
    if is_gray(rgb):
        gray = cv2.medianBlur(np.ascontiguousarray(rgb[..., 0]), k)
        return cv2.merge([gray, gray, gray])
    return cv2.medianBlur(rgb, k)


def is_gray(rgb: np.ndarray) -> bool:
    """Whether a colour image has three identical channels."""
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        return False
    return bool(np.array_equal(rgb[..., 0], rgb[..., 1])
                and np.array_equal(rgb[..., 1], rgb[..., 2]))


def noise_level(dist: np.ndarray) -> float:
    """Robust noise estimate (pixels of a flat area differ from their median by this much)."""
    small = dist[dist < np.percentile(dist, 60) + 1e-6]
    if small.size == 0:
        return 1.0
    return float(max(1.0, np.median(small) * 1.4826 + np.std(small)))


def ink_mask(rgb: np.ndarray, paper: np.ndarray, min_contrast: float = 24.0) -> np.ndarray:
    """Boolean mask of ink: pixels unlike their paper, plus borders between paper colours.

    The threshold is the larger of the image's noise floor and a fraction of the contrast of
    the darkest strokes, so faint lines on dark backgrounds still count and JPEG ringing
    around text does not flood the page.
    """
    dist = colour_distance(rgb, paper)
    noise = noise_level(dist)
    clear = dist[dist > 4 * noise]
    strong = np.percentile(clear, 90) if clear.size else 0.0
    thr = max(4.0 * noise, min(min_contrast, 0.35 * strong) if strong else min_contrast)
    ink = dist > thr
    step = np.zeros(ink.shape, dtype=bool)
    step[:, 1:] |= _max_channel_step(paper[:, 1:], paper[:, :-1]) > thr
    step[1:] |= _max_channel_step(paper[1:], paper[:-1]) > thr
    return ink | step


def _max_channel_step(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Largest per-channel absolute difference of two equally shaped colour images."""
    if a.dtype == np.uint8 and b.dtype == np.uint8:
        d = cv2.absdiff(np.ascontiguousarray(a), np.ascontiguousarray(b))
    else:
        d = np.abs(a.astype(np.int16) - b.astype(np.int16))
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])


def strong_ink(rgb: np.ndarray, ink: np.ndarray, background: tuple[int, int, int]
               ) -> np.ndarray:
    """Ink drawn in a strong colour: drop shadows, light tints and halos left out.

    Keeps pixels whose contrast with the background is at least half that of the
    strongest ink on the page.
    """
    dist = colour_distance(rgb, background)
    values = dist[ink]
    if values.size == 0:
        return ink
    return ink & (dist > 0.5 * float(np.percentile(values, 95)))
