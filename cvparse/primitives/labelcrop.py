"""Grayscale crops of the labels inside shapes, ready for OCR: dark text on white.

A label's crop keeps the ink inside its shape (the border zone left out) and the letters
of the label that reach past it; lines drawn across the label (connectors crossing the
shape) are found outside it, followed in, and erased to their measured width with the
letter strokes across them drawn back.
"""

from __future__ import annotations

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
    """
    x1, y1, x2, y2 = region.bbox
    inside = cv2.erode(region.filled.astype(np.uint8), np.ones((3, 3), np.uint8),
                       iterations=max(1, int(round(stroke)))).astype(bool)
    dist = colour_distance(rgb[y1:y2, x1:x2], fill)
    top = max(float(np.percentile(dist[inside], 99.5)) if inside.any() else 1.0, 30.0)
    full = 255.0 - np.clip(dist / top, 0, 1) * 255.0
    gray = full.copy()
    gray[~inside] = 255
    edge = inside & ~cv2.erode(inside.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    n, labels, stats, touching = _components(gray, edge)
    letters = _core(n, stats, touching)
    # A line crossing the label reaches the rim of the area (a box's inside fills its
    # crop: there the rim is the crop's own edge).
    padded = np.zeros((inside.shape[0] + 2, inside.shape[1] + 2), np.uint8)
    padded[1:-1, 1:-1] = inside
    rim = inside & ~cv2.erode(padded, np.ones((3, 3), np.uint8))[1:-1, 1:-1].astype(bool)
    out = lines_taken_out(rgb, ink, fill, top, region, stroke, text_height) \
        if len(letters) and (labels[rim] > 0).any() else None
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
    core = _core(n, stats, touching)
    drop = [i for i in touching if not _letter_in_line(stats[i, :4], core, text_height)]
    if drop:
        gray[np.isin(labels, drop)] = 255
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
