"""The fuzz targets: what each one feeds cvparse, its seed inputs, and what counts as fine.

``loader``: bytes as an image file for :func:`cvparse.image.load_image`; seeds are small
copies of committed fixture diagrams saved in every format and colour mode the loader
handles (PNG gray / palette / RGBA / 16-bit, JPEG RGB / gray / CMYK / rotated, BMP, TIFF
RGB / float / 16-bit / multi-page, WebP, animated GIF).  Only ``ImageError`` may come out.

``parse``: bytes decoded into an array (a 3-byte header picks height, width, channels and
dtype; the rest fills the pixels) for :func:`cvparse.parse`; seeds are fixture diagrams
shrunk to at most 128 px.  Only ``ImageError`` may come out, and a document must render.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
SEED_IMAGES = ("fixtures/flowchart/dev/flowchart_dev_0000.jpg",
               "fixtures/er/dev/er_dev_0000.png",
               "fixtures/uml/dev/uml_dev_0000_s10.png",
               "fixtures/topology/dev/topology_dev_0000.png")
TARGETS = ("loader", "parse")
SIDE = 128
"""Largest side of a decoded ``parse`` input (keeps one execution well under a second)."""
_DTYPES = (np.uint8, np.uint16, np.float32, np.bool_)
_CHANNELS = (1, 3, 4)


def _fixture(rel: str, side: int) -> Image.Image:
    from PIL import Image

    im = Image.open(ROOT / rel).convert("RGB")
    im.thumbnail((side, side))
    return im


def loader_seeds() -> list[bytes]:
    """Small real diagrams in every format and mode the loader reads."""
    from PIL import Image

    out = []
    for rel in SEED_IMAGES[:2]:
        im = _fixture(rel, 96)
        gray = im.convert("L")
        rotated = Image.Exif()
        rotated[0x0112] = 6
        variants = [
            (im, "PNG", {}), (gray, "PNG", {}), (im.convert("P"), "PNG", {}),
            (im.convert("RGBA"), "PNG", {}),
            (Image.fromarray(np.asarray(gray).astype(np.uint16) * 257), "PNG", {}),
            (im, "JPEG", {"quality": 80}), (gray, "JPEG", {}),
            (im.convert("CMYK"), "JPEG", {}), (im, "JPEG", {"exif": rotated}),
            (im, "BMP", {}), (im, "TIFF", {}),
            (Image.fromarray(np.asarray(gray, dtype=np.float32) / 255), "TIFF", {}),
            (Image.fromarray(np.asarray(gray).astype(np.uint16) * 257), "TIFF", {}),
            (im, "TIFF", {"save_all": True, "append_images": [gray.convert("RGB")]}),
            (im, "WEBP", {"lossless": True}),
            (im.convert("P"), "GIF", {"save_all": True, "append_images": [gray.convert("P")]}),
        ]
        for image, fmt, opts in variants:
            buf = io.BytesIO()
            image.save(buf, format=fmt, **opts)
            out.append(buf.getvalue())
    return out


def check_loader(data: bytes, scratch: Path | None = None) -> None:
    """Load ``data`` as an image file (written to ``scratch``, a temporary file by
    default); anything but ``ImageError`` propagates (a finding)."""
    import tempfile

    from cvparse.image import ImageError, load_image

    if scratch is None:
        with tempfile.TemporaryDirectory() as tmp:
            return check_loader(data, Path(tmp) / "input")
    scratch.write_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            rgb = load_image(scratch)
        except ImageError:
            return
    assert rgb.dtype == np.uint8 and rgb.ndim == 3 and rgb.shape[2] == 3, rgb.shape


def array_from_bytes(data: bytes) -> np.ndarray:
    """Decode fuzz bytes into an image array: 3 header bytes (height, width, layout)."""
    if len(data) < 4:
        data = data + bytes(4 - len(data))
    h = 1 + data[0] % SIDE
    w = 1 + data[1] % SIDE
    dtype = _DTYPES[data[2] % len(_DTYPES)]
    channels = _CHANNELS[(data[2] // len(_DTYPES)) % len(_CHANNELS)]
    n = h * w * channels
    if dtype is np.bool_:
        flat = np.frombuffer(data[3:], dtype=np.uint8) & 1
        flat = flat.astype(bool)
    else:
        item = np.dtype(dtype).itemsize
        body = data[3:]
        body = body[: len(body) // item * item] or bytes(item)
        flat = np.frombuffer(body, dtype=dtype)
    flat = np.resize(flat, n)
    shape = (h, w) if channels == 1 else (h, w, channels)
    return flat.reshape(shape)


def array_to_bytes(arr: np.ndarray) -> bytes:
    """The inverse of :func:`array_from_bytes` for uint8 arrays (used for seeds)."""
    h, w = arr.shape[:2]
    channels = 1 if arr.ndim == 2 else arr.shape[2]
    layout = _CHANNELS.index(channels) * len(_DTYPES) + _DTYPES.index(np.uint8)
    return bytes([h - 1, w - 1, layout]) + np.ascontiguousarray(arr, dtype=np.uint8).tobytes()


def parse_seeds() -> list[bytes]:
    """Fixture diagrams shrunk to ``SIDE`` px, gray and RGB."""
    out = []
    for rel in SEED_IMAGES:
        im = _fixture(rel, SIDE)
        out.append(array_to_bytes(np.asarray(im)))
        out.append(array_to_bytes(np.asarray(im.convert("L"))))
    return out


def check_parse(data: bytes) -> None:
    """Parse the decoded array and render JSON; anything but ``ImageError`` propagates."""
    import cvparse
    from cvparse.image import ImageError

    arr = array_from_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = cvparse.parse(arr, kind="auto")
        except ImageError:
            return
        result.to_json()


CHECKS = {"loader": check_loader, "parse": check_parse}
SEEDS = {"loader": loader_seeds, "parse": parse_seeds}
