"""Grayscale crops of the labels inside shapes, ready for OCR: dark text on white.

A label's crop keeps the ink inside its shape (the border zone left out) and the letters
of the label that reach past it; lines drawn across the label (connectors crossing the
shape) are found outside it, followed in, and erased to their measured width with the
letter strokes across them drawn back.
"""

from __future__ import annotations

from collections.abc import Callable, Set
from dataclasses import dataclass

import cv2
import numpy as np

from ..arrays import colour_distance, components
from .regions import Region


def label_crop(rgb: np.ndarray, ink: np.ndarray, fill: tuple[int, int, int], region: Region,
               stroke: float, text_height: float) -> np.ndarray:
    """Grayscale crop of the ink inside a region, dark text on white.

    Ink touching the border zone is an arrowhead tip or a border remnant, not text, and
    ink outside the region is not the label, unless either is a letter in line with the
    rest of the label: a diamond's tapering end, or the end of a label whose shape a
    crossing line (or a dashed border) cut short.  Lines drawn across the label are taken
    out first (:func:`lines_taken_out`), so the letters they touch are not lost with them.

    A label that fills its shape may have a whole line touching the border zone, or
    joined to the border (and cut out of the enclosed paper, :func:`label_area`); such
    a line is kept when it is drawn as the label's letters are (:func:`_touching_letters`).
    """
    x1, y1, x2, y2 = region.bbox
    inside = label_area(region, ink, stroke)
    plain = cv2.erode(region.filled.astype(np.uint8), np.ones((3, 3), np.uint8),
                      iterations=max(1, int(round(stroke)))).astype(bool)
    dist = colour_distance(rgb[y1:y2, x1:x2], fill)
    top = max(float(np.percentile(dist[plain], 99.5)) if plain.any() else 1.0, 30.0)
    full = 255.0 - np.clip(dist / top, 0, 1) * 255.0
    gray = full.copy()
    gray[~inside] = 255
    # the border zone's edge: of the bays given back, and of the enclosed paper
    edge = inside & ~cv2.erode(inside.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    edge |= plain & ~cv2.erode(plain.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    n, labels, stats, touching = _components(gray, edge)
    letters = _core(n, stats, touching)
    # A line crossing the label reaches the rim of the area (a box's inside fills its
    # crop: there the rim is the crop's own edge).
    padded = np.zeros((inside.shape[0] + 2, inside.shape[1] + 2), np.uint8)
    padded[1:-1, 1:-1] = inside
    rim = inside & ~cv2.erode(padded, np.ones((3, 3), np.uint8))[1:-1, 1:-1].astype(bool)
    out = lines_taken_out(rgb, ink, fill, top, region, stroke, text_height) \
        if len(letters) and (labels[rim] > 0).any() else None
    near = None
    if out is not None:
        erased, band = out
        gray = np.where(inside, erased, 255.0)
        n, labels, stats, touching = _components(gray, edge)
        # What is left of the lines (ends, arrowheads) stays only as a letter in line.
        near = cv2.dilate(band.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        left = set(np.unique(labels[near & (labels > 0)]).tolist()) - touching
        # Ink lying along a band is the line's edge where its axis wavered off the ink.
        k = 2 * int(round(stroke)) + 1
        along = cv2.dilate(band.astype(np.uint8), np.ones((k, k), np.uint8)).astype(bool)
        residue = {i for i in left
                   if along[labels == i].mean() >= 0.9 and stats[i, 4] > stroke * stroke}
        junk = sorted(residue | set(_not_in_line(left - residue, n, stats, touching,
                                                 text_height)))
        if junk:
            gone = np.isin(labels, junk)
            blur = cv2.dilate(gone.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
            gray[gone | (blur & (labels == 0))] = 255
            n, labels, stats, touching = _components(gray, edge)
    # Ink in the bays the hull gave back is a letter only if it reads as one.
    bay = inside & ~plain
    in_bay = {j for j in range(1, n) if bay[labels == j].mean() > 0.5} if bay.any() else set()
    touching |= in_bay
    core = _core(n, stats, touching)
    looks = _TextLook(labels, stats, [j for j in range(1, n) if j not in touching
                                      and stats[j, 3] >= 3], shape_area(region, stroke),
                      stroke)
    # A piece a crossing line cut is ambiguous (another label the line passes, its
    # remnant): only a letter in line with the label's.
    cut = set() if near is None else set(np.unique(labels[near & (labels > 0)]).tolist())
    drop = sorted(touching - _touching_letters(
        touching, stats, core, text_height, lambda j: j not in cut and looks.text_like(j),
        in_bay))
    if drop:
        gray[np.isin(labels, drop)] = 255
    if bay.any():
        # of the bays only the letters taken in come back, not the border's shading
        kept = cv2.dilate(((labels > 0) & ~np.isin(labels, drop)).astype(np.uint8),
                          np.ones((3, 3), np.uint8)).astype(bool)
        gray[bay & ~kept] = 255
    if len(core):
        m_out, l_out, s_out, _ = components(
            ((full < 160) & ~inside).astype(np.uint8), 8)
        keep = [i for i in range(1, m_out) if _letter_in_line(s_out[i, :4], core, text_height)]
        if keep:
            own = cv2.dilate(np.isin(l_out, keep).astype(np.uint8), np.ones((3, 3), np.uint8))
            own = own.astype(bool) & ~inside
            gray[own] = full[own]
    ys, xs = np.nonzero(gray < 200)
    if ys.size == 0:
        return np.full((2, 2), 255, np.uint8)
    m = 2
    crop = gray[max(0, ys.min() - m):ys.max() + m + 1, max(0, xs.min() - m):xs.max() + m + 1]
    return crop.astype(np.uint8)


HULL_SLACK = 1.15
"""A region whose convex hull is at most this much larger than it is a convex shape
with bays cut into it (see :func:`label_area`); a larger hull is a shape of its own."""


def shape_area(region: Region, stroke: float) -> np.ndarray:
    """The inside of a region's border as drawn, over its box, the border zone (a stroke
    wide) left out: of its convex hull where the region is a convex shape with bays cut
    in (its hull at most :data:`HULL_SLACK` larger), else of the region itself."""
    it = max(1, int(round(stroke)))
    kernel = np.ones((3, 3), np.uint8)
    filled = region.filled
    inside = cv2.erode(filled.astype(np.uint8), kernel, iterations=it).astype(bool)
    if len(region.contour) < 3:
        return inside  # a box given whole, with no outline traced
    x1, y1 = region.bbox[:2]
    hull = np.zeros(filled.shape, np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull((region.contour - np.array([x1, y1])
                                             ).astype(np.int32)), 1)
    if np.count_nonzero(hull) > HULL_SLACK * np.count_nonzero(filled):
        return inside
    return inside | cv2.erode(hull, kernel, iterations=it).astype(bool)


def label_area(region: Region, ink: np.ndarray, stroke: float) -> np.ndarray:
    """Where a region's label may lie, over its box: the inside of its border, the border
    zone (a stroke wide) left out; ``ink`` is the page's.

    Letters that touch the border, or an arrowhead drawn over it, are ink joined to the
    border and cut bays into the enclosed paper; their letters are then outside the
    region.  A convex shape (its region's hull barely larger than the region) gets the
    bays of its hull back, without the arrowheads reaching into them: solid ink (thicker
    than a stroke or two, where letters and lines are not) and its tapering tip.
    """
    it = max(1, int(round(stroke)))
    x1, y1, x2, y2 = region.bbox
    inside = cv2.erode(region.filled.astype(np.uint8), np.ones((3, 3), np.uint8),
                       iterations=it).astype(bool)
    extra = shape_area(region, stroke) & ~inside
    if not extra.any():
        return inside
    r = max(2, it)
    pad = 4 * r + 4  # a head's solid part may lie outside the box, its tip inside
    h, w = ink.shape
    wx1, wy1, wx2, wy2 = max(0, x1 - pad), max(0, y1 - pad), min(w, x2 + pad), min(h, y2 + pad)
    solid = cv2.morphologyEx(ink[wy1:wy2, wx1:wx2].astype(np.uint8), cv2.MORPH_OPEN,
                             cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2))
    heads = cv2.dilate(solid, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                        (2 * r + 5,) * 2))
    extra &= ~heads[y1 - wy1:y2 - wy1, x1 - wx1:x2 - wx1].astype(bool)
    return inside | extra


def lines_taken_out(rgb: np.ndarray, ink: np.ndarray, fill: tuple[int, int, int], top: float,
                    region: Region, stroke: float, text_height: float
                    ) -> tuple[np.ndarray, np.ndarray] | None:
    """A region's grey label image (ink ``top`` or more from ``fill`` is black) with the
    lines drawn across it taken out (:func:`crossing_lines`, :func:`erase_lines`), and
    the mask of their bands, over the region's box; None if no line crosses it.  Lines
    are looked for a little beyond the region, where the page's ``ink`` shows them."""
    x1, y1, x2, y2 = region.bbox
    h, w = ink.shape
    m = int(round(2 * text_height))
    wx1, wy1, wx2, wy2 = max(0, x1 - m), max(0, y1 - m), min(w, x2 + m), min(h, y2 + m)
    filled = np.zeros((wy2 - wy1, wx2 - wx1), bool)
    filled[y1 - wy1:y2 - wy1, x1 - wx1:x2 - wx1] = region.filled
    inside = cv2.erode(filled.astype(np.uint8), np.ones((3, 3), np.uint8),
                       iterations=max(1, int(round(stroke)))).astype(bool)
    full = 255.0 - np.clip(colour_distance(rgb[wy1:wy2, wx1:wx2], fill) / top, 0, 1) * 255.0
    # Outside the region, the page's ink: the paper there may not be the region's fill.
    dark = np.where(filled, full < 160, ink[wy1:wy2, wx1:wx2])
    lines = crossing_lines(dark, inside, filled, stroke, text_height)
    if not lines:
        return None
    erased, band = erase_lines(full, lines)
    box = (slice(y1 - wy1, y2 - wy1), slice(x1 - wx1, x2 - wx1))
    return erased[box], band[box]


def _not_in_line(pieces: set[int], n: int, stats: np.ndarray, touching: set[int],
                 text_height: float) -> list[int]:
    """The pieces (component ids) that are no letter in line with the label: starting from
    the components clear of the edge and of the pieces, each piece beside one already
    taken in is taken in too, so a run of letters a line passed through stays whole.  A
    piece may lie a text height from the next, as the letter between may be lost, and be
    as wide as a few letters, run together where strokes were drawn back."""
    taken = [j for j in range(1, n) if j not in touching and j not in pieces
             and stats[j, 3] >= 3]
    rest = set(pieces)
    while rest:
        core = stats[taken, :4].reshape(-1, 4)
        join = [i for i in rest
                if _letter_in_line(stats[i, :4], core, text_height, gap=1.0, wide=3.0)]
        if not join:
            break
        taken += join
        rest -= set(join)
    return sorted(rest)


def _touching_letters(touching: set[int], stats: np.ndarray, core: np.ndarray,
                      text_height: float,
                      text_like: Callable[[int], bool] = lambda i: True,
                      gated: Set[int] = frozenset()) -> set[int]:
    """The components touching the border zone that are letters of the label (``core``
    its letters clear of it): a letter in line with the label, or beside one taken in
    (a word whose letters all come near the border), or a whole line of the label next
    to those taken in, above or below, where text fills its shape (a wrapped label's
    last line in a box just tall enough, or in a diamond's narrowing end).

    A line is taken in when its glyphs are letter-sized (the tallest at least 0.6 of the
    label's median glyph, none taller than a text height), it starts within 0.6 text
    heights of the block taken in and its middle lies over that block: arrowhead tips
    reaching into the shape are only a few pixels tall, border remnants lie along a
    side, and neither sits centred under the text.

    Only pieces that pass ``text_like`` (drawn as the label's letters are, see
    :class:`_TextLook`) are taken in beside others or as a line; those in ``gated`` (in
    the bays of the shape's hull, outside the enclosed paper) need it even to be taken
    as a letter in line."""
    if not len(core):
        return set()
    looks = {i for i in touching if text_like(i)}
    taken = {i for i in touching if (i not in gated or i in looks)
             and _letter_in_line(stats[i, :4], core, text_height)}
    rest = looks - taken
    while rest:
        block = np.vstack([core, stats[sorted(taken), :4].reshape(-1, 4)])
        beside = {i for i in rest if _letter_in_line(stats[i, :4], block, text_height)}
        if not beside:
            beside = _next_line(rest, stats, block, text_height)
        if not beside:
            break
        taken |= beside
        rest -= beside
    return taken


STROKE_SLACK = 1.5
"""A piece drawn with a pen up to this many times the label's letter stroke (plus a
pixel) may be a letter; solid ink (an arrowhead) is wider."""

ALONG_BORDER = 0.5
"""A piece with more than this share of its ink in the border band is a border remnant."""


class _TextLook:
    """Whether a component touching the border zone is drawn as the label's text: its
    pen no wider than the letters' (clear of the border) by :data:`STROKE_SLACK`, and not
    lying along the border (at most :data:`ALONG_BORDER` of its ink within a border
    stroke of the area's edge).  Arrowhead tips are solid, border remnants are runs
    along a side; letters cut by the border zone reach into the area."""

    def __init__(self, labels: np.ndarray, stats: np.ndarray, core_ids: list[int],
                 outline: np.ndarray, stroke: float) -> None:
        self.labels, self.stats = labels, stats
        width = max(2, int(round(stroke)) + 1)
        padded = np.pad(outline.astype(np.uint8), 1)
        self.band = outline & ~cv2.erode(padded, np.ones((3, 3), np.uint8),
                                        iterations=width)[1:-1, 1:-1].astype(bool)
        self._letter: float | None = None
        self._core = core_ids

    def _pen(self, j: int) -> float:
        x, y, w, h = (int(v) for v in self.stats[j, :4])
        mask = np.pad((self.labels[y:y + h, x:x + w] == j).astype(np.uint8), 1)
        return 2.0 * float(cv2.distanceTransform(mask, cv2.DIST_L2, 3).max())

    def letter_pen(self) -> float:
        if self._letter is None:
            pens = [self._pen(j) for j in self._core] or [1.0]
            self._letter = float(np.median(pens))
        return self._letter

    def text_like(self, j: int) -> bool:
        x, y, w, h = (int(v) for v in self.stats[j, :4])
        mine = self.labels[y:y + h, x:x + w] == j
        if self.band[y:y + h, x:x + w][mine].mean() > ALONG_BORDER:
            return False
        return self._pen(j) <= STROKE_SLACK * self.letter_pen() + 1.0


def _next_line(pieces: set[int], stats: np.ndarray, block: np.ndarray,
               text_height: float) -> set[int]:
    """The ``pieces`` forming a text line just above or below the glyph boxes ``block``
    (see :func:`_touching_letters`); empty if there is none."""
    glyph = float(np.median(block[:, 3]))
    letters = [i for i in pieces if 0.4 * glyph <= stats[i, 3] <= 1.1 * text_height
               and stats[i, 2] <= 1.5 * text_height]
    top, bottom = int(block[:, 1].min()), int((block[:, 1] + block[:, 3]).max())
    left, right = int(block[:, 0].min()), int((block[:, 0] + block[:, 2]).max())
    gap = 0.6 * text_height
    for below in (True, False):
        near = [i for i in letters
                if (-0.3 * text_height <= stats[i, 1] - bottom <= gap if below
                    else -0.3 * text_height <= top - (stats[i, 1] + stats[i, 3]) <= gap)]
        if not near:
            continue
        # the pieces overlapping the nearest one's rows make up its line
        first = min(near, key=lambda i: stats[i, 1] if below else -(stats[i, 1] + stats[i, 3]))
        y1, y2 = stats[first, 1], stats[first, 1] + stats[first, 3]
        row = [i for i in letters if min(y2, stats[i, 1] + stats[i, 3]) - max(y1, stats[i, 1]) > 0]
        xs1 = min(stats[i, 0] for i in row)
        xs2 = max(stats[i, 0] + stats[i, 2] for i in row)
        if max(stats[i, 3] for i in row) < 0.6 * glyph or not left <= (xs1 + xs2) / 2 <= right:
            continue
        return set(row)
    return set()


def _core(n: int, stats: np.ndarray, touching: set[int]) -> np.ndarray:
    """Boxes of the components clear of the edge (the label's letters), ``x, y, w, h``."""
    return np.array([stats[j, :4] for j in range(1, n)
                     if j not in touching and stats[j, 3] >= 3]).reshape(-1, 4)


def _components(gray: np.ndarray, edge: np.ndarray
                ) -> tuple[int, np.ndarray, np.ndarray, set[int]]:
    """Dark components of a crop: count, labels, stats and those touching ``edge``."""
    n, labels, stats, _ = components((gray < 160).astype(np.uint8), 8)
    return n, labels, stats, set(np.unique(labels[edge & (labels > 0)]).tolist())


@dataclass(frozen=True)
class CrossingLine:
    """A straight line drawn across a label's area, in the crop's pixels."""

    origin: tuple[float, float]
    """A point ``x, y`` on its fitted axis."""
    direction: tuple[float, float]
    """Unit vector along the axis."""
    width: float
    """Its ink width across the axis."""
    span: tuple[float, float]
    """Where along the axis (distances from ``origin``) it is inked."""


def _axis_coords(shape: tuple[int, int], origin: tuple[float, float],
                 direction: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Every pixel's distance along an axis and its signed distance across it."""
    ys, xs = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32)
    dx, dy = direction
    px, py = xs - origin[0], ys - origin[1]
    return px * dx + py * dy, py * dx - px * dy


def crossing_lines(dark: np.ndarray, inside: np.ndarray, filled: np.ndarray, stroke: float,
                   text_height: float) -> list[CrossingLine]:
    """Straight lines drawn across a label's area (connectors crossing a shape).

    Such a line joins the letters it passes through to the border zone, and the label
    would lose them with it.  It is found outside the region (``filled``), where no letter
    is, as a straight run of ``dark`` at least a text height long; followed along its
    fitted axis, its ink runs on unbroken well into the area (``inside``): a border, or a
    line ending at the border, does not.  Its width is measured across the axis.
    """
    reach = int(round(stroke)) + 1
    beyond = ~cv2.dilate(filled.astype(np.uint8), np.ones((3, 3), np.uint8),
                         iterations=reach).astype(bool)
    length = int(round(text_height))
    segs = cv2.HoughLinesP((dark & beyond).astype(np.uint8), 1, np.pi / 180, length,
                           minLineLength=length, maxLineGap=max(1, int(round(stroke))))
    if segs is None:
        return []
    segs = sorted((tuple(int(v) for v in s) for s in segs.reshape(-1, 4)),
                  key=lambda s: -np.hypot(s[2] - s[0], s[3] - s[1]))
    found: list[CrossingLine] = []
    tried: list[CrossingLine] = []
    for x1, y1, x2, y2 in segs:
        if any(_lies_on(t, ((x1, y1), (x2, y2)), stroke) for t in tried):
            continue
        d = np.array([x2 - x1, y2 - y1], float)
        d /= max(float(np.linalg.norm(d)), 1e-9)
        if _crossed(inside, (x1, y1), d) < 0.5 * text_height:
            continue  # led on, it misses the area: a border or a line passing by
        line = _fit_line(dark, beyond, (x1, y1), (float(d[0]), float(d[1])), stroke,
                         text_height, ((x1 + x2) / 2, (y1 + y2) / 2))
        if line is None:
            continue
        tried.append(line)
        if _crossed(inside, line.origin, line.direction, line.span) >= 0.5 * text_height:
            found.append(line)
    return found


def _crossed(mask: np.ndarray, origin: tuple[float, float], direction: tuple[float, float],
             span: tuple[float, float] | None = None) -> int:
    """Pixels of ``mask`` on a line's axis (within ``span`` of ``origin``, or all of it)."""
    h, w = mask.shape
    steps = np.arange(-(h + w), h + w + 1) if span is None else np.arange(span[0], span[1] + 1)
    xs = np.round(origin[0] + steps * direction[0]).astype(int)
    ys = np.round(origin[1] + steps * direction[1]).astype(int)
    ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    return int(mask[ys[ok], xs[ok]].sum())


def _lies_on(line: CrossingLine, ends: tuple[tuple[int, int], ...], stroke: float) -> bool:
    """Whether both ends of a segment lie on a line's axis, within a stroke or so."""
    (ox, oy), (dx, dy) = line.origin, line.direction
    return all(abs((y - oy) * dx - (x - ox) * dy) <= line.width / 2 + stroke for x, y in ends)


def _fit_line(dark: np.ndarray, clear: np.ndarray, origin: tuple[float, float],
              direction: tuple[float, float], stroke: float, text_height: float,
              centre: tuple[float, float]) -> CrossingLine | None:
    """The line a Hough segment (through ``origin``, its middle at ``centre``) lies on:
    axis fitted to the ink within a stroke or so of it (in ``clear``, beyond the region
    and its border, where no letter or border is, when there is enough), width the
    median ink run across it where nothing touches it, span the stretch inked unbroken
    through the segment's middle."""
    ys, xs = np.nonzero(dark)
    outside = clear[ys, xs]
    for _ in range(2):  # the seed's axis drifts off the ink far from it: fitted twice
        across = (ys - origin[1]) * direction[0] - (xs - origin[0]) * direction[1]
        near = np.abs(across) <= stroke + 1
        pick = near & outside if (near & outside).sum() >= text_height else near
        if pick.sum() < 2:
            return None
        dx, dy, ox, oy = cv2.fitLine(np.column_stack([xs[pick], ys[pick]]).astype(np.float32),
                                     cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        origin, direction = (float(ox), float(oy)), (float(dx), float(dy))
    # Ink runs across the axis, walked out from it at every position along it.
    h, w = dark.shape
    corners = np.array([[0, 0], [w, 0], [0, h], [w, h]], float) - origin
    ends = corners @ np.array(direction)
    ts = np.arange(np.floor(ends.min()), np.ceil(ends.max()) + 1)
    r = int(round(3 * stroke)) + 2
    js = np.arange(-r, r + 1)
    nx, ny = -direction[1], direction[0]
    px = origin[0] + ts[:, None] * direction[0] + js[None, :] * nx
    py = origin[1] + ts[:, None] * direction[1] + js[None, :] * ny
    xi, yi = np.round(px).astype(int), np.round(py).astype(int)
    ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    hit = ok & dark[np.clip(yi, 0, h - 1), np.clip(xi, 0, w - 1)]
    on = hit[:, r - 1:r + 2].any(axis=1)
    if not on.any():
        return None
    runs = (np.cumprod(hit[:, r:], axis=1).sum(axis=1)
            + np.cumprod(hit[:, r::-1], axis=1).sum(axis=1) - 1)[hit[:, r]]
    clean = runs[runs <= 2 * stroke + 1]
    width = float(np.median(clean)) if clean.size else float(stroke)
    at = (centre[0] - origin[0]) * direction[0] + (centre[1] - origin[1]) * direction[1]
    span = _inked_span(ts[on], at, stroke + 1)
    return CrossingLine(origin=origin, direction=direction, width=width, span=span)


def _inked_span(ts: np.ndarray, at: float, gap: float) -> tuple[float, float]:
    """The stretch of axis positions with ink (``ts``) through position ``at`` (or the
    nearest to it), across gaps up to ``gap`` (where the axis wavers off a pixel row)."""
    ts = np.sort(ts)
    breaks = np.nonzero(np.diff(ts) > gap)[0]
    starts = ts[np.r_[0, breaks + 1]]
    ends = ts[np.r_[breaks, len(ts) - 1]]
    off = np.maximum(starts - at, at - ends).clip(0)
    best = int(np.argmin(off))
    return float(starts[best]), float(ends[best])


CROSSING_ANGLES = (90.0, 70.0, 110.0, 50.0, 130.0, 35.0, 145.0, 25.0, 155.0)
"""Directions (degrees from a line's axis) along which a letter stroke is looked for on
both sides of the line, to be drawn back through it."""


def erase_lines(gray: np.ndarray, lines: list[CrossingLine]
                ) -> tuple[np.ndarray, np.ndarray]:
    """A crop with lines taken out (the band of their width along the fitted axis, and
    half a pixel of blur either side), and the letter strokes crossing them drawn back:
    where ink lies just beyond the band on both sides, in one straight direction, the
    band between is that stroke.  Returns the crop and the mask of the bands."""
    h, w = gray.shape
    bands = np.zeros(gray.shape, bool)
    geometry = []
    for line in lines:
        along, across = _axis_coords(gray.shape, line.origin, line.direction)
        half = line.width / 2 + 0.5
        t0, t1 = line.span
        band = (np.abs(across) <= half) & (along >= t0 - half) & (along <= t1 + half)
        geometry.append((line, band, across, half))
        bands |= band
    # Strokes are looked for with every line out, so one line is not drawn back over another.
    blank = np.where(bands, 255.0, gray)
    out = blank.copy()
    for line, band, across, half in geometry:
        ys, xs = np.nonzero(band)
        d = across[ys, xs]
        dx, dy = line.direction
        nx, ny = -dy, dx  # the direction in which ``across`` grows
        restored = np.full(len(ys), 255.0)
        for deg in CROSSING_ANGLES:
            a = np.radians(deg)
            ux, uy = np.cos(a) * dx + np.sin(a) * nx, np.cos(a) * dy + np.sin(a) * ny
            s = np.sin(a)
            sides = []
            for reach in (half + 1 - d, -(half + 1 + d)):
                k = reach / s
                qx = np.clip(np.round(xs + ux * k).astype(int), 0, w - 1)
                qy = np.clip(np.round(ys + uy * k).astype(int), 0, h - 1)
                sides.append(blank[qy, qx])
            both = (sides[0] < 160) & (sides[1] < 160)
            restored = np.where(both, np.minimum(restored, np.maximum(*sides)), restored)
        out[ys, xs] = np.minimum(out[ys, xs], restored)
    return out, bands


def _letter_in_line(box: np.ndarray, core: np.ndarray, text_height: float, gap: float = 0.5,
                    wide: float = 1.5) -> bool:
    """Whether an ink component (box ``x, y, w, h``) is a letter of the label whose other
    glyphs have the boxes ``core``: glyph-sized (up to ``wide`` text heights wide), within
    their rows and beside one of them (at most ``gap`` text heights apart)."""
    x, y, w, h = (int(v) for v in box)
    if not len(core) or w > wide * text_height or h > 1.1 * text_height:
        return False
    tops = core[:, 1]
    bottoms = core[:, 1] + core[:, 3]
    if h < 0.4 * float(np.median(core[:, 3])):
        return False
    slack = 0.3 * text_height
    if y < tops.min() - slack or y + h > bottoms.max() + slack:
        return False
    gaps = np.maximum(core[:, 0] - (x + w), x - (core[:, 0] + core[:, 2]))
    rows = (np.minimum(bottoms, y + h) - np.maximum(tops, y)) > 0
    return bool((rows & (gaps <= gap * text_height)).any())
