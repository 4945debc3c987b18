"""Array helpers that know nothing of diagrams, shared by every stage.

Connected-component labelling of masks (16-bit labels wherever they fit), Euclidean colour
distances computed in row bands, and disk-shaped structuring elements: arithmetic on
arrays, as a ``cv2`` or NumPy call is, which any stage may run on its own masks without
going back to perception.
"""

from __future__ import annotations

import cv2
import numpy as np


def components(mask: np.ndarray, connectivity: int = 8
               ) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats`` of a uint8 mask, the same results (int32 labels).

    OpenCV labels a sparse mask (ink) two to three times as fast with 16-bit labels.  They
    are tried first; OpenCV refuses them once more than 65,535 labels (provisional ones
    included) would be needed, and the 32-bit call is made then.
    """
    try:
        n, labels, stats, centroids = cv2.connectedComponentsWithStats(
            mask, connectivity=connectivity, ltype=cv2.CV_16U)
    except cv2.error:
        return cv2.connectedComponentsWithStats(mask, connectivity=connectivity)
    return n, labels.astype(np.int32), stats, centroids


BAND_PIXELS = 1 << 20
"""Pixels per row band of the page-sized computations done band by band (a few MB of
float32 temporaries at a time instead of several page-sized ones)."""


def row_bands(height: int, width: int) -> list[slice]:
    """Row slices covering ``height`` rows of ``width`` pixels, about ``BAND_PIXELS``
    each (one slice for a small image)."""
    rows = max(1, BAND_PIXELS // max(1, width))
    return [slice(y, min(height, y + rows)) for y in range(0, height, rows)]


def colour_distance(rgb: np.ndarray, ref: np.ndarray | tuple) -> np.ndarray:
    """Euclidean RGB distance of every pixel to ``ref`` (a colour or an image), float32.

    Computed in row bands, so a page takes one float32 result and a band's temporaries,
    not three float copies of the page; every pixel's value is the same as at once."""
    ref_arr = np.asarray(ref)
    if (rgb.dtype == np.uint8 and rgb.ndim == 3 and rgb.shape[-1] == 3
            and (ref_arr.dtype == np.uint8 or _half_steps(ref_arr))):
        return _uint8_distance(rgb, ref_arr if ref_arr.dtype == np.uint8 else
                               ref_arr.astype(np.float32))
    ref32 = np.asarray(ref, dtype=np.float32)
    if rgb.ndim < 2 or not rgb.shape[0] or (ref32.ndim > 1 and ref32.shape != rgb.shape):
        d = rgb.astype(np.float32) - ref32
        return np.sqrt((d * d).sum(axis=-1))
    out = np.empty(rgb.shape[:-1], np.float32)
    for band in row_bands(rgb.shape[0], int(np.prod(rgb.shape[1:-1]))):
        d = rgb[band].astype(np.float32)
        d -= ref32[band] if ref32.ndim > 1 else ref32  # the same roundings as d = a - b
        d *= d
        np.sqrt(d.sum(axis=-1), out=out[band])
    return out


def _half_steps(ref: np.ndarray) -> bool:
    """Whether ``ref`` is one colour of 0-255 channels in steps of a half: its squared
    differences to 8-bit values are exact in float32 (multiples of 1/4 below 2**16), and
    so are their sums, whatever the order of the additions."""
    return bool(ref.shape == (3,) and ref.dtype.kind in "iuf"
                and np.array_equal(2 * ref, np.round(2 * ref))
                and ref.min() >= 0 and ref.max() <= 255)


def _uint8_distance(rgb: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """``colour_distance`` of uint8 colours (or of one colour in half steps), bit-identical
    and several times faster, in row bands.

    Squared channel differences of 8-bit colours are integers below 2**18 (of a colour
    in half steps, quarters below 2**16), so float32 holds each square and their sum
    exactly whatever the order of the additions; the square root is then the same
    correctly rounded float32 value.
    """
    h, w = rgb.shape[:2]
    out = np.empty((h, w), np.float32)
    if not rgb.size:
        return out
    if ref.ndim == 1:
        # One colour: the squared differences of each channel's 256 values, looked up
        # (exact in float32), summed over the channels (exact below 2**24).
        squares = (np.arange(256, dtype=np.float32)[:, None] - ref.astype(np.float32)) ** 2
        table = squares.reshape(256, 1, 3)
        ones = np.ones((1, 3), np.float32)
        for band in row_bands(h, w):
            sq = cv2.LUT(rgb[band], table)
            total = cv2.transform(sq, ones).reshape(sq.shape[:2])
            np.sqrt(total, out=out[band])
        return out
    for band in row_bands(h, w):
        diff = cv2.absdiff(rgb[band], np.ascontiguousarray(ref[band])).astype(np.float32)
        cv2.multiply(diff, diff, dst=diff)
        sq = diff[..., 0] + diff[..., 1]
        sq += diff[..., 2]
        np.sqrt(sq, out=out[band])
    return out


def under(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The values of ``image`` under each ``x, y`` point of an ``N x 2`` array (a traced
    polyline), each rounded to the nearest pixel and clipped onto the image."""
    h, w = image.shape[:2]
    xs = np.clip(np.round(points[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(points[:, 1]).astype(int), 0, h - 1)
    return image[ys, xs]


def disk(radius: int) -> np.ndarray:
    """An elliptic structuring element ``2 * radius + 1`` pixels wide (uint8)."""
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
