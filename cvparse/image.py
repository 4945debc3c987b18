"""Loading any raster image into one canonical form: 8-bit RGB on white, bounded in size.

Every later step sees the same thing whatever the file was: grayscale, palette, RGBA
(composited on white), 16-bit, CMYK, the first frame of an animation.  Sizes are checked
from the header before decoding so a huge file cannot exhaust memory.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
from PIL import Image, ImageSequence, UnidentifiedImageError

MIN_SIDE = 16
"""Images with a side below this many pixels hold no readable diagram and are refused."""
MAX_PIXELS = 80_000_000
"""Images with more pixels than this are refused before decoding (memory stays bounded)."""
MAX_SIDE = 6000
"""Longer sides are downscaled to this many pixels (with a warning) to bound time."""

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".gif")


class ImageError(ValueError):
    """The input cannot be read as a diagram image; the message says why."""


def load_image(source: str | Path | np.ndarray) -> np.ndarray:
    """Return ``source`` (a path or an array) as an ``HxWx3`` uint8 RGB array."""
    if isinstance(source, np.ndarray):
        return _check_size(_array_to_rgb(source))
    path = Path(source)
    if not path.exists():
        raise ImageError("no such file")
    if path.is_dir():
        raise ImageError("is a directory, not an image")
    if path.stat().st_size == 0:
        raise ImageError("empty file (0 bytes)")
    try:
        with Image.open(path) as im:
            w, h = im.size
            _check_dims(w, h)
            n_frames = getattr(im, "n_frames", 1)
            if n_frames > 1:
                warnings.warn(f"{path.name}: animated image with {n_frames} frames; "
                              "using the first frame", stacklevel=2)
                im = next(iter(ImageSequence.Iterator(im)))
            im.load()
            rgb = _pil_to_rgb(im)
    except ImageError:
        raise
    except UnidentifiedImageError:
        raise ImageError("not an image file (unknown or corrupt format)") from None
    except Image.DecompressionBombError as exc:
        raise ImageError(f"image too large: {exc}") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageError(f"corrupt or truncated image: {exc}") from None
    return _check_size(rgb)


def _check_dims(w: int, h: int) -> None:
    if min(w, h) < MIN_SIDE:
        raise ImageError(f"image too small: {w}x{h} pixels (minimum side {MIN_SIDE})")
    if w * h > MAX_PIXELS:
        raise ImageError(f"image too large: {w}x{h} pixels (limit {MAX_PIXELS:,} pixels)")


def _check_size(rgb: np.ndarray) -> np.ndarray:
    h, w = rgb.shape[:2]
    _check_dims(w, h)
    if max(h, w) > MAX_SIDE:
        import cv2

        f = MAX_SIDE / max(h, w)
        warnings.warn(f"image {w}x{h} downscaled by {f:.3f} to a {MAX_SIDE} px long side",
                      stacklevel=2)
        rgb = cv2.resize(rgb, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(rgb)


def _pil_to_rgb(im: Image.Image) -> np.ndarray:
    if im.mode in ("I;16", "I;16B", "I;16L", "I"):
        arr = np.asarray(im, dtype=np.float64)
        top = 65535.0 if arr.max() > 255 else 255.0
        return _array_to_rgb((arr / top * 255.0).round().astype(np.uint8))
    if im.mode == "F":
        return _array_to_rgb(np.asarray(im, dtype=np.float64))
    if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
        im = im.convert("RGBA")
    elif im.mode != "RGB":
        im = im.convert("RGB")
    return _array_to_rgb(np.asarray(im))


def _array_to_rgb(arr: np.ndarray) -> np.ndarray:
    """Grayscale / RGB / RGBA arrays of any numeric dtype to uint8 RGB on white."""
    arr = np.asarray(arr)
    if arr.ndim not in (2, 3) or (arr.ndim == 3 and arr.shape[2] not in (1, 3, 4)):
        raise ImageError(f"unsupported array shape {arr.shape}")
    if arr.dtype != np.uint8:
        a = arr.astype(np.float64)
        if arr.dtype == np.uint16 or a.max() > 255:
            a = a / 65535.0 * 255.0
        elif a.max() <= 1.0:
            a = a * 255.0
        arr = np.clip(a.round(), 0, 255).astype(np.uint8)
    if arr.ndim == 2:
        return np.repeat(arr[:, :, None], 3, axis=2)
    if arr.shape[2] == 1:
        return np.repeat(arr, 3, axis=2)
    if arr.shape[2] == 4:
        alpha = arr[:, :, 3:4].astype(np.float64) / 255.0
        rgb = arr[:, :, :3].astype(np.float64) * alpha + 255.0 * (1.0 - alpha)
        return rgb.round().astype(np.uint8)
    return arr
