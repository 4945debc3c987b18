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
    d = rgb.astype(np.float32) - np.asarray(ref, dtype=np.float32)
    return np.sqrt((d * d).sum(axis=-1))


def paper_map(rgb: np.ndarray, kernel: int) -> np.ndarray:
    """The paper colour under every pixel: a median wide enough to erase lines and text."""
    k = int(kernel) | 1
    return cv2.medianBlur(rgb, max(3, k))


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
    strong = np.percentile(dist[dist > 4 * noise], 90) if (dist > 4 * noise).any() else 0.0
    thr = max(4.0 * noise, min(min_contrast, 0.35 * strong) if strong else min_contrast)
    ink = dist > thr
    p = paper.astype(np.int16)
    step = np.zeros(ink.shape, dtype=bool)
    dx = np.abs(p[:, 1:] - p[:, :-1]).max(axis=-1) > thr
    dy = np.abs(p[1:] - p[:-1]).max(axis=-1) > thr
    step[:, 1:] |= dx
    step[1:] |= dy
    return ink | step


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
