"""Label boxes read again widened: one batched read through the page (issue 18: late
OCR goes through Page.read, where its count and time show)."""

import cv2
import numpy as np

from cvparse.primitives.inventory import build_inventory
from cvparse.primitives.ocr import Word
from cvparse.primitives.page import make_page
from cvparse.primitives.rereads import read_widened


def test_label_boxes_are_read_widened_in_one_read_through_the_page():
    rgb = np.full((120, 300, 3), 255, np.uint8)
    cv2.putText(rgb, "Server", (110, 60), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 2)
    cv2.line(rgb, (20, 100), (280, 100), (0, 0, 0), 2)
    page = make_page(rgb)
    seen: list[list[tuple[int, int]]] = []

    def fake_ocr(crops, text_height, psm):
        seen.append([c.shape[:2] for c in crops])
        return [[Word("Server", (0, 0, 10, 10), 90.0, 0)] for _ in crops]

    page.ocr = fake_ocr
    inv = build_inventory(page, ocr=False)
    boxes = [[110, 45, 180, 62], [200, 45, 230, 62]]
    assert read_widened(inv, boxes) == ["Server", "Server"]
    assert len(seen) == 1 and len(page.reads) == 1 and page.reads[0][0] == 2
