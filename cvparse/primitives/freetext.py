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

from .elements import Scale, Shape
from .paper import colour_distance


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


def is_straight_stroke(ys: np.ndarray, xs: np.ndarray, stroke: float) -> bool:
    """Pixels that all lie within about half a stroke of one straight line (a line stub)."""
    pts = np.stack([xs, ys], 1).astype(float)
    if len(pts) < 3:
        return True
    c = pts - pts.mean(0)
    _, _, vt = np.linalg.svd(c, full_matrices=False)
    normal = vt[-1]
    spread = np.abs(c @ normal).max()
    return bool(spread <= 0.5 * stroke + 1.0)


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
    sides_of = _head_sides_many(near_wide, tips, backs, scale)
    # "Sides" inside the line itself: its straight run stopped where the head's sides
    # leave it.  Look again from the head's point, further on.
    again = [t for t, (tip, back) in enumerate(ends)
             if sides_of[t] and not _clear_of_line(tip, back, sides_of[t], clear)]
    points = {t: _run_on(near_wide, *ends[t], 0.8 * scale.text_height) for t in again}
    moved = [t for t in again if points[t] != ends[t][0]]
    found = dict(zip(moved, _head_sides_many(
        near_wide, np.array([points[t] for t in moved], np.int64).reshape(-1, 2),
        backs[moved], scale)))
    for t, (tip, back) in enumerate(ends):
        sides = sides_of[t]
        if t in points and _clear_of_line(points[t], back, found.get(t, []), clear):
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


def _clear_of_line(tip: tuple[int, int], back: tuple[int, int],
                   sides: list[tuple[int, int]], clear: float) -> bool:
    """Arrowhead sides found, each ending at least ``clear`` pixels off the line: a ray
    at a small angle stays inside a thick line for a while and is no side."""
    if not sides:
        return False
    norm = max(1e-6, float(np.hypot(back[0], back[1])))
    nx, ny = -back[1] / norm, back[0] / norm
    return all(abs((x - tip[0]) * nx + (y - tip[1]) * ny) >= clear for x, y in sides)


def _run_on(near: np.ndarray, tip: tuple[int, int], back: tuple[int, int], reach: float
            ) -> tuple[int, int]:
    """Last ink point going on from a line end ``tip`` away from ``back`` (the direction
    back along the line), at most ``reach`` pixels."""
    h, w = near.shape
    norm = max(1e-6, float(np.hypot(back[0], back[1])))
    fx, fy = -back[0] / norm, -back[1] / norm
    last = (int(tip[0]), int(tip[1]))
    for t in range(1, int(reach) + 1):
        x, y = int(round(tip[0] + fx * t)), int(round(tip[1] + fy * t))
        if not (0 <= x < w and 0 <= y < h) or not near[y, x]:
            break
        last = (x, y)
    return last


_HEAD_DEGREES = tuple(range(15, 65, 5))
_HEAD_ANGLES = [np.deg2rad(sign * deg) for sign in (1, -1) for deg in _HEAD_DEGREES]
_HEAD_COS = np.array([np.cos(a) for a in _HEAD_ANGLES])
_HEAD_SIN = np.array([np.sin(a) for a in _HEAD_ANGLES])
"""Directions (rotations of the line's backward direction) searched for arrowhead sides,
first to one side, then to the other."""


def _head_sides(near: np.ndarray, tip: tuple[int, int], back: tuple[int, int], scale: Scale
                ) -> list[tuple[int, int]]:
    """Far ends of the two straight strokes leaving a line end backwards at 15-60 degrees,
    one on either side, alike in angle and length: the sides of an open arrowhead, which
    are shorter than a line.

    Taking them out with the line frees a label that the arrow tip touches; letters lie
    beyond the tip, not behind it.
    """
    return _head_sides_many(near, np.array([tip], np.int64), np.array([back], np.int64),
                            scale)[0]


def _head_sides_many(near: np.ndarray, tips: np.ndarray, backs: np.ndarray, scale: Scale
                     ) -> list[list[tuple[int, int]]]:
    """``_head_sides`` of many line ends at once (``tips`` and ``backs``: one row each)."""
    h, w = near.shape
    if not len(tips):
        return []
    reach = int(round(1.2 * scale.text_height))
    least = max(4, int(round(0.4 * scale.text_height)))
    if reach < least:
        return [[] for _ in range(len(tips))]  # no side can be long enough
    bx, by = backs[:, 0].astype(float), backs[:, 1].astype(float)
    norm = np.maximum(1e-6, np.hypot(bx, by))
    bx, by = bx / norm, by / norm
    k = np.arange(1, reach + 1)
    # All 20 rays of every end, one row each (the same float operations as ray by ray).
    dx = bx[:, None] * _HEAD_COS - by[:, None] * _HEAD_SIN
    dy = bx[:, None] * _HEAD_SIN + by[:, None] * _HEAD_COS
    px = np.round(tips[:, 0, None, None] + k * dx[..., None]).astype(int)
    py = np.round(tips[:, 1, None, None] + k * dy[..., None]).astype(int)
    inside = (px >= 0) & (px < w) & (py >= 0) & (py < h)
    hit = np.zeros(px.shape, bool)
    hit[inside] = near[py[inside], px[inside]]
    runs = np.where(hit.all(axis=2), len(k), hit.argmin(axis=2))
    runs = np.where(runs >= least, runs, 0)
    half = len(_HEAD_DEGREES)
    out = []
    for t in range(len(tips)):
        found = []
        for row0 in (0, half):
            i = int(runs[t, row0:row0 + half].argmax())  # the first of the longest
            run = int(runs[t, row0 + i])
            end = (int(px[t, row0 + i, run - 1]), int(py[t, row0 + i, run - 1]))
            found.append((run, _HEAD_DEGREES[i], end) if run else (0, 0, None))
        (r1, d1, e1), (r2, d2, e2) = found
        # An arrowhead is symmetric: two sides at about the same angle and length.
        if e1 is None or e2 is None or abs(d1 - d2) > 15 or min(r1, r2) < 0.5 * max(r1, r2):
            out.append([])
        else:
            out.append([e1, e2])
    return out


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


def solid(mask: np.ndarray, stroke: float) -> bool:
    """A filled blob (arrowhead, dot marker), not a letter: thicker than letter strokes
    (at most about twice the line width), or thicker than a line and filling its convex
    hull (an arrowhead, diamond or dot; a bold M or N leaves notches)."""
    m = np.pad(mask, 1).astype(np.uint8)
    thick = float(cv2.distanceTransform(m, cv2.DIST_L2, 3).max())
    if thick > 1.5 * stroke + 1.5:
        return True
    if thick < stroke + 0.5:
        return False
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = np.zeros_like(m)
    cv2.fillPoly(hull, [cv2.convexHull(np.concatenate(contours))], 1)
    return bool(m.sum() / max(1, int(hull.sum())) >= 0.8)


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


def _too_big_for_glyph(w: int, h: int, text_height: float) -> bool:
    return h > 1.1 * text_height or w > 1.5 * text_height


def _touching_letters(own: np.ndarray, stroke: float) -> bool:
    """A wide, text-high component that is letters run together (stems rise across it
    in many columns), not a flat stretch of curve or line."""
    tall = own.sum(axis=0) > 2 * stroke + 1
    return bool(tall.mean() >= 0.3)


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
    taken out too, with what such a line runs into at its ends (see ``_cut_run_ends``).
    """
    outside = ink & ~shapes_mask(shapes, ink.shape, int(round(scale.stroke)) + 1)
    th = scale.text_height
    n, labels, stats, _ = cv2.connectedComponentsWithStats(outside.astype(np.uint8), 8)
    big_ids = [i for i in range(1, n)
               if _too_big_for_glyph(stats[i, 2], stats[i, 3], th)
               and not (stats[i, 3] <= 1.1 * th and _touching_letters(
                   labels[stats[i, 1]:stats[i, 1] + stats[i, 3],
                          stats[i, 0]:stats[i, 0] + stats[i, 2]] == i, scale.stroke))]
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
    n, labels, stats, _ = cv2.connectedComponentsWithStats(outside.astype(np.uint8), 8)
    glyphs, bars = [], set()
    pieces: dict[int, tuple[float, float, float, tuple[float, float] | None]] = {}
    others: dict[int, tuple[float, float, float, None]] = {}
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if max(w, h) < 0.2 * th or h > 1.1 * th:
            continue
        own = labels[y:y + h, x:x + w] == i
        if w > 1.5 * th and not _touching_letters(own, scale.stroke):
            continue
        ys, xs = np.nonzero(own)
        flat = h <= 2 * scale.stroke + 1 and w <= th  # an underscore, kept to join words
        if max(w, h) >= 0.45 * th and not flat and is_straight_stroke(ys, xs, scale.stroke):
            bars.add(i)  # I, l, the diagonal of a thin N, or a line stub
        if solid(own, scale.stroke) if w <= th else _has_marker(own, scale):
            continue  # a filled arrowhead or dot marker, thicker than any letter stroke
        if near_line[y:y + h, x:x + w][own].any() and _crumb(own, ys, xs, scale):
            continue  # a piece of a line left by its removal, not a letter
        glyphs.append(i)
        piece = _line_piece(ys, xs, x, y, max(w, h), scale)
        if piece is not None:
            pieces[i] = piece
        else:
            others[i] = (x + float(xs.mean()), y + float(ys.mean()), float(max(w, h)), None)
    dashes = _dash_runs(pieces, labels, scale)
    if dashes:
        dashes -= _in_words(dashes, pieces, stats, [i for i in glyphs if i not in dashes],
                            scale.text_height)
        dashes |= _run_gaps(dashes, pieces, others, labels, stats,
                            [i for i in glyphs if i not in dashes], scale.text_height)
    if dashes:
        glyphs = [i for i in glyphs if i not in dashes]
        removed = removed.copy()
        for i in dashes:
            x, y, w, h = stats[i, :4]
            removed[y:y + h, x:x + w] |= labels[y:y + h, x:x + w] == i
        removed |= _cut_run_ends(dashes, pieces, labels, stats, glyphs, scale)
    return labels, glyphs, stats, removed, bars


def _cut_run_ends(found: set[int],
                  pieces: dict[int, tuple[float, float, float, tuple[float, float] | None]],
                  labels: np.ndarray, stats: np.ndarray, glyphs: list[int], scale: Scale
                  ) -> np.ndarray:
    """Take what a dotted or dashed line runs into at its ends off the glyphs: a lone
    glyph there (a corner of the line, an open arrowhead, a crossing) is line, and where
    the line ends on a word's letter, its last dash merges with the letter: the dash's
    pixels (a line width about the line's axis, one dash long, where the pitch puts the
    next dash) are taken off it.  ``labels``, ``stats`` and ``glyphs`` are updated in
    place; returns the mask of the removed pixels."""
    cut = np.zeros(labels.shape, bool)
    h, w = labels.shape
    ids = sorted(i for i in found if i in pieces)
    if len(ids) < 2:
        return cut
    th = scale.text_height
    pts = np.array([[pieces[i][0], pieces[i][1]] for i in ids])
    boxes = stats[:, :4].astype(float).copy()
    boxes[:, 2:] += boxes[:, :2]
    half = 0.5 * scale.stroke + 1.0
    dd = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    np.fill_diagonal(dd, np.inf)
    nearest = np.argsort(dd, axis=1)[:, :3]
    for k, i in enumerate(ids):
        d = dd[k]
        nb = [j for j in nearest[k].tolist()
              if d[j] <= 1.5 * th and _along(pieces[i], pieces[ids[j]])]
        if not nb:
            continue
        j = nb[0]
        pitch = float(d[j])
        u = (pts[k] - pts[j]) / pitch
        ahead = (pts - pts[k]) @ u
        aside = np.abs((pts[:, 1] - pts[k, 1]) * u[0] - (pts[:, 0] - pts[k, 0]) * u[1])
        if np.any((ahead > 0.3 * pitch) & (d <= 1.5 * pitch) & (aside <= 0.3 * pitch)):
            continue  # not the last piece on this side
        size = pieces[i][2]
        t = np.arange(size / 2 + 1, pitch + size / 2 + 1)
        xs = np.round(pts[k, 0] + t * u[0]).astype(int)
        ys = np.round(pts[k, 1] + t * u[1]).astype(int)
        ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        on = np.zeros(len(t), int)
        on[ok] = labels[ys[ok], xs[ok]]
        hits = [int(v) for v in on if v and v != i]
        if not hits or hits[0] not in glyphs or hits[0] in found:
            continue
        g = hits[0]
        x, y, gw, gh = (int(v) for v in stats[g, :4])
        box = labels[y:y + gh, x:x + gw]
        gy, gx = np.mgrid[y:y + gh, x:x + gw]
        along = (gx - pts[k, 0]) * u[0] + (gy - pts[k, 1]) * u[1]
        across = np.abs(-(gx - pts[k, 0]) * u[1] + (gy - pts[k, 1]) * u[0])
        piece = (box == g) & (across <= max(half, size / 2 + 1)) \
            & (along >= pitch - size / 2 - 1) & (along <= pitch + size / 2 + 1)
        rest = (box == g) & ~piece
        if (_lone(g, glyphs, boxes, th)
                or _open_head(box == g, (x, y), pts[k], u, float(t[on.tolist().index(g)]),
                              scale)
                or (piece.any() and rest.any() and solid(rest, scale.stroke))):
            # line debris, an open head, or a filled head with the next piece merged
            cut[y:y + gh, x:x + gw] |= box == g
            box[box == g] = 0
            glyphs.remove(g)
            continue
        nxt = (t >= pitch - size / 2) & (t <= pitch + size / 2)
        if pieces[i][3] is None or nxt.sum() == 0 or (on[nxt] == g).mean() < 0.6:
            continue  # a dotted line, or it stops short of the letter: nothing merged
        mine = (box == g) & (across <= half) & (along >= pitch - size / 2 - 1) \
            & (along <= pitch + size / 2 + 1)
        if not mine.any():
            continue
        box[mine] = 0
        cut[y:y + gh, x:x + gw] |= mine
        left = box == g
        if left.any():
            ly, lx = np.nonzero(left)
            stats[g, :5] = (x + lx.min(), y + ly.min(), np.ptp(lx) + 1, np.ptp(ly) + 1,
                            int(left.sum()))
    return cut


def _in_words(found: set[int],
              pieces: dict[int, tuple[float, float, float, tuple[float, float] | None]],
              stats: np.ndarray, glyphs: list[int], text_height: float) -> set[int]:
    """The dashes of ``found`` with ``glyphs`` a word gap away on both sides of the dash:
    a letter (l, I, 1) that a dashed line crosses in line with it, not a dash."""
    if not glyphs:
        return set()
    g = np.array(glyphs, int)
    boxes = stats[g, :4].astype(float)
    centres = boxes[:, :2] + boxes[:, 2:] / 2
    boxes[:, 2:] += boxes[:, :2]
    gap = 0.45 * text_height
    inside = set()
    for i in found:
        if i not in pieces or pieces[i][3] is None:
            continue
        x, y, w, h = (float(v) for v in stats[i, :4])
        near = ((boxes[:, 0] <= x + w + gap) & (boxes[:, 2] >= x - gap)
                & (boxes[:, 1] <= y + h + gap) & (boxes[:, 3] >= y - gap))
        if near.sum() < 2:
            continue
        cx, cy, _, (ux, uy) = pieces[i]
        side = (centres[near, 1] - cy) * ux - (centres[near, 0] - cx) * uy
        if side.min() < 0 < side.max():
            inside.add(i)
    return inside


def _open_head(own: np.ndarray, origin: tuple[int, int], start: np.ndarray, u: np.ndarray,
               hit: float, scale: Scale) -> bool:
    """An open arrowhead ending a line that comes in along ``u`` from ``start``: its
    two sides reach back towards the line, one on either side of its axis, and the line's
    axis first meets its ink at the point (``hit``, distance from ``start``), not at its
    near side as it meets a letter."""
    ys, xs = np.nonzero(own)
    dx, dy = xs + origin[0] - start[0], ys + origin[1] - start[1]
    along = dx * u[0] + dy * u[1]
    across = -dx * u[1] + dy * u[0]
    if hit < along.max() - (scale.stroke + 2) or np.ptp(along) < 0.3 * scale.text_height:
        return False
    left, right = int((across < -scale.stroke).sum()), int((across > scale.stroke).sum())
    return min(left, right) >= 0.5 * max(left, right) > 0


def _lone(g: int, glyphs: list[int], boxes: np.ndarray, text_height: float) -> bool:
    """No other glyph within a word gap of glyph ``g`` (``boxes``: x1, y1, x2, y2 by
    label): it makes no word with anything."""
    others = np.array([i for i in glyphs if i != g], int)
    if not len(others):
        return True
    gap = 0.45 * text_height
    b, o = boxes[g], boxes[others]
    near = ((o[:, 0] <= b[2] + gap) & (o[:, 2] >= b[0] - gap)
            & (o[:, 1] <= b[3] + gap) & (o[:, 3] >= b[1] - gap))
    return not bool(near.any())


def _line_piece(ys: np.ndarray, xs: np.ndarray, x0: int, y0: int, size: int, scale: Scale
                ) -> tuple[float, float, float, tuple[float, float] | None] | None:
    """A glyph-sized component (pixels ``ys, xs`` in its box at ``x0, y0``, the box's
    longer side ``size``) that could be one dot or dash of a dotted or dashed line:
    ``(cx, cy, length, direction)``, direction ``None`` for a dot; else ``None``."""
    stroke = scale.stroke
    cx, cy = x0 + float(xs.mean()), y0 + float(ys.mean())
    if size <= min(2 * stroke + 2, 0.4 * scale.text_height):
        return cx, cy, float(size), None
    if size < 2 * stroke or size > 1.5 * scale.text_height:
        return None
    if len(xs) > 1.5 * size * stroke + 2 or not is_straight_stroke(ys, xs, stroke):
        return None
    pts = np.stack([xs, ys], 1).astype(float)
    _, _, vt = np.linalg.svd(pts - pts.mean(0), full_matrices=False)
    return cx, cy, float(size), (float(vt[0, 0]), float(vt[0, 1]))


def _dash_runs(pieces: dict[int, tuple[float, float, float, tuple[float, float] | None]],
               labels: np.ndarray, scale: Scale) -> set[int]:
    """Components that are the dots or dashes of a dotted or dashed line: three or more
    pieces in a straight row at an even pitch, nothing drawn between them, each dash
    lying along the row (four or more when all are dots, so an ellipsis stays).

    A dotted line running on to a label chains its dots into the label's word; taken out,
    the label reads alone.
    """
    ids = list(pieces)
    if len(ids) < 3:
        return set()
    th = scale.text_height
    pts = np.array([[pieces[i][0], pieces[i][1]] for i in ids])
    size = np.array([pieces[i][2] for i in ids])
    d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    # Neighbours: near, and the gap between the two pieces at most a letter wide.
    gap = d - (size[:, None] + size[None, :]) / 2
    near = (d > 0) & (d <= 1.5 * th) & (gap <= 0.8 * th)
    # ... and each dash lying along the line joining the two
    dirs = np.array([pieces[i][3] or (0.0, 0.0) for i in ids])
    dot = np.array([pieces[i][3] is None for i in ids])
    ps, qs = np.nonzero(np.triu(near, 1))
    v = (pts[qs] - pts[ps]) / d[ps, qs][:, None]
    along = ((dot[ps] | (np.abs((v * dirs[ps]).sum(1)) >= 0.96))
             & (dot[qs] | (np.abs((v * dirs[qs]).sum(1)) >= 0.96)))
    nbs: list[list[int]] = [[] for _ in ids]
    for p, q in zip(ps[along].tolist(), qs[along].tolist()):
        if _clear_between(labels, pieces[ids[p]], pieces[ids[q]], ids[p], ids[q]):
            nbs[p].append(q)
            nbs[q].append(p)
    links: dict[int, set[int]] = {}
    for p, nb in enumerate(nbs):
        for ai, a in enumerate(nb):
            for b in nb[ai + 1:]:
                ua = (pts[a] - pts[p]) / d[p, a]
                ub = (pts[b] - pts[p]) / d[p, b]
                if float(ua @ ub) > -0.97 or not 0.5 <= d[p, a] / d[p, b] <= 2.0:
                    continue  # not on opposite sides in a row at an even pitch
                for q in (a, b, p):
                    links.setdefault(q, set()).update({a, b, p} - {q})
    found: set[int] = set()
    seen: set[int] = set()
    for start in links:
        if start in seen:
            continue
        run, todo = [], [start]
        seen.add(start)
        while todo:
            q = todo.pop()
            run.append(q)
            for r in links[q] - seen:
                seen.add(r)
                todo.append(r)
        dots = all(pieces[ids[q]][3] is None for q in run)
        if len(run) >= (4 if dots else 3):
            found.update(ids[q] for q in run)
    return found


def _run_gaps(found: set[int],
              pieces: dict[int, tuple[float, float, float, tuple[float, float] | None]],
              others: dict[int, tuple[float, float, float, None]], labels: np.ndarray,
              stats: np.ndarray, glyphs: list[int], text_height: float) -> set[int]:
    """The ``others`` lying in a row of line pieces ``found`` with a piece on either side,
    each at most about one pitch (the distance between neighbouring pieces) away, that
    make no word with any of the ``glyphs``: where two lines cross, their pieces merge.
    (A letter a dashed line crosses has letters beside it.)"""
    if not others:
        return set()
    boxes = stats[:, :4].astype(float).copy()
    boxes[:, 2:] += boxes[:, :2]
    ids = sorted(found)
    pts = np.array([[pieces[i][0], pieces[i][1]] for i in ids])
    d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    np.fill_diagonal(d, np.inf)
    pitch = d.min(axis=1)
    gaps = set()
    oid = list(others)
    opts = np.array([[others[i][0], others[i][1], others[i][2]] for i in oid])
    dists = np.hypot(opts[:, None, 0] - pts[None, :, 0], opts[:, None, 1] - pts[None, :, 1])
    within = dists <= 1.6 * pitch[None, :] + opts[:, 2:3] / 2
    for o in np.flatnonzero(within.sum(axis=1) >= 2):
        i, c, dist = oid[o], others[oid[o]], dists[o]
        close = [k for k in np.flatnonzero(within[o])
                 if _along(c, pieces[ids[k]])
                 and _clear_between(labels, c, pieces[ids[k]], i, ids[k])]
        for ai, a in enumerate(close):
            ua = (pts[a] - c[:2]) / dist[a]
            if any(float(ua @ ((pts[b] - c[:2]) / dist[b])) <= -0.97 for b in close[ai + 1:]):
                if _lone(i, glyphs, boxes, text_height):
                    gaps.add(i)
                break
    return gaps


def _along(a: tuple, b: tuple) -> bool:
    """Two line pieces whose dashes (dots have no direction) lie along the line joining
    them, within about 15 degrees."""
    v = np.array([a[0] - b[0], a[1] - b[1]])
    v /= max(1e-6, float(np.hypot(*v)))
    return all(p[3] is None or abs(v[0] * p[3][0] + v[1] * p[3][1]) >= 0.96 for p in (a, b))


def _clear_between(labels: np.ndarray, a: tuple, b: tuple, ia: int, ib: int) -> bool:
    """No other component's ink on the straight path between two pieces' centres."""
    n = int(np.hypot(a[0] - b[0], a[1] - b[1])) + 2
    t = np.arange(n) / (n - 1)
    xs = np.rint(a[0] + (b[0] - a[0]) * t).astype(int)  # centres lie in the image
    ys = np.rint(a[1] + (b[1] - a[1]) * t).astype(int)
    on = labels[ys, xs]
    return bool(((on == 0) | (on == ia) | (on == ib)).all())


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
        if flat[3] - flat[1] <= 2 * stroke + 1 and tall[1] <= flat[1] <= tall[3] + 0.4 * text_height:
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
              background: tuple[int, int, int]) -> np.ndarray:
    """Grayscale crop of a word, dark on white, other ink in its box blanked."""
    x1, y1, x2, y2 = word.bbox
    m = 2
    h, w = labels.shape
    cx1, cy1, cx2, cy2 = max(0, x1 - m), max(0, y1 - m), min(w, x2 + m), min(h, y2 + m)
    own = np.isin(labels[cy1:cy2, cx1:cx2], word.labels)
    own = cv2.dilate(own.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    dist = colour_distance(rgb[cy1:cy2, cx1:cx2], background)
    top = max(float(dist[own].max()) if own.any() else 1.0, 30.0)
    gray = 255.0 - np.clip(dist / top, 0, 1) * 255.0
    gray[~own] = 255
    return gray.astype(np.uint8)


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
    return words, [word_crop(rgb, labels, w, background) for w in words]
