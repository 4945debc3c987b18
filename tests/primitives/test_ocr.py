"""Batched OCR: several label crops read in one Tesseract call and mapped back."""

import cv2
import numpy as np
from PIL import Image, ImageDraw

from cvparse.primitives.items import Scale
from cvparse.primitives.freetext import line_strokes
from cvparse.primitives.inventory import build_inventory
from cvparse.primitives.ocr import (Word, build_sheet, clean_single_glyph, darkened,
                                  read_labels, surer_readings)
from cvparse.primitives.strokes import solid

from .synth import canvas, font, to_array


def _crop(text, size=24):
    img = Image.new("L", (16 * len(text) + 20, 40), 255)
    ImageDraw.Draw(img).text((8, 6), text, fill=0, font=font(size))
    return np.asarray(img)


def test_labels_come_back_to_their_crops():
    words = ["Customer", "Order Line", "payment_id", "Q"]
    assert read_labels([_crop(w) for w in words], text_height=28) == words


def test_sheet_keeps_one_scale_for_all_crops():
    _, places = build_sheet([_crop("ab"), _crop("Abc", 30)], text_height=20)
    assert len({p.factor for p in places}) == 1
    assert places[1].y > places[0].y + places[0].h


def test_single_glyph_cleanup():
    assert clean_single_glyph("Cc") == "C"
    assert clean_single_glyph("oO") == "O"
    assert clean_single_glyph("|") == "I"
    assert clean_single_glyph("Y:") == "Y"
    assert clean_single_glyph("AB") == "AB"


# --- free text outside shapes (freetext + the batched read) ------------------------


def _free_text(rgb):
    inv = build_inventory(rgb)
    return [t.text for t in inv.texts]


def test_thin_letters_stay_in_free_words():
    # I, l, i, t and 1 are single straight strokes; they are letters, not line stubs
    img, draw = canvas(360, 120)
    draw.text((40, 40), "Mail Filter 1", fill=(0, 0, 0), font=font(18))
    assert _free_text(to_array(img)) == ["Mail Filter 1"]


def test_label_touched_by_an_arrow_is_read_whole():
    img, draw = canvas(420, 160)
    draw.text((200, 60), "Storage", fill=(0, 0, 0), font=font(18))
    # an open arrowhead whose tip touches the label's lower left corner
    tip = (198, 80)
    draw.line([(40, 140), tip], fill=(60, 40, 30), width=2)
    draw.line([tip, (180, 80)], fill=(60, 40, 30), width=2)
    draw.line([tip, (188, 95)], fill=(60, 40, 30), width=2)
    assert _free_text(to_array(img)) == ["Storage"]


def test_tops_of_touching_letters_are_no_line():
    # a row of letters whose tops touch forms a long flat run; it must not be cut out
    mask = np.zeros((30, 120), bool)
    mask[5:7, 10:110] = True            # the common top
    for x in range(10, 110, 6):          # stems hanging from it
        mask[5:20, x:x + 2] = True
    assert not line_strokes(mask, Scale(stroke=2, text_height=16)).any()
    line = np.zeros((30, 120), bool)
    line[14:16, 5:115] = True
    assert line_strokes(line, Scale(stroke=2, text_height=16))[14, 60]


BOLD_M = ["####....###", "####...####", "####...####", "#####..####", "#####.#####",
          "#####.##.##", "########.##", "###.####.##", "###.###..##", "###.###..##",
          "###......##", "###......##"]
"""A 12 px capital M as the page's ink mask sees it (anti-aliasing makes it bold)."""


def test_bold_letter_is_no_arrowhead():
    m = np.array([[ch == "#" for ch in row] for row in BOLD_M])
    tri = np.zeros((12, 12), np.uint8)
    cv2.fillPoly(tri, [np.array([[0, 0], [11, 5], [0, 10]], np.int32)], 1)
    assert solid(tri.astype(bool), 2.0)
    assert not solid(m, 2.0)


# --- the in-process engine and the tesseract program ---------------------------------


def _sheet():
    from cvparse.primitives.ocr import build_sheet

    crops = [_crop(w) for w in ("Customer", "order_id", "Q", "Line 2")]
    return build_sheet(crops, text_height=28)[0]


def test_library_and_program_read_the_same(monkeypatch):
    import pytest

    from cvparse.primitives import ocr

    if ocr._engines() is None:
        pytest.skip("libtesseract.so.5 not loadable here")
    sheet = _sheet()
    lib = ocr._tesseract_data(sheet, 6)
    monkeypatch.setenv(ocr.ENGINE_ENV, "cli")
    cli = ocr._tesseract_data(sheet, 6)
    assert lib == cli
    assert "Customer" in lib["text"]


def test_forked_child_reads_with_inherited_engines():
    import os

    import pytest

    from cvparse.primitives import ocr

    if ocr._engines() is None:
        pytest.skip("libtesseract.so.5 not loadable here")
    sheet = _sheet()
    want = ocr._tesseract_words(sheet, 6)
    assert ocr._engines().idle  # an engine is loaded and idle before the fork
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: report whether it read the same words, then leave at once
        os.close(r)
        os.write(w, b"1" if ocr._tesseract_words(sheet, 6) == want else b"0")
        os._exit(0)
    os.close(w)
    got = os.read(r, 1)
    os.waitpid(pid, 0)
    assert got == b"1"


def test_concurrent_reads_share_the_engines():
    from cvparse.primitives.ocr import read_crops, read_crops_later

    crops = [_crop(w) for w in ("Customer", "Order Line")]
    later = read_crops_later(crops, 28)
    now = read_crops(crops, 28)
    assert [[w.text for w in ws] for ws in later()] == [[w.text for w in ws] for ws in now]
    assert [" ".join(w.text for w in ws) for ws in now] == ["Customer", "Order Line"]


# --- text a few pixels tall: read again darkened, the surer reading kept ------------


def test_darkened_sheet_keeps_paper_and_ink():
    grey = np.array([[255, 200, 128, 0]], np.uint8)
    dark = darkened(grey)
    assert dark[0, 0] == 255 and dark[0, 3] == 0
    assert dark[0, 1] < 200 and dark[0, 2] < 64


def test_surer_reading_wins():
    a = [[Word("Invctoe", (0, 0, 9, 9), 60.0, 0)], [Word("Check", (0, 0, 9, 9), 90.0, 0)]]
    b = [[Word("Invoice", (0, 0, 9, 9), 85.0, 0)], [Word("Chack", (0, 0, 9, 9), 70.0, 0)]]
    assert [ws[0].text for ws in surer_readings(a, b)] == ["Invoice", "Check"]


def test_tiny_label_read_whole():
    # text about 6 px tall: the plain enlarged sheet reads "Invctoe Archive"
    img, draw = canvas(300, 200)
    for k, w in enumerate(["Invoice Archive", "Verify Email", "Review Draft", "Check Stock"]):
        x, y = 20 + (k % 2) * 140, 20 + (k // 2) * 90
        draw.rectangle((x, y, x + 110, y + 40), outline=(0, 0, 0), width=1)
        draw.text((x + 10, y + 14), w, fill=(0, 0, 0), font=font(8))
    labels = [s.label for s in build_inventory(to_array(img)).shapes]
    assert "Invoice Archive" in labels
