"""The node inventory: every closed shape with its kind, modifiers and label, plus free text.

Steps: paper and ink (``paper``), scale (``scale``), enclosed regions (``regions``), shape
fitting (``shapes``), double borders (ring regions merged, or a second outline found by
``double``), shapes cut apart by crossing lines re-joined (``pieces``), dashed-border
shapes (``dashed``), then OCR (``ocr``): one batched call for the labels inside shapes
(cropped with crossing lines taken out, ``labelcrop``; underlines found and erased,
``underline``; underscores restored, ``wordjoin``) and one for the free words outside them
(``freetext``).
"""

from __future__ import annotations

import cv2
import numpy as np

from .dashed import dashed_regions
from .double import outer_border
from .items import Inventory, Scale, Shape, TextItem
from .freetext import free_words, wrapped_tail
from .halos import closed_by_heads
from .glyphs import (LETTER_SYMBOLS, is_bar, is_single_glyph, one_letter, repeat_glyph,
                     tight)
from .labelcrop import label_crop
from ..arrays import components
from .ocr import (SMALL_TEXT_FACTOR, darkened, glyph_height, read_crops, read_crops_later,
                  sheet_factor, surer_readings)
from .paper import background_colour, fill_outlines, ink_mask, is_gray, paper_map
from .page import Page, make_page
from .pieces import (BOX_KINDS, LABELLED_HULL_KINDS, crossed_boxes, hull_fits, hull_joined,
                     joined_pieces, mended_boxes)
from .regions import Region, enclosed_regions, fill_holes, grow_region, region_from_mask
from .scale import estimate_scale, measure_scale
from .shapes import classify
from .underline import erase_underlines, find_underlines
from .wordjoin import join_label

MIN_FIT = 0.86
"""Regions fitting no template better than this are gaps between lines, not shapes."""

NEAR_AREA = 0.5
"""Share of the least shape area from which a region is grown back into the corners the
fine median rounded off before its size is judged (a one-letter box at the limit), if
a label fills it."""


SCALE_AGREE = 1.3
"""The text height measured on the wide median's ink is trusted within this factor of the
first estimate; further off, it was measured on too few letters."""

FILL_STEP = 24.0
"""A wide paper colour this far from the page colour fills shapes (the least contrast
``ink_mask`` takes for ink): its outline is closed by :func:`fill_outlines`."""

BOX_HEIGHT = 2.5
"""A node's box stands at least this many text heights high (a line of text and its
margins); an edge label's plate is lower.  (2.0 let a one-line Mermaid node's fill, 2.4
text heights high, be ringed, but also the label plates of 2.0-2.5 set on a group frame's
tint, which the ring's border test takes for a border: they became nodes.)"""

MAX_STROKE = 0.35
"""Lines and borders are thinner than this many text heights; a thicker stroke estimate
measured fills or a dark page, not lines."""


def page_ink(rgb: np.ndarray, background: tuple[int, int, int] | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, Scale]:
    """Paper map, ink mask, fine ink mask and scale.

    The wide median (twice the text height) erases text and filled arrowheads, so its ink
    holds them whole; the fine median (a few strokes wide) follows the corners of filled
    shapes, so its ink outlines shapes exactly.  ``background`` is the page colour
    (:func:`background_colour`) when the caller has it already.
    """
    gray = is_gray(rgb)
    first = paper_map(rgb, 15, gray)
    first_ink = ink_mask(rgb, first, gray=gray)
    scale = estimate_scale(first_ink)
    wide = max(15, 2 * scale.text_height)
    if (int(wide) | 1) == 15:  # small text: the same median, ink and scale again
        paper, ink = first, first_ink
    else:
        paper = paper_map(rgb, wide, gray)
        ink = ink_mask(rgb, paper, gray=gray)
        again, mode = measure_scale(ink)
        agree = 1 / SCALE_AGREE <= again.text_height / scale.text_height <= SCALE_AGREE
        # fills thicken the runs every way, which the line width reads past: the raw mode
        raw = Scale(stroke=mode, text_height=again.text_height)
        if agree and not _fills_taken_for_ink(scale, raw):
            scale = again
        elif again.stroke > scale.stroke:  # small filled boxes became blobs of ink,
            paper, ink = first, first_ink  # thickening every border: the first pass holds
        else:  # too few letters left whole
            scale = Scale(stroke=again.stroke, text_height=scale.text_height)
    # The page seen between two borders on a tinted fill is paper (``page_coloured``).
    if background is None:
        background = background_colour(rgb)
    fine = ink_mask(rgb, paper_map(rgb, max(7, 4 * scale.stroke + 1), gray), gray=gray,
                    background=background, fills=paper)
    # A fill's faint border still closes it: the ring where the fill's colour stops.
    fine |= fill_outlines(rgb, paper, background, FILL_STEP, fine,
                          int(round(scale.stroke)) + 1, BOX_HEIGHT * scale.text_height)
    return paper, ink, fine, scale


def _fills_taken_for_ink(first: Scale, wide: Scale) -> bool:
    """The wide median made lines at least twice as thick, and thicker than any drawn line
    beside text of that height: it took shape fills (or a dark page) for ink."""
    return wide.stroke >= 2 * first.stroke and wide.stroke > MAX_STROKE * wide.text_height


def _ring_thickness(r: Region) -> float:
    perimeter = max(1.0, len(r.contour))
    return r.paper_area / perimeter


def _merge_double_borders(regions: list[Region], stroke: float
                          ) -> list[tuple[Region, Region]]:
    """Pair a thin ring region with the region it encloses: one shape, double border.

    The ring must run close round what it holds (:func:`_hugs`).  A ring cut in two by
    lines meeting its corners leaves two pieces, one lying within the other's box: each
    piece takes the first region it encloses that is no thin ring itself (the shape's
    inside, not the other piece), and the inside goes with the larger piece.
    """
    inner_of: dict[int, int] = {}
    ring = 3 * stroke + 3
    for i, outer in enumerate(regions):
        if _ring_thickness(outer) > ring:
            continue
        ox1, oy1, ox2, oy2 = outer.bbox
        held = [j for j, inner in enumerate(regions) if j != i
                and ox1 <= inner.bbox[0] and oy1 <= inner.bbox[1]
                and inner.bbox[2] <= ox2 and inner.bbox[3] <= oy2]
        best = None
        for j in held:
            if regions[j].area < 0.5 * outer.area:
                continue
            if best is None or (_ring_thickness(regions[best]) <= ring
                                and _ring_thickness(regions[j]) > ring):
                best = j  # the first inside, a piece of the ring only if nothing else
        if best is not None and _hugs(outer, [regions[j] for j in held], 2 * ring):
            inner_of[i] = best
    rings: dict[int, int] = {}  # inside -> the largest ring piece around it
    for i, j in inner_of.items():
        if j not in rings or regions[i].area > regions[rings[j]].area:
            rings[j] = i
    pieces = {i for i, j in inner_of.items() if rings[j] != i}
    inners = set(inner_of.values())
    out = []
    for i, r in enumerate(regions):
        if i in inners or i in pieces:
            continue
        out.append((regions[inner_of.get(i, i)], r))
    return out


def _hugs(ring: Region, inside: list[Region], reach: float) -> bool:
    """Whether nearly all of a ring region (less what it holds) lies within ``reach`` of
    the regions it holds: a second border runs close round the first (round every
    compartment of a table), while the band between lines passing a node does not."""
    x1, y1 = ring.bbox[:2]
    held = np.zeros(ring.filled.shape, np.uint8)
    for r in inside:
        ix1, iy1, ix2, iy2 = r.bbox
        held[iy1 - y1:iy2 - y1, ix1 - x1:ix2 - x1] |= r.filled.astype(np.uint8)
    own = ring.filled & ~held.astype(bool)
    if not own.any():
        return True
    k = 2 * int(round(reach)) + 1
    near = cv2.dilate(held, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))).astype(bool)
    return bool((own & near).sum() >= HUG_SHARE * own.sum())


HUG_SHARE = 0.9
"""Share of a double border's ring that lies close round what it holds: the wedge at a
sharp corner (a diamond's tip) may reach further."""


def _close_ring(inner: Region, ring: Region, stroke: float) -> Region:
    """The outer area of a double border: the ring with everything it surrounds.

    A ring pinched shut where a connector meets it has no hole to fill, so the inner area
    and the border between are added before filling.
    """
    x1, y1, x2, y2 = ring.bbox
    m = np.zeros((y2 - y1, x2 - x1), np.uint8)
    m |= ring.filled.astype(np.uint8)
    ix1, iy1, ix2, iy2 = inner.bbox
    m[iy1 - y1:iy2 - y1, ix1 - x1:ix2 - x1] |= inner.filled.astype(np.uint8)
    k = 2 * int(round(stroke)) + 3
    m = cv2.morphologyEx(np.pad(m, k), cv2.MORPH_CLOSE,
                         cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))[k:-k, k:-k]
    return region_from_mask(fill_holes(m.astype(bool)), x1, y1, ring.paper_area, crop=False)


def _outer_bbox(region: Region, ink: np.ndarray, stroke: float) -> tuple[int, int, int, int]:
    pad = int(round(stroke)) + 1
    x1, y1, x2, y2 = region.bbox
    h, w = ink.shape
    return (max(0, x1 - pad), max(0, y1 - pad), min(w, x2 + pad), min(h, y2 + pad))


def _fill_colour(region: Region, rgb: np.ndarray, ink: np.ndarray) -> tuple[int, int, int]:
    """The colour covering most of a region's interior. A light fill in a box much
    smaller than the paper median's window was taken for ink; then the few pixels left
    as paper are the label's letters, and the whole interior is measured instead."""
    x1, y1, x2, y2 = region.bbox
    paper = region.filled & ~ink[y1:y2, x1:x2]
    if 2 * int(paper.sum()) < int(region.filled.sum()):
        paper = region.filled
    return _masked_median(rgb[y1:y2, x1:x2], paper)


def _masked_median(crop: np.ndarray, mask: np.ndarray) -> tuple[int, int, int]:
    """Per-channel median (truncated to int) of the pixels of a uint8 colour crop under a
    mask, from channel histograms: equal to ``np.median(crop[mask], axis=0)`` but without
    gathering and sorting the pixels."""
    m = mask.astype(np.uint8)
    out = []
    for c in range(3):
        cum = np.cumsum(cv2.calcHist([crop], [c], m, [256], [0, 256]).ravel().astype(np.int64))
        n = int(cum[-1])
        if n == 0:
            return (255, 255, 255)
        lo = int(np.searchsorted(cum, (n - 1) // 2, side="right"))
        hi = int(np.searchsorted(cum, n // 2, side="right"))
        out.append((lo + hi) // 2)
    return (out[0], out[1], out[2])


def _grow(region: Region, rgb: np.ndarray, ink: np.ndarray, fine_k: int,
          background: tuple[int, int, int]) -> Region:
    fill = _fill_colour(region, rgb, ink)
    contrast = float(np.linalg.norm(np.subtract(fill, background, dtype=float)))
    tolerance = 30.0 if contrast < 1 else float(np.clip(contrast / 2, 6.0, 30.0))
    return grow_region(region, rgb, fill, fine_k // 2 + 1, tolerance)


def build_inventory(source: np.ndarray | Page, ocr: bool = True) -> Inventory:
    """Find every closed shape of a page, classify it and read its label.

    Parameters
    ----------
    source : Page or ndarray
        The page (:func:`~cvparse.primitives.page.make_page`), or an ``H x W x 3`` uint8
        RGB image to make it from.
    ocr : bool
        Read the shapes' labels and the free text (``False``: shapes only).

    Returns
    -------
    Inventory
        The shapes and text found, in the page's pixels and :class:`Scale`, with the
        page it was found on.

    Examples
    --------
    >>> import cv2, numpy as np
    >>> rgb = np.full((120, 200, 3), 255, np.uint8)
    >>> _ = cv2.rectangle(rgb, (40, 30), (160, 90), (0, 0, 0), 2)
    >>> inv = build_inventory(rgb, ocr=False)
    >>> [(s.kind, s.bbox) for s in inv.shapes]
    [('rect', (38, 28, 163, 93))]
    """
    page = source if isinstance(source, Page) else make_page(source)
    rgb = page.image
    h, w = rgb.shape[:2]
    bg = page.background
    ink, fine, scale = page.ink, page.fine_ink, page.scale
    min_area = max(60.0, min(1.2 * scale.text_height ** 2, 40 * scale.stroke ** 2))
    fine_k = max(7, int(4 * scale.stroke + 1))
    least = max(20.0, min(0.5 * scale.text_height ** 2, 20 * scale.stroke ** 2))
    raw = enclosed_regions(fine, least)
    raw += _opened_by_halos(raw, fine, ink, scale, least, page.solid_blobs)
    # The fine median rounds the corners of a small box off its region: one nearly big
    # enough is judged by its size once grown back into its corners, if a label fills it.
    near = [r for r in raw if r.paper_area >= 0.3 * min_area and r.area >= NEAR_AREA * min_area]
    grown = {id(r): _grow(r, rgb, ink, fine_k, bg) for r in near}
    normal = [r for r in near if r.area >= min_area
              or (grown[id(r)].area >= min_area
                  and _holds_letter(grown[id(r)], ink, scale.text_height))]
    regions = [grown[id(r)] for r in normal]
    shapes: list[Shape] = []
    kept: list[Region] = []
    failed: list[Region] = []
    for region, outer in _merge_double_borders(regions, scale.stroke):
        if outer is not region:
            outer = _close_ring(region, outer, scale.stroke)
        kind, fit = classify(region.filled)
        if fit < MIN_FIT:
            failed.append(region)
            continue
        fill = _fill_colour(region, rgb, ink)
        shapes.append(Shape(kind=kind, bbox=_outer_bbox(outer, ink, scale.stroke),
                            interior=region, outer=outer, fit=fit, double=outer is not region,
                            fill=fill))
        kept.append(region)
    for s in shapes:
        if not s.double:
            _find_second_border(s, fine, ink, scale.stroke)
    shapes, kept = _join_lids(shapes, kept, scale.stroke)
    taken_ids = {id(r) for r in normal}
    small = [r for r in raw if id(r) not in taken_ids]
    _add_pieced(shapes, kept, failed + small, rgb, ink, scale, min_area)
    _add_dashed(shapes, kept, fine, rgb, ink, scale, min_area)
    shapes, kept = _drop_twins(shapes, kept, scale.stroke)
    text_mask = np.zeros((h, w), bool)
    for s in shapes:
        x1, y1, x2, y2 = s.interior.bbox
        text_mask[y1:y2, x1:x2] |= s.interior.filled & ink[y1:y2, x1:x2]
    texts: list[TextItem] = []
    if ocr:
        texts = _read_text(rgb, ink, shapes, kept, scale, bg, text_mask)
        shapes = drop_line_gaps(shapes, ink, scale)
    return Inventory(width=w, height=h, scale=scale, background=bg,
                     shapes=shapes, texts=texts, ink=ink, text_mask=text_mask, image=rgb,
                     page=page)


def _opened_by_halos(found: list[Region], fine: np.ndarray, ink: np.ndarray, scale: Scale,
                     least: float, heads: np.ndarray | None = None) -> list[Region]:
    """The boxes a haloed arrowhead cut open (:func:`closed_by_heads`): regions enclosed
    once the heads are grown by their halo that no region of ``found`` already covers
    (most of it lay on the open page), holding a letter (a node's label; a sliver shut
    between a head and a line holds none)."""
    closed = closed_by_heads(fine, ink, scale, heads=heads)
    if closed is fine:
        return []
    taken = np.zeros(fine.shape, bool)
    for r in found:
        x1, y1, x2, y2 = r.bbox
        taken[y1:y2, x1:x2] |= r.filled
    out = []
    for r in enclosed_regions(closed, least):
        x1, y1, x2, y2 = r.bbox
        if 2 * np.count_nonzero(taken[y1:y2, x1:x2] & r.filled) >= r.area:
            continue
        if _holds_letter(r, ink, scale.text_height):
            out.append(r)
    return out


def _holds_letter(region: Region, ink: np.ndarray, text_height: float) -> bool:
    """Whether ink inside a region stands as tall as a letter (a label, not an icon's
    ports or marks)."""
    x1, y1, x2, y2 = region.bbox
    inside = (ink[y1:y2, x1:x2] & region.filled).astype(np.uint8)
    _, _, stats, _ = components(inside, 8)
    return bool((stats[1:, cv2.CC_STAT_HEIGHT] >= LETTER_SHARE * text_height).any())


LETTER_SHARE = 0.6
"""Least height of a letter, in text heights (lower-case letters stand about this tall)."""


def _join_lids(shapes: list[Shape], kept: list[Region], stroke: float
               ) -> tuple[list[Shape], list[Region]]:
    """A cylinder's lid is drawn as a separate ellipse on top of its body: fold it into the
    cylinder (bbox and outer area) so lines reaching the top attach to the node.
    ``kept`` (each shape's region) is filtered alongside."""
    tol = 2 * stroke + 2
    lids = set()
    for body in (s for s in shapes if s.kind == "cylinder"):
        bx1, by1, bx2, by2 = body.outer.bbox
        for i, lid in enumerate(shapes):
            lx1, ly1, lx2, ly2 = lid.outer.bbox
            if i in lids or lid.kind not in ("ellipse", "circle") \
                    or abs(lx1 - bx1) > tol or abs(lx2 - bx2) > tol \
                    or not ly1 < by1 <= ly2 + tol:
                continue
            lids.add(i)
            body.outer = _union(body.outer, lid.outer, stroke)
            body.bbox = (min(body.bbox[0], lid.bbox[0]), min(body.bbox[1], lid.bbox[1]),
                         max(body.bbox[2], lid.bbox[2]), max(body.bbox[3], lid.bbox[3]))
    return ([s for i, s in enumerate(shapes) if i not in lids],
            [r for i, r in enumerate(kept) if i not in lids])


def _drop_twins(shapes: list[Shape], kept: list[Region], stroke: float
                ) -> tuple[list[Shape], list[Region]]:
    """One shape per outline: two shapes whose boxes agree on every side to a stroke or
    two are one node found twice (two concentric outlines, such as a final node's
    bullseye of two rings, taken once as a double border and once as the ring between
    them).  The double one is kept, else the larger; ``kept`` is filtered alongside."""
    tol = 2 * stroke + 2
    gone: set[int] = set()
    for i, a in enumerate(shapes):
        for j in range(i + 1, len(shapes)):
            b = shapes[j]
            if j in gone or i in gone or max(abs(u - v) for u, v in zip(a.bbox, b.bbox)) > tol:
                continue
            if a.double != b.double:
                gone.add(j if a.double else i)
            else:
                gone.add(j if a.outer.area >= b.outer.area else i)
    return ([s for i, s in enumerate(shapes) if i not in gone],
            [r for i, r in enumerate(kept) if i not in gone])


def _union(a: Region, b: Region, stroke: float) -> Region:
    """One filled region covering two touching ones and the border line between them."""
    x1, y1 = min(a.bbox[0], b.bbox[0]), min(a.bbox[1], b.bbox[1])
    x2, y2 = max(a.bbox[2], b.bbox[2]), max(a.bbox[3], b.bbox[3])
    m = np.zeros((y2 - y1, x2 - x1), np.uint8)
    for r in (a, b):
        m[r.bbox[1] - y1:r.bbox[3] - y1, r.bbox[0] - x1:r.bbox[2] - x1] |= r.filled
    k = 2 * int(round(stroke)) + 3
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    return region_from_mask(fill_holes(m), x1, y1, a.paper_area + b.paper_area)


def _runs_on(ink: np.ndarray, box: tuple[int, int, int, int]) -> float:
    """Share of the positions along a thin box (its long axis) with ink across it."""
    h, w = ink.shape
    x1, y1, x2, y2 = max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3])
    if x2 <= x1 or y2 <= y1:
        return 0.0
    sub = ink[y1:y2, x1:x2]
    axis = 0 if (x2 - x1) >= (y2 - y1) else 1
    return float(sub.any(axis=axis).mean())


def continued_sides(shape: Shape, ink: np.ndarray, scale: Scale) -> int:
    """How many sides of a shape's box are lines that run on past its corners.

    A node's border ends at its corners; the gaps that crossing or parallel connectors
    close off are bounded by lines that carry on beyond them.
    """
    x1, y1, x2, y2 = shape.outer.bbox
    b = int(round(scale.stroke)) + 2  # the border lies within this of the inner area
    reach = int(round(scale.text_height))
    sides = (
        ((x1 - b - reach, y1 - b, x1 - b, y1), (x2 + b, y1 - b, x2 + b + reach, y1)),  # top
        ((x1 - b - reach, y2, x1 - b, y2 + b), (x2 + b, y2, x2 + b + reach, y2 + b)),  # bottom
        ((x1 - b, y1 - b - reach, x1, y1 - b), (x1 - b, y2 + b, x1, y2 + b + reach)),  # left
        ((x2, y1 - b - reach, x2 + b, y1 - b), (x2, y2 + b, x2 + b, y2 + b + reach)),  # right
    )
    return sum(max(_runs_on(ink, a), _runs_on(ink, c)) >= 0.85 for a, c in sides)


def drop_line_gaps(shapes: list[Shape], ink: np.ndarray, scale: Scale) -> list[Shape]:
    """Shapes without text whose sides run on past their corners on two or more sides
    are gaps closed off by connectors, not nodes.  Ink along the border of a shape with
    text (a neighbouring compartment of the same box) does not count as running on."""
    shield = np.zeros(ink.shape, np.uint8)
    for s in shapes:
        if any(ch.isalnum() for ch in s.label):
            x1, y1, x2, y2 = s.bbox
            shield[max(0, y1 - 2):y2 + 2, max(0, x1 - 2):x2 + 2] = 1
    lines = ink & ~shield.astype(bool)
    return [s for s in shapes if any(ch.isalnum() for ch in s.label)
            or continued_sides(s, lines, scale) < 2]


def _inside(r: Region, shapes: list[Shape]) -> bool:
    """Whether a region's centre lies in the interior of one of the shapes."""
    x1, y1, x2, y2 = r.bbox
    cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
    for s in shapes:
        a, b, c, d = s.interior.bbox
        if a <= cx < c and b <= cy < d and s.interior.filled[cy - b, cx - a]:
            return True
    return False


def _overlap(r: Region, s: Shape) -> int:
    """Pixels shared by a region and a shape's outer area."""
    x1, y1, x2, y2 = r.bbox
    a, b, c, d = s.outer.bbox
    ix1, iy1, ix2, iy2 = max(x1, a), max(y1, b), min(x2, c), min(y2, d)
    if ix1 >= ix2 or iy1 >= iy2:
        return 0
    return int((r.filled[iy1 - y1:iy2 - y1, ix1 - x1:ix2 - x1]
                & s.outer.filled[iy1 - b:iy2 - b, ix1 - a:ix2 - a]).sum())


CROSSED_PART_KINDS = ("rect", "round_rect", "stadium", "parallelogram", "hexagon")
"""Shapes a box crossed by lines may fall into, each a shape on its own."""


def _add_pieced(shapes: list[Shape], kept: list[Region], pool: list[Region],
                rgb: np.ndarray, ink: np.ndarray, scale: Scale, min_area: float) -> None:
    """Shapes cut apart by crossing lines, pinched outer borders of double shapes, and
    shapes notched by a label touching their border."""
    pool = [r for r in pool if not _inside(r, shapes)]
    # A double border is no box cut short.
    boxes = [(s.interior, "" if s.double else s.kind, s.fit) for s in shapes]
    mended, new_boxes, used = mended_boxes(boxes, pool, ink.shape, scale.stroke, min_area,
                                           MIN_FIT)
    for i, region, kind, fit in mended:
        s = shapes[i]
        s.kind, s.fit, s.interior, s.outer = kind, fit, region, region
        s.bbox = _outer_bbox(region, ink, scale.stroke)
        kept[i] = region
        _find_second_border(s, ink, ink, scale.stroke)  # the line cut both borders
    pool = [r for j, r in enumerate(pool) if j not in used]
    # A piece of a crossed box may fit a shape of its own (a line across a box's middle
    # leaves two boxes; across a corner, a box with rounded ends).
    parts = [i for i, s in enumerate(shapes) if not s.double and s.kind in CROSSED_PART_KINDS]
    crossed, used = crossed_boxes(pool + [shapes[i].interior for i in parts], ink,
                                  scale.stroke, scale.text_height, min_area, MIN_FIT,
                                  found=[s.interior for s in shapes],
                                  boxes=[s.interior for s in shapes if s.kind in BOX_KINDS])
    gone = {parts[j - len(pool)] for j in used if j >= len(pool)}
    shapes[:] = [s for i, s in enumerate(shapes) if i not in gone]
    kept[:] = [r for i, r in enumerate(kept) if i not in gone]
    pool = [r for j, r in enumerate(pool) if j not in used]
    found = new_boxes + crossed + joined_pieces(pool, ink.shape, scale.stroke, min_area, MIN_FIT)
    labelled = [_holds_letter(r, ink, scale.text_height) for r in pool]
    found += hull_fits([r for r, t in zip(pool, labelled) if not t], ink, min_area, MIN_FIT)
    found += hull_fits([r for r, t in zip(pool, labelled) if t], ink, min_area, MIN_FIT,
                       kinds=LABELLED_HULL_KINDS)
    found += hull_joined(pool, ink, scale.stroke, min_area, MIN_FIT, [f[0] for f in found])
    for region, kind, fit in found:
        hits = [(i, _overlap(region, s)) for i, s in enumerate(shapes)]
        hits = [(i, n) for i, n in hits if n > 0]
        if len(hits) == 1 and not shapes[hits[0][0]].double:
            s = shapes[hits[0][0]]
            if (hits[0][1] >= 0.9 * s.outer.area and s.interior.area >= 0.4 * region.area
                    and s.kind == kind):
                s.outer, s.double = region, True
                s.bbox = _outer_bbox(region, ink, scale.stroke)
            continue
        if hits:
            continue
        shapes.append(Shape(kind=kind, bbox=_outer_bbox(region, ink, scale.stroke),
                            interior=region, outer=region, fit=fit,
                            fill=_fill_colour(region, rgb, ink)))
        kept.append(region)
        if any(region is c[0] for c in crossed) \
                and continued_sides(shapes[-1], ink, scale) >= 2:
            shapes.pop()  # a gap between lines crossing one another, cut again
            kept.pop()
            continue
        # A weak entity's second border is cut as well: look for it around the shape.
        _find_second_border(shapes[-1], ink, ink, scale.stroke)


def _find_second_border(shape: Shape, lines: np.ndarray, ink: np.ndarray, stroke: float
                        ) -> None:
    """Make ``shape`` double when a second outline runs round its interior in ``lines``
    (the fine ink, or the page's ink where lines cut the shape)."""
    ring = outer_border(shape.interior, lines, stroke)
    if ring is not None:
        shape.outer, shape.double = ring, True
        shape.bbox = _outer_bbox(ring, ink, stroke)


def _add_dashed(shapes: list[Shape], kept: list[Region], fine: np.ndarray, rgb: np.ndarray,
                ink: np.ndarray, scale: Scale, min_area: float) -> None:
    """Shapes with dashed borders, found once their gaps are closed."""
    taken = np.zeros(ink.shape, bool)
    for s in shapes:
        x1, y1, x2, y2 = s.outer.bbox
        taken[y1:y2, x1:x2] |= s.outer.filled
    for inner, region, kind, fit in dashed_regions(fine, taken, scale.stroke,
                                                   scale.text_height, min_area, MIN_FIT):
        shapes.append(Shape(kind=kind, bbox=_outer_bbox(region, ink, scale.stroke),
                            interior=inner, outer=region, fit=fit, dashed=True,
                            fill=_fill_colour(inner, rgb, ink)))
        kept.append(inner)


MIN_FREE_CONFIDENCE = 60.0
"""Free words Tesseract is less sure of are specks, marker fragments or line ends."""
ARROWHEAD_READINGS = frozenset("AVvY<>^")
"""What Tesseract reads an open arrowhead as, when the line it tips was cut away."""


def _vouched(words: list) -> bool:
    """Several words, one read with high confidence and the doubtful ones whole words
    (three letters or more): a label whose first letter a line end touched, not debris."""
    if len(words) < 2 or max(w.confidence for w in words) < SURE_CONFIDENCE:
        return False
    return all(w.confidence >= MIN_FREE_CONFIDENCE or _whole_word(w.text) for w in words)


NEIGHBOUR_CONFIDENCE = 30.0
"""A doubtful free word read this surely or more is kept when a sure word of its line
stands right beside it (:func:`_next_on_line`): the second word of a label ("api" after
"quitted"), which Tesseract reads worse alone than a line end or speck it never reads as
a whole word."""
SURE_CONFIDENCE = 85.0
"""...a sure word: read at least this surely."""
WORD_SPACE = 0.8
"""Text heights of paper between two words of one label at most."""


def _whole_word(text: str) -> bool:
    """Three letters or more and nothing but letters and digits."""
    return sum(ch.isalpha() for ch in text) >= 3 and text.isalnum()


def _next_on_line(box, other, text_height: float) -> bool:
    """True if ``box`` and ``other`` share a text line (their rows overlap by most of the
    shorter one) and stand a word space apart at most (``WORD_SPACE`` text heights of
    clear paper between them, no overlap)."""
    overlap = min(box[3], other[3]) - max(box[1], other[1])
    if overlap < 0.6 * min(box[3] - box[1], other[3] - other[1]):
        return False
    gap = max(box[0], other[0]) - min(box[2], other[2])
    return 0 <= gap <= WORD_SPACE * text_height


WORD_MARKS = "_.*()-'"
"""Marks a label's words may hold besides letters and digits."""


LINE_DASHES = "\u2014\u2013"
"""Long dashes: a label never holds one at an end, where a line stub beside it reads so."""


def _without_end_dashes(text: str) -> str:
    """``text`` without the long dashes at its ends (a line running on from the label's
    first or last letter), where a word of two letters or more is left."""
    core = text.strip(LINE_DASHES + " ")
    return core if sum(ch.isalnum() for ch in core) >= 2 else text


def _plausible_word(text: str) -> bool:
    """Free text made of word characters; a lone character a digit, capital or ``*``.

    Line ends, junctions and marker fragments read as punctuation runs or a stray
    lower-case letter.
    """
    if any(not (ch.isalnum() or ch in WORD_MARKS) for ch in text.replace(" ", "")):
        return False
    if len(text) == 1:
        return text.isdigit() or text.isupper() or text == "*"
    return True


def _read_text(rgb: np.ndarray, ink: np.ndarray, shapes: list[Shape], kept: list[Region],
               scale: Scale, bg: tuple[int, int, int], text_mask: np.ndarray
               ) -> list[TextItem]:
    """Labels of every shape (underlines erased and noted) and the free words outside
    them; sets the shape labels, returns the free text."""
    crops, underlined = [], []
    for s, r in zip(shapes, kept):
        crop = label_crop(rgb, ink, s.fill, r, scale.stroke, scale.text_height)
        lines = find_underlines(crop, scale.stroke, scale.text_height)
        underlined.append(bool(lines))
        crops.append(erase_underlines(crop, lines))
    # Two calls, not one: the sheet's common scale factor comes from the median glyph of
    # its crops, and stray free words shifting it changes how single-letter labels read.
    # The labels are read while the free words are found and read.
    tights = [tight(c) for c in crops]
    singles = [is_single_glyph(t) for t in tights]
    ones = [t for t, one in zip(tights, singles) if one]
    labels_read = read_crops_later(crops, scale.text_height)
    # Letters a few pixels tall are also read bolder; each label keeps the surer reading.
    factor = sheet_factor(crops, scale.text_height) if crops else 0.0
    dark_read = read_crops_later(crops, scale.text_height, factor=factor, touch=darkened) \
        if factor >= SMALL_TEXT_FACTOR else None
    # own sheets: own scale, and each row read without the other's letters beside it
    grey_later = read_crops_later([repeat_glyph(c) for c in ones], scale.text_height)
    binary_later = read_crops_later([repeat_glyph(c, True) for c in ones], scale.text_height)
    words, word_crops = free_words(rgb, ink, shapes, scale, bg)
    read_free = read_crops(word_crops, scale.text_height) if word_crops else []
    read = labels_read()
    if dark_read is not None:
        read = surer_readings(read, dark_read())
    copies_read = iter(zip(*([" ".join(w.text for w in ws) for ws in later()]
                             for later in (grey_later, binary_later))))
    own = [glyph_height(c) for c in crops]
    own_free = [glyph_height(c) for c in word_crops]
    heights = [g for g in own + own_free if g > 0]
    glyph = float(np.median(heights)) if heights else 0.6 * scale.text_height
    for shape, crop, ws, ul, one, t, g in zip(shapes, crops, read, underlined, singles, tights,
                                              own):
        shape.label = join_label(ws, crop, ul, g or glyph)
        if one:
            shape.label = one_letter(shape.label, *next(copies_read), is_bar(t))
        if ul and shape.label:
            shape.underlined = shape.label.split()
    return free_texts(words, word_crops, read_free, own_free, glyph, scale, ink, text_mask)


def free_texts(words: list, word_crops: list[np.ndarray], read: list, own: list[float],
               glyph: float, scale: Scale, ink: np.ndarray, text_mask: np.ndarray
               ) -> list[TextItem]:
    """The free words (``free_words``' boxes and crops, their OCR ``read`` and glyph
    heights ``own``) that read as text, as text items; their ink is added to
    ``text_mask``.  Readings with no letter, of low confidence, an arrowhead read as a
    letter, implausible words and words far wider than their letters are dropped."""
    texts, kept, tails, doubtful = [], [], [], []
    for wb, crop, ws, g in zip(words, word_crops, read, own):
        text = join_label(ws, crop, False, g or glyph)
        conf = float(np.mean([x.confidence for x in ws])) if ws else 0.0
        if not text or not any(ch.isalnum() for ch in text):
            continue
        if conf < MIN_FREE_CONFIDENCE and not _vouched(ws):
            if conf >= NEIGHBOUR_CONFIDENCE and _whole_word(text):
                doubtful.append((TextItem(text=text, bbox=wb.bbox, confidence=conf), wb))
            continue
        if wb.touches_line and text in ARROWHEAD_READINGS:
            continue
        text = _without_end_dashes(text.translate(LETTER_SYMBOLS))
        if _lone_small_letter(text):
            tails.append((TextItem(text=text, bbox=wb.bbox, confidence=conf), wb))
            continue
        if not _plausible_word(text):
            continue
        x1, y1, x2, y2 = wb.bbox
        if x2 - x1 > (len(text) + 2) * scale.text_height:
            continue  # far wider than its letters: glyphs chained through marker debris
        texts.append(TextItem(text=text, bbox=wb.bbox, confidence=conf))
        kept.append(wb)
    sure = [t.bbox for t in texts if t.confidence >= SURE_CONFIDENCE]
    for item, wb in doubtful:
        if any(_next_on_line(item.bbox, b, scale.text_height) for b in sure):
            texts.append(item)
            kept.append(wb)
    lines = [t.bbox for t in texts]
    for item, wb in tails:
        if wrapped_tail(item.bbox, lines, scale.text_height):
            texts.append(item)
            kept.append(wb)
    for wb in kept:
        x1, y1, x2, y2 = wb.extent or wb.bbox
        text_mask[y1:y2, x1:x2] |= ink[y1:y2, x1:x2] if wb.ink is None else wb.ink
    return texts


def _lone_small_letter(text: str) -> bool:
    """One lower-case letter: a line end or marker fragment read as a letter, unless it
    stands where a wrapped label puts the last letter of a word it broke
    (:func:`wrapped_tail`)."""
    return len(text) == 1 and text.isalpha() and text.islower()
