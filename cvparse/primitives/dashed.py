"""Shapes with a dashed or dotted border (derived attributes): gaps closed, then found.

A dashed border leaks, so its inside is no enclosed region of the ink.  The dashes of
dashed lines (short straight strokes linked end to end; letter strokes are not) are drawn
on across their gaps on a copy of the ink; regions enclosed only after the closing,
fitting a shape template, whose outline those dashes cover in short runs of one length,
are the dashed shapes.  Connectors drawn across a dashed ellipse cut its inside into
pieces: the ellipse is then fitted to the dashes around a piece.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..arrays import components
from .regions import Region, enclosed_regions, region_from_mask
from .shapes import classify

DASHED_KINDS = ("ellipse", "circle", "rect", "round_rect", "diamond", "stadium")


def _dash_components(ink: np.ndarray, stroke: float, text_height: float
                     ) -> tuple[np.ndarray, np.ndarray, list[tuple[int, np.ndarray, np.ndarray]]]:
    """Dash-like ink components (short, one stroke thick, nearly straight): their mask, the
    component labels and, for each dash, its label and two end points along its axis."""
    n, labels, stats, _ = components(ink.astype(np.uint8), 8)
    keep = np.zeros(n, bool)
    ends = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if max(w, h) > 1.2 * text_height:
            continue
        ys, xs = np.nonzero(labels[y:y + h, x:x + w] == i)
        pts = np.stack([xs + x, ys + y], 1).astype(float)
        if len(pts) < 2:
            continue
        mean = pts.mean(0)
        c = pts - mean
        axes = np.linalg.svd(c, full_matrices=False)[2]
        keep[i] = np.abs(c @ axes[-1]).max() <= stroke + 1
        if keep[i]:
            along = c @ axes[0]
            ends.append((i, mean + axes[0] * along.min(), mean + axes[0] * along.max()))
    return keep[labels], labels, ends


def dash_mask(ink: np.ndarray, stroke: float, text_height: float) -> np.ndarray:
    """Ink components shaped like dashes or dots: short, one stroke thick, nearly straight."""
    return _dash_components(ink, stroke, text_height)[0]


def _first_hit(canvas: np.ndarray, labels: np.ndarray, own: int, start: np.ndarray,
               d: np.ndarray, length: int) -> tuple[np.ndarray, int]:
    """Walk from ``start`` along ``d`` (up to ``length`` pixels) to the first ink of
    another component: the last point walked and that ink's label (-1: none reached)."""
    h, w = canvas.shape
    pts = start + d * np.arange(1, length + 1)[:, None]
    xy = np.rint(pts).astype(int)
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)
    n = int(np.argmin(inside)) if not inside.all() else len(xy)
    if n == 0:
        return start, -1
    xs, ys = xy[:n, 0], xy[:n, 1]
    hit = np.flatnonzero(canvas[ys, xs].astype(bool) & (labels[ys, xs] != own))
    if hit.size:
        k = int(hit[0])
        return pts[k], int(labels[ys[k], xs[k]])
    return pts[n - 1], -1


def _at_end(stop: np.ndarray, tip: tuple[np.ndarray, np.ndarray], near: float) -> bool:
    return min(float(np.linalg.norm(stop - e)) for e in tip) <= near


def _extend(canvas: np.ndarray, labels: np.ndarray,
            tips: dict[int, tuple[np.ndarray, np.ndarray]], own: int, start: np.ndarray,
            d: np.ndarray, length: int, thick: int, near: float) -> None:
    """Draw from ``start`` along ``d`` until other ink is reached (or ``length`` pixels):
    stopping there leaves no overshoot that could enclose a pocket outside the border.
    Nothing is drawn if the ink reached is the middle of another dash: the next dash of a
    border is met at its end (a letter stroke pointing at a border meets a dash anywhere).
    ``tips`` holds each dash's two end points; ``near`` is how close to one counts."""
    stop, other = _first_hit(canvas, labels, own, start, d, length)
    if other in tips and not _at_end(stop, tips[other], near):
        return
    cv2.line(canvas, tuple(int(round(v)) for v in start), tuple(int(round(v)) for v in stop),
             1, thick)


ALIGN_COS = 0.5
"""Cosine of the widest turn (60 degrees) from one dash of a border to the next."""


MEET_COS = 0.25
"""Cosine of the widest turn (75 degrees) onto a linked dash met at its end; a letter
stroke pointing at a border meets it nearly square."""


def _next_dash(canvas: np.ndarray, labels: np.ndarray,
               tips: dict[int, tuple[np.ndarray, np.ndarray]], own: int,
               start: np.ndarray, d: np.ndarray, length: int, near: float
               ) -> tuple[int, float]:
    """The dash whose end is met walking on from a dash's end along its axis, and the
    cosine of the turn onto it (1 for a dot); ``(-1, -1)`` if no dash end is met."""
    stop, other = _first_hit(canvas, labels, own, start, d, length)
    if other not in tips:
        return -1, -1.0
    p, q = tips[other]
    a, b = (p, q) if np.linalg.norm(stop - p) <= np.linalg.norm(stop - q) else (q, p)
    if float(np.linalg.norm(stop - a)) > near:
        return -1, -1.0
    n = float(np.linalg.norm(b - a))
    return other, (1.0 if n < 1.0 else float((b - a) @ d) / n)


def _ahead(end: np.ndarray, heading: np.ndarray, point: np.ndarray, length: int) -> bool:
    """Whether ``point`` lies within ``length`` of a chain's loose ``end``, no more than
    the widest turn off its ``heading``."""
    v = point - end
    n = float(np.linalg.norm(v))
    return n <= length and (n < 1.0 or float(v @ heading) >= ALIGN_COS * n)


def border_dashes(canvas: np.ndarray, labels: np.ndarray,
                  tips: dict[int, tuple[np.ndarray, np.ndarray]], stroke: float,
                  length: int, near: float) -> dict[int, np.ndarray]:
    """The dashes (with their axes) that are links of a dashed line: walking on from one
    end meets the end of a dash carrying on in about the same direction, or a dash so
    linked meets this one's end, or the two meet each other's ends, or this one meets a
    linked one's end turning less than :data:`MEET_COS` allows, or it lies a gap ahead of
    a linked dash's loose end (the sharp turns at the tip of a narrow ellipse).  A letter
    stroke pointing at a border meets its dashes across, in the middle or not at all."""
    axes = {}
    for own, (p, q) in tips.items():
        n = float(np.linalg.norm(q - p))
        if n >= stroke:  # a dot has no axis
            axes[own] = (q - p) / n
    links = {}
    for own, d in axes.items():
        p, q = tips[own]
        links[own] = [_next_dash(canvas, labels, tips, own, q, d, length, near),
                      _next_dash(canvas, labels, tips, own, p, -d, length, near)]
    seeds = {own for own, ls in links.items() if any(c >= ALIGN_COS for _, c in ls)}
    chain = seeds | {other for own in seeds for other, _ in links[own] if other in axes}
    # Round a sharp turn the dashes meet each other's ends both ways.
    todo = list(chain)
    while todo:
        own = todo.pop()
        for other, _ in links[own]:
            if other in axes and other not in chain and \
                    any(back == own for back, _ in links[other]):
                chain.add(other)
                todo.append(other)
    # A dash meeting a linked one's end at a turn short of a right angle.
    chain |= {own for own in set(axes) - chain
              if any(other in chain and c >= MEET_COS for other, c in links[own])}
    loose = [(end, heading) for own in chain
             for end, heading, (other, _) in zip(tips[own][::-1], (axes[own], -axes[own]),
                                                 links[own]) if other < 0]
    for own in set(axes) - chain:
        if any(_ahead(end, heading, e, length) for end, heading in loose for e in tips[own]):
            chain.add(own)  # the next dash past a turn too sharp for the axis to meet
    return {own: axes[own] for own in chain}


def gap_radius(stroke: float) -> int:
    """Half the widest dash gap bridged (gaps up to about seven strokes)."""
    return int(round(3.5 * stroke))


def thicken_radius(stroke: float) -> int:
    """How far dashes are thickened (and the inside shrinks): a stroke, so that letters
    near a small border stay apart from it and from each other."""
    return max(1, int(round(stroke)))


def close_gaps(ink: np.ndarray, stroke: float, text_height: float) -> np.ndarray:
    """Ink with the gaps between dash-like components closed (see :func:`close_border_gaps`)."""
    return close_border_gaps(ink, stroke, text_height)[0]


def close_border_gaps(ink: np.ndarray, stroke: float, text_height: float
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Ink with the gaps between the dashes of dashed lines closed, and those dashes.

    Each dash of a line (:func:`border_dashes`) is drawn on along its own axis across one
    whole gap (:func:`gap_radius` twice), which also reaches a dash a connector line joins
    (not dash-like itself); the dashes are thickened a little (:func:`thicken_radius`,
    given back by :func:`regrow`) so that extensions meeting at an angle on a tight curve
    still touch.  Only dash-like components grow, so text near a border stays apart from
    it; letter strokes that look like dashes are not drawn on.
    """
    r = gap_radius(stroke)
    t = thicken_radius(stroke)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * t + 1, 2 * t + 1))
    dashes, labels, ends = _dash_components(ink, stroke, text_height)
    canvas = (ink | cv2.dilate(dashes.astype(np.uint8), kernel).astype(bool)).astype(np.uint8)
    # a max filter: exact in 16 bits while the labels fit (twice as fast as float32)
    wide = np.uint16 if labels.max(initial=0) <= np.iinfo(np.uint16).max else np.float32
    grown = cv2.dilate(labels.astype(wide), kernel).astype(np.int32)
    thick = max(1, int(round(stroke)))
    tips = {own: (p, q) for own, p, q in ends}
    near = t + stroke + 1
    chain = border_dashes(canvas, grown, tips, stroke, 2 * r, near)
    for own, d in chain.items():
        p, q = tips[own]
        _extend(canvas, grown, tips, own, q, d, 2 * r, thick, near)
        _extend(canvas, grown, tips, own, p, -d, 2 * r, thick, near)
    linked = np.zeros(int(labels.max()) + 1, bool)
    linked[list(chain)] = True
    return canvas.astype(bool), linked[labels]


def regrow(region: Region, radius: int) -> Region:
    """A region dilated by ``radius``: the inside of a dashed border before thickening."""
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    filled = cv2.dilate(np.pad(region.filled, radius).astype(np.uint8), k).astype(bool)
    x1, y1 = region.bbox[:2]
    return region_from_mask(filled, x1 - radius, y1 - radius, region.paper_area, crop=False)


def border_hits(region: Region, ink: np.ndarray, stroke: float) -> np.ndarray:
    """Per outline point of the region: is there ink just outside it."""
    h, w = ink.shape
    pts = region.contour.astype(float)
    reach = int(round(stroke)) + 2
    d = pts - pts.mean(0)
    d /= np.maximum(np.linalg.norm(d, axis=1), 1e-9)[:, None]
    steps = np.arange(reach + 1, dtype=float)
    xs = np.rint(pts[:, None, 0] + d[:, None, 0] * steps).astype(int)
    ys = np.rint(pts[:, None, 1] + d[:, None, 1] * steps).astype(int)
    ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    found = np.zeros(xs.shape, bool)
    found[ok] = ink[ys[ok], xs[ok]]
    return found.any(axis=1)


def dash_runs(hits: np.ndarray) -> tuple[int, float, float]:
    """Inked runs along a closed outline: their number, the longest one's share of the
    outline, and the spread of their lengths (std / mean; dashes are all alike)."""
    if hits.all() or not hits.any():
        return int(hits.any()), float(hits.all()), 0.0
    k = int(np.argmin(hits))
    h = np.roll(hits, -k).astype(np.int8)
    d = np.diff(np.concatenate([[0], h, [0]]))
    lengths = np.flatnonzero(d == -1) - np.flatnonzero(d == 1)
    return (len(lengths), float(lengths.max() / len(hits)),
            float(lengths.std() / max(lengths.mean(), 1e-9)))


def _runs(hits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Starts and (exclusive) ends of the inked runs of an outline rolled to start on a
    gap (the outline is not all ink)."""
    d = np.diff(np.concatenate([[0], hits.astype(np.int8), [0]]))
    return np.flatnonzero(d == 1), np.flatnonzero(d == -1)


def settle(hits: np.ndarray, stroke: float) -> np.ndarray:
    """Inked outline points with sampling noise removed: gaps narrower than a stroke
    closed (no dash gap is that narrow) and then runs shorter than a stroke dropped
    (specks, where the outline turns sharply at the tip of a narrow shape)."""
    if hits.all() or not hits.any():
        return hits
    k = int(np.argmin(hits))
    h = np.roll(hits, -k)
    starts, ends = _runs(h)
    for e, s in zip(ends[:-1], starts[1:]):
        if s - e < stroke:
            h[e:s] = True
    if len(h) - ends[-1] + starts[0] < stroke:  # the gap the roll put at both ends
        h[ends[-1]:] = True
        h[:starts[0]] = True
    if not h.all():
        k2 = int(np.argmin(h))
        h = np.roll(h, -k2)
        k += k2
        for s, e in zip(*_runs(h)):
            if e - s < stroke:
                h[s:e] = False
    return np.roll(h, k)


def convex(region: Region, shrink: int = 0) -> Region:
    """The convex hull of a region, optionally eroded by ``shrink`` pixels.

    Letters thickened with the dashes can join the border and notch the region; every
    dashed shape kind is convex, so the hull restores it.
    """
    x1, y1, x2, y2 = region.bbox
    hull = cv2.convexHull(region.contour.astype(np.int32) - np.array([x1, y1]))
    m = np.zeros(region.filled.shape, np.uint8)
    cv2.fillPoly(m, [hull], 1)
    if shrink > 0:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * shrink + 1, 2 * shrink + 1))
        m = cv2.erode(np.pad(m, 1), k)[1:-1, 1:-1]
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return region
    contour = max(contours, key=cv2.contourArea).reshape(-1, 2) + np.array([x1, y1])
    return Region(bbox=region.bbox, filled=m.astype(bool), paper_area=region.paper_area,
                  contour=contour)


def dashed_regions(fine: np.ndarray, taken: np.ndarray, stroke: float, text_height: float,
                   min_area: float, min_fit: float
                   ) -> list[tuple[Region, Region, str, float]]:
    """Regions enclosed by dashed borders: ``(inner, region, kind, fit)`` each, ``inner``
    being the region kept clear of the dashes (for reading the label).

    ``taken`` marks the area of shapes already found, whose regions are not new.  A line
    drawn across a dashed shape cuts its inside in pieces; those that fit no shape are
    joined as in :func:`cvparse.primitives.pieces.joined_pieces`, or an ellipse is fitted
    to the border dashes around them (:func:`crossed_ellipse`).
    """
    from .pieces import joined_pieces

    closed, border = close_border_gaps(fine, stroke, text_height)
    if not border.any():
        return []  # no dashed line: every outline test below needs border dashes
    out = []
    grow = thicken_radius(stroke)
    h, w = fine.shape
    pieces = []
    for shrunk in enclosed_regions(closed, 0.5 * min_area):
        if _surely_taken(shrunk, taken, grow):
            continue
        r = convex(regrow(shrunk, grow))
        x1, y1, x2, y2 = r.bbox
        if x1 < 0 or y1 < 0 or x2 > w or y2 > h:
            continue
        if (taken[y1:y2, x1:x2] & r.filled).mean() > 0.2 * r.filled.mean():
            continue
        kind, fit = classify(r.filled)
        if fit < min_fit or kind not in DASHED_KINDS:
            if y2 - y1 <= 5 * text_height and r.area <= 40 * text_height ** 2:
                pieces.append(shrunk)  # label-sized: may be part of a cut shape
            continue
        if r.area >= min_area and _dashed_outline(r, fine, border, stroke):
            if kind in ("ellipse", "circle"):
                r, kind, fit = _whole_ellipse(r, kind, fit, fine, border, stroke, text_height,
                                              min_fit)
            out.append((convex(r, int(round(stroke)) + 2), r, kind, fit))
    if len(pieces) >= 2:
        for joined, _, _ in joined_pieces(pieces, fine.shape, stroke, 0.5 * min_area, min_fit):
            r = convex(regrow(joined, grow))
            x1, y1, x2, y2 = r.bbox
            if x1 < 0 or y1 < 0 or x2 > w or y2 > h or r.area < min_area:
                continue
            kind, fit = classify(r.filled)
            if fit >= min_fit and kind in DASHED_KINDS and \
                    _dashed_outline(r, fine, border, stroke):
                out.append((convex(r, int(round(stroke)) + 2), r, kind, fit))
    for piece in sorted(pieces, key=lambda p: -p.area):
        r = crossed_ellipse(regrow(piece, grow), border, stroke)
        if r is None or r.area < min_area or _covered(r, taken, out):
            continue
        kind, fit = classify(r.filled)
        if fit >= min_fit and kind in ("ellipse", "circle") and \
                _dashed_outline(r, fine, border, stroke):
            out.append((convex(r, int(round(stroke)) + 2), r, kind, fit))
    return out


def _surely_taken(shrunk: Region, taken: np.ndarray, grow: int) -> bool:
    """Whether the region grown back from ``shrunk`` (``convex(regrow(shrunk, grow))``)
    must fail the test of lying in a shape already found, without growing it: it
    contains ``shrunk`` and fits in its box widened by ``grow``, so the taken share of
    ``shrunk`` alone, over the widened box's area, is a lower bound of its own."""
    x1, y1, x2, y2 = shrunk.bbox
    bound = 0.2 * (x2 - x1 + 2 * grow) * (y2 - y1 + 2 * grow)
    return bool((taken[y1:y2, x1:x2] & shrunk.filled).sum() > bound)


def _whole_ellipse(r: Region, kind: str, fit: float, fine: np.ndarray, border: np.ndarray,
                   stroke: float, text_height: float, min_fit: float
                   ) -> tuple[Region, str, float]:
    """A dashed ellipse, or the whole of it if a crossing line cut off an end too small
    to spoil the fit: the ellipse through all its border dashes, where it reaches half a
    text height (a letter) or more past the one found."""
    whole = crossed_ellipse(r, border, stroke)
    if whole is None:
        return r, kind, fit
    past = max(np.subtract(r.bbox[:2], whole.bbox[:2]).max(),
               np.subtract(whole.bbox[2:], r.bbox[2:]).max())
    if past < 0.5 * text_height:
        return r, kind, fit
    k, f = classify(whole.filled)
    if f >= min_fit and k in ("ellipse", "circle") and \
            _dashed_outline(whole, fine, border, stroke):
        return whole, k, f
    return r, kind, fit


def _covered(r: Region, taken: np.ndarray, found: list[tuple[Region, Region, str, float]]
             ) -> bool:
    """Whether a region is mostly inside a shape already found."""
    x1, y1, x2, y2 = r.bbox
    mask = taken[y1:y2, x1:x2].copy()
    for _, other, _, _ in found:
        a, b, c, d = other.bbox
        ix1, iy1, ix2, iy2 = max(x1, a), max(y1, b), min(x2, c), min(y2, d)
        if ix1 < ix2 and iy1 < iy2:
            mask[iy1 - y1:iy2 - y1, ix1 - x1:ix2 - x1] |= other.filled[iy1 - b:iy2 - b,
                                                                       ix1 - a:ix2 - a]
    return bool((mask & r.filled).sum() > 0.2 * r.area)


def crossed_ellipse(piece: Region, border: np.ndarray, stroke: float) -> Region | None:
    """The inside of a dashed ellipse that crossing lines cut into pieces, from one piece.

    An ellipse is fitted to the border dashes beside the piece's outline, then refitted to
    every border dash (``border``: the mask from :func:`close_border_gaps`) along that
    ellipse, those past the crossing lines included.  ``None`` unless the dashes lie on the
    fitted outline and the piece is a good part of its inside.
    """
    h, w = border.shape
    x1, y1, x2, y2 = piece.bbox
    pw, ph = x2 - x1, y2 - y1
    ox, oy = max(0, x1 - pw), max(0, y1 - ph)
    sub = border[oy:min(h, y2 + ph), ox:min(w, x2 + pw)].astype(np.uint8)
    inside = np.zeros(sub.shape, np.uint8)
    inside[y1 - oy:y2 - oy, x1 - ox:x2 - ox] = piece.filled
    reach = thicken_radius(stroke) + int(round(stroke)) + 2
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    points = np.argwhere(cv2.dilate(inside, k) & sub)[:, ::-1]
    band = int(round(2 * stroke)) + 3
    for _ in range(3):
        if len(points) < 20:
            return None
        (cx, cy), (ax, ay), angle = cv2.fitEllipse(points.astype(np.float32))
        if not (np.isfinite([cx, cy, ax, ay]).all() and 2 * stroke < min(ax, ay)
                and max(ax, ay) < 4 * max(pw, ph)):
            return None
        ring = np.zeros(sub.shape, np.uint8)
        ellipse = ((cx, cy), (ax, ay), angle)
        cv2.ellipse(ring, ellipse, 1, band)
        points = np.argwhere(ring & sub)[:, ::-1]
    thin = np.zeros(sub.shape, np.uint8)
    cv2.ellipse(thin, ellipse, 1, int(round(stroke)) + 2)
    if len(points) < 20 or thin[points[:, 1], points[:, 0]].mean() < 0.9:
        return None  # the dashes do not follow one ellipse
    filled = np.zeros(sub.shape, np.uint8)
    cv2.ellipse(filled, ((cx, cy), (ax - 2 * stroke, ay - 2 * stroke), angle), 1, -1)
    if not filled.any() or filled.sum() > 3 * piece.area or \
            (filled & inside).sum() < 0.75 * piece.area:
        return None
    region = region_from_mask(filled.astype(bool), ox, oy, int(filled.sum()))
    rx1, ry1, rx2, ry2 = region.bbox
    if rx1 <= ox or ry1 <= oy or rx2 >= ox + sub.shape[1] or ry2 >= oy + sub.shape[0]:
        return None  # cut off by the window: not the ellipse of this piece
    return region


OTHER_INK = 0.25
"""Most of a dashed outline one shape's border may owe to ink other than its dashes (each
line crossing or meeting it covers a few hundredths)."""


def _dashed_outline(r: Region, fine: np.ndarray, border: np.ndarray, stroke: float) -> bool:
    """Many short inked runs of one length along the outline, no long solid stretch.

    The runs are those of the dashes of dashed lines (``border``, see
    :func:`close_border_gaps`, noise removed by :func:`settle`): the lines crossing or
    meeting the border, and letters touching it, neither join two dashes into one long run
    nor split one into specks.
    Other ink (``fine``) along the outline may take only a small share of it.
    """
    hits = border_hits(r, border, stroke)
    other = border_hits(r, fine, stroke) & ~hits
    runs, longest, spread = dash_runs(settle(hits, stroke))
    return (0.25 <= hits.mean() <= 0.92 and runs >= 8 and longest <= 0.2 and spread <= 0.55
            and other.mean() <= OTHER_INK)
