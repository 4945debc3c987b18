"""UML class-diagram assembler: typed, directed relations between the class boxes read by
:mod:`.classes`.

Types and directions come only from what is drawn at the line ends (hollow triangle,
diamond, arrowhead) and from the line style, by the FORMATS.md convention table, never
from class names.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from ...connectors.lines import Connector, End
from ...connectors.markers import end_readings, side_reach, width_profile
from ...model import UMLClass, UMLModel, UMLRelation
from ...primitives.boxes import Box
from ...primitives.items import Inventory
from ...primitives.classboxes import FILL_CONTRAST, class_boxes, dark_ink, uml_boxes
from ...arrays import colour_distance
from .classes import read_classes


def _approach(points: np.ndarray, back: float, skip: float = 0.0
              ) -> tuple[np.ndarray, np.ndarray]:
    """A point on a polyline ``skip + back`` pixels before its end and the unit direction
    from it to the point ``skip`` pixels before the end: the line's own heading, unbent
    by whatever marker is drawn at the end.

    The trace of a line ending in a hollow marker runs on along one of the marker's sides
    and ends at one of its corners; its last stretch bends off the line.  The heading is
    therefore taken on the stretch behind the marker, ``skip`` pixels (about a marker's
    length) back from the end; a polyline too short for that gives up ``skip`` first.
    """
    seg = np.linalg.norm(np.diff(points, axis=0), axis=1)
    along = np.concatenate([[0.0], np.cumsum(seg[::-1])])
    rev = points[::-1]
    skip = max(0.0, min(skip, float(along[-1]) - back))
    if skip:
        def at(d: float) -> np.ndarray:
            return np.array([np.interp(d, along, rev[:, 0]), np.interp(d, along, rev[:, 1])])

        far, near = at(skip + back), at(skip)
    else:  # the polyline's own last point and the first point at least ``back`` before it
        far, near = rev[min(int(np.searchsorted(along, back)), len(rev) - 1)], points[-1]
    v = near - far
    n = float(np.linalg.norm(v))
    if not n:
        return far, np.zeros(2)
    v = v / n
    # Nearly axis-parallel headings are axis-parallel: the skeleton bends into the marker.
    if abs(v[0]) < 0.15:
        v = np.array([0.0, np.sign(v[1])])
    elif abs(v[1]) < 0.15:
        v = np.array([np.sign(v[0]), 0.0])
    return far, v


def _hit_box(start: np.ndarray, direction: np.ndarray, boxes: list[Box], reach: float):
    """First box a ray enters, and the point on its border where it does."""
    for t in range(int(np.ceil(reach)) + 1):
        px, py = start + direction * t
        for i, b in enumerate(boxes):
            x1, y1, x2, y2 = b.bbox
            if x1 <= px <= x2 and y1 <= py <= y2:
                return i, (float(px), float(py))
    return None, None


def _border_pad(stroke: float) -> int:
    """How far a box's drawn border reaches beyond its found rectangle, pixels."""
    return int(np.ceil(stroke / 2))


def _without_boxes(dark: np.ndarray, boxes: list[Box], stroke: float,
                   borderless: list[bool] | None = None, rgb: np.ndarray | None = None,
                   paper: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
    """The ink outside every box: end markers are read on it, so a border met at a slant
    is not taken for part of a marker.

    A box drawn as a fill alone has no border line reaching past its found rectangle, only
    the fill's anti-aliased blend with the paper: there the ring around the rectangle
    loses the blend (a colour between fill and paper) and keeps other ink, since the side
    of a hollow triangle met at a slant can lie right along the fill's edge.
    """
    free = dark.copy()
    h, w = dark.shape
    for k, b in enumerate(boxes):
        pad = _border_pad(stroke)
        x1, y1, x2, y2 = b.bbox
        ox1, oy1 = max(0, x1 - pad), max(0, y1 - pad)
        ox2, oy2 = min(w, x2 + pad + 1), min(h, y2 + pad + 1)
        if not (borderless and borderless[k]) or rgb is None:
            free[oy1:oy2, ox1:ox2] = False
            continue
        ring = rgb[oy1:oy2, ox1:ox2]
        fill = np.median(rgb[y1:y2 + 1, x1:x2 + 1].reshape(-1, 3), axis=0)
        apart = float(np.linalg.norm(fill - np.asarray(paper, float)))
        between = colour_distance(ring, fill) + colour_distance(ring, paper) - apart
        free[oy1:oy2, ox1:ox2] &= between >= FILL_CONTRAST
        free[y1:y2 + 1, x1:x2 + 1] = False
    return free


def _border_tip(dark: np.ndarray, hit: tuple[float, float], inward: np.ndarray,
                stroke: float, box: tuple[int, int, int, int]) -> tuple[float, float]:
    """The first pixel outside the box border where a line meets it.

    The box found from its straight sides may sit a pixel or two off the drawn border;
    the end marker starts right outside the border's outermost ink row, so that row is
    looked for within a stroke or so of ``hit``: a cross-section that is ink for several
    pixels either side (a marker's tip touching the border is narrower).
    """
    h, w = dark.shape
    u = np.asarray(inward, float)
    n = np.array([-u[1], u[0]])
    side = int(max(3, round(stroke + 2)))
    span = int(np.ceil(stroke + 1))
    pad = _border_pad(stroke) + 1
    offsets = np.arange(-side, side + 1)
    border = []
    for t in range(-span, span + 1):
        cx, cy = hit[0] + u[0] * t, hit[1] + u[1] * t
        xs = np.round(cx + n[0] * offsets).astype(int)
        ys = np.round(cy + n[1] * offsets).astype(int)
        if xs.min() < 0 or ys.min() < 0 or xs.max() >= w or ys.max() >= h:
            continue
        if dark[ys, xs].all():
            border.append(t)
    if border:
        t = min(border) - 1
        return float(hit[0] + u[0] * t), float(hit[1] + u[1] * t)
    # met at a slant: no cross-section lies along the border; step back out of the box
    x1, y1, x2, y2 = box
    for t in range(0, -int(np.ceil(4 * stroke + 4)), -1):
        px, py = hit[0] + u[0] * t, hit[1] + u[1] * t
        if not (x1 - pad <= px <= x2 + pad and y1 - pad <= py <= y2 + pad):
            return float(px), float(py)
    return hit


@dataclass(frozen=True)
class EndWindow:
    """Where one relation end's marker is read: its tip outside the box border, the unit
    vector into the box, and how far back along the line the marker may reach."""

    tip: tuple[float, float]
    inward: tuple[float, float]
    length: float
    marker_span: float
    """Pixels from the tip covered by the marker drawn there (0: a bare line end)."""
    lead: float = 0.0
    """Blank pixels between the box border and ``tip`` (ink drawn short of the border)."""


def _wide_runs(extent: np.ndarray, stroke: float) -> list[tuple[int, int]]:
    """Runs of the width profile clearly wider than the line itself (marker ink)."""
    drawn = extent[extent > 0]
    # the narrowest ink is the line (a marker's tip can fill most of a short profile)
    line = max(1.0, float(drawn.min())) if drawn.size else 1.0
    wide = extent >= line + max(2.0, stroke)
    runs, start = [], None
    for i, v in enumerate(wide):
        if v and start is None:
            start = i
        elif not v and start is not None:
            runs.append((start, i - 1))
            start = None
    if start is not None:
        runs.append((start, len(wide) - 1))
    return runs


def slant_reach(tip: tuple[float, float], inward: np.ndarray,
                box: tuple[int, int, int, int], text_height: float) -> float:
    """Pixels along the line by which a marker's ink may start away from the tip because
    the band cleared along the box border (border line and pad, see
    :func:`_without_boxes`) took its first part: 0 for a line meeting the border square
    on; for one meeting it at a slant, one side of a hollow triangle runs nearly along
    the border and reappears only where it leaves the band, up to the marker's length
    (about one and a half text heights) from the tip."""
    x1, y1, x2, y2 = box
    dx = max(x1 - tip[0], tip[0] - x2, 0.0)
    dy = max(y1 - tip[1], tip[1] - y2, 0.0)
    normal = abs(float(inward[0])) if dx >= dy else abs(float(inward[1]))
    return 0.0 if normal >= SQUARE_ON else MARKER_LENGTH * text_height


SQUARE_ON = 0.95
"""A line whose heading has at least this component along the border's normal meets the
border square on (within about 18 degrees)."""
MARKER_LENGTH = 1.5
"""UML end markers are about one to two text heights long."""


def _end_window(dark: np.ndarray, tip: tuple[float, float], inward: np.ndarray,
                length: float, stroke: float, text_height: float,
                reach: float = 0.0) -> EndWindow:
    """The reading window of one end: only ink attached to the tip belongs to its marker.

    Between boxes drawn close together the marker of the opposite end lies within reach;
    a wide run of ink starting away from the tip is not this end's marker, so the window
    stops before it.  A line or marker drawn a little short of the border (blank between)
    starts the window where its ink starts.  ``reach`` (see :func:`slant_reach`) is how
    much farther from the tip a marker met at a slant may start, and jump to its width.
    """
    extent, _ = width_profile(dark, tip, tuple(inward), length, 1.2 * text_height)
    inked = np.flatnonzero(extent > 0)
    lead = int(inked[0]) if inked.size else 0
    if 0 < lead <= min(1.5 * text_height, length - 3):
        tip = (tip[0] - inward[0] * lead, tip[1] - inward[1] * lead)
        length -= lead
        extent = extent[lead:]
    else:
        lead = 0
    runs = _wide_runs(extent, stroke)
    attach = 2 * stroke + 1
    first = runs[0][0] if runs else 0
    # a marker at this end is pointed or flat against the border: it starts at the tip or
    # widens gradually from it; ink jumping from line width to wide a few pixels out is
    # the flat back of the opposite end's marker.  Blank cross-sections inside a hollow
    # marker (its thin sides broken into dots) are no step.
    before = extent[:first][extent[:first] > 0]
    step = extent[first] - (before[-1] if before.size else 0.0) if first else 0.0
    gradual = step <= 2 * max(2.0, stroke) or (reach > 0 and first <= attach + reach)
    if runs and first <= attach + reach and gradual:
        end = runs[0][1]
        # a hollow marker's outline can break into runs; join runs separated by a gap
        for s, e in runs[1:]:
            if s - end <= stroke + 1:
                end = e
        span = float(end + 1)
        return EndWindow(tip, tuple(inward), length, span, float(lead))
    stop = runs[0][0] if runs else int(length)
    return EndWindow(tip, tuple(inward), float(max(3, stop - 1)), 0.0, float(lead))


def _dashed(dark: np.ndarray, points: np.ndarray, skip: tuple[float, float],
            stroke: float, text_height: float, contrast: np.ndarray | None = None
            ) -> bool | None:
    """Is the line between the two end markers drawn dashed?  ``None`` if too little of
    it is left to tell.

    Samples the polyline every pixel, leaving out ``skip[0]`` / ``skip[1]`` pixels at
    the start / end (the markers).  Each sample takes the most ink within one pixel
    across the line, none along it: a dilation would close the gaps of a fine dash
    pattern (2 px gaps between 3 px dashes).  With ``contrast`` (every pixel's colour
    distance from the page) a sample is ink where it has at least
    :data:`DASH_CONTRAST` of the line's own contrast: a thin anti-aliased line that the
    ink mask breaks here and there keeps some contrast
    everywhere, a dash gap has the page's colour.
    """
    seg = np.diff(points, axis=0)
    lens = np.linalg.norm(seg, axis=1)
    total = float(lens.sum())
    if total <= 0:
        return None
    along = np.concatenate([[0.0], np.cumsum(lens)])
    ts = np.arange(skip[0], total - skip[1], 1.0)
    xs = np.interp(ts, along, points[:, 0])
    ys = np.interp(ts, along, points[:, 1])
    if ts.size < max(4, stroke + 1):
        return None
    k = np.clip(np.searchsorted(along, ts, side="right") - 1, 0, len(seg) - 1)
    unit = seg[k] / np.maximum(lens[k], 1e-9)[:, None]
    normal = np.stack([-unit[:, 1], unit[:, 0]], axis=1)
    h, w = dark.shape
    level = dark.astype(np.float32) if contrast is None else contrast
    most = np.zeros(ts.size, np.float32)
    for off in (-1.0, 0.0, 1.0):
        xi = np.clip(np.round(xs + off * normal[:, 0]).astype(int), 0, w - 1)
        yi = np.clip(np.round(ys + off * normal[:, 1]).astype(int), 0, h - 1)
        most = np.maximum(most, level[yi, xi])
    top = float(np.percentile(most, 90))
    if top <= 0:
        return None
    on = most >= DASH_CONTRAST * top
    # runs of ink and of blank along the line, as (is_ink, length)
    change = np.flatnonzero(np.diff(on.astype(np.int8))) + 1
    bounds = np.concatenate([[0], change, [on.size]])
    runs = [(bool(on[a]), int(b - a)) for a, b in pairwise(bounds)]
    min_gap = max(2, 0.5 * stroke)
    gaps = 0
    for k, (ink, n) in enumerate(runs):
        if ink or n < min_gap:
            continue
        if 0 < k < len(runs) - 1:
            gaps += 1
        else:
            # a blank at either end is a dash gap only beside a dash-long piece of ink;
            # beside a long stretch it is a line drawn short of its box
            neighbour = 1 if k == 0 else k - 1
            if len(runs) > 1 and runs[neighbour][1] < 1.5 * text_height:
                gaps += 1
    return bool(gaps >= 1 and on.mean() < 0.9)


DASH_CONTRAST = 0.3
"""A sample along a line with under this share of the line's own contrast (its 90th
percentile) is a gap between dashes."""


def _bridges(boxes: list[Box], dark: np.ndarray, th: float) -> list[Connector]:
    """Straight connectors across the narrow gap between two facing boxes.

    Between boxes drawn close together a relation line is short enough to vanish in the
    tracer's cleanup (a marker and one dash); a band of ink crossing the gap between
    facing sides, with ink near both sides, is such a line.
    """
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            for horizontal in (True, False):
                lo = 0 if horizontal else 1
                (p, q) = (a, b) if a.bbox[lo] < b.bbox[lo] else (b, a)
                start, stop = p.bbox[lo + 2] + 1, q.bbox[lo] - 1
                if not 0 < stop - start <= 6 * th:
                    continue
                o1 = max(p.bbox[1 - lo], q.bbox[1 - lo])
                o2 = min(p.bbox[3 - lo], q.bbox[3 - lo])
                if o2 - o1 < th:
                    continue
                band = dark[o1:o2, start:stop] if horizontal else dark[start:stop, o1:o2].T
                cover = band.mean(axis=1)
                k = int(np.argmax(cover))
                third = max(1, band.shape[1] // 3)
                row = band[max(0, k - 1):k + 2]
                if cover[k] < 0.15 or not row[:, :third].any() or not row[:, -third:].any():
                    continue
                pos = o1 + k
                if horizontal:
                    pts = np.array([[start, pos], [stop, pos]], float)
                else:
                    pts = np.array([[pos, start], [pos, stop]], float)
                d = (pts[1] - pts[0]) / np.linalg.norm(pts[1] - pts[0])
                out.append(Connector(points=pts, ends=(End(tuple(pts[0]), tuple(-d)),
                                                       End(tuple(pts[1]), tuple(d))),
                                     style="solid", width=1.0))
    return out


def _resample(points: np.ndarray, step: float = 2.0) -> np.ndarray:
    """The polyline with a point every ``step`` pixels (ends kept)."""
    lens = np.linalg.norm(np.diff(points, axis=0), axis=1)
    along = np.concatenate([[0.0], np.cumsum(lens)])
    if along[-1] <= 0:
        return points[:1]
    ts = np.append(np.arange(0.0, along[-1], step), along[-1])
    return np.stack([np.interp(ts, along, points[:, 0]), np.interp(ts, along, points[:, 1])], 1)


def _near(points: np.ndarray, other: np.ndarray, tol: float) -> bool:
    """True if most of ``points`` lies within ``tol`` of the polyline ``other``."""
    mine = _resample(np.asarray(points, float))
    theirs = _resample(np.asarray(other, float))
    theirs = theirs[::max(1, len(theirs) // 300)]
    d = np.linalg.norm(mine[:, None, :] - theirs[None, :, :], axis=2)
    return float(np.median(d.min(axis=1))) <= tol


def _relation(style: str, markers: tuple[str, str]) -> tuple[str, int, bool]:
    """``(type, source_end, directed)`` from the two end markers and the line style."""
    dashed = style in ("dashed", "dotted")
    for i in (0, 1):
        if markers[i] == "triangle":
            return ("realization" if dashed else "inheritance"), 1 - i, True
    for i in (0, 1):
        if markers[i] in ("diamond", "filled_diamond"):
            return ("composition" if markers[i] == "filled_diamond" else "aggregation"), i, True
    heads = [m in ("arrow", "open_arrow") for m in markers]
    if heads[0] != heads[1]:
        target = 0 if heads[0] else 1
        return ("dependency" if dashed else "association"), 1 - target, True
    return ("dependency" if dashed else "association"), 0, False


def _crosses_box(points: np.ndarray, boxes: list[Box], ends: tuple[int, int],
                 stroke: float) -> bool:
    """Does the polyline run through a box other than its two end boxes?  Such a trace
    is two relations merged through the box between them, not one."""
    pts = _resample(np.asarray(points, float), 1.0)
    pad = 2 * stroke + 2
    for i, b in enumerate(boxes):
        if i in ends:
            continue
        x1, y1, x2, y2 = b.bbox
        inside = ((pts[:, 0] > x1 + pad) & (pts[:, 0] < x2 - pad)
                  & (pts[:, 1] > y1 + pad) & (pts[:, 1] < y2 - pad))
        if inside.sum() > pad:
            return True
    return False


def _asymmetry(mask: np.ndarray, tip: tuple[float, float], inward: np.ndarray,
               length: float, half_span: float) -> float:
    """How lopsided the ink behind ``tip`` lies about the axis ``inward``: the mean, over
    the cross-sections holding ink, of the distance between the middle of the ink's
    outermost pixels and the axis.  An end marker (triangle, diamond, arrowhead) is drawn
    symmetric about its own axis."""
    left, right = side_reach(mask, tip, (float(inward[0]), float(inward[1])), int(length),
                             int(half_span))
    inked = (left != -1) | (right != -1)  # both -1 only where there is no ink
    return float(np.mean(np.abs(right[inked] - left[inked]) / 2.0)) if inked.any() else 0.0


def _end_hit(dark: np.ndarray, free: np.ndarray, pts: np.ndarray, boxes: list[Box],
             stroke: float, th: float
             ) -> tuple[int, tuple[float, float], np.ndarray] | None:
    """The box a polyline's end (its last point) meets, the tip outside its border and
    the unit heading into it; ``None`` if the end meets no box.

    Two headings are tried: the polyline's last stretch, and the stretch behind the
    marker (see :func:`_approach`): the trace may bend into a side of a hollow marker,
    and a tool may draw the marker along a spline's last tangent rather than the line
    behind it.  Where they differ, the one about which the marker's ink lies more
    symmetrically is the marker's axis.
    """
    back = 2.5 * th
    out = []
    for skip in (0.0, MARKER_LENGTH * th):
        far, u = _approach(pts, back, skip)
        if out and float(np.dot(out[0][2], u)) >= AXIS_AGREE:
            break  # one heading: the last stretch, as it meets the border
        # the ray may cross a whole marker (about two text heights) before the border
        reach = float(np.linalg.norm(pts[-1] - far)) + 3 * th
        box, hit = _hit_box(far, u, boxes, reach)
        if box is None or hit is None:
            continue
        out.append((box, _border_tip(dark, hit, u, stroke, boxes[box].bbox), u))
    if len(out) == 2 and out[0][0] == out[1][0]:
        lop = [_asymmetry(free, tip, u, MARKER_LENGTH * th, 1.2 * th) for _, tip, u in out]
        return out[1] if lop[1] < lop[0] else out[0]
    return out[0] if out else None


AXIS_AGREE = float(np.cos(np.radians(3.0)))
"""Two headings within about three degrees of each other are one."""


def _relation_line(dark: np.ndarray, free: np.ndarray, c: Connector, boxes: list[Box],
                   stroke: float, th: float, contrast: np.ndarray | None = None
                   ) -> tuple[tuple[int, int], tuple[EndWindow, EndWindow], str] | None:
    """The two boxes a connector joins, its two end windows and its line style, or
    ``None`` if it does not join two different boxes.  ``free`` is the ink outside the
    boxes (see :func:`_without_boxes`); ``contrast``: the page's colour distance from
    the paper, which the line style is read on (see :func:`_dashed`)."""
    back = 2.5 * th
    hits = []
    for pts in (c.points[::-1], c.points):
        end = _end_hit(dark, free, pts, boxes, stroke, th)
        if end is None:
            return None
        hits.append(end)
    (a, ta, ua), (b, tb, ub) = hits
    if a == b or _crosses_box(c.points, boxes, (a, b), stroke):
        return None
    gap = float(np.hypot(ta[0] - tb[0], ta[1] - tb[1]))
    length = max(3.0, min(back, 0.85 * gap))
    first = [_end_window(free, tip, u, length, stroke, th,
                         slant_reach(tip, u, boxes[k].bbox, th))
             for tip, u, k in ((ta, ua, a), (tb, ub, b))]
    # a marker is read with as much bare line behind it as it is long (the reader
    # compares its width with the line's), but never into the opposite end's marker
    windows = []
    for w, other in zip(first, first[::-1]):
        if w.marker_span:
            room = gap - other.marker_span - 1
            w = EndWindow(w.tip, w.inward, max(w.marker_span + 1, min(
                w.length, 2 * w.marker_span + th, room)), w.marker_span, w.lead)
        windows.append(w)
    skips = []
    for end_pt, w in zip((c.points[0], c.points[-1]), windows):
        # how far the polyline's end lies back along the line from the tip (negative
        # when it runs on to the box border, as a bridge does)
        away = float((w.tip[0] - end_pt[0]) * w.inward[0] + (w.tip[1] - end_pt[1]) * w.inward[1])
        if not w.marker_span:
            away += w.lead  # a bare end keeps its blank: it may be the gap after a dash
        skips.append(max(stroke, w.marker_span + stroke - away))
    dashed = _dashed(dark, np.asarray(c.points, float), (skips[0], skips[1]), stroke, th,
                     contrast)
    style = c.style if dashed is None else ("dashed" if dashed else "solid")
    return (a, b), windows, style


MARKER_SPAN = 0.8
"""Wide ink attached to a line end over this many text heights is a drawn marker (UML
markers are about one to two text heights long); shorter runs may be anti-aliasing,
a border's corner or a shadow."""


def _drawn_marker(read: str, shape: str, span: float, stroke: float, th: float) -> str:
    """The marker of one end from the page reading ``read`` (classifier and geometry), the
    width profile's own reading ``shape`` and ``span``, the pixels of wide ink attached to
    the tip (see :class:`EndWindow`).

    An end with no wider ink than the line attached (beyond a pixel or two of
    anti-aliasing) is bare whatever the readers say.  An end with a whole marker's length
    of wide ink is not bare: when the classifier calls it plain (it was taught on thin
    strokes; a thick outline can look like a border to it) the profile's marker stands.
    """
    if span < max(3.0, stroke + 1):
        return "none"
    if read == "none" and shape != "none" and span >= MARKER_SPAN * th:
        return shape
    return read


def _half_diamond(extent: np.ndarray, count: np.ndarray, stroke: float) -> str | None:
    """A diamond whose near half lies under a thick box border, or ``None``.

    Seen from outside the border such a marker is widest at the tip and narrows to the
    line, which the profile reader takes for an arrowhead; an arrowhead drawn at a box
    end points into the box and is widest away from it, so a profile widest at the tip
    is the far half of a diamond (filled when its cross-sections are mostly ink).
    """
    drawn = extent[extent > 0]
    if drawn.size < 3:
        return None
    line = max(1.0, float(drawn.min()))
    wide = np.flatnonzero(extent >= line + max(2.0, stroke))
    if wide.size < 3 or wide[0] > stroke:
        return None
    # the marker is the wide run attached to the tip; wide ink further back (a role name
    # written beside the line) is no part of it
    breaks = np.flatnonzero(np.diff(wide) > 1)
    if breaks.size:
        wide = wide[:breaks[0] + 1]
        if wide.size < 3:
            return None
    run = extent[wide[0]:wide[-1] + 1]
    peak = int(np.argmax(run))
    if peak > max(1.0, 0.25 * (run.size - 1)) or run[-1] > 0.75 * run[peak]:
        return None
    fill = float(np.median(count[wide[0]:wide[-1] + 1] / np.maximum(run, 1)))
    return "filled_diamond" if fill > 0.7 else "diamond"


def assemble_uml(inv: Inventory, connectors: list[Connector]) -> UMLModel:
    """A UML model: one class per box, one relation per connector joining two boxes.

    Parameters
    ----------
    inv : Inventory
        The page's shapes and text, with its page (class compartments are read from it).
    connectors : list of Connector
        Its lines, traced with the class boxes cleared, ends read and attached.

    Returns
    -------
    UMLModel
        Classes with attributes and methods, relations typed by their end markers.
    """
    dark = dark_ink(inv)
    boxes = uml_boxes(inv)
    classes = read_classes(inv, boxes) if inv.image is not None else [
        UMLClass(name="", bbox=[int(v) for v in b.bbox]) for b in boxes]
    stroke, th = inv.scale.stroke, inv.scale.text_height
    lines = []
    kept: dict[frozenset, list[np.ndarray]] = {}
    # straight bridges first: between close boxes the tracer may follow a marker's
    # outline into the line and return a bent piece that is no better than the bridge
    contrast = None if inv.image is None else colour_distance(inv.image, inv.background)
    ordered = _bridges(boxes, dark, th) + sorted(connectors, key=lambda c: -c.length)
    bordered = {b.bbox for b in class_boxes(inv)}
    free = _without_boxes(dark, boxes, stroke, [b.bbox not in bordered for b in boxes],
                          inv.image, inv.background)
    for c in ordered:
        line = _relation_line(dark, free, c, boxes, stroke, th, contrast)
        if line is None:
            continue
        pair = frozenset(line[0])
        if any(_near(c.points, other, 1.5 * th) for other in kept.get(pair, [])):
            continue  # a piece of a connector already read (e.g. one side of a triangle)
        kept.setdefault(pair, []).append(c.points)
        lines.append((c, line))
    # every end of the page read at once (one classifier batch for the unsure ones); an
    # end with no ink wider than the line attached to it (beyond a pixel or two of
    # anti-aliasing) is bare whatever the reader says
    windows = [w for _, (_, pair_windows, _) in lines for w in pair_windows]
    ends = [(w.tip, w.inward, w.length) for w in windows]
    read, shape = end_readings(free, ends, 1.2 * th, stroke, text_height=th)
    read = [_drawn_marker(m, g, w.marker_span, stroke, th)
            for m, g, w in zip(read, shape, windows)]
    for k, (m, g, w) in enumerate(zip(read, shape, windows)):
        # a half diamond looks like an arrowhead to either reader; when only the profile
        # says so the short marker was called bare, and is looked at again
        if m in ("arrow", "open_arrow") or (m == "none" and g in ("arrow", "open_arrow")
                                            and w.marker_span >= max(3.0, stroke + 1)):
            half = _half_diamond(*width_profile(free, w.tip, w.inward, w.length, 1.2 * th),
                                 stroke)
            read[k] = half or m
    relations = []
    for k, (c, ((a, b), _, style)) in enumerate(lines):
        markers = read[2 * k:2 * k + 2]
        for end, m in zip(c.ends, markers):
            end.marker = m
        rtype, src, directed = _relation(style, (markers[0], markers[1]))
        pair = (a, b)
        relations.append(UMLRelation(
            type=rtype, source=classes[pair[src]].name, target=classes[pair[1 - src]].name,
            extra={"markers": markers} if directed else {"markers": markers, "directed": False}))
    return UMLModel(classes=classes, relations=relations)
