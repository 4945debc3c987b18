"""Loading any raster image into one canonical form: 8-bit RGB on white, bounded in size.

Every later step sees the same thing whatever the file was: grayscale, palette, RGBA
(composited on white), 16-bit, CMYK, the first frame of an animation.  Sizes are checked
from the header before decoding so a huge file cannot exhaust memory; conversion runs in
row bands and the decoded image is freed before downscaling, so the peak stays near the
decoded size plus 3 bytes per pixel.
"""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

import numpy as np
from PIL import Image, UnidentifiedImageError

from .files import UnreadableFile, open_regular

MIN_SIDE = 16
"""Images with a side below this many pixels hold no readable diagram and are refused."""
MAX_PIXELS = 80_000_000
"""Images with more pixels than this are refused from their header, before decoding."""
MAX_SIDE = 6000
"""Longer sides are downscaled to this many pixels (with a warning) to bound time."""

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".gif")

_SIXTEEN_BIT = ("I;16", "I;16B", "I;16L", "I;16N")
_BAND = 512
"""Rows converted at a time while decoding (bounds the temporaries)."""


class ImageError(ValueError):
    """The input cannot be read as a diagram image; the message says why."""


def load_image(source: str | Path | np.ndarray) -> np.ndarray:
    """Return ``source`` (a path or an array) as an ``HxWx3`` uint8 RGB array.

    Raises :class:`ImageError` with a one-line reason for anything that is not a usable
    image: missing, empty, corrupt, truncated, not an image, too small or too large.
    Warns (``UserWarning``) when it uses only the first frame or downscales.
    """
    if isinstance(source, np.ndarray):
        rgb = _array_to_rgb(source)
        _check_dims(rgb.shape[1], rgb.shape[0])
        return _downscale_array(rgb, (rgb.shape[1], rgb.shape[0]))
    path = Path(source)
    try:
        fh = open_regular(path)
    except UnreadableFile as exc:
        raise ImageError(exc.reason.replace("not a file", "not an image")) from None
    with fh:
        if os.fstat(fh.fileno()).st_size == 0:
            raise ImageError("empty file (0 bytes)")
        try:
            with Image.open(fh) as im:
                return _decode(im, path.name)
        except ImageError:
            raise
        except UnidentifiedImageError:
            raise ImageError("not an image file (unknown or corrupt format)") from None
        except Image.DecompressionBombError as exc:
            # Pillow refuses this from the header, before decoding; keep its pixel count.
            m = re.search(r"\((\d+) pixels\)", str(exc))
            size = f"{int(m.group(1)):,} pixels" if m else \
                f"over {2 * Image.MAX_IMAGE_PIXELS:,} pixels"
            raise ImageError(f"image too large: {size} (limit {MAX_PIXELS:,} pixels)") from None
        except MemoryError:
            raise ImageError("out of memory while decoding the image") from None
        except (OSError, SyntaxError, ValueError, EOFError) as exc:
            raise ImageError(f"corrupt or truncated image: {exc}") from None


def _decode(im: Image.Image, name: str) -> np.ndarray:
    """Decode an opened image to RGB after checking its header size; the steps in order."""
    w, h = im.size
    _check_dims(w, h)
    n_frames = getattr(im, "n_frames", 1)
    if n_frames > 1:
        warnings.warn(f"{name}: image has {n_frames} frames; using the first frame",
                      stacklevel=3)
        im.seek(0)
    if max(w, h) > MAX_SIDE:
        # JPEG can decode at 1/2, 1/4, 1/8 scale directly; other formats ignore this.
        f = MAX_SIDE / max(w, h)
        im.draft(None, (max(1, int(w * f)), max(1, int(h * f))))
    im.load()
    arr = _to_uint8(im)
    im.close()  # free the decoded image before resizing
    return _gray_to_rgb(_downscale_array(arr, (w, h)))


def _check_dims(w: int, h: int) -> None:
    """Refuse sizes outside ``MIN_SIDE`` .. ``MAX_PIXELS`` with the limit in the message."""
    if min(w, h) < MIN_SIDE:
        raise ImageError(f"image too small: {w}x{h} pixels (minimum side {MIN_SIDE})")
    if w * h > MAX_PIXELS:
        raise ImageError(f"image too large: {w}x{h} pixels (limit {MAX_PIXELS:,} pixels)")


def _to_uint8(im: Image.Image) -> np.ndarray:
    """A loaded image as uint8 gray ``HxW`` or RGB ``HxWx3``, alpha composited on white.

    Converted ``_BAND`` rows at a time so the temporaries stay small next to the result.
    """
    if im.mode in ("I", "F"):
        # 32-bit integer or float data: scaled by its own range, so converted whole.
        return _array_to_rgb(np.asarray(im))
    gray = im.mode in ("1", "L", "LA", "La") + _SIXTEEN_BIT
    alpha = im.mode in ("LA", "La", "PA", "RGBA", "RGBa") or (
        im.mode == "P" and "transparency" in im.info)
    w, h = im.size
    out = np.empty((h, w) if gray else (h, w, 3), dtype=np.uint8)
    for y in range(0, h, _BAND):
        band = im.crop((0, y, w, min(h, y + _BAND)))
        try:
            if band.mode in _SIXTEEN_BIT:
                a = _scale_to_uint8(np.asarray(band), 65535)
            elif alpha:
                band = band.convert("LA" if gray else "RGBA")
                page = Image.new("L" if gray else "RGB", band.size, 255 if gray else "white")
                page.paste(band, mask=band)  # alpha blend in C, same result as _on_white
                a = np.asarray(page)
            else:
                a = np.asarray(band.convert("L" if gray else "RGB"))
        except ValueError:
            raise ImageError(f"unsupported colour mode {im.mode}") from None
        out[y:y + band.height] = a
    return out


def _on_white(arr: np.ndarray) -> np.ndarray:
    """Gray+alpha or RGB+alpha uint8 (alpha last) composited on a white page, exactly."""
    alpha = arr[..., -1:].astype(np.uint16)
    colour = arr[..., :-1].astype(np.uint16)
    out = (colour * alpha + 255 * (255 - alpha) + 127) // 255
    out = out.astype(np.uint8)
    return out[..., 0] if out.shape[-1] == 1 else out


def _downscale_array(arr: np.ndarray, original: tuple[int, int]) -> np.ndarray:
    """``arr`` with its long side at most ``MAX_SIDE`` (area averaging), warning when the
    result is smaller than the ``original`` (w, h) image."""
    h, w = arr.shape[:2]
    if max(w, h) > MAX_SIDE:
        import cv2

        f = MAX_SIDE / max(w, h)
        arr = cv2.resize(arr, (max(1, round(w * f)), max(1, round(h * f))),
                         interpolation=cv2.INTER_AREA)
        h, w = arr.shape[:2]
    if (w, h) != tuple(original):
        warnings.warn(f"image {original[0]}x{original[1]} downscaled to {w}x{h} "
                      f"(long side limit {MAX_SIDE} px)", stacklevel=4)
    return np.ascontiguousarray(arr)


def _gray_to_rgb(arr: np.ndarray) -> np.ndarray:
    return np.repeat(arr[:, :, None], 3, axis=2) if arr.ndim == 2 else arr


def _scale_to_uint8(arr: np.ndarray, top: float) -> np.ndarray:
    """Map ``0..top`` linearly onto ``0..255`` (rounded, clipped)."""
    a = arr.astype(np.float32)
    a *= np.float32(255.0 / top)
    return np.clip(np.rint(a), 0, 255).astype(np.uint8)


def _array_to_rgb(arr: np.ndarray) -> np.ndarray:
    """Grayscale / RGB / RGBA arrays of any numeric dtype to uint8 RGB on white.

    Non-uint8 data is scaled by its type: uint16 (or any values above 255) from
    ``0..65535``, floats within ``0..1`` from ``0..1``, other values taken as ``0..255``.
    """
    arr = np.asarray(arr)
    if arr.ndim not in (2, 3) or (arr.ndim == 3 and arr.shape[2] not in (1, 3, 4)):
        raise ImageError(f"unsupported array shape {arr.shape}")
    if arr.dtype == bool:
        arr = np.where(arr, 255, 0).astype(np.uint8)
    if arr.dtype != np.uint8:
        if not np.issubdtype(arr.dtype, np.number):
            raise ImageError(f"unsupported array dtype {arr.dtype}")
        peak = float(np.nanmax(arr)) if arr.size else 0.0
        if arr.dtype == np.uint16 or peak > 255:
            top = 65535.0
        elif np.issubdtype(arr.dtype, np.floating) and peak <= 1.0:
            top = 1.0
        else:
            top = 255.0
        arr = _scale_to_uint8(np.nan_to_num(arr), top)
    if arr.ndim == 2:
        return np.repeat(arr[:, :, None], 3, axis=2)
    if arr.shape[2] == 1:
        return np.repeat(arr, 3, axis=2)
    if arr.shape[2] == 4:
        return _on_white(arr)
    return arr
