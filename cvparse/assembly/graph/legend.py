"""Legends of node-link diagrams: a box whose rows pair a line sample with a relation type.

A legend row is a swatch (a short horizontal line: solid, dashed or dotted, in the colour
and width of the connectors it stands for) followed by its text.  Reading the legend gives
each row's colour, style, width and name; every edge then takes the type of the row its
connector looks most like.  The legend's own box, swatches and text are not part of the
graph.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ...connectors.lines import Connector
from ...connectors.markers import end_view
from ...primitives.items import Inventory, Scale, Shape
from ...primitives.labelling import components
from ...primitives.ocr import labels_of
from ...primitives.paper import colour_distance
from ...primitives.strokes import hull_share


@dataclass(frozen=True)
class Swatch:
    """The line sample of one legend row, in image pixels."""

    bbox: tuple[int, int, int, int]
    style: str
    """``solid``, ``dashed`` or ``dotted``."""
    width: float
    """Median thickness of the line in pixels."""
    colour: tuple[int, int, int]


@dataclass(frozen=True)
class LegendEntry:
    """One legend row: the relation type and how its connectors are drawn."""

    type: str
    swatch: Swatch


@dataclass
class Legend:
    """A legend box and its rows, top to bottom."""

    bbox: tuple[int, int, int, int]
    entries: list[LegendEntry]

    def to_dict(self) -> dict:
        return {"bbox": [int(v) for v in self.bbox],
                "entries": [{"type": e.type, "style": e.swatch.style,
                             "width": round(e.swatch.width, 1),
                             "colour": "#{:02x}{:02x}{:02x}".format(*e.swatch.colour)}
                            for e in self.entries]}


TINT_SCALE = 0.2
"""Tints (see :func:`_tint`) this far apart differ clearly; when a legend's swatches are no
further apart they are shades of one colour, and only the line pattern and width tell
its types apart."""


def _tint(colour, background) -> np.ndarray:
    """Unit vector from the paper colour to ``colour``: the hue of thin ink regardless of
    how much anti-aliasing has blended it with the paper."""
    v = np.subtract(colour, background, dtype=float)
    return v / max(float(np.linalg.norm(v)), 1e-6)


def line_core(rgb: np.ndarray, mask: np.ndarray, background: tuple[int, int, int]
              ) -> tuple[tuple[int, int, int], float]:
    """Colour and width of a horizontal run of line ink (a swatch).

    In every column the pixel furthest from the paper is the line's own colour (the
    others are anti-aliased blends); the width adds up each pixel's share of that colour,
    so the blended fringe counts only as much as the line covers it.
    """
    dist = colour_distance(rgb, background)
    dist[~mask] = 0
    cols = np.nonzero(mask.any(axis=0))[0]
    if not len(cols):
        return background, 1.0
    rows = dist[:, cols].argmax(axis=0)
    peak = dist[rows, cols]
    strong = peak >= 0.8 * peak.max()  # columns where a dot or dash is fully inked
    colour = tuple(int(v) for v in np.median(rgb[rows[strong], cols[strong]].astype(float),
                                             axis=0))
    share = np.clip(dist[:, cols] / np.maximum(peak, 1e-6), 0, 1)
    width = float(np.median(share.sum(axis=0)))
    return colour, width


def _chains(stats: np.ndarray, flat: list[int], scale: Scale) -> list[list[int]]:
    """Flat components of one height side by side on one horizontal line, small gaps
    between them (the dashes or dots of one line sample, not the letters after it)."""
    cy = {i: stats[i, 1] + stats[i, 3] / 2 for i in flat}
    chains: list[list[int]] = []
    for i in sorted(flat, key=lambda i: stats[i, 0]):
        for ch in chains:
            j = ch[-1]
            gap = stats[i, 0] - (stats[j, 0] + stats[j, 2])
            hi, hj = stats[i, 3], stats[j, 3]
            # one line width, up to a pixel of blur either side (no letter after a bar)
            alike = abs(int(hi) - int(hj)) <= max(2.0, 0.25 * max(hi, hj))
            if (alike and abs(cy[i] - cy[j]) <= scale.stroke + 1
                    and -1 <= gap <= 0.8 * scale.text_height):
                ch.append(i)
                break
        else:
            chains.append([i])
    return chains


def _style(stats: np.ndarray, chain: list[int]) -> str:
    """Solid for one run; dotted when the marks are about as long as they are thick."""
    if len(chain) == 1:
        return "solid"
    lengths = np.median(stats[chain, 2])
    thick = np.median(stats[chain, 3])
    return "dotted" if lengths <= 2.0 * thick else "dashed"


def swatch_rows(ink: np.ndarray, scale: Scale
                ) -> list[tuple[tuple[int, int, int, int], np.ndarray, str]]:
    """Swatches in a box's inner ink (local coordinates): horizontal runs of flat marks
    at least one and a half text heights long with text-high ink right after them.

    Returns ``(bbox, mask, style)`` per swatch, top to bottom.
    """
    th, stroke = scale.text_height, scale.stroke
    n, labels, stats, _ = components(ink.astype(np.uint8), 8)
    def flat(i: int) -> bool:
        w, h = stats[i, 2], stats[i, 3]
        # a bold sample is a long filled bar, still thinner than the text beside it
        bold = w >= 3 * h and h <= 0.6 * th and stats[i, 4] >= 0.8 * w * h
        dash = (h <= 2.5 * stroke + 1 and w >= 1.5 * h) or bold
        small = max(w, h) <= 1.5 * stroke + 1
        # a dot of a thick dotted line grows a pixel of blur on each side; it stays
        # smaller than the letters beside it, however thick their strokes (and fills
        # its outline, below)
        blurred = (max(w, h) <= min(2 * stroke + 2, 0.6 * th)
                   and min(w, h) >= 0.6 * max(w, h))
        if not (dash or small or blurred):
            return _headed(labels, stats, i, scale)
        # Drawn with thick lines, small letters are as small as those marks; a mark
        # thicker than a line fills its outline (a bar, a dot), letters leave counters
        # and notches.
        if min(w, h) <= stroke + 1 and (dash or small):
            return True
        return _filled_dot(labels, stats, i)

    flats = [i for i in range(1, n) if flat(i)]
    tall = [i for i in range(1, n) if stats[i, 3] > 0.35 * th and stats[i, 3] <= 1.5 * th]
    rows = []
    for chain in _chains(stats, flats, scale):
        x1 = int(stats[chain, 0].min())
        x2 = int((stats[chain, 0] + stats[chain, 2]).max())
        y1 = int(stats[chain, 1].min())
        y2 = int((stats[chain, 1] + stats[chain, 3]).max())
        if x2 - x1 < 1.5 * th:
            continue
        cy = (y1 + y2) / 2
        text = [i for i in tall if 0 <= stats[i, 0] - x2 <= 2 * th
                and stats[i, 1] <= cy <= stats[i, 1] + stats[i, 3]]
        if not text:
            continue
        mask = np.isin(labels[y1:y2, x1:x2], chain)
        rows.append(((x1, y1, x2, y2), mask, _style(stats, chain)))
    return sorted(_aligned(rows, th), key=lambda r: (r[0][1], r[0][0]))


def _aligned(rows: list, th: float) -> list:
    """Rows whose samples line up: those on the leftmost column, and those of further
    columns that sit on the line of a row of the first (a legend laid out as a grid); a
    run of small letters lines up with neither."""
    if not rows:
        return rows
    left = min(r[0][0] for r in rows)
    first = [r for r in rows if r[0][0] <= left + 0.5 * th]
    lines = [(r[0][1] + r[0][3]) / 2 for r in first]
    return first + [r for r in rows if r[0][0] > left + 0.5 * th
                    and any(abs((r[0][1] + r[0][3]) / 2 - y) <= 0.5 * th for y in lines)]


def _headed(labels: np.ndarray, stats: np.ndarray, i: int, scale: Scale) -> bool:
    """Component ``i`` is a line sample ending in a filled arrowhead (the sample of a
    directed type): long and low, a line thick along most of its length, the head no
    taller than a text line."""
    x, y, w, h = (int(v) for v in stats[i, :4])
    if w < 3 * h or h > 1.2 * scale.text_height:
        return False
    thick = (labels[y:y + h, x:x + w] == i).sum(axis=0)
    line = float(np.median(thick))
    head = np.flatnonzero(thick >= max(0.5 * h, 1.5 * line))
    # one run of tall columns, within a head's length of one end (the tip tapers): a
    # head, not the teeth of touching letters
    return bool(line <= 2.5 * scale.stroke + 1 and 2 <= head.size <= 0.4 * w
                and head[-1] - head[0] + 1 == head.size
                and (head[0] <= 0.6 * h or head[-1] >= w - 1 - 0.6 * h))


def _filled_dot(labels: np.ndarray, stats: np.ndarray, i: int) -> bool:
    """Component ``i`` fills its convex hull: a dash, or a round dot of a thick dotted line
    (blur makes it wider than a line), not a small letter with a counter ("o", "e", "a")."""
    x, y, w, h = (int(v) for v in stats[i, :4])
    return hull_share(labels[y:y + h, x:x + w] == i) >= 0.8


def _inner_ink(inv: Inventory, shape: Shape) -> tuple[np.ndarray, int, int]:
    """Ink inside a shape with its border eroded away, and the crop's offset.  Ink that
    touches the eroded edge is what is left of the border, not content."""
    r = shape.interior
    x1, y1, x2, y2 = r.bbox
    inside = cv2.erode(np.pad(r.filled, 1).astype(np.uint8), np.ones((3, 3), np.uint8),
                       iterations=max(1, int(round(inv.scale.stroke))))[1:-1, 1:-1]
    ink = inv.ink[y1:y2, x1:x2] & inside.astype(bool)
    n, labels = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)
    rim = inside.astype(bool) & ~cv2.erode(inside, np.ones((3, 3), np.uint8)).astype(bool)
    touching = np.unique(labels[rim & (labels > 0)])
    if touching.size:
        ink &= ~np.isin(labels, touching)
    return ink, x1, y1


def _row_crop(rgb: np.ndarray, ink: np.ndarray, fill: tuple[int, int, int],
              box: tuple[int, int, int, int]) -> np.ndarray:
    """Grayscale crop (dark on white) of the ink in ``box`` of the local ink image."""
    x1, y1, x2, y2 = box
    own = ink[y1:y2, x1:x2]
    dist = colour_distance(rgb[y1:y2, x1:x2], fill)
    top = max(float(dist[own].max()) if own.any() else 1.0, 30.0)
    gray = 255.0 - np.clip(dist / top, 0, 1) * 255.0
    gray[~own] = 255
    return gray.astype(np.uint8)


def legend_shapes(inv: Inventory) -> list[int]:
    """Indices of the shapes that may be legends (a box holding two swatch rows or more;
    what :func:`find_legends` reads), found without reading their text."""
    if inv.image is None or inv.ink is None:
        return []
    out = []
    for k, shape in enumerate(inv.shapes):
        if shape.kind in ("rect", "round_rect"):
            ink, _, _ = _inner_ink(inv, shape)
            if len(swatch_rows(ink, inv.scale)) >= 2:
                out.append(k)
    return out


def find_legends(inv: Inventory) -> list[Legend]:
    """Every box holding at least two swatch rows with text, its rows read in one OCR
    call for all boxes."""
    if inv.image is None or inv.ink is None:
        return []
    rgb = inv.image
    th = inv.scale.text_height
    found = []
    crops: list[np.ndarray] = []
    for shape in inv.shapes:
        if shape.kind not in ("rect", "round_rect"):
            continue
        ink, ox, oy = _inner_ink(inv, shape)
        rows = swatch_rows(ink, inv.scale)
        if len(rows) < 2:
            continue
        local = rgb[oy:oy + ink.shape[0], ox:ox + ink.shape[1]]
        swatches = []
        for (x1, y1, x2, y2), mask, style in rows:
            colour, width = line_core(local[y1:y2, x1:x2], mask, shape.fill)
            swatches.append(Swatch((ox + x1, oy + y1, ox + x2, oy + y2), style, width, colour))
            cy = (y1 + y2) // 2
            # the text runs to the next sample on its line (a grid legend), or the box
            right = min([r[0][0] for r in rows if r[0][0] > x2
                         and abs((r[0][1] + r[0][3]) / 2 - cy) <= 0.5 * th],
                        default=ink.shape[1])
            band = (x2 + 1, max(0, int(cy - 0.75 * th)), right,
                    min(ink.shape[0], int(cy + 0.75 * th) + 1))
            crops.append(_row_crop(local, ink, shape.fill, band))
        found.append((shape, swatches))
    if not found:
        return []
    texts = iter(labels_of(crops, inv.read(crops, th)))
    legends = []
    for shape, swatches in found:
        entries = [LegendEntry(next(texts).strip(), s) for s in swatches]
        legends.append(Legend(tuple(int(v) for v in shape.bbox),
                              [e for e in entries if any(ch.isalnum() for ch in e.type)]))
    return [lg for lg in legends if len(lg.entries) >= 2]


def connector_colour(c: Connector, inv: Inventory) -> tuple[int, int, int]:
    """Colour of a traced connector: at each point of its centre line the pixel of the
    3 x 3 neighbourhood furthest from the paper, then the median over the line."""
    rgb = inv.image
    h, w = rgb.shape[:2]
    pts = np.round(c.points).astype(int)
    pts[:, 0] = pts[:, 0].clip(1, w - 2)
    pts[:, 1] = pts[:, 1].clip(1, h - 2)
    picks = []
    bg = np.asarray(inv.background, np.float32)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            picks.append(rgb[pts[:, 1] + dy, pts[:, 0] + dx].astype(np.float32))
    stack = np.stack(picks, 1)  # N x 9 x 3
    dist = np.sqrt(((stack - bg) ** 2).sum(-1))
    best = stack[np.arange(len(stack)), dist.argmax(1)]
    if inv.text_mask is not None:
        keep = ~inv.text_mask[pts[:, 1], pts[:, 0]]
        if keep.sum() >= 3:
            best = best[keep]
    return tuple(int(v) for v in np.median(best, axis=0))


def _resample(points: np.ndarray, step: float = 1.0) -> np.ndarray:
    """A polyline resampled at equal steps along its length."""
    seg = np.linalg.norm(np.diff(points, axis=0), axis=1)
    at = np.concatenate([[0.0], np.cumsum(seg)])
    if at[-1] <= step:
        return points.astype(float)
    t = np.arange(0.0, at[-1], step)
    return np.stack([np.interp(t, at, points[:, 0]), np.interp(t, at, points[:, 1])], 1)


def drawn_pattern(c: Connector, inv: Inventory) -> str:
    """``solid``, ``dashed`` or ``dotted``, from the ink under the connector's centre line.

    Only the pixels across the line are looked at (never along it), so the short gaps of
    a dotted line are not bridged.  The ends are left out: a text height at a headed end
    (the arrowhead) less what of it lies beyond the traced end (a trace that stopped at
    the gap before the last dash and its head), a third of one at a plain end (the border
    it meets).  A line too short to show a pattern keeps the tracer's reading
    (``c.style``).
    """
    rgb = inv.image
    h, w = rgb.shape[:2]
    pts = _resample(np.asarray(c.points, float))
    th = inv.scale.text_height
    skips = [int(round(max(0.0, th - _beyond(c, k, inv)) if e.marker != "none"
                       else max(2.0, th / 3))) for k, e in enumerate(c.ends)]
    if len(pts) < sum(skips) + 8:
        return c.style if c.style in ("dashed", "dotted") else "solid"
    ahead = np.roll(pts, -3, axis=0) - np.roll(pts, 3, axis=0)
    ahead[:3] = ahead[3]
    ahead[-3:] = ahead[-4]
    norm = np.maximum(np.linalg.norm(ahead, axis=1, keepdims=True), 1e-6)
    normal = np.stack([-ahead[:, 1], ahead[:, 0]], 1) / norm
    bg = np.asarray(inv.background, np.float32)
    best = np.zeros(len(pts), np.float32)
    for off in (-1.0, 0.0, 1.0):
        q = np.round(pts + off * normal).astype(int)
        q[:, 0] = q[:, 0].clip(0, w - 1)
        q[:, 1] = q[:, 1].clip(0, h - 1)
        d = np.sqrt(((rgb[q[:, 1], q[:, 0]].astype(np.float32) - bg) ** 2).sum(-1))
        best = np.maximum(best, d)
    best = best[skips[0]:len(best) - skips[1]]
    peak = float(np.percentile(best, 90))
    if peak <= 0:
        return "solid"
    on = best >= 0.45 * peak
    if on.mean() > 0.88:
        return "solid"
    edges = np.diff(np.concatenate([[0], on.astype(np.int8), [0]]))
    starts, stops = np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0]
    runs = stops - starts
    if len(runs) < 2:
        return "solid"
    # a mark cut by the window's edge shows only part of its length
    whole = runs[(starts > 0) & (stops < len(on))]
    marks = whole if len(whole) else runs
    return "dotted" if float(np.median(marks)) <= 2 * max(c.width, inv.scale.stroke) + 1 \
        else "dashed"


def _beyond(c: Connector, end: int, inv: Inventory) -> float:
    """How far the ink drawn at one end of a connector (its head) reaches past the
    traced end, pixels (0 without an ink mask)."""
    if inv.ink is None:
        return 0.0
    view = end_view(inv.ink, c, end, inv.scale.text_height, inv.scale.stroke)
    x, y = c.ends[end].point
    return float(np.hypot(view.tip[0] - x, view.tip[1] - y))


def drawn_width(c: Connector, inv: Inventory) -> float:
    """Width of the line under a connector, measured as :func:`line_core` measures a
    swatch: across the line at every point where it is fully inked, each pixel counts by
    its share of the line's colour; the median over the line (ends left out).

    Only the run of ink around the centre line counts, so a line drawn close beside it
    does not widen it.
    """
    rgb = inv.image
    h, w = rgb.shape[:2]
    pts = _resample(np.asarray(c.points, float))
    skip = int(round(inv.scale.text_height))
    if len(pts) >= 2 * skip + 8:
        pts = pts[skip:len(pts) - skip]
    if len(pts) < 3:
        return float(c.width)
    ahead = np.gradient(pts, axis=0)
    norm = np.maximum(np.linalg.norm(ahead, axis=1, keepdims=True), 1e-6)
    normal = np.stack([-ahead[:, 1], ahead[:, 0]], 1) / norm
    reach = int(np.ceil(2 * max(c.width, inv.scale.stroke))) + 2
    offsets = np.arange(-reach, reach + 1)
    q = np.round(pts[:, None, :] + offsets[None, :, None] * normal[:, None, :]).astype(int)
    q[..., 0] = q[..., 0].clip(0, w - 1)
    q[..., 1] = q[..., 1].clip(0, h - 1)
    dist = colour_distance(rgb[q[..., 1], q[..., 0]], inv.background)  # points x offsets
    mid = reach  # the column of offset 0
    core = dist[:, mid - 1:mid + 2].max(axis=1)
    top = float(np.percentile(core, 90))
    if top <= 0:
        return float(c.width)
    # the run of ink through the centre line, up to the first nearly blank pixel each side
    blank = dist < 0.1 * top
    idx = np.arange(len(offsets))[None, :]
    left = np.where(blank & (idx < mid - 1), idx, -1).max(axis=1)
    right = np.where(blank & (idx > mid + 1), idx, len(offsets)).min(axis=1)
    inside = (idx > left[:, None]) & (idx < right[:, None])
    peak = np.where(inside, dist, 0).max(axis=1)
    strong = peak >= 0.8 * top  # points where the line (a dash, a dot) is fully inked
    if not strong.any():
        return float(c.width)
    share = np.clip(dist[strong] / peak[strong, None], 0, 1) * inside[strong]
    return float(np.median(share.sum(axis=1)))


def _style_cost(pattern: str, swatch_style: str) -> float:
    if pattern == swatch_style:
        return 0.0
    if {pattern, swatch_style} == {"dashed", "dotted"}:
        return 0.6
    return 1.0


def edge_type(c: Connector, legends: list[Legend], inv: Inventory) -> str:
    """The legend type whose swatch looks most like the connector: colour where the
    legend's colours differ, line pattern (solid, dashed, dotted) always; between rows
    alike in both and drawn in different widths, the swatch nearest in width to the
    line (:func:`drawn_width`, measured as the swatches are, not guessed from how bold
    the line is beside the page's other lines).  The type is given in lower case, the
    form benchmarks name relation types in ("Wire" in the legend is ``wire``).
    """
    return _edge_type(c, legends, inv).lower()


def _edge_type(c: Connector, legends: list[Legend], inv: Inventory) -> str:
    entries = [e for lg in legends for e in lg.entries]
    if not entries:
        return ""
    tint = _tint(connector_colour(c, inv), inv.background)
    pattern = drawn_pattern(c, inv)
    tints = [_tint(e.swatch.colour, inv.background) for e in entries]
    spread = max(float(np.linalg.norm(a - b)) for a in tints for b in tints)
    weight = 1 / TINT_SCALE if spread >= TINT_SCALE else 0.0
    costs = [weight * float(np.linalg.norm(tint - t)) + _style_cost(pattern, e.swatch.style)
             for e, t in zip(entries, tints)]
    low = min(costs)
    close = [e for e, k in zip(entries, costs) if k <= low + 0.3]
    if len({round(e.swatch.width, 1) for e in close}) <= 1:
        return close[0].type
    width = max(drawn_width(c, inv), 0.5)
    return min(close, key=lambda e: abs(np.log(max(e.swatch.width, 0.5) / width))).type
