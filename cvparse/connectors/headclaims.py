"""Filled arrowheads claimed by the connector ends that point at them.

The width test of :mod:`.markers` looks at the ink a few strokes round each end.  Two
renderings defeat it:

* a head drawn over a white halo, its tip reaching into the node's border, stands apart
  from its line and lies mostly inside the node's box: the traced line stops short of
  it and its end reads plain;
* a line's tail that leaves a node side right beside another connector's head (ends
  staggered along a side a head's width apart) takes that head's ink for its own.

A head is a solid triangular blob (:func:`~cvparse.primitives.halos.solid_blobs`); it
belongs to the one end whose heading runs through it, close ahead of (or just behind)
the end.  A blob that lies across the node the end itself docks to is never its own: a
tail leaving a node heads into that node, on to the head of another line entering its
far side (a node a few head sizes deep).  Each blob goes to its best end only.  An end
that claims a blob is a head; an end read as a head that claims none, while a blob
claimed by another end lies within the width test's window, is plain: the ink it saw
was its neighbour's head.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..primitives.halos import solid_blobs
from ..primitives.items import Scale
from ..arrays import components
from scipy import ndimage
from .lines import Connector, own_ends

AHEAD = 2.5
"""How far ahead of an end a head's middle may lie, in head sizes (the halo's gap and
the head itself)."""

BEHIND = 0.8
"""How far behind an end a head's middle may lie, in head sizes (an end traced on to the
tip has the head's middle behind it)."""

ACROSS = 0.3
"""Largest sideways offset of a head's middle from the end's heading, in head sizes
(staggered ends lie about a head's width apart)."""


SEED = 0.6
"""Share of a blob's greatest ink depth that marks a head's core: two heads drawn side by
side merge into one blob, joined by ink thinner than either head."""


def _blobs(ink: np.ndarray, scale: Scale, heads: np.ndarray | None = None
           ) -> list[tuple[np.ndarray, float, np.ndarray]]:
    """Each solid triangular blob as ``(middle, size, pixels)``: its centroid, the longer
    side of its box and its pixel coordinates (``x, y`` rows).  A blob with several cores
    (heads side by side) is split, each pixel going to its nearest core."""
    mask = (solid_blobs(ink, scale) if heads is None else heads).astype(np.uint8)
    n, labels, _, _ = components(mask, 8)
    if n <= 1:
        return []
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    peak = np.asarray(ndimage.maximum(depth, labels, np.arange(n)), float)
    seeds = (depth >= SEED * peak[labels]) & (labels > 0)
    cores, m = ndimage.label(seeds, np.ones((3, 3), int))
    _, (iy, ix) = ndimage.distance_transform_edt(~seeds, return_indices=True)
    piece = np.where(labels > 0, cores[iy, ix], 0)
    out = []
    for i in range(1, m + 1):
        ys, xs = np.nonzero(piece == i)
        if len(xs) < (2 * scale.stroke) ** 2:
            continue
        size = float(max(np.ptp(xs), np.ptp(ys)) + 1)
        pts = np.stack([xs, ys], axis=1)
        out.append((pts.mean(axis=0), size, pts))
    return out


POINTING = 1.3
"""Least ratio of a head's spread across the heading behind its middle to the spread
ahead of it: a filled triangle narrows towards its tip (about 1.9 for a head pointing
along the heading, 1 for one across it, 0.5 for one pointing back)."""


TIP_REACH = 1.3
"""Least ratio of how far a head's ink reaches ahead of its middle to how far it reaches
behind: a filled triangle's tip lies twice as far from its centroid as its base (2 for a
head pointing along the heading, 1 for one across it, 0.5 for one pointing back)."""


def _points_along(pixels: np.ndarray, middle: np.ndarray, direction: np.ndarray) -> bool:
    """True if the blob of ``pixels`` narrows along ``direction``: a head pointing that
    way, not one drawn across it (a neighbour's head touching this line's end).

    Two readings of the same shape, either of which will do: the spread across the
    heading (``POINTING``), which the stretch of a node border under a head's tip
    widens at the tip, and the reach along it (``TIP_REACH``), which that border leaves
    alone but the line running into the head's base lengthens at the back."""
    v = pixels - middle
    along = v @ direction
    side = np.abs(v[:, 0] * direction[1] - v[:, 1] * direction[0])
    ahead, behind = side[along > 0], side[along <= 0]
    if not len(ahead) or not len(behind):
        return False
    if float(behind.mean()) >= POINTING * max(float(ahead.mean()), 0.5):
        return True
    return float(along.max()) >= TIP_REACH * max(-float(along.min()), 0.5)


def _score(point: np.ndarray, direction: np.ndarray, middle: np.ndarray, size: float,
           pixels: np.ndarray) -> float | None:
    """How well an end at ``point`` heading ``direction`` points at a head with this
    ``middle``, ``size`` and ``pixels`` (lower is better), or ``None`` where it does
    not."""
    v = middle - point
    along = float(np.dot(v, direction))
    side = abs(float(direction[0] * v[1] - direction[1] * v[0]))
    if not -BEHIND * size <= along <= AHEAD * size or side > ACROSS * size:
        return None
    if not _points_along(pixels, middle, direction):
        return None
    return abs(along) + 2.0 * side


def _across(point: np.ndarray, direction: np.ndarray, along: float, size: float,
            box) -> bool:
    """True if a blob ``along`` pixels ahead on the heading from ``point``, ``size``
    pixels large, lies across ``box`` (``x1, y1, x2, y2``): the heading runs through the
    box for more than half the blob's size before the blob's middle, and that middle
    lies within half a blob of the box's far side or beyond it."""
    lo, hi = -np.inf, np.inf
    for axis in (0, 1):
        p, d = float(point[axis]), float(direction[axis])
        a, b = float(box[axis]), float(box[axis + 2])
        if abs(d) < 1e-9:
            if not a <= p <= b:
                return False
            continue
        t1, t2 = sorted(((a - p) / d, (b - p) / d))
        lo, hi = max(lo, t1), min(hi, t2)
    if lo >= hi:
        return False
    return along - max(lo, 0.0) > 0.5 * size and along >= hi - 0.5 * size


def _deep_inside(middle: np.ndarray, size: float, box) -> bool:
    """True if a blob's ``middle`` lies more than half its ``size`` inside every side of
    ``box``: in the node's own drawing (a diamond's edge, an icon's solid parts), not on
    the border a line runs along to its head."""
    m = 0.5 * size
    return bool(box[0] + m < middle[0] < box[2] - m and box[1] + m < middle[1] < box[3] - m)


def _hand_on(owner: dict[int, tuple[float, tuple[int, int]]],
             candidates: dict[int, list[tuple[float, tuple[int, int]]]]) -> None:
    """Where a line claims a head at both ends, hand one of them to the next best end of
    a line that claims none, in place: a head where a tail leaves right under it is
    nearer the tail's end than its own line's (stopped short by the halo), and a line
    with two heads is rarer than a headless one.  The head handed on is the one with
    such a taker; with two, the one the line claims less well."""
    lines: dict[int, list[int]] = {}
    for b, (_, ref) in owner.items():
        lines.setdefault(ref[0], []).append(b)
    for i in sorted(lines):
        mine = lines[i]
        if len(mine) != 2:
            continue
        offers = []
        for b in mine:
            takers = [(s, ref) for s, ref in sorted(candidates[b])
                      if ref[0] != i and not lines.get(ref[0])]
            if takers:
                offers.append((owner[b][0] - takers[0][0], b, takers[0]))
        if not offers:
            continue
        _, b, taker = max(offers)
        owner[b] = taker
        mine.remove(b)
        lines.setdefault(taker[1][0], []).append(b)


def _gap(point: tuple[float, float], pixels: np.ndarray) -> float:
    """Distance from an end to the nearest pixel of a blob."""
    return float(np.hypot(*(pixels - np.asarray(point, float)).T).min())


def claim_heads(connectors: list[Connector], ink: np.ndarray, scale: Scale, *,
                boxes: list[tuple] | None = None,
                heads: np.ndarray | None = None) -> list[Connector]:
    """``connectors`` with each end's ``marker`` set from the filled heads it claims (see
    the module doc): new connectors with ends of their own, ``connectors`` left as they
    were (and returned as they are where the page has no solid blob).  Ends near no
    solid blob keep the marker they have (open heads, diamonds).  ``heads`` are the
    solid blobs of ``ink`` where the caller has them (the page's).

    ``boxes``: for each connector, the boxes (``x1, y1, x2, y2`` or ``None``) of the
    nodes its two ends dock to.  An end does not claim a blob that lies across its own
    node box (:func:`_across`): that head is at the node's far side, where a line
    entering it put it; nor one deep inside it (:func:`_deep_inside`), part of the
    node's own drawing.  A head inside the box near one of its sides stays claimable: a
    line docked to a box side may run along the border its head lies on."""
    blobs = _blobs(ink, scale, heads)
    if not blobs or not connectors:
        return connectors
    connectors = own_ends(connectors)
    ends = [(i, k) for i, c in enumerate(connectors) for k in (0, 1)]
    candidates: dict[int, list[tuple[float, tuple[int, int]]]] = {}
    for i, k in ends:
        e = connectors[i].ends[k]
        d = np.asarray(e.direction, float)
        norm = float(np.hypot(d[0], d[1]))
        if norm == 0:
            continue
        d = d / norm
        p = np.asarray(e.point, float)
        own = boxes[i][k] if boxes is not None else None
        for b, (middle, size, pixels) in enumerate(blobs):
            s = _score(p, d, middle, size, pixels)
            if s is None:
                continue
            if own is not None and (_across(p, d, float(np.dot(middle - p, d)), size, own)
                                    or _deep_inside(middle, size, own)):
                continue
            candidates.setdefault(b, []).append((s, (i, k)))
    owner = {b: min(c) for b, c in candidates.items()}
    _hand_on(owner, candidates)
    # Only a head claimed across a gap (a halo between it and its line's end) says more
    # than the width test: a head joined to its line is read there already, and the ink
    # round it is shared out between the lines by nearness.
    apart = {b for b, (_, (i, k)) in owner.items()
             if _gap(connectors[i].ends[k].point, blobs[b][2]) > scale.stroke + 1}
    claimed = {ref: b for b, (_, ref) in owner.items() if b in apart}
    owned = {ref for _, ref in owner.values()}
    pointing = {ref for c in candidates.values() for _, ref in c}
    window = 2 * scale.stroke + 4  # the width test's reach round an end
    for i, k in ends:
        e = connectors[i].ends[k]
        if (i, k) in claimed:
            if e.marker == "none":
                e.marker = "arrow"
            continue
        if e.marker != "arrow" or (i, k) in owned:
            continue
        # A head joined to its line is read at its own end already: it clears a
        # neighbour's end only where that end points at no head at all and its line's
        # other end claims a head across a halo's gap (two heads on a line are rare,
        # and a head set apart that way is surely that line's; a head joined to its
        # line may be one of a pair drawn at both ends, the other an open one).
        doubled = (i, k) not in pointing and (i, 1 - k) in claimed
        for b, (_, ref) in owner.items():
            if ref[0] == i:
                continue
            if b not in apart and not (
                    doubled and connectors[ref[0]].ends[ref[1]].marker == "arrow"):
                continue
            if _gap(e.point, blobs[b][2]) <= window:
                e.marker = "none"
                break
    return connectors
