"""Legends of node-link diagrams: a box whose rows pair a line sample with a relation type.

A legend row is a swatch (a short horizontal line: solid, dashed or dotted, in the colour
and width of the connectors it stands for) followed by its text.  Reading the legend gives
each row's colour, style, width and name; every edge then takes the type of the row its
connector looks most like.  The legend's own box, swatches and text are not part of the
graph.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...connectors.lines import Connector
from ...connectors.markers import end_view
from ...primitives.items import Inventory
from ...primitives.ocr import labels_of
from ...arrays import colour_distance
from ...primitives.swatches import legend_rows


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


def find_legends(inv: Inventory) -> list[Legend]:
    """Every box holding at least two swatch rows with text (the page's
    :func:`~cvparse.primitives.swatches.legend_rows`), its rows read in one OCR call for
    all boxes."""
    if inv.image is None or inv.ink is None:
        return []
    rgb = inv.image
    th = inv.scale.text_height
    found = []
    crops: list[np.ndarray] = []
    for k, ink, ox, oy, rows in legend_rows(inv):
        shape = inv.shapes[k]
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
