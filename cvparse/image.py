"""Loading any raster image into one canonical form: 8-bit RGB on white, bounded in size.

Every later step sees the same thing whatever the file was: grayscale, palette, RGBA
(composited on white), 16-bit, CMYK, the first frame of an animation.  Sizes are checked
from the header before decoding so a huge file cannot exhaust memory; conversion runs in
row bands and the decoded image is freed before downscaling, so the peak stays near the
decoded size plus 3 bytes per pixel.
"""

from __future__ import annotations

import errno
import math
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


class MissingImageError(ImageError, FileNotFoundError):
    """The image file does not exist: an :class:`ImageError` that is also the
    ``FileNotFoundError`` Python code expects, with ``filename`` the path asked for (the
    message stays the one-line reason, as the command line prints it after the path)."""

    def __init__(self, path: str | Path, reason: str = "no such file"):
        FileNotFoundError.__init__(self, errno.ENOENT, reason, str(path))

    def __str__(self) -> str:
        return str(self.strerror)

    def __reduce__(self):  # picklable across worker processes
        return type(self), (self.filename, self.strerror)


def load_image(source: str | Path | np.ndarray) -> np.ndarray:
    """Return ``source`` (a path or an array) as an ``HxWx3`` uint8 RGB array.

    Raises :class:`ImageError` with a one-line reason for anything that is not a usable
    image: missing, empty, corrupt, truncated, not an image, too small or too large.
    Warns (``UserWarning``) when it uses only the first frame or downscales.

    Parameters
    ----------
    source : str, Path or ndarray
        An image file (PNG, JPEG, ...), or an array: grey ``H x W``, RGB or RGBA.

    Returns
    -------
    ndarray
        ``H x W x 3`` uint8 RGB pixels.

    Examples
    --------
    >>> import numpy as np
    >>> load_image(np.zeros((64, 64), np.uint8)).shape
    (64, 64, 3)
    """
    if isinstance(source, np.ndarray):
        rgb = _array_to_rgb(source)
        _check_dims(rgb.shape[1], rgb.shape[0])
        return _downscale_array(rgb, (rgb.shape[1], rgb.shape[0]))
    path = Path(source)
    try:
        fh = open_regular(path)
    except UnreadableFile as exc:
        if exc.reason == "no such file" or exc.reason.startswith("broken symbolic link"):
            raise MissingImageError(path, exc.reason) from None
        raise ImageError(exc.reason.replace("not a file", "not an image")) from None
    with fh:
        if os.fstat(fh.fileno()).st_size == 0:
            raise ImageError("empty file (0 bytes)")
        try:
            with Image.open(fh) as im:
                return _decode(im)
        except ImageError:
            raise
        except UnidentifiedImageError:
            raise ImageError("not an image file (unknown or corrupt format)") from None
        except Image.DecompressionBombError as exc:
            # Pillow refuses this from the header, before decoding; keep its pixel count.
            m = re.search(r"\((\d+) pixels\)", str(exc))
            size = f"{int(m.group(1)):,} pixels" if m else \
                f"over {2 * (Image.MAX_IMAGE_PIXELS or 0):,} pixels"
            raise ImageError(f"image too large: {size} (limit {MAX_PIXELS:,} pixels)") from None
        except MemoryError:
            raise ImageError("out of memory while decoding the image") from None
        except (OSError, SyntaxError, ValueError, EOFError) as exc:
            raise ImageError(f"corrupt or truncated image: {_one_line(exc)}") from None


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _decode(im: Image.Image) -> np.ndarray:
    """Decode an opened image to RGB after checking its header size; the steps in order."""
    w, h = im.size
    _check_dims(w, h)
    try:
        # Pillow counts frames by walking the file: a mangled GIF or TIFF can fail there
        # with errors of any type, and so can reading its EXIF block.
        n_frames = getattr(im, "n_frames", 1)
        if n_frames > 1:
            im.seek(0)
        orientation = _orientation(im)
    except (ImageError, MemoryError, OSError, SyntaxError, ValueError, EOFError,
            Image.DecompressionBombError):
        raise  # Pillow's usual errors: reported by ``load_image``
    except Exception as exc:  # noqa: BLE001 - see above
        raise ImageError(f"corrupt or truncated image: {type(exc).__name__} reading its "
                         f"frames: {_one_line(exc)}") from None
    if n_frames > 1:
        warnings.warn(f"image has {n_frames} frames; using the first frame", stacklevel=3)
    if max(w, h) > MAX_SIDE:
        # JPEG can decode at 1/2, 1/4, 1/8 scale directly; other formats ignore this.
        f = MAX_SIDE / max(w, h)
        im.draft(None, (max(1, int(w * f)), max(1, int(h * f))))
    im.load()
    arr = _to_uint8(im)
    im.close()  # free the decoded image before resizing
    arr = _orient(arr, orientation)
    if orientation in _SWAPS_SIDES:
        w, h = h, w
    return _gray_to_rgb(_downscale_array(arr, (w, h)))


_EXIF_ORIENTATION = 0x0112
_SWAPS_SIDES = (5, 6, 7, 8)


def _orientation(im: Image.Image) -> int:
    """The EXIF orientation tag (1-8; 1, upright, when absent or out of range)."""
    value = im.getexif().get(_EXIF_ORIENTATION, 1)
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def _orient(arr: np.ndarray, orientation: int) -> np.ndarray:
    """``arr`` turned upright as its EXIF ``orientation`` says (as a camera viewer shows
    it); views, made contiguous by the downscaling step."""
    if orientation in (5, 7):
        arr = arr.swapaxes(0, 1)
    if orientation in (2, 3, 7):
        arr = arr[:, ::-1]
    if orientation in (3, 4, 7):
        arr = arr[::-1]
    if orientation == 6:
        arr = np.rot90(arr, k=-1)
    if orientation == 8:
        arr = np.rot90(arr, k=1)
    return arr


def _check_dims(w: int, h: int) -> None:
    """Refuse sizes outside ``MIN_SIDE`` .. ``MAX_PIXELS`` with the limit in the message,
    the minimum side counted after the downscaling to ``MAX_SIDE`` (a long strip would
    otherwise come out a few pixels thin)."""
    if min(w, h) < MIN_SIDE:
        raise ImageError(f"image too small: {w}x{h} pixels (minimum side {MIN_SIDE})")
    if w * h > MAX_PIXELS:
        raise ImageError(f"image too large: {w}x{h} pixels (limit {MAX_PIXELS:,} pixels)")
    sw, sh = downscaled_size(w, h)
    if min(sw, sh) < MIN_SIDE:
        raise ImageError(f"image too thin: {w}x{h} pixels would be {sw}x{sh} after "
                         f"downscaling to the {MAX_SIDE} px long side (minimum side "
                         f"{MIN_SIDE})")


def downscaled_size(w: int, h: int) -> tuple[int, int]:
    """The (w, h) an image of ``w`` x ``h`` pixels is loaded at."""
    if max(w, h) <= MAX_SIDE:
        return w, h
    f = MAX_SIDE / max(w, h)
    return max(1, round(w * f)), max(1, round(h * f))


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
    if im.mode in _SIXTEEN_BIT:
        lo, hi = _band_extrema(im)
        zero, span = _value_range(lo, hi, floating=False)
    for y in range(0, h, _BAND):
        band = im.crop((0, y, w, min(h, y + _BAND)))
        try:
            if band.mode in _SIXTEEN_BIT:
                a = _scale_to_uint8(np.asarray(band), span, zero)
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


def _band_extrema(im: Image.Image) -> tuple[float, float]:
    """Smallest and largest value of a one-band image, read ``_BAND`` rows at a time."""
    w, h = im.size
    lo, hi = math.inf, -math.inf
    for y in range(0, h, _BAND):
        a = np.asarray(im.crop((0, y, w, min(h, y + _BAND))))
        lo, hi = min(lo, float(a.min())), max(hi, float(a.max()))
    return lo, hi


def _value_range(lo: float, hi: float, floating: bool) -> tuple[float, float]:
    """``(zero, span)``: the data's values ``zero .. zero + span`` map onto ``0 .. 255``.

    ``lo`` and ``hi`` are the smallest and largest finite values.  Floats spanning at most
    1 are taken as ``0..1`` fractions; data within 0..255 as 8-bit; wider data by the bits
    it uses (``2**k - 1``), so a 12-bit scan in a 16-bit file (values up to 4095) is not
    read as nearly black, while a full 16-bit image keeps ``0..65535``.  Negative data
    starts at its own minimum.
    """
    zero = min(lo, 0.0)
    extent = hi - zero
    if floating and extent <= 1.0:
        return zero, 1.0
    if extent <= 255:
        return zero, 255.0
    return zero, float(2 ** math.ceil(math.log2(extent + 1)) - 1)


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

        arr = cv2.resize(np.ascontiguousarray(arr), downscaled_size(w, h),
                         interpolation=cv2.INTER_AREA)
        h, w = arr.shape[:2]
    if (w, h) != tuple(original):
        warnings.warn(f"image {original[0]}x{original[1]} downscaled to {w}x{h} "
                      f"(long side limit {MAX_SIDE} px)", stacklevel=4)
    return np.ascontiguousarray(arr)


def _gray_to_rgb(arr: np.ndarray) -> np.ndarray:
    return np.repeat(arr[:, :, None], 3, axis=2) if arr.ndim == 2 else arr


def _scale_to_uint8(arr: np.ndarray, span: float, zero: float = 0.0) -> np.ndarray:
    """Map ``zero .. zero + span`` linearly onto ``0..255`` (rounded, clipped)."""
    a = arr.astype(np.float32)
    if zero:
        a -= np.float32(zero)
    a *= np.float32(255.0 / span)
    return np.clip(np.rint(a), 0, 255).astype(np.uint8)


def _array_to_rgb(arr: np.ndarray) -> np.ndarray:
    """Grayscale / RGB / RGBA arrays of any numeric dtype to uint8 RGB on white.

    Non-uint8 data is scaled by the range its finite values use (see ``_value_range``);
    NaN and +inf become the largest finite value (paper), -inf the smallest, so one
    stray value cannot black out the page.
    """
    arr = np.asarray(arr)
    if arr.ndim not in (2, 3) or (arr.ndim == 3 and arr.shape[2] not in (1, 3, 4)):
        raise ImageError(f"unsupported array shape {arr.shape}")
    if arr.dtype == bool:
        arr = np.where(arr, 255, 0).astype(np.uint8)
    if arr.dtype != np.uint8:
        if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
            raise ImageError(f"unsupported array dtype {arr.dtype}")
        floating = np.issubdtype(arr.dtype, np.floating)
        if floating:
            finite = np.isfinite(arr)
            if not finite.all():
                vals = arr[finite]
                lo, hi = (float(vals.min()), float(vals.max())) if vals.size else (0.0, 1.0)
                arr = np.nan_to_num(arr, nan=hi, posinf=hi, neginf=lo)
            del finite
        lo, hi = (float(arr.min()), float(arr.max())) if arr.size else (0.0, 0.0)
        zero, span = _value_range(lo, hi, floating)
        arr = _scale_to_uint8(arr, span, zero)
    if arr.ndim == 2:
        return np.repeat(arr[:, :, None], 3, axis=2)
    if arr.shape[2] == 1:
        return np.repeat(arr, 3, axis=2)
    if arr.shape[2] == 4:
        return _on_white(arr)
    return arr
