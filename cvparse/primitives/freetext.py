"""Free text outside shapes: cardinalities beside lines, edge labels, IS-A labels.

Ink outside every shape splits into connected components; letter-sized ones that are not
a straight stroke (a connector stub), a filled marker or a dot or dash of a dotted or
dashed line are glyphs.  Glyphs on one baseline with letter-sized
gaps form words; each word becomes a grayscale crop for the batched OCR call.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .arrowheads import clear_of_line, head_sides_many, run_on
from .dashrows import cut_run_ends, dash_runs, extend_runs, in_words, line_piece, run_gaps
from .items import Scale, Shape
from ..arrays import colour_distance, components
from .strokes import hull_share, is_straight_stroke, solid, stemmed_pair, touching_letters


@dataclass
class WordBox:
    """A group of glyph components read as one word."""

    bbox: tuple[int, int, int, int]
    """``x1, y1, x2, y2`` in image pixels (exclusive ends)."""
    labels: list[int]
    """Component labels (of :func:`glyph_components`) that make the word."""
    touches_line: bool = False
    """Some of its ink touched a connector line (removed before the components were cut)."""
    extent: tuple[int, int, int, int] | None = None
    """``bbox`` grown by the line stubs stripped off the word's ends (default: ``bbox``)."""
    ink: np.ndarray | None = field(default=None, repr=False)
    """The ink in ``extent`` without the line strokes found there (a line crossing the
    word is not text; the stubs stripped off are no connector either), cropped to it."""


def shapes_mask(shapes: list[Shape], size: tuple[int, int], pad: int) -> np.ndarray:
    """Boolean image of every shape's outer area grown by ``pad`` pixels."""
    h, w = size
    mask = np.zeros((h, w), np.uint8)
    for s in shapes:
        x1, y1, x2, y2 = s.outer.bbox
        mask[y1:y2, x1:x2] |= s.outer.filled.astype(np.uint8)
    if pad > 0:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pad + 1, 2 * pad + 1))
        mask = cv2.dilate(mask, k)
    return mask.astype(bool)


def line_strokes(mask: np.ndarray, scale: Scale) -> np.ndarray:
    """Pixels of the long straight strokes of ``mask`` (connector lines), a little widened.

    Letters are drawn with strokes shorter than a text height, so straight runs longer
    than one are lines, even where a label touches them.  A run must be unbroken along
    its length: the tolerance is across the line only, so the tops of a row of letters
    a pixel apart ("Main") are not a line.  Every segment is tested at once (the tests
    do not depend on each other, and the lines drawn do not depend on their order).
    """
    length = max(8, int(round(1.0 * scale.text_height)))
    m8 = mask.astype(np.uint8)
    segs = cv2.HoughLinesP(m8, 1, np.pi / 180, threshold=length, minLineLength=length,
                           maxLineGap=max(1, int(round(scale.stroke))))
    out = np.zeros(mask.shape, np.uint8)
    if segs is None:
        return out.astype(bool)
    width = int(round(scale.stroke)) + 2
    across_h = cv2.dilate(m8, np.ones((3, 1), np.uint8)).astype(bool)
    across_v = cv2.dilate(m8, np.ones((1, 3), np.uint8)).astype(bool)
    near_wide = cv2.dilate(m8, np.ones((3, 3), np.uint8)).astype(bool)
    segs = segs.reshape(-1, 4)
    keep = _straight_segments(mask, segs, (across_h, across_v, near_wide), scale.stroke)
    segs = segs[keep]
    for x1, y1, x2, y2 in segs:
        cv2.line(out, (int(x1), int(y1)), (int(x2), int(y2)), 1, width)
    tips = np.concatenate([segs[:, :2], segs[:, 2:]]).astype(np.int64)
    backs = np.concatenate([segs[:, 2:] - segs[:, :2], segs[:, :2] - segs[:, 2:]]
                           ).astype(np.int64)
    ends = [((tx, ty), (bx, by)) for (tx, ty), (bx, by) in zip(tips.tolist(), backs.tolist())]
    clear = scale.stroke + 1.5
    sides_of = head_sides_many(near_wide, tips, backs, scale)
    # "Sides" inside the line itself: its straight run stopped where the head's sides
    # leave it.  Look again from the head's point, further on.
    again = [t for t, (tip, back) in enumerate(ends)
             if sides_of[t] and not clear_of_line(tip, back, sides_of[t], clear)]
    points = {t: run_on(near_wide, *ends[t], 0.8 * scale.text_height) for t in again}
    moved = [t for t in again if points[t] != ends[t][0]]
    found = dict(zip(moved, head_sides_many(
        near_wide, np.array([points[t] for t in moved], np.int64).reshape(-1, 2),
        backs[moved], scale)))
    for t, (tip, back) in enumerate(ends):
        sides = sides_of[t]
        if t in points and clear_of_line(points[t], back, found.get(t, []), clear):
            cv2.line(out, tip, points[t], 1, width)
            tip, sides = points[t], found[t]
        for end in sides:
            cv2.line(out, tip, end, 1, width)
    return out.astype(bool) & mask


def _straight_segments(mask: np.ndarray, segs: np.ndarray, near: tuple[np.ndarray, ...],
                       stroke: float) -> np.ndarray:
    """Which Hough segments ``x1, y1, x2, y2`` run on ink without a break across them
    (``near``: the ink grown across horizontal, vertical and slanted lines) and are one
    line wide along most of their length (not the tops of touching letters).

    The points of each segment are ``np.linspace(x1, x2, n)`` rounded (n: its longer
    side in pixels, plus one), computed for all segments together.
    """
    h, w = mask.shape
    x1, y1, x2, y2 = (segs[:, i].astype(np.int64) for i in range(4))
    dx, dy = np.abs(x2 - x1), np.abs(y2 - y1)
    n = np.maximum(dx, dy) + 1
    seg = np.repeat(np.arange(len(segs)), n)
    first = np.cumsum(n) - n
    i = (np.arange(int(n.sum())) - first[seg]).astype(float)
    last = first + n - 1
    pts = []
    for a, b in ((x1, x2), (y1, y2)):
        start, stop = a.astype(float), b.astype(float)
        step = (stop - start) / np.maximum(n - 1, 1)  # linspace's step (one point: unused)
        v = i * step[seg] + start[seg]
        v[last] = stop  # linspace ends exactly on the end point
        pts.append(np.round(v).astype(int))
    xs, ys = pts[0].clip(0, w - 1), pts[1].clip(0, h - 1)
    horizontal = dy <= 0.2 * dx
    vertical = ~horizontal & (dx <= 0.2 * dy)
    kind = np.where(horizontal, 0, np.where(vertical, 1, 2))
    hits = np.choose(kind[seg], [near[0][ys, xs], near[1][ys, xs], near[2][ys, xs]])
    need = np.where(kind < 2, 0.97, 0.9)
    on_ink = np.bincount(seg, weights=hits, minlength=len(segs)) / n >= need
    # Ink across the segment at each point, stepping out on both sides while unbroken.
    ddx, ddy = (x2 - x1).astype(float), (y2 - y1).astype(float)
    norm = np.maximum(1e-6, np.hypot(ddy, ddx))
    nx, ny = (-ddy / norm)[seg], (ddx / norm)[seg]
    reach = int(np.ceil(stroke)) + 3
    steps = np.arange(1, reach + 1)[:, None]
    runs = np.ones(len(seg))
    for sign in (1, -1):
        px = np.clip(np.round(xs + (sign * steps) * nx).astype(int), 0, w - 1)
        py = np.clip(np.round(ys + (sign * steps) * ny).astype(int), 0, h - 1)
        runs += np.logical_and.accumulate(mask[py, px], axis=0).sum(axis=0)
    thin = np.bincount(seg, weights=runs <= stroke + 2, minlength=len(segs)) / n >= 0.75
    return on_ink & thin


def _thin_fraction(mask: np.ndarray, xs: np.ndarray, ys: np.ndarray, d: tuple[int, int],
                   stroke: float) -> float:
    """Share of the points of a segment where the ink across it is no wider than a line.

    Along a drawn line the ink is one stroke wide; along the top of a row of touching
    letters, the stems hang off it.
    """
    h, w = mask.shape
    nx, ny = -float(d[1]), float(d[0])
    norm = max(1e-6, float(np.hypot(nx, ny)))
    nx, ny = nx / norm, ny / norm
    reach = int(np.ceil(stroke)) + 3
    runs = np.ones(len(xs))
    steps = np.arange(1, reach + 1)[:, None]
    for sign in (1, -1):
        # One row per distance k from the line: the ink there while it stays unbroken.
        px = np.clip(np.round(xs + (sign * steps) * nx).astype(int), 0, w - 1)
        py = np.clip(np.round(ys + (sign * steps) * ny).astype(int), 0, h - 1)
        runs += np.logical_and.accumulate(mask[py, px], axis=0).sum(axis=0)
    return float((runs <= stroke + 2).mean())


def _has_blob(mask: np.ndarray, scale: Scale) -> bool:
    """A filled patch wider than two lines and than any letter stroke: a filled marker,
    maybe with the last dash of its line still attached."""
    d = max(2 * int(round(scale.stroke)) + 1, int(round(0.25 * scale.text_height)) | 1)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))
    core = cv2.morphologyEx(np.pad(mask, d).astype(np.uint8), cv2.MORPH_OPEN, k)
    return bool(core.sum() >= d * d)


def _blobs(mask: np.ndarray, stroke: float) -> np.ndarray:
    """Parts of ``mask`` thicker than two line widths (filled arrowheads and markers on
    lines), a little grown, so that what the line removal leaves of them is no glyph."""
    d = 2 * int(round(stroke)) + 1
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))
    thick = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, k)
    return cv2.dilate(thick, np.ones((3, 3), np.uint8)).astype(bool)


def _crumb(own: np.ndarray, ys: np.ndarray, xs: np.ndarray, scale: Scale) -> bool:
    """A small piece that touches a removed line and looks like line, not like a letter:
    a speck, a flat run longer than a letter is wide, or a short slanted stroke one line
    wide."""
    h, w = own.shape
    stroke = scale.stroke
    if max(w, h) <= 2 * stroke + 1 or (h <= 2 * stroke + 1 and w >= 0.6 * scale.text_height):
        return True
    thin = own.sum() <= 1.3 * max(w, h) * stroke
    return bool(max(w, h) < 0.5 * scale.text_height and thin and not is_upright(ys, xs))


def _wedge(own: np.ndarray) -> bool:
    """A small filled arrowhead cut off its line: about as wide as tall and filling its
    convex hull (letters leave counters and notches; a bar is narrow)."""
    h, w = own.shape
    return min(w, h) >= 0.6 * max(w, h) and max(w, h) >= 4 and hull_share(own) >= 0.85


def _run_together(own: np.ndarray, scale: Scale) -> bool:
    """Letters run together into one piece (:func:`touching_letters`,
    :func:`stemmed_pair`), not a line or marker."""
    return touching_letters(own, scale.stroke) or stemmed_pair(own, scale.text_height)


def _too_big_for_glyph(w: int, h: int, text_height: float) -> bool:
    return h > 1.1 * text_height or w > 1.5 * text_height


def is_upright(ys: np.ndarray, xs: np.ndarray) -> bool:
    """A straight stroke within about 25 degrees of vertical (I, l, i, 1, a small r)."""
    return bool(np.ptp(xs) <= 0.5 * (np.ptp(ys) + 1) + 1)


def glyph_components(ink: np.ndarray, shapes: list[Shape], scale: Scale
                     ) -> tuple[np.ndarray, list[int], np.ndarray, np.ndarray, set[int]]:
    """Component label image of the ink outside shapes, the glyph labels, the stats, the
    line strokes and filled markers taken out (connector ink, not text), and the glyphs
    that are upright bars (I, l, 1 or a line stub).

    Line strokes are looked for only in components too big to be a glyph (lines, and
    labels touching them) that are not a run of touching letters, so the letters of
    free-standing words stay whole.  A filled marker touching such letters is cut off
    them.  The dots and dashes of dotted and dashed lines (glyph-sized, in a row) are
    taken out too, with what such a line runs into at its ends (see ``cut_run_ends``).
    """
    outside = ink & ~shapes_mask(shapes, ink.shape, int(round(scale.stroke)) + 1)
    th = scale.text_height
    n, labels, stats, _ = components(outside.astype(np.uint8), 8)
    big_ids = [i for i in range(1, n)
               if _too_big_for_glyph(stats[i, 2], stats[i, 3], th)
               and not (stats[i, 3] <= 1.1 * th and _run_together(
                   labels[stats[i, 1]:stats[i, 1] + stats[i, 3],
                          stats[i, 0]:stats[i, 0] + stats[i, 2]] == i, scale))]
    is_big = np.zeros(n, bool)
    is_big[big_ids] = True
    big = is_big[labels]  # a lookup per pixel: np.isin compares the page once per label
    lines = line_strokes(big, scale)
    removed = lines | _blobs(big, scale.stroke)
    marked = _marked_letters(labels, stats, set(big_ids), scale)
    if marked.any():
        # grown by a line width more: the marker's tip, thinner than its core, touches the
        # letter and would read as a quote mark
        d = 2 * int(round(scale.stroke)) + 3
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))
        core = _blobs(marked, scale.stroke).astype(np.uint8)
        removed |= cv2.dilate(core, k).astype(bool) & marked
    outside &= ~removed
    near_line = cv2.dilate(removed.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    n, labels, stats, _ = components(outside.astype(np.uint8), 8)
    glyphs, bars = [], set()
    pieces: dict[int, tuple[float, float, float, tuple[float, float] | None]] = {}
    others: dict[int, tuple[float, float, float, None]] = {}
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if max(w, h) < 0.2 * th or h > 1.1 * th:
            continue
        own = labels[y:y + h, x:x + w] == i
        if w > 1.5 * th and not _run_together(own, scale):
            continue
        ys, xs = np.nonzero(own)
        flat = h <= 2 * scale.stroke + 1 and w <= th  # an underscore, kept to join words
        if max(w, h) >= 0.45 * th and not flat and is_straight_stroke(ys, xs, scale.stroke):
            bars.add(i)  # I, l, the diagonal of a thin N, or a line stub
        if solid(own, scale.stroke) if w <= th else _has_marker(own, scale):
            continue  # a filled arrowhead or dot marker, thicker than any letter stroke
        if near_line[y:y + h, x:x + w][own].any() and (_crumb(own, ys, xs, scale)
                                                       or _wedge(own)):
            continue  # a piece of a line left by its removal, or its small filled head
        glyphs.append(i)
        piece = line_piece(ys, xs, x, y, max(w, h), scale)
        if piece is not None:
            pieces[i] = piece
        else:
            others[i] = (x + float(xs.mean()), y + float(ys.mean()), float(max(w, h)), None)
    dashes = dash_runs(pieces, labels, scale)
    if dashes:
        dashes |= extend_runs(dashes, pieces, scale)
        dashes -= in_words(dashes, pieces, stats, [i for i in glyphs if i not in dashes],
                            scale.text_height)
        dashes |= run_gaps(dashes, pieces, others, labels, stats,
                            [i for i in glyphs if i not in dashes], scale.text_height)
    if dashes:
        glyphs = [i for i in glyphs if i not in dashes]
        removed = removed.copy()
        for i in dashes:
            x, y, w, h = stats[i, :4]
            removed[y:y + h, x:x + w] |= labels[y:y + h, x:x + w] == i
        removed |= cut_run_ends(dashes, pieces, labels, stats, glyphs, scale)
    return labels, glyphs, stats, removed, bars


def _marked_letters(labels: np.ndarray, stats: np.ndarray, big: set[int], scale: Scale
                    ) -> np.ndarray:
    """Mask of the components wider than a text height, no higher, and not ``big``, that
    hold a filled marker: letters an arrowhead touches.  Only the marker is taken out,
    not the letters."""
    th = scale.text_height
    out = np.zeros(labels.shape, bool)
    for i in np.flatnonzero((stats[:, 2] > th) & (stats[:, 3] <= 1.1 * th)).tolist():
        x, y, w, h = (int(v) for v in stats[i, :4])
        if i == 0 or i in big:
            continue
        own = labels[y:y + h, x:x + w] == i
        if _has_marker(own, scale):
            out[y:y + h, x:x + w] |= own
    return out


def _has_marker(mask: np.ndarray, scale: Scale) -> bool:
    """A filled marker in ``mask``: a blob (see ``_has_blob``) also thicker than one and
    a half lines, which the junction of two letter strokes ("w", touching "ew") is not."""
    if not _has_blob(mask, scale):
        return False
    m = np.pad(mask, 1).astype(np.uint8)
    return float(cv2.distanceTransform(m, cv2.DIST_L2, 3).max()) > 1.5 * scale.stroke + 0.5


def group_words(glyphs: list[int], stats: np.ndarray, scale: Scale,
                bars: set[int] | frozenset[int] = frozenset()) -> list[WordBox]:
    """Glyphs side by side on one line, gaps under half a text height, as words.

    Pieces of one glyph cut apart by a crossing line (stacked, a line width apart) are
    joined first.  Straight ``bars`` at either end of a word that are not upright are
    line stubs or arrowhead sides, and a word of one bar is no text.
    """
    text_height = scale.text_height
    boxes = {i: [int(stats[i, 0]), int(stats[i, 1]), int(stats[i, 0] + stats[i, 2]),
                 int(stats[i, 1] + stats[i, 3])] for i in glyphs}
    parent = {i: i for i in glyphs}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(glyphs, key=lambda i: boxes[i][0])
    gbox = {i: list(boxes[i]) for i in glyphs}  # box of each group, by its root

    def join(i: int, j: int) -> None:
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[rj] = ri
            gbox[ri] = list(_union([gbox[ri], gbox[rj]]))

    gap = 0.45 * text_height
    for k, i in enumerate(order):
        a = boxes[i]
        for j in order[k + 1:]:
            b = boxes[j]
            if b[0] - a[2] > gap:
                break
            overlap = min(a[3], b[3]) - max(a[1], b[1])
            # Dots and commas overlap a letter's lower half only.
            if overlap >= 0.3 * min(a[3] - a[1], b[3] - b[1]):
                join(i, j)
            elif _stacked(a, b, scale.stroke + 3, 1.1 * text_height):
                # pieces of one glyph: the group stays a text line high (the dots of a
                # dotted line under a word do not chain on downwards)
                merged = _union([gbox[find(i)], gbox[find(j)]])
                if merged[3] - merged[1] <= 1.1 * text_height:
                    join(i, j)
            elif _underscore_beside(a, b, scale.stroke, text_height):
                join(i, j)
    groups: dict[int, list[int]] = {}
    for i in glyphs:
        groups.setdefault(find(i), []).append(i)
    words = []
    for group in groups.values():
        members = _strip_stubs(group, boxes, bars)
        if not members:
            continue
        bbox = _union([boxes[i] for i in members])
        if bbox[3] - bbox[1] < 0.45 * text_height:
            continue  # stray dots and specks
        if len(members) == 1 and members[0] in bars:
            continue  # a lone straight stroke is a line stub (a lone I is lost with it)
        words.append(WordBox(bbox, members, extent=_union([boxes[i] for i in group])))
    return sorted(words, key=lambda w: (w.bbox[1], w.bbox[0]))


def _union(boxes: list[list[int]]) -> tuple[int, int, int, int]:
    bx = np.array(boxes)
    return (int(bx[:, 0].min()), int(bx[:, 1].min()), int(bx[:, 2].max()),
            int(bx[:, 3].max()))


def _strip_stubs(members: list[int], boxes: dict[int, list[int]],
                 bars: set[int] | frozenset[int]) -> list[int]:
    """Members of a word without the slanted straight strokes at its two ends."""
    members = sorted(members, key=lambda i: boxes[i][0] + boxes[i][2])

    def slanted(i: int) -> bool:
        x1, y1, x2, y2 = boxes[i]
        return i in bars and (x2 - x1) > 0.5 * (y2 - y1) + 1

    while members and slanted(members[0]):
        members = members[1:]
    while members and slanted(members[-1]):
        members = members[:-1]
    return members


def _underscore_beside(a: list[int], b: list[int], stroke: float, text_height: float
                       ) -> bool:
    """One box is a flat stroke just below the other's baseline: an underscore."""
    for flat, tall in ((a, b), (b, a)):
        if (flat[3] - flat[1] <= 2 * stroke + 1
                and tall[1] <= flat[1] <= tall[3] + 0.4 * text_height):
            return True
    return False


def _stacked(a: list[int], b: list[int], max_gap: float, max_height: float) -> bool:
    """Two boxes one above the other, a line width apart: one glyph cut by a line."""
    x_overlap = min(a[2], b[2]) - max(a[0], b[0])
    gap = max(a[1], b[1]) - min(a[3], b[3])
    height = max(a[3], b[3]) - min(a[1], b[1])
    return (x_overlap >= 0.5 * min(a[2] - a[0], b[2] - b[0]) and gap <= max_gap
            and height <= max_height)


def word_crop(rgb: np.ndarray, labels: np.ndarray, word: WordBox,
              background: tuple[int, int, int], lines: np.ndarray | None = None,
              scale: Scale | None = None) -> np.ndarray:
    """Grayscale crop of a word, dark on white, other ink in its box blanked; with the
    ``lines`` taken out and the page's ``scale``, the line ends run into the letters of a
    word of several letters (one and a half text heights wide) given back to them (see
    :func:`_line_tips_in`)."""
    x1, y1, x2, y2 = word.bbox
    m = 2
    h, w = labels.shape
    cx1, cy1, cx2, cy2 = max(0, x1 - m), max(0, y1 - m), min(w, x2 + m), min(h, y2 + m)
    own = np.isin(labels[cy1:cy2, cx1:cx2], word.labels)
    several = scale is not None and x2 - x1 >= 1.5 * scale.text_height
    if lines is not None and several and word.touches_line:
        # (a lone glyph, a cardinality, is read on its own: a tip would only blur it)
        own |= _line_tips_in(own, lines, word.bbox, (cx1, cy1), scale)
    own = cv2.dilate(own.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    dist = colour_distance(rgb[cy1:cy2, cx1:cx2], background)
    top = max(float(dist[own].max()) if own.any() else 1.0, 30.0)
    gray = 255.0 - np.clip(dist / top, 0, 1) * 255.0
    gray[~own] = 255
    return gray.astype(np.uint8)


LINE_WORK_AROUND = 0.1
"""Share of the band half a text height wide round a word above which it sits in
line-work (an icon drawn with straight strokes), not a label a few lines run into."""


GIVEN_BACK = 0.25
"""At most this share of a word's own pixels is given back to it from the lines."""


def _line_tips_in(own: np.ndarray, lines: np.ndarray, bbox: tuple[int, int, int, int],
                  origin: tuple[int, int], scale: Scale) -> np.ndarray:
    """The pieces of the page's ``lines`` inside a word's ``bbox`` that are the end of a
    line run into a letter, not a line crossing the word, as a mask of the word's crop
    (``own``: its letters; ``origin``: the crop's corner on the page): each touches the
    letters, is longer than the line is wide but no bigger than a letter, and comes in
    from one side of the box (or a corner), reaching no two opposite sides and leaving
    it nowhere else.  The line taken out was drawn a little wider than the line and may
    run on a few pixels along a stroke of the letter it ends in; those pixels are the
    letter's.  None where the word sits in line-work (see ``LINE_WORK_AROUND``) or where
    they would outweigh it (see ``GIVEN_BACK``)."""
    out = np.zeros(own.shape, bool)
    bx1, by1, bx2, by2 = bbox
    r = int(round(0.5 * scale.text_height))
    h, w = lines.shape
    rx1, ry1, rx2, ry2 = max(0, bx1 - r), max(0, by1 - r), min(w, bx2 + r), min(h, by2 + r)
    band = (rx2 - rx1) * (ry2 - ry1) - (bx2 - bx1) * (by2 - by1)
    around = int(lines[ry1:ry2, rx1:rx2].sum()) - int(lines[by1:by2, bx1:bx2].sum())
    if band <= 0 or around > LINE_WORK_AROUND * band:
        return out
    ox, oy = origin
    x1, y1, x2, y2 = bx1 - ox, by1 - oy, bx2 - ox, by2 - oy
    inner = np.zeros(own.shape, bool)
    inner[y1:y2, x1:x2] = lines[by1:by2, bx1:bx2]
    if not inner.any():
        return out
    near = cv2.dilate(own.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    ring = lines[oy:oy + own.shape[0], ox:ox + own.shape[1]] & ~inner
    ring[y1:y2, x1:x2] = False  # the line outside the box, in the crop's margin
    n, lab, stats, _ = components(inner.astype(np.uint8), 8)
    for i in range(1, n):
        x, y, pw, ph = (int(v) for v in stats[i, :4])
        if max(pw, ph) > scale.text_height or max(pw, ph) <= scale.stroke + 1:
            continue  # no letter; or only the line's own end, stopping at the letter
        edge = x <= x1 or y <= y1 or x + pw >= x2 or y + ph >= y2
        across = (x <= x1 and x + pw >= x2) or (y <= y1 and y + ph >= y2)
        piece = lab == i
        if not edge or across or not (piece & near).any():
            continue
        grown = cv2.dilate(piece.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        if components((ring & grown).astype(np.uint8), 8)[0] - 1 <= 1:
            out |= piece  # the line goes on out of the box on one side only: it ends here
    # a few pixels given back to letters; a speck that a line tip would outweigh is none
    return out if out.sum() <= GIVEN_BACK * own.sum() else np.zeros(own.shape, bool)


def free_words(rgb: np.ndarray, ink: np.ndarray, shapes: list[Shape], scale: Scale,
               background: tuple[int, int, int]) -> tuple[list[WordBox], list[np.ndarray]]:
    """Words of free text on the page and their OCR crops."""
    labels, glyphs, stats, lines, bars = glyph_components(ink, shapes, scale)
    words = group_words(glyphs, stats, scale, bars)
    near_line = cv2.dilate(lines.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    for w in words:
        x1, y1, x2, y2 = w.bbox
        own = np.isin(labels[y1:y2, x1:x2], w.labels)
        w.touches_line = bool((own & near_line[y1:y2, x1:x2]).any())
        w.extent = w.extent or w.bbox
        ex1, ey1, ex2, ey2 = w.extent
        w.ink = ink[ey1:ey2, ex1:ex2] & ~lines[ey1:ey2, ex1:ex2]
    inked_lines = lines & ink
    return words, [word_crop(rgb, labels, w, background, inked_lines, scale) for w in words]


WRAP_GAP = 0.8
"""Most text heights between a wrapped label's lines (the leading a label is set with)."""


def wrapped_tail(box: tuple[int, int, int, int], lines: list[tuple[int, int, int, int]],
                 text_height: float) -> bool:
    """Whether ``box`` sits right under one of the text ``lines``, within its width: the
    last line of a label wrapped inside a word ("Capacito" over "r"), which a line end or
    speck beside a label does not do."""
    x1, y1, x2, y2 = box
    slack = 0.25 * text_height
    return any(0 <= y1 - b[3] <= WRAP_GAP * text_height
               and b[0] - slack <= x1 and x2 <= b[2] + slack for b in lines)
