"""IS-A triangles crossed by lines to their centroid and touched by their label; boxes
notched by their label."""

import cv2
import numpy as np

from cvparse.primitives.pieces import LABELLED_HULL_KINDS, hull_fits, hull_joined, joined_pieces
from cvparse.primitives.regions import enclosed_regions
from cvparse.primitives.shapes import classify


def _isa(ink: np.ndarray) -> None:
    """Apex-down triangle, big 'ISA' touching its sides, two lines to the centroid."""
    pts = np.array([[20, 30], [180, 30], [100, 120]], np.int32)
    cv2.polylines(ink, [pts], True, 1, 2)
    _bold_isa(ink, 54, 33, 60)
    cv2.line(ink, (0, 50), (100, 60), 1, 2)
    cv2.line(ink, (100, 60), (200, 10), 1, 2)


def _bold_isa(ink: np.ndarray, x: int, top: int, base: int) -> None:
    """Bold letters I, S, A drawn as strokes (not by a font renderer, whose glyphs
    change between OpenCV releases), from ``top`` to ``base`` starting at ``x``."""
    mid = (top + base) // 2
    cv2.line(ink, (x + 3, top), (x + 3, base), 1, 6)
    s = [[x + 34, top + 2], [x + 16, top], [x + 12, mid - 6], [x + 32, mid + 4],
         [x + 30, base - 2], [x + 12, base - 1]]
    cv2.polylines(ink, [np.array(s, np.int32)], False, 1, 5)
    cv2.polylines(ink, [np.array([[x + 42, base], [x + 54, top], [x + 66, base]],
                                 np.int32)], False, 1, 5)
    cv2.line(ink, (x + 47, mid + 8), (x + 61, mid + 8), 1, 4)


def test_crossed_labelled_triangle_restored_by_hull():
    ink = np.zeros((140, 200), np.uint8)
    _isa(ink)
    pieces = [r for r in enclosed_regions(ink.astype(bool), 20) if r.area < 8000]
    assert not [j for j in joined_pieces(pieces, ink.shape, 2, 400, 0.86)
                if j[1] == "triangle"]
    assert not hull_fits(pieces, ink.astype(bool), 400, 0.86)
    found = hull_joined(pieces, ink.astype(bool), 2, 400, 0.86)
    assert len(found) == 1 and found[0][1] == "triangle"
    x1, y1, x2, y2 = found[0][0].bbox
    assert x1 <= 30 and x2 >= 170 and y1 <= 35 and y2 >= 110
    # Pieces already claimed by another shape are not hulled again.
    assert not hull_joined(pieces, ink.astype(bool), 2, 400, 0.86, [found[0][0]])


def test_pieces_with_paper_between_are_not_hulled():
    ink = np.zeros((140, 200), np.uint8)
    # Two shapes one line apart whose hull is a triangle, adding a bare empty wedge.
    for pts in ([[20, 30], [100, 30], [100, 120]], [[100, 30], [180, 30], [100, 60]]):
        cv2.polylines(ink, [np.array(pts, np.int32)], True, 1, 2)
    pieces = enclosed_regions(ink.astype(bool), 20)
    loose = hull_joined(pieces, ink.astype(bool), 2, 400, 0.86, min_ink=0, min_border=0)
    assert [k for _, k, _ in loose] == ["triangle"]
    assert not hull_joined(pieces, ink.astype(bool), 2, 400, 0.86, min_border=0)
    assert not hull_joined(pieces, ink.astype(bool), 2, 400, 0.86, min_ink=0)


def test_sliver_along_a_side_joins_the_hull():
    # A line running close under the top side cuts off a wedge too small to be a piece.
    ink = np.zeros((140, 200), np.uint8)
    cv2.polylines(ink, [np.array([[20, 30], [180, 30], [100, 120]], np.int32)], True, 1, 2)
    cv2.putText(ink, "ISA", (60, 72), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 1, 2)
    cv2.line(ink, (0, 40), (100, 26), 1, 2)
    regions = enclosed_regions(ink.astype(bool), 1)
    assert any(r.area < 80 and r.bbox[0] < 28 for r in regions)  # the wedge at the corner
    pieces = [r for r in regions if 80 <= r.area < 8000]
    assert len(pieces) == 1 and pieces[0].bbox[0] >= 29
    found = hull_joined(pieces, ink.astype(bool), 2, 400, 0.86)
    assert len(found) == 1 and found[0][1] == "triangle"
    assert found[0][0].bbox[0] <= 26  # reaches into the corner past the sliver


def _notched_box(ink: np.ndarray) -> None:
    """A box whose bottom line of text runs into its border, notching its inside."""
    cv2.rectangle(ink, (20, 20), (180, 90), 1, 2)
    cv2.putText(ink, "Request", (40, 94), cv2.FONT_HERSHEY_SIMPLEX, 1.1, 1, 2)


def test_a_box_notched_by_its_label_is_restored_only_as_a_labelled_kind():
    ink = np.zeros((120, 200), np.uint8)
    _notched_box(ink)
    pieces = [r for r in enclosed_regions(ink.astype(bool), 20) if r.area > 2000]
    assert len(pieces) == 1
    assert classify(pieces[0].filled)[1] < 0.86
    assert not hull_fits(pieces, ink.astype(bool), 400, 0.86)  # a triangle only
    found = hull_fits(pieces, ink.astype(bool), 400, 0.86, kinds=LABELLED_HULL_KINDS)
    assert len(found) == 1 and found[0][1] in ("rect", "round_rect")
