"""Shapes cut into pieces: a line crossing a diamond or triangle, a pinched double border.

A connector drawn across a shape splits its inside into several enclosed regions, none of
which fits a template.  Pieces that only a line width apart are joined (dilated, united,
eroded back); a union that fits a template is the shape.  The ring between the two
borders of a double diamond pinches shut at the corners the same way, and its pieces
unite into the outer outline.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from ..arrays import components
from .regions import Region, fill_holes, region_from_mask
from .shapes import classify

PIECE_KINDS = ("diamond", "triangle", "ellipse", "circle")
"""Kinds accepted for a union: the ones lines cross in Chen diagrams.  Rectangles are left
out, since orthogonal connectors enclose rectangular gaps of their own."""


HULL_KINDS = ("triangle",)
"""Kinds a notched region may be restored to: the IS-A triangle, whose label fills it to
the border (restoring ellipses and diamonds this way also finds gaps between boxes)."""

LABELLED_HULL_KINDS = ("rect", "round_rect", "stadium", "ellipse", "circle", "diamond",
                       "hexagon", "parallelogram", "triangle")
"""Kinds a notched region holding a label may be restored to: a node whose label or whose
arrowheads (a head's tip reaching inside the border) cut into its inside.  A gap between
lines rarely holds a letter, which keeps gaps out."""


def _neighbours(regions: list[Region], size: tuple[int, int], reach: int) -> list[set[int]]:
    h, w = size
    labels = np.zeros((h, w), np.int32)
    for i, r in enumerate(regions):
        x1, y1, x2, y2 = r.bbox
        labels[y1:y2, x1:x2][r.filled] = i + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    out: list[set[int]] = []
    for i, r in enumerate(regions):
        x1, y1, x2, y2 = r.bbox
        gx1, gy1 = max(0, x1 - reach), max(0, y1 - reach)
        gx2, gy2 = min(w, x2 + reach), min(h, y2 + reach)
        m = np.zeros((gy2 - gy1, gx2 - gx1), np.uint8)
        m[y1 - gy1:y2 - gy1, x1 - gx1:x2 - gx1] = r.filled
        m = cv2.dilate(m, kernel).astype(bool)
        found = set(np.unique(labels[gy1:gy2, gx1:gx2][m]).tolist()) - {0, i + 1}
        out.append({j - 1 for j in found})
    return out


def _groups(adj: list[set[int]]) -> list[list[int]]:
    seen: set[int] = set()
    groups = []
    for i in range(len(adj)):
        if i in seen:
            continue
        stack, comp = [i], []
        seen.add(i)
        while stack:
            k = stack.pop()
            comp.append(k)
            for j in adj[k]:
                if j not in seen:
                    seen.add(j)
                    stack.append(j)
        groups.append(sorted(comp))
    return groups


def _joint_box(regions: list[Region]) -> tuple[int, int, int, int]:
    """The bounding box ``x1, y1, x2, y2`` of all the regions' boxes."""
    return (min(r.bbox[0] for r in regions), min(r.bbox[1] for r in regions),
            max(r.bbox[2] for r in regions), max(r.bbox[3] for r in regions))


def _filled_union(regions: list[Region], reach: int, pad: int
                  ) -> tuple[np.ndarray, int, int, np.ndarray]:
    """The members' interiors on one crop (``pad`` pixels beyond them), dilated by ``reach``
    and holes filled; with the crop's origin and the round kernel used."""
    x1, y1, x2, y2 = _joint_box(regions)
    x1, y1, x2, y2 = x1 - pad, y1 - pad, x2 + pad, y2 + pad
    m = np.zeros((y2 - y1, x2 - x1), np.uint8)
    for r in regions:
        a, b, c, d = r.bbox
        m[b - y1:d - y1, a - x1:c - x1] |= r.filled.astype(np.uint8)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    return fill_holes(cv2.dilate(m, kernel).astype(bool)).astype(np.uint8), x1, y1, kernel


def unite(regions: list[Region], reach: int) -> Region:
    """One region: the members dilated by ``reach``, united, holes filled, eroded back,
    thin spikes opened away."""
    m, x1, y1, kernel = _filled_union(regions, reach, reach)
    m = cv2.erode(m, kernel)
    # Wedges between a crossing line and the border stick out as thin spikes.
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, kernel).astype(bool)
    if not m.any():
        m = np.zeros((1, 1), bool)
        m[0, 0] = True
    return region_from_mask(m, x1, y1, sum(r.paper_area for r in regions))


def _on_page(region: Region, size: tuple[int, int]) -> Region | None:
    """``region`` cut to the page of ``size`` (h, w): a union dilated and eroded back at the
    page's edge can keep a pixel beyond it, which the page's arrays do not have.  None
    when nothing of it is on the page (the one pixel :func:`unite` keeps of a union that
    opened away entirely may lie in the margin beyond the edge)."""
    h, w = size
    x1, y1, x2, y2 = region.bbox
    if x1 >= 0 and y1 >= 0 and x2 <= w and y2 <= h:
        return region
    m = region.filled[max(0, -y1):h - y1, max(0, -x1):w - x1]
    if not m.any():
        return None
    return region_from_mask(m, max(0, x1), max(0, y1), region.paper_area)


def _fit(region: Region) -> tuple[str, float]:
    kind, fit = classify(region.filled)
    return kind, (fit if kind in PIECE_KINDS else 0.0)


def joined_pieces(pieces: list[Region], size: tuple[int, int], stroke: float,
                  min_area: float, min_fit: float) -> list[tuple[Region, str, float]]:
    """Unions of neighbouring pieces that fit a shape: ``(region, kind, fit)`` each.

    Grown greedily from the largest piece: the neighbour whose union fits best joins
    while the fit improves, so gaps outside the shape (beyond its border) stay out.
    """
    reach = int(round(stroke)) + 2
    adj = _neighbours(pieces, size, reach)
    used: set[int] = set()
    out = []
    for seed in sorted(range(len(pieces)), key=lambda i: -pieces[i].area):
        if seed in used or not adj[seed]:
            continue
        members = [seed]
        region = pieces[seed]
        kind, fit = _fit(region)
        while True:
            # The seed is the largest piece of its shape: bigger neighbours are not parts.
            cands = {j for j in set().union(*(adj[m] for m in members)) - set(members) - used
                     if pieces[j].area <= pieces[seed].area}
            best = None
            for j in cands:
                r = _on_page(unite([pieces[m] for m in members] + [pieces[j]], reach),
                             size)
                if r is None:  # no shape on the page: nothing to join
                    continue
                k, f = _fit(r)
                if f > fit + 0.005 and (best is None or f > best[2]):
                    best = (j, r, f, k)
            if best is None:
                break
            members.append(best[0])
            region, fit, kind = best[1], best[2], best[3]
        if len(members) >= 2 and fit >= min_fit and region.area >= min_area:
            used.update(members)
            out.append((region, kind, fit))
    return out


def _inked_hull(filled: np.ndarray, hull: np.ndarray, ink: np.ndarray, max_growth: float,
                min_ink: float) -> np.ndarray | None:
    """The mask of ``hull`` (points in the crop of ``filled``) if it grows the area by at
    most ``max_growth`` and what it adds is at least ``min_ink`` ink (letters, lines), not
    the empty paper of a gap; else None."""
    m = np.zeros(filled.shape, np.uint8)
    cv2.fillPoly(m, [hull], 1)
    hm = m.astype(bool)
    if hm.sum() > max_growth * filled.sum():
        return None
    added = hm & ~filled
    if added.any() and ink[added].mean() < min_ink:
        return None
    return hm


def hull_fits(pieces: list[Region], ink: np.ndarray, min_area: float, min_fit: float,
              max_growth: float = 1.6, min_ink: float = 0.3,
              kinds: Sequence[str] = HULL_KINDS) -> list[tuple[Region, str, float]]:
    """Single regions notched by a label touching the border, restored by their convex
    hull: ``(region, kind, fit)`` for each hull that fits a shape (the kinds are convex).

    What the hull adds must be largely ink (the letters); a gap between lines gains
    empty paper instead.
    """
    out = []
    for r in pieces:
        if r.area < min_area:
            continue
        x1, y1, x2, y2 = r.bbox
        hull = cv2.convexHull(r.contour.astype(np.int32) - np.array([x1, y1]))
        m = _inked_hull(r.filled, hull, ink[y1:y2, x1:x2], max_growth, min_ink)
        if m is None:
            continue
        region = Region(bbox=r.bbox, filled=m, paper_area=r.paper_area,
                        contour=hull.reshape(-1, 2) + np.array([x1, y1]))
        kind, fit = classify(region.filled)
        if fit >= min_fit and kind in kinds:
            out.append((region, kind, fit))
    return out


def _border_ink(mask: np.ndarray, ink: np.ndarray, reach: int) -> float:
    """Share of a mask's outline lying on ink (within ``reach``): a drawn outline is
    inked all round, a gap between lines only where the lines run."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    if not contours:
        return 0.0
    pts = max(contours, key=len).reshape(-1, 2)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    near = cv2.dilate(ink.astype(np.uint8), kernel).astype(bool)
    return float(near[pts[:, 1], pts[:, 0]].mean())


def _within(r: Region, t: Region) -> bool:
    """Whether region ``r``'s bbox centre lies inside region ``t``."""
    cx, cy = (r.bbox[0] + r.bbox[2]) // 2, (r.bbox[1] + r.bbox[3]) // 2
    x1, y1, x2, y2 = t.bbox
    return x1 <= cx < x2 and y1 <= cy < y2 and bool(t.filled[cy - y1, cx - x1])


def _slivers(union: np.ndarray, ink: np.ndarray, reach: int) -> np.ndarray:
    """Paper enclosed within the crop, outside ``union`` but within ``reach`` of it: the
    thin wedges a line cuts off along a shape's side."""
    _, labels, stats, _ = components((~ink).astype(np.uint8), 4)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    near = cv2.dilate(union.astype(np.uint8), kernel).astype(bool) & ~union
    h, w = union.shape
    out = np.zeros(union.shape, bool)
    for i in set(np.unique(labels[near]).tolist()) - {0}:
        x, y, bw, bh = stats[i, :4]
        if x == 0 or y == 0 or x + bw == w or y + bh == h:
            continue  # open paper: outside the shape
        comp = labels == i
        if not (comp & union).any():
            out |= comp
    return out


def hull_joined(pieces: list[Region], ink: np.ndarray, stroke: float, min_area: float,
                min_fit: float, taken: Sequence[Region] = (), *, min_ink: float = 0.5,
                min_border: float = 0.9, max_growth: float = 1.6
                ) -> list[tuple[Region, str, float]]:
    """Neighbouring pieces of a triangle crossed by lines and touched by its label,
    restored by the convex hull of their union: ``(region, kind, fit)`` each.

    The plain union misses the crossing lines and letters; the hull covers them.  The
    hull must add mostly ink and its outline must be inked nearly all round, so a
    gap between lines (paper added, bare outline) is not taken for a shape.  Groups
    with a piece inside a ``taken`` region (already found otherwise) are skipped.
    Slivers too small to be pieces (a line running close along a side) join too.
    """
    reach = int(round(stroke)) + 2
    adj = _neighbours(pieces, ink.shape, reach)
    out = []
    for group in _groups(adj):
        if len(group) > 6:
            continue
        members = [pieces[i] for i in group]
        if any(_within(r, t) for r in members for t in taken):
            continue
        pad = 3 * reach  # room for slivers reaching past the pieces to a corner
        x1 = min(r.bbox[0] for r in members) - pad
        y1 = min(r.bbox[1] for r in members) - pad
        x2 = max(r.bbox[2] for r in members) + pad
        y2 = max(r.bbox[3] for r in members) + pad
        if x1 < 0 or y1 < 0 or x2 > ink.shape[1] or y2 > ink.shape[0]:
            continue
        union = np.zeros((y2 - y1, x2 - x1), bool)
        for r in members:
            a, b, c, d = r.bbox
            union[b - y1:d - y1, a - x1:c - x1] |= r.filled
        if union.sum() < min_area:
            continue
        crop = ink[y1:y2, x1:x2]
        slivers = _slivers(union, crop, reach)
        if len(group) < 2 and not slivers.any():
            continue  # a single notched piece is hull_fits' case
        union |= slivers
        hull = cv2.convexHull(cv2.findNonZero(union.astype(np.uint8)))
        hm = _inked_hull(union, hull, crop, max_growth, min_ink)
        if hm is None or _border_ink(hm, crop, reach) < min_border:
            continue
        region = region_from_mask(hm, x1, y1, sum(r.paper_area for r in members))
        kind, fit = _fit(region)
        if fit >= min_fit and kind in HULL_KINDS:
            out.append((region, kind, fit))
    return out


def _closed(regions: list[Region], reach: int) -> Region:
    """The members dilated by ``reach``, united, holes filled and eroded back all round
    (``unite`` without opening, which would round a box's corners)."""
    # padded so that it is eroded back from the crop's edge too
    m, x1, y1, kernel = _filled_union(regions, reach, 2 * reach + 1)
    return region_from_mask(cv2.erode(m, kernel), x1, y1, sum(r.paper_area for r in regions))


CUT_BOX_KINDS = ("parallelogram", "hexagon")
"""What a box looks like with one end cut off by a line drawn across it at a slant."""
BOX_KINDS = ("rect", "round_rect")


def mended_boxes(shapes: list[tuple[Region, str, float]], pieces: list[Region],
                 size: tuple[int, int], stroke: float, min_area: float, min_fit: float
                 ) -> tuple[list[tuple[int, Region, str, float]], list[tuple[Region, str, float]],
                            set[int]]:
    """Boxes a slanted line cut into pieces.  A shape (``(region, kind, fit)``) of a kind
    such a cut leaves, or a piece that fits no shape, united with the pieces beside it (a
    line width apart) that fit no shape either, may fit a box: pieces join largest first
    while the box fit improves.  (``joined_pieces`` leaves boxes out, as rectangular gaps
    between orthogonal lines would join; such gaps fit a box alone, so they do not join
    here.)  Returns the mended shapes ``(index, region, kind, fit)``, the new boxes
    ``(region, kind, fit)`` and the indices of the pieces used."""
    # Slivers smaller than this are letter holes and line wedges, not parts of a box.
    sized = [j for j, r in enumerate(pieces) if r.area >= min_area / 2]
    cand = [i for i, (_, kind, _) in enumerate(shapes) if kind in CUT_BOX_KINDS]
    if not sized or (not cand and len(sized) < 2):
        return [], [], set()
    fits: dict[int, float] = {}

    def loose(j: int) -> bool:
        if j not in fits:
            fits[j] = classify(pieces[j].filled)[1] if pieces[j].area >= min_area / 2 else 1.0
        return fits[j] < min_fit

    regions = [shapes[i][0] for i in cand] + list(pieces)
    reach = int(round(stroke)) + 2
    adj = _neighbours(regions, size, reach)
    seeds = [(k, shapes[i][0], shapes[i][2], None) for k, i in enumerate(cand)]
    seeds += sorted(((len(cand) + j, pieces[j], 0.0, j) for j in sized
                     if pieces[j].area >= min_area), key=lambda s: -s[1].area)
    used: set[int] = set()
    mended, boxes = [], []
    for k, region, old, own in seeds:
        if own in used or (own is not None and not any(
                j - len(cand) in sized for j in adj[k] if j >= len(cand))):
            continue
        near = sorted((j - len(cand) for j in adj[k] if j >= len(cand)),
                      key=lambda j: -pieces[j].area)
        members: list[int] = []
        fit, kind, best = 0.0, "", region
        for j in near:
            if j in used or j == own or pieces[j].area > region.area:
                continue
            parts = [region] + [pieces[m] for m in members + [j]]
            x1, y1 = min(p.bbox[0] for p in parts), min(p.bbox[1] for p in parts)
            x2, y2 = max(p.bbox[2] for p in parts), max(p.bbox[3] for p in parts)
            if sum(p.area for p in parts) < min_fit * (x2 - x1) * (y2 - y1):
                continue  # too little of their box filled to fit one
            if not loose(j) or (own is not None and not loose(own)):
                continue
            r = _closed(parts, reach)
            kd, f = classify(r.filled)
            if kd in BOX_KINDS and f > max(fit, old) + 0.005:
                members.append(j)
                fit, kind, best = f, kd, r
        if not members or fit < min_fit:
            continue
        used.update(members)
        if own is None:
            mended.append((cand[k], best, kind, fit))
        else:
            used.add(own)
            boxes.append((best, kind, fit))
    return mended, boxes, used


def _seam_ends(inside: np.ndarray, pieces: np.ndarray, band: int
               ) -> list[list[tuple[float, float]]]:
    """Where the cuts between pieces (parts of ``inside`` no piece covers that reach two
    sides of its box; a letter touching one side is no cut) meet the sides: for each cut,
    the points ``(x, y)`` (in the crop) at the middle of each run along a side."""
    seam = (inside & ~pieces).astype(np.uint8)
    n, labels, _, _ = components(seam, 8)
    h, w = inside.shape
    cuts = []
    for i in range(1, n):
        comp = labels == i
        strips = (comp[:, :band].any(axis=1), comp[:, -band:].any(axis=1),
                  comp[:band, :].any(axis=0), comp[-band:, :].any(axis=0))
        found = []
        for side, on in enumerate(strips):
            d = np.diff(np.concatenate(([0], on.astype(np.int8), [0])))
            for a, b in zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1)):
                m = (a + b - 1) / 2
                found.append((side, ((0.0, m), (w - 1.0, m), (m, 0.0), (m, h - 1.0))[side]))
        if len({f[0] for f in found}) < 2:
            continue
        ends: list[tuple[float, float]] = []
        for _, (x, y) in found:  # a cut through a corner meets both its sides: one end
            close = [k for k, (u, v) in enumerate(ends) if abs(u - x) + abs(v - y) <= 2 * band]
            if close:
                u, v = ends[close[0]]
                ends[close[0]] = ((u + x) / 2, (v + y) / 2)
            else:
                ends.append((x, y))
        if len(ends) >= 2:
            cuts.append(ends)
    return cuts


def _runs_on(ink: np.ndarray, start: tuple[float, float], end: tuple[float, float],
             gap: int, length: int) -> bool:
    """Whether ink carries on the straight line from ``start`` through ``end`` beyond
    ``end``, from ``gap`` (past the border) for ``length`` pixels."""
    d = np.subtract(end, start)
    n = float(np.hypot(*d))
    if n < 1:
        return False
    t = np.arange(gap + 1, gap + length + 1)
    xs = np.rint(end[0] + d[0] / n * t).astype(int)
    ys = np.rint(end[1] + d[1] / n * t).astype(int)
    h, w = ink.shape
    if xs.min() < 1 or ys.min() < 1 or xs.max() >= w - 1 or ys.max() >= h - 1:
        return False
    near = np.zeros(len(t), bool)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            near |= ink[ys + dy, xs + dx]
    return bool(near.mean() >= 0.85)


def _touch(a: Region, b: Region, reach: int) -> bool:
    """Whether two regions come within ``reach`` of each other (a line width apart)."""
    x1, y1 = min(a.bbox[0], b.bbox[0]) - reach, min(a.bbox[1], b.bbox[1]) - reach
    x2, y2 = max(a.bbox[2], b.bbox[2]) + reach, max(a.bbox[3], b.bbox[3]) + reach
    ma = np.zeros((y2 - y1, x2 - x1), np.uint8)
    ma[a.bbox[1] - y1:a.bbox[3] - y1, a.bbox[0] - x1:a.bbox[2] - x1] = a.filled
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    ma = cv2.dilate(ma, kernel).astype(bool)
    return bool(ma[b.bbox[1] - y1:b.bbox[3] - y1, b.bbox[0] - x1:b.bbox[2] - x1][b.filled].any())


def crossed_boxes(pieces: list[Region], ink: np.ndarray, stroke: float, text_height: float,
                  min_area: float, min_fit: float, *, max_parts: int = 4,
                  min_border: float = 0.9,
                  found: Sequence[Region] = (), boxes: Sequence[Region] = ()
                  ) -> tuple[list[tuple[Region, str, float]], set[int]]:
    """Boxes cut whole by straight lines drawn across them: up to ``max_parts``
    neighbouring pieces (a line width apart) whose union fits a box, whose outline is
    inked all round, and whose every cut runs on straight past the box at one end at
    least (a connector may start on the corner it is drawn through).

    A wall shared by two boxes side by side ends at their outline, and a gap between
    lines has no outline drawn where it opens onto paper; a connector crossing a box
    carries on beyond it.  Every piece of a cut box reaches its outline, and no shape
    already ``found`` (other than a piece) lies inside it: a frame drawn round shapes
    keeps them.  A box found already (one of ``boxes``) that spans the pieces' joint box
    stays as it is: what a line cut off its corner is a wedge with the line along it.
    Returns the boxes ``(region, kind, fit)`` and the indices of the pieces used.
    """
    reach = int(round(stroke)) + 2
    # (the bounding box first: counting every letter hole's pixels costs more)
    areas = {j: r.area for j, r in enumerate(pieces) if r.width * r.height >= min_area / 2}
    sized = [j for j, a in areas.items() if a >= min_area / 2]
    # Cheap test first: only pieces whose boxes nearly touch another's can join.
    if len(sized) < 2:
        return [], set()
    b = np.array([pieces[j].bbox for j in sized])
    near = ((b[:, None, 0] < b[None, :, 2] + reach) & (b[None, :, 0] < b[:, None, 2] + reach)
            & (b[:, None, 1] < b[None, :, 3] + reach) & (b[None, :, 1] < b[:, None, 3] + reach))
    np.fill_diagonal(near, False)
    close: dict[int, set[int]] = {j: set() for j in sized}
    for a, b in zip(*np.nonzero(near)):
        close[sized[a]].add(sized[b])
    touching: dict[tuple[int, int], bool] = {}

    def adjacent(j: int, parts: list[int]) -> bool:
        """Whether piece ``j`` comes a line width near one of the parts (measured only
        for a piece that would join, so pages without cut boxes pay little)."""
        for m in parts:
            if j in close[m]:
                key = (min(j, m), max(j, m))
                if key not in touching:
                    touching[key] = _touch(pieces[key[0]], pieces[key[1]], reach)
                if touching[key]:
                    return True
        return False

    used: set[int] = set()
    tried: set[int] = set()
    out = []

    def filled(parts: list[int]) -> float:
        """Share of the parts' bounding box they fill: rises as pieces of one box join
        and falls if a piece beyond its border does."""
        x1, y1, x2, y2 = _joint_box([pieces[m] for m in parts])
        return sum(areas[m] for m in parts) / ((x2 - x1) * (y2 - y1))

    def on_outline(parts: list[int]) -> bool:
        """Whether every part reaches a side of the parts' joint bounding box (a shape
        inside a frame cut by lines reaches none)."""
        x1, y1, x2, y2 = _joint_box([pieces[m] for m in parts])
        return all(a - x1 <= reach or b - y1 <= reach or x2 - c <= reach or y2 - d <= reach
                   for a, b, c, d in (pieces[m].bbox for m in parts))

    for seed in sorted(sized, key=lambda j: -areas[j]):
        if seed in used or seed in tried or areas[seed] < min_area or not close[seed]:
            continue
        members, score = [seed], filled([seed])
        while len(members) < max_parts:
            # The piece filling most of the joint box that may join, best first.
            options = sorted(((filled(members + [j]), j)
                              for j in set().union(*(close[m] for m in members))
                              if j not in used and j not in members), reverse=True)
            step = next(((f, j) for f, j in options if f <= score + 0.005
                         or (on_outline(members + [j]) and adjacent(j, members))), None)
            if step is None or step[0] <= score + 0.005:
                break
            score = step[0]
            members.append(step[1])
        tried.update(members)  # a group that fails fails again from another seed
        if len(members) < 2 or score < 0.7:
            continue  # too little of their box filled (letters on a cut fill in)
        if any(_spans(pieces[m], members, pieces, reach) for m in members
               if any(pieces[m] is r for r in boxes)):
            continue  # the box is found already; a wedge off its corner would add a line
        best = _closed([pieces[m] for m in members], reach)
        if best.area < min_fit * best.width * best.height:
            continue  # no box (and no need to classify it)
        kind, fit = classify(best.filled)
        if kind not in BOX_KINDS or fit < min_fit or best.area < min_area:
            continue
        if any(_within(r, best) for r in found if not any(r is pieces[m] for m in members)):
            continue  # a frame round shapes found already
        if _cut_through(best, [pieces[m] for m in members], ink, reach, text_height,
                        min_border):
            used.update(members)
            out.append((best, kind, fit))
    return out, used


def _spans(r: Region, members: list[int], pieces: list[Region], reach: int) -> bool:
    """Whether region ``r`` reaches every side of the members' joint bounding box."""
    x1, y1, x2, y2 = _joint_box([pieces[m] for m in members])
    a, b, c, d = r.bbox
    return a - x1 <= reach and b - y1 <= reach and x2 - c <= reach and y2 - d <= reach


def _cut_through(box: Region, parts: list[Region], ink: np.ndarray, reach: int,
                 text_height: float, min_border: float) -> bool:
    """Whether ``box`` (the union of ``parts``) has its outline inked all round and is cut
    only by lines that run on past it, at one end of every cut at least."""
    x1, y1, x2, y2 = box.bbox
    h, w = ink.shape
    if x1 < reach or y1 < reach or x2 + reach > w or y2 + reach > h:
        return False
    crop = ink[y1 - reach:y2 + reach, x1 - reach:x2 + reach]
    mask = np.zeros(crop.shape, bool)
    mask[reach:-reach, reach:-reach] = box.filled
    if _border_ink(mask, crop, reach) < min_border:
        return False
    cover = np.zeros(box.filled.shape, bool)
    for p in parts:
        a, b, c, d = p.bbox
        ix1, iy1, ix2, iy2 = max(a, x1), max(b, y1), min(c, x2), min(d, y2)
        cover[iy1 - y1:iy2 - y1, ix1 - x1:ix2 - x1] |= \
            p.filled[iy1 - b:iy2 - b, ix1 - a:ix2 - a]
    cuts = _seam_ends(box.filled, cover, reach)
    length = max(2 * reach, int(round(text_height)))
    # Every cut must carry straight on past the box at one end at least (a connector
    # may end on the box's corner it is drawn through); a wall inside a box does not.
    # The cut is the straight line between two of its ends on different sides: a
    # letter touching a side splits the seam's run there into ends no straight cut
    # joins, and along one side the box's own border runs on.
    seam = box.filled & ~cover
    bh, bw = seam.shape
    return bool(cuts) and all(
        any(_runs_on(ink, (f[0] + x1, f[1] + y1), (e[0] + x1, e[1] + y1), reach, length)
            for e in ends for f in ends if f is not e and not _one_side(e, f, bw, bh, reach)
            and _straight(seam, e, f, reach))
        for ends in cuts)


def _one_side(e: tuple[float, float], f: tuple[float, float], w: int, h: int,
              band: int) -> bool:
    """Whether two seam ends (crop ``x, y`` in a ``w x h`` box) lie on the same side."""
    return ((e[0] <= band and f[0] <= band) or (e[0] >= w - 1 - band and f[0] >= w - 1 - band)
            or (e[1] <= band and f[1] <= band)
            or (e[1] >= h - 1 - band and f[1] >= h - 1 - band))


STRAIGHT_SHARE = 0.9
"""Share of the straight line between two ends of a cut that must run along the seam."""


def _straight(seam: np.ndarray, a: tuple[float, float], b: tuple[float, float],
              reach: int) -> bool:
    """Whether the straight line from ``a`` to ``b`` (crop ``x, y``) runs within
    ``reach`` of ``seam`` (the box's pixels no piece covers) nearly all its length."""
    n = max(2, int(np.hypot(b[0] - a[0], b[1] - a[1])))
    h, w = seam.shape
    xs = np.clip(np.rint(np.linspace(a[0], b[0], n)).astype(int), 0, w - 1)
    ys = np.clip(np.rint(np.linspace(a[1], b[1], n)).astype(int), 0, h - 1)
    k = 2 * reach + 1
    near = cv2.dilate(seam.astype(np.uint8), np.ones((k, k), np.uint8)).astype(bool)
    return bool(near[ys, xs].mean() >= STRAIGHT_SHARE)
