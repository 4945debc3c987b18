"""Image loading: every colour mode to RGB on white, and every bad file refused with a reason.

The file makers here are also used by the CLI and batch tests.
"""

from __future__ import annotations

import struct
import time
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from cvparse.image import MAX_PIXELS, MAX_SIDE, MIN_SIDE, ImageError, load_image


# --- file makers ---------------------------------------------------------------------------

def diagram_png(path: Path, size: tuple[int, int] = (260, 120)) -> Path:
    """A tiny flowchart: two boxes joined by an arrow, black on white."""
    im = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(im)
    d.rectangle((10, 35, 90, 85), outline="black", width=2)
    d.rectangle((170, 35, 250, 85), outline="black", width=2)
    d.line((90, 60, 166, 60), fill="black", width=2)
    d.polygon([(168, 60), (156, 53), (156, 67)], fill="black")
    im.save(path)
    return path


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def png_header_only(path: Path, w: int, h: int) -> Path:
    """A PNG with a valid IHDR claiming ``w x h`` RGB but an IDAT far too short to decode."""
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr)
                     + _chunk(b"IDAT", zlib.compress(b"\0" * 16)) + _chunk(b"IEND", b""))
    return path


def missing(tmp: Path) -> Path:
    return tmp / "nothere.png"


def zero_bytes(tmp: Path) -> Path:
    p = tmp / "zero.png"
    p.write_bytes(b"")
    return p


def text_as_png(tmp: Path) -> Path:
    p = tmp / "notes.png"
    p.write_text("this is not an image\n")
    return p


def truncated_png(tmp: Path) -> Path:
    data = diagram_png(tmp / "full.png").read_bytes()
    p = tmp / "truncated.png"
    p.write_bytes(data[: len(data) // 2])
    return p


def corrupt_png(tmp: Path) -> Path:
    """Right length, but the compressed pixel data is overwritten with junk."""
    data = bytearray(diagram_png(tmp / "full.png").read_bytes())
    start = data.index(b"IDAT") + 4
    data[start:start + 40] = bytes(range(40))
    p = tmp / "corrupt.png"
    p.write_bytes(bytes(data))
    return p


def truncated_jpeg(tmp: Path) -> Path:
    full = tmp / "full.jpg"
    Image.open(diagram_png(tmp / "full.png")).save(full, quality=90)
    data = full.read_bytes()
    p = tmp / "truncated.jpg"
    p.write_bytes(data[: len(data) // 2])
    return p


def one_pixel(tmp: Path) -> Path:
    p = tmp / "dot.png"
    Image.new("RGB", (1, 1), "white").save(p)
    return p


def huge_header(tmp: Path) -> Path:
    return png_header_only(tmp / "huge.png", 30000, 30000)


BAD_INPUTS = [
    (missing, "no such file"),
    (zero_bytes, "empty file"),
    (text_as_png, "not an image"),
    (truncated_png, "truncated"),
    (corrupt_png, "corrupt"),
    (truncated_jpeg, "truncated"),
    (one_pixel, "too small"),
    (huge_header, "too large"),
]


# --- bad inputs -----------------------------------------------------------------------------

@pytest.mark.parametrize("make, reason", BAD_INPUTS, ids=[m.__name__ for m, _ in BAD_INPUTS])
def test_bad_file_is_refused_with_a_reason(tmp_path, make, reason):
    path = make(tmp_path)
    with pytest.raises(ImageError, match=reason) as info:
        load_image(path)
    assert "\n" not in str(info.value)


def test_directory_is_refused(tmp_path):
    with pytest.raises(ImageError, match="directory"):
        load_image(tmp_path)


def test_huge_image_refused_from_header_before_decoding(tmp_path):
    # The IDAT holds 16 bytes: decoding would fail as "corrupt", so "too large" proves
    # the refusal came from the header alone; and it must be quick.
    t0 = time.perf_counter()
    with pytest.raises(ImageError, match=r"too large: 900,000,000 pixels") as info:
        load_image(huge_header(tmp_path))
    assert time.perf_counter() - t0 < 1.0
    assert f"{MAX_PIXELS:,}" in str(info.value)


def test_our_pixel_limit_applies_below_pillows(tmp_path):
    side = int(MAX_PIXELS ** 0.5) + 10
    path = png_header_only(tmp_path / "big.png", side, side)
    with pytest.raises(ImageError, match=f"too large: {side}x{side} pixels"):
        load_image(path)


def test_thin_image_below_min_side_is_refused(tmp_path):
    p = tmp_path / "strip.png"
    Image.new("L", (400, MIN_SIDE - 1), 255).save(p)
    with pytest.raises(ImageError, match="too small"):
        load_image(p)


def test_long_image_is_downscaled_with_a_warning(tmp_path):
    p = tmp_path / "long.png"
    Image.new("L", (MAX_SIDE + 1000, 70), 255).save(p)
    with pytest.warns(UserWarning, match="downscaled"):
        rgb = load_image(p)
    assert rgb.shape == (60, MAX_SIDE, 3)


def test_large_jpeg_is_decoded_reduced(tmp_path):
    p = tmp_path / "wide.jpg"
    Image.new("RGB", (MAX_SIDE * 2 + 8, 200), "white").save(p)
    with pytest.warns(UserWarning, match="downscaled"):
        rgb = load_image(p)
    assert max(rgb.shape[:2]) <= MAX_SIDE
    assert rgb.shape[1] >= MAX_SIDE * 0.9


# --- colour modes ---------------------------------------------------------------------------

def _load_saved(tmp_path: Path, im: Image.Image, name: str, **save) -> np.ndarray:
    p = tmp_path / name
    im.save(p, **save)
    rgb = load_image(p)
    assert rgb.dtype == np.uint8 and rgb.ndim == 3 and rgb.shape[2] == 3
    assert rgb.shape[:2] == (im.height, im.width)
    return rgb


def test_grayscale_is_repeated_in_three_channels(tmp_path):
    a = np.tile(np.arange(0, 256, 4, dtype=np.uint8), (20, 1))
    rgb = _load_saved(tmp_path, Image.fromarray(a, "L"), "gray.png")
    for c in range(3):
        np.testing.assert_array_equal(rgb[:, :, c], a)


def test_one_bit_image(tmp_path):
    im = Image.new("1", (32, 32), 1)
    im.putpixel((3, 4), 0)
    rgb = _load_saved(tmp_path, im, "bits.png")
    assert tuple(rgb[4, 3]) == (0, 0, 0) and tuple(rgb[0, 0]) == (255, 255, 255)


def test_rgba_is_composited_on_white(tmp_path):
    im = Image.new("RGBA", (32, 32), (0, 0, 0, 0))
    im.putpixel((1, 1), (255, 0, 0, 255))
    im.putpixel((2, 2), (0, 0, 0, 128))
    rgb = _load_saved(tmp_path, im, "rgba.png")
    assert tuple(rgb[0, 0]) == (255, 255, 255)  # transparent black shows the white page
    assert tuple(rgb[1, 1]) == (255, 0, 0)
    expected = round(255 * (1 - 128 / 255))
    assert all(abs(int(v) - expected) <= 1 for v in rgb[2, 2])


def test_gray_with_alpha_is_composited_on_white(tmp_path):
    im = Image.new("LA", (32, 32), (0, 0))
    im.putpixel((5, 5), (0, 255))
    rgb = _load_saved(tmp_path, im, "la.png")
    assert tuple(rgb[0, 0]) == (255, 255, 255) and tuple(rgb[5, 5]) == (0, 0, 0)


def test_palette_image(tmp_path):
    im = Image.new("P", (32, 32), 0)
    im.putpalette([10, 20, 30, 200, 100, 50] + [0] * (256 * 3 - 6))
    im.putpixel((7, 8), 1)
    rgb = _load_saved(tmp_path, im, "pal.png")
    assert tuple(rgb[0, 0]) == (10, 20, 30) and tuple(rgb[8, 7]) == (200, 100, 50)


def test_palette_transparency_becomes_white(tmp_path):
    im = Image.new("P", (32, 32), 0)
    im.putpalette([0, 0, 0, 0, 0, 255] + [0] * (256 * 3 - 6))
    im.putpixel((7, 8), 1)
    rgb = _load_saved(tmp_path, im, "paltrans.png", transparency=0)
    assert tuple(rgb[0, 0]) == (255, 255, 255) and tuple(rgb[8, 7]) == (0, 0, 255)


@pytest.mark.parametrize("name", ["g16.png", "g16.tif"])
def test_sixteen_bit_gray_is_scaled_not_clipped(tmp_path, name):
    values = np.array([0, 257, 1000, 32768, 40000, 65535], dtype=np.uint16)
    a = np.tile(values, (16, 4))
    im = Image.fromarray(a)
    assert im.mode.startswith("I;16")
    rgb = _load_saved(tmp_path, im, name)
    assert Image.open(tmp_path / name).mode.startswith("I;16")
    expected = np.rint(values.astype(float) * 255 / 65535).astype(np.uint8)
    np.testing.assert_array_equal(rgb[0, : len(values), 0], expected)
    np.testing.assert_array_equal(rgb[:, :, 0], rgb[:, :, 2])


def test_cmyk_jpeg_becomes_rgb(tmp_path):
    im = Image.new("CMYK", (32, 32), (0, 0, 0, 0))  # no ink: white paper
    im.paste((255, 0, 0, 0), (0, 0, 16, 32))  # full cyan on the left
    rgb = _load_saved(tmp_path, im, "cmyk.jpg", quality=95)
    assert Image.open(tmp_path / "cmyk.jpg").mode == "CMYK"
    assert np.abs(rgb[16, 4].astype(int) - (0, 255, 255)).max() <= 8
    assert np.abs(rgb[16, 28].astype(int) - (255, 255, 255)).max() <= 8


def test_animated_gif_uses_first_frame_with_a_warning(tmp_path):
    frames = [Image.new("RGB", (32, 32), c) for c in ("red", "blue", "green")]
    p = tmp_path / "anim.gif"
    frames[0].save(p, save_all=True, append_images=frames[1:], duration=100)
    with pytest.warns(UserWarning, match="3 frames; using the first") as caught:
        rgb = load_image(p)
    assert tuple(rgb[10, 10]) == (255, 0, 0)
    # The caller prints the file name before every warning; the message does not repeat it.
    assert all("anim.gif" not in str(w.message) for w in caught)


# --- arrays ----------------------------------------------------------------------------------

def test_arrays_of_other_types():
    gray16 = np.full((20, 20), 65535, dtype=np.uint16)
    assert load_image(gray16).max() == 255 and load_image(gray16).shape == (20, 20, 3)
    unit = np.full((20, 20, 3), 0.5)
    assert load_image(unit)[0, 0, 0] == 128
    mask = np.zeros((20, 20), dtype=bool)
    mask[0, 0] = True
    out = load_image(mask)
    assert out[0, 0, 0] == 255 and out[1, 1, 0] == 0
    rgba = np.zeros((20, 20, 4), dtype=np.uint8)
    assert tuple(load_image(rgba)[0, 0]) == (255, 255, 255)


def test_bad_arrays_are_refused():
    with pytest.raises(ImageError, match="shape"):
        load_image(np.zeros((20, 20, 2), dtype=np.uint8))
    with pytest.raises(ImageError, match="too small"):
        load_image(np.zeros((1, 1, 3), dtype=np.uint8))


# --- mangled files, orientation, value ranges, thin strips --------------------------------------

FUZZ_LOADER = Path(__file__).parent / "data" / "fuzz" / "loader"


@pytest.mark.parametrize("name", ["gif_frames_indexerror.gif", "tiff_frames_typeerror.tif",
                                  "tiff_frames_keyerror.tif"])
def test_mangled_frame_tables_are_the_loaders_own_error(name):
    # Pillow raised IndexError / TypeError / KeyError counting these files' frames.
    with pytest.raises(ImageError, match="corrupt") as info:
        load_image(FUZZ_LOADER / name)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_orientation_is_applied(tmp_path, orientation):
    from PIL import ImageOps

    im = Image.new("RGB", (40, 24), "white")
    ImageDraw.Draw(im).rectangle((2, 3, 12, 8), fill=(200, 0, 0))
    ImageDraw.Draw(im).rectangle((30, 18, 37, 21), fill=(0, 0, 200))
    exif = Image.Exif()
    exif[0x0112] = orientation
    p = tmp_path / "rotated.png"
    im.save(p, exif=exif)
    expected = np.asarray(ImageOps.exif_transpose(Image.open(p)).convert("RGB"))
    got = load_image(p)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_one_infinite_value_does_not_black_out_a_float_image(tmp_path):
    a = np.full((32, 32), 1.0, dtype=np.float32)
    a[10:20, 10] = 0.0
    a[0, 0], a[0, 1], a[0, 2] = np.inf, np.nan, -np.inf
    p = tmp_path / "float.tif"
    Image.fromarray(a).save(p)
    assert Image.open(p).mode == "F"
    rgb = load_image(p)[..., 0]
    assert rgb[5, 5] == 255 and rgb[15, 10] == 0
    assert rgb[0, 0] == 255 and rgb[0, 1] == 255 and rgb[0, 2] == 0


def test_twelve_bit_data_in_a_sixteen_bit_file_uses_its_own_range(tmp_path):
    a = np.full((20, 20), 4095, dtype=np.uint16)
    a[5:15, 8] = 0
    a[0, 0] = 2048
    rgb = _load_saved(tmp_path, Image.fromarray(a), "g12.png")[..., 0]
    assert rgb[2, 2] == 255 and rgb[10, 8] == 0 and rgb[0, 0] == 128


def test_wide_integer_and_negative_arrays_are_scaled_by_their_range():
    a = np.full((20, 20), 1_000_000, dtype=np.int32)
    a[0, 0] = 0
    out = load_image(a)[..., 0]
    assert out[5, 5] == round(1_000_000 * 255 / (2 ** 20 - 1)) and out[0, 0] == 0
    signed = np.full((20, 20), 100, dtype=np.int16)
    signed[0, 0] = -100
    out = load_image(signed)[..., 0]
    assert out[0, 0] == 0 and out[5, 5] == 200


@pytest.mark.parametrize("w, h", [(10_000, 20), (16, 30_000), (100_000, 16)])
def test_side_below_minimum_after_downscaling_is_refused(tmp_path, w, h):
    path = png_header_only(tmp_path / "strip.png", w, h)
    with pytest.raises(ImageError, match=rf"too thin: {w}x{h} pixels would be \d+x\d+"):
        load_image(path)


def test_strip_that_stays_above_minimum_is_loaded(tmp_path):
    p = tmp_path / "strip.png"
    Image.new("L", (12_000, 32), 255).save(p)
    with pytest.warns(UserWarning, match="downscaled to 6000x16"):
        assert load_image(p).shape == (16, 6000, 3)
