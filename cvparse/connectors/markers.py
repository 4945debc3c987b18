"""End markers: what is drawn at each connector end (arrowhead, triangle, diamond, none).

Geometry first: a filled arrowhead makes the ink around the end much wider than the line
itself, so the widest ink near an end, compared with the line's own width, decides.  Ink
is first shared out among connectors by proximity, so an arrowhead of one connector does
not count for another that ends beside it.  Where a measurement lies near its threshold, the
learned classifier of :mod:`.symbols` (if its model is installed) names the end instead.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from scipy import ndimage

from ..arrays import under
from .lines import Connector
from .symbols import CLASSES, EndView, advance_to_tip, classify_views, heading

ARROW_MIN = 1.6
"""An arrowhead's half-width is at least this many strokes (a line's is about half one)."""
ARROW_SURE = 2.0
"""Above this many strokes both ends are heads even when one is wider than the other."""
ARROW_DOMINANCE = 1.2
"""Below ``ARROW_SURE``, only the clearly wider end (by this factor) is a head."""
PLAIN_MAX = 0.9
"""Below this half-width (strokes) nothing wider than the line is drawn: surely no head.
Above it the width test is unsure (a small head on a thick line is barely wider than the
line), and the classifier decides where it is installed."""
HEAD_CONTRAST = 1.3
"""Above ``PLAIN_MAX``, an end this many times wider than the other end is a head: a head
of a fixed size on a line thicker than the page's stroke is barely wider than its line
in strokes, but clearly wider than the line's other end."""
SYMBOL_UNSURE = 0.2
"""A width-profile reading whose deciding measurement lies within this fraction of its
threshold is unsure and the classifier decides."""
NET_SURE = 0.8
"""The classifier overrides a sure geometric reading only with at least this probability."""
NET_VETO = 0.9
"""An end whose ink passes the width test (a filled head, clearly wider than the line) is
read as plain only when the classifier is at least this sure: its crop may miss a head
that sits where the line turns or that runs into a border, the width test does not."""


def ownership(mask: np.ndarray, connectors: list[Connector]) -> np.ndarray:
    """Index + 1 of the connector nearest to every pixel (0 where there are none)."""
    drawn = drawn_connectors(mask.shape, connectors)
    if not drawn.any():
        return drawn
    _, (iy, ix) = ndimage.distance_transform_edt(drawn == 0, return_indices=True)
    return drawn[iy, ix]


def drawn_connectors(shape: tuple[int, int], connectors: list[Connector]) -> np.ndarray:
    """Index + 1 of the connector drawn on every pixel (0 off the centre lines)."""
    drawn = np.zeros(shape, np.int32)
    for i, c in enumerate(connectors):
        pts = c.points.round().astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(drawn, [pts], False, i + 1, 1)
    return drawn


def local_ownership(drawn: np.ndarray, box: tuple[int, int, int, int], reach: int
                    ) -> np.ndarray:
    """``ownership`` inside ``box`` from the centre lines within ``reach`` pixels of it.

    Exact when every pixel of the box has a centre line within ``reach``: nothing
    farther can be nearest (the whole-page transform cost 30-90 ms and 100+ MB per page).
    """
    x1, y1, x2, y2 = box
    h, w = drawn.shape
    X1, Y1, X2, Y2 = max(0, x1 - reach), max(0, y1 - reach), min(w, x2 + reach), \
        min(h, y2 + reach)
    crop = drawn[Y1:Y2, X1:X2]
    if not crop.any():
        return np.zeros((y2 - y1, x2 - x1), drawn.dtype)
    _, (iy, ix) = ndimage.distance_transform_edt(crop == 0, return_indices=True)
    return crop[iy, ix][y1 - Y1:y2 - Y1, x1 - X1:x2 - X1]


def end_halfwidth(conn: Connector, index: int, end: int, dist: np.ndarray,
                  drawn: np.ndarray, stroke: float) -> float:
    """Widest ink (half-width, pixels) of this connector within a few strokes of one end."""
    h, w = dist.shape
    r = int(round(2 * stroke + 4))
    ex, ey = conn.ends[end].point
    x1, x2 = max(0, int(ex) - r), min(w, int(ex) + r + 1)
    y1, y2 = max(0, int(ey) - r), min(h, int(ey) + r + 1)
    # The end lies on its own centre line, so every window pixel has one within r*sqrt(2).
    owner = local_ownership(drawn, (x1, y1, x2, y2), math.ceil(r * math.sqrt(2)) + 2)
    window = np.where(owner == index + 1, dist[y1:y2, x1:x2], 0)
    return float(window.max()) if window.size else 0.0


def ink_depth(mask: np.ndarray) -> np.ndarray:
    """Distance from every ink pixel to the paper (half the local stroke width)."""
    return cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)


def end_widths(connectors: list[Connector], mask: np.ndarray, stroke: float,
               dist: np.ndarray | None = None) -> list[tuple[float, float]]:
    """Widest ink near both ends of every connector, in units of the connector's stroke
    (``dist``: :func:`ink_depth` of ``mask``, if already computed)."""
    dist = ink_depth(mask) if dist is None else dist
    drawn = drawn_connectors(mask.shape, connectors)
    out = []
    for i, c in enumerate(connectors):
        # A page-wide stroke estimate can be inflated (text, halos); a connector's own
        # line width is the better unit when it is thinner.
        unit = min(stroke, max(1.0, c.width)) if c.width > 0 else stroke
        out.append(tuple(end_halfwidth(c, i, e, dist, drawn, stroke) / unit for e in (0, 1)))
    return out


def is_head(mine: float, other: float) -> bool:
    """Width test: is the end with half-width ``mine`` (strokes) an arrowhead?"""
    return (mine >= ARROW_SURE or (mine >= ARROW_MIN and mine >= ARROW_DOMINANCE * other)
            or (mine >= PLAIN_MAX and mine >= HEAD_CONTRAST * other))


def is_tail(mine: float, other: float) -> bool:
    """Is the end with half-width ``mine`` (strokes) the narrow end of a line whose other
    end is a sure head (``ARROW_SURE``) ``HEAD_CONTRAST`` times wider?  A line's tail can
    look wide (a thin line meeting a thick border, a bold line's own width), so there the
    classifier names a head only when sure."""
    return other >= ARROW_SURE and other >= HEAD_CONTRAST * mine


def end_view(mask: np.ndarray, conn: Connector, end: int, text_height: float,
             stroke: float = 0.0) -> EndView:
    """Where the classifier looks at one end of a traced connector: the line's heading over
    its last text height and the tip of the ink ahead (across a dash gap).  With
    ``stroke``, on a dashed or dotted line, the gap jumped may be longer (its own gaps
    can be wider than a small head's) and the ink across it may lie up to a stroke beside
    the heading (the last dash of a bending dashed line may lie a little off it)."""
    pts = np.asarray(conn.points, float)
    pts = pts if end == 1 else pts[::-1]
    e = conn.ends[end]
    d = heading(pts, text_height) or e.direction
    dash = stroke > 0 and conn.style != "solid"
    tip = advance_to_tip(mask, e.point, d, 1.5 * text_height,
                         gap=(0.6 if dash else 0.4) * text_height,
                         across=int(round(stroke)) if dash else 0)
    return EndView(tip=tip, direction=d, unit=text_height)


def pick_views(probs: np.ndarray, second: list[int], n: int) -> np.ndarray:
    """Class probabilities of ``n`` ends from a batch read with a second view of the ends
    ``second`` appended (in that order): the second view's where it names a marker and the
    first names none (it found the head the first view missed), else the first's."""
    out = probs[:n].copy()
    for j, k in enumerate(second):
        first, other = probs[k], probs[n + j]
        if CLASSES[int(np.argmax(first))] == "none" != CLASSES[int(np.argmax(other))]:
            out[k] = other
    return out


def decide(geometric: str, unsure: bool, probs: np.ndarray | None, wide: bool = False
           ) -> str:
    """Final marker: the classifier's where geometry is unsure or the classifier is sure,
    else the geometric reading (always, when no classifier is installed).  A ``wide`` end
    (one that passed the width test) stays a head unless the classifier is
    ``NET_VETO`` sure it is plain."""
    if probs is None or not (unsure or float(probs.max()) >= NET_SURE):
        return geometric
    best = CLASSES[int(np.argmax(probs))]
    if wide and best == "none" and float(probs.max()) < NET_VETO:
        return geometric
    return best


HEAD_TURN = 0.5
"""A traced line that bends at a filled head (the cosine of its turn below this, a turn
of more than 60 degrees) and runs on is following the border the head touches."""


def _half_widths(wide: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Values of ``wide`` (ink depth, 3 x 3 max-filtered) under the points of a polyline:
    the widest ink within a pixel of each point."""
    return under(wide, pts)


def _length_from_end(pts: np.ndarray) -> np.ndarray:
    """Path length from each point of a polyline to its last point."""
    return np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(pts[::-1], axis=0).T))])[::-1]


def trim_past_heads(connectors: list[Connector], mask: np.ndarray, stroke: float,
                    text_height: float, dist: np.ndarray | None = None) -> None:
    """Cut off the stretch a trace ran on past a filled arrowhead: where a head touches a
    border or another head, the tracer may go through it and along that ink; the line's
    end is the head, not where the run stops.

    An end is cut where, within one and a half text heights of it, the line passes ink
    at least ``ARROW_MIN`` strokes wide and turns sharply there (``HEAD_TURN``), while the
    stretch after it is much thinner.  The new end is the head's tip (the ink straight
    on, up to twice the head's half-width), heading the way the line came in.
    ``dist``: :func:`ink_depth` of ``mask``, if already computed.
    """
    if not connectors:
        return
    dist = ink_depth(mask) if dist is None else dist
    wide = cv2.dilate(dist, np.ones((3, 3), np.uint8))
    reach, lead = 1.5 * text_height, 0.5 * text_height
    for c in connectors:
        unit = min(stroke, max(1.0, c.width)) if c.width > 0 else stroke
        for e in (0, 1):
            full = np.asarray(c.points, float)
            if e == 0:
                full = full[::-1]
            if len(full) < 4:
                continue
            # only the last stretch matters: traced points lie about a pixel apart
            m = min(len(full), int(2 * (reach + lead)) + 8)
            pts = full[-m:]
            back = _length_from_end(pts)
            if back[0] < reach + lead:
                if m == len(full):
                    continue
                pts = full
                back = _length_from_end(pts)
                if back[0] < reach + lead:
                    continue
            near = np.nonzero((back <= reach) & (back >= 2 * unit))[0]
            if not len(near):
                continue
            hw = np.zeros(len(pts))
            last = back <= reach + lead  # only the end's last stretch is looked at
            hw[last] = _half_widths(wide, pts[last]) / unit
            k = int(near[np.argmax(hw[near])])
            tail = np.nonzero(back < 0.5 * back[k])[0]
            if hw[k] < ARROW_MIN or not len(tail) or hw[tail].max() > 0.6 * hw[k]:
                continue
            j = int(np.searchsorted(-back, -(back[k] + lead)))  # a lead's length before k
            vin = pts[k] - pts[min(j, k - 1)]
            vout = pts[-1] - pts[k]
            nin, nout = float(np.hypot(*vin)), float(np.hypot(*vout))
            if nin == 0 or nout == 0 or float(np.dot(vin, vout)) / (nin * nout) > HEAD_TURN:
                continue
            d = vin / nin
            # a head's tip lies about twice its widest half-width ahead of its middle
            tip = advance_to_tip(mask, (float(pts[k][0]), float(pts[k][1])),
                                 (float(d[0]), float(d[1])), 2 * hw[k] * unit)
            kept = np.vstack([full[:len(full) - len(pts) + k + 1], [tip]])
            c.points = kept if e == 1 else kept[::-1]
            c.ends[e].point = (float(tip[0]), float(tip[1]))
            c.ends[e].direction = (float(d[0]), float(d[1]))


def classify_ends(connectors: list[Connector], mask: np.ndarray, stroke: float,
                  text_height: float | None = None) -> None:
    """Set ``marker`` on both ends of every connector from the ink width around them.

    With ``text_height`` (the crop scale) and the model installed, the classifier also
    looks at every end, all of a page in one batch, and decides by :func:`decide`; with
    it, ends traced on past a head are first cut back to it (:func:`trim_past_heads`).

    Parameters
    ----------
    connectors : list of Connector
        Traced lines; their ends' ``marker`` is set in place.
    mask : ndarray
        Boolean ink around the ends (:func:`~cvparse.connectors.trace.marker_mask`).
    stroke : float
        Line width in pixels.
    text_height : float, optional
        Text height in pixels, the scale end crops are cut at for the symbol model.
    """
    dist = ink_depth(mask)
    if text_height:
        trim_past_heads(connectors, mask, stroke, text_height, dist)
    widths = end_widths(connectors, mask, stroke, dist)
    for c, w in zip(connectors, widths):
        for e in (0, 1):
            c.ends[e].marker = "arrow" if is_head(w[e], w[1 - e]) else "none"
    if not text_height:
        return
    views = [end_view(mask, c, e, text_height) for c in connectors for e in (0, 1)]
    # Dashed and dotted lines: also a view across the gap to ink a little off the
    # heading (see ``end_view``), read in the same batch.
    seconds = [end_view(mask, c, e, text_height, stroke) for c in connectors for e in (0, 1)]
    aside = {k: v for k, v in enumerate(seconds) if v != views[k]}
    probs = classify_views(mask, views + list(aside.values()))
    if probs is None:
        return
    probs = pick_views(probs, list(aside), len(views))
    for i, (c, w) in enumerate(zip(connectors, widths)):
        for e in (0, 1):
            tail = is_tail(w[e], w[1 - e])
            c.ends[e].marker = decide(c.ends[e].marker, w[e] >= PLAIN_MAX and not tail,
                                      probs[2 * i + e],
                                      wide=is_head(w[e], w[1 - e]) and not tail)


def width_profile(mask: np.ndarray, tip: tuple[float, float], inward: tuple[float, float],
                  length: float, half_span: float) -> tuple[np.ndarray, np.ndarray]:
    """Ink extent and ink count across the line, stepping back from ``tip`` one pixel a time.

    ``inward`` points from the connector into the shape it ends on; the profile walks the
    opposite way, from the shape border back along the connector.  At each step ``t`` it
    reports the distance between the outermost ink pixels across the line (``extent``)
    and how many ink pixels lie on that cross-section (``count``).
    """
    h, w = mask.shape
    ux, uy = inward
    nx, ny = -uy, ux
    steps = int(length)
    extent = np.zeros(steps)
    count = np.zeros(steps)
    offsets = np.arange(-int(half_span), int(half_span) + 1)
    for t in range(steps):
        cx, cy = tip[0] - ux * t, tip[1] - uy * t
        xs = np.round(cx + nx * offsets).astype(int)
        ys = np.round(cy + ny * offsets).astype(int)
        ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        on = np.zeros(offsets.size, bool)
        on[ok] = mask[ys[ok], xs[ok]]
        if on.any():
            # the run of ink must include the line itself (near the centre)
            idx = np.flatnonzero(on)
            extent[t] = offsets[idx[-1]] - offsets[idx[0]] + 1
            count[t] = idx.size
    return extent, count


def side_reach(mask: np.ndarray, tip: tuple[float, float], inward: tuple[float, float],
               length: int, half_span: int) -> tuple[np.ndarray, np.ndarray]:
    """Stepping back from ``tip`` against ``inward``: how far ink reaches to the left and
    to the right of the line at each step (-1 where there is none).  An end marker is
    drawn symmetric about its axis: both reach alike along it."""
    h, w = mask.shape
    ux, uy = inward
    offsets = np.arange(-half_span, half_span + 1)
    left = np.full(length, -1.0)
    right = np.full(length, -1.0)
    for t in range(length):
        xs = np.round(tip[0] - ux * t - uy * offsets).astype(int)
        ys = np.round(tip[1] - uy * t + ux * offsets).astype(int)
        ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        on = np.zeros(offsets.size, bool)
        on[ok] = mask[ys[ok], xs[ok]]
        if on.any():
            idx = offsets[on]
            left[t], right[t] = -idx.min(), idx.max()
    return left, right


def symbol_reading(extent: np.ndarray, count: np.ndarray, stroke: float) -> tuple[str, float]:
    """End marker from a width profile and its margin: how far (as a fraction) the deciding
    measurement lies from its threshold.  Markers: none, arrow, open_arrow, triangle,
    diamond, filled_diamond (hollow triangle = UML inheritance / realization)."""
    drawn = extent[extent > 0]
    line = max(1.0, float(np.percentile(drawn, 20)) if drawn.size else 1.0)
    limit = max(line + 2.0, 1.8 * line, 0.8 * stroke)
    wide = extent > limit
    if wide.sum() < 2:
        top = float(extent.max()) if extent.size else 0.0
        return "none", 0.0 if wide.sum() == 1 else abs(limit - top) / limit
    idx = np.flatnonzero(wide)
    start, stop = idx[0], idx[-1]
    span = stop - start + 1
    peak = start + int(np.argmax(extent[start:stop + 1]))
    solid = count[start:stop + 1] / np.maximum(extent[start:stop + 1], 1)
    fill = float(np.median(solid))
    filled = fill > 0.7
    m_fill = abs(fill - 0.7) / 0.3
    rel = (peak - start) / max(span - 1, 1)
    taper = float(extent[stop]) / max(float(extent[peak]), 1)
    m_rel = min(abs(rel - 0.2), abs(rel - 0.75)) / 0.25
    m_taper = abs(taper - 0.75) / 0.25
    if 0.2 <= rel <= 0.75 and taper < 0.75:
        return ("filled_diamond" if filled else "diamond"), min(m_fill, m_rel, m_taper)
    shape_margin = m_rel if not 0.2 <= rel <= 0.75 else m_taper
    if filled:
        return "arrow", min(m_fill, shape_margin)
    far = slice(max(start, stop - 2), stop + 1)
    base = float((count[far] / np.maximum(extent[far], 1)).max())
    return ("triangle" if base > 0.6 else "open_arrow"), min(m_fill, shape_margin,
                                                              abs(base - 0.6) / 0.4)


def classify_symbol(extent: np.ndarray, count: np.ndarray, stroke: float) -> str:
    """End marker from a width profile (see :func:`symbol_reading`)."""
    return symbol_reading(extent, count, stroke)[0]


def _profile_reading(mask: np.ndarray, tip: tuple[float, float], inward: tuple[float, float],
                     length: float, half_span: float, stroke: float) -> tuple[str, float]:
    extent, count = width_profile(mask, tip, inward, length, half_span)
    skip = 0
    while skip < len(extent) and extent[skip] >= 0.9 * (2 * int(half_span) + 1):
        skip += 1
    return symbol_reading(extent[skip:], count[skip:], stroke)


def read_end_symbols(mask: np.ndarray,
                     ends: list[tuple[tuple[float, float], tuple[float, float], float]],
                     half_span: float, stroke: float, text_height: float | None = None
                     ) -> list[str]:
    """End markers drawn where connectors meet box borders (UML ends), one page at a time.

    Each end is ``(tip, inward, length)``: the border point, the unit vector into the box
    and how far back along the line to look.  The border itself (ink across the whole
    window) is skipped before the profile is read.  With ``text_height`` (the crop scale)
    and the model installed, the classifier looks at every end in one batch and decides
    by :func:`decide`.
    """
    return end_readings(mask, ends, half_span, stroke, text_height)[0]


def end_readings(mask: np.ndarray,
                 ends: list[tuple[tuple[float, float], tuple[float, float], float]],
                 half_span: float, stroke: float, text_height: float | None = None
                 ) -> tuple[list[str], list[str]]:
    """The end markers of :func:`read_end_symbols` and, beside them, what the width
    profile alone reads at each end (the same as the markers without the classifier)."""
    readings = [_profile_reading(mask, tip, inward, length, half_span, stroke)
                for tip, inward, length in ends]
    shape = [label for label, _ in readings]
    if not text_height:
        return shape, shape
    probs = classify_views(mask, [EndView(tip=tuple(tip), direction=tuple(inward),
                                          unit=text_height) for tip, inward, _ in ends])
    if probs is None:
        return shape, shape
    return [decide(label, margin < SYMBOL_UNSURE, p)
            for (label, margin), p in zip(readings, probs)], shape


def read_end_symbol(mask: np.ndarray, tip: tuple[float, float], inward: tuple[float, float],
                    length: float, half_span: float, stroke: float,
                    text_height: float | None = None) -> str:
    """End marker drawn where a connector meets a box border at ``tip`` (UML ends).

    ``inward`` points into the box; see :func:`read_end_symbols`.
    """
    return read_end_symbols(mask, [(tip, inward, length)], half_span, stroke, text_height)[0]
