"""Trace connectors: connector mask -> skeleton -> walked paths -> repaired polylines.

Repairs, all scaled to the stroke width: short spurs (arrowhead corners, serifs of the
skeleton) are pruned; at a junction the branches are paired by direction continuity, so
two lines that cross stay two lines; a branch left unpaired at a junction ends there and
is reported as landing on the other connector; collinear pieces separated by a short gap
(dashed and dotted lines) are bridged and the connector marked dashed or dotted.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from skimage.morphology import skeletonize

from ..primitives.elements import Inventory
from ._walk import walk_skeleton
from .elements import Connector, End


def _remove_shapes(mask: np.ndarray, inv: Inventory, pad: int, outer: bool) -> np.ndarray:
    """``mask`` without every shape's area (outer or inner border), grown by ``pad``."""
    h, w = mask.shape
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pad + 1, 2 * pad + 1))
    for s in inv.shapes:
        r = s.outer if outer else s.interior
        x1, y1, x2, y2 = r.bbox
        grown = cv2.dilate(np.pad(r.filled, pad).astype(np.uint8), kernel).astype(bool)
        gx1, gy1 = x1 - pad, y1 - pad
        cx1, cy1 = max(0, gx1), max(0, gy1)
        cx2, cy2 = min(w, x2 + pad), min(h, y2 + pad)
        mask[cy1:cy2, cx1:cx2] &= ~grown[cy1 - gy1:cy2 - gy1, cx1 - gx1:cx2 - gx1]
    for t in inv.texts:
        x1, y1, x2, y2 = t.bbox
        mask[y1:y2, x1:x2] = False
    return mask


def connector_mask(inv: Inventory, ink: np.ndarray | None = None,
                   boxes: list[tuple[int, int, int, int]] = ()) -> np.ndarray:
    """Ink that is not a shape (border, inside) nor text: the connectors and their heads.

    ``ink`` replaces the inventory's ink (e.g. strong ink without drop shadows) and
    ``boxes`` are further rectangles to clear (class boxes found from their border lines).
    """
    mask = (inv.ink if ink is None else ink).copy()
    if inv.text_mask is not None:
        mask &= ~inv.text_mask
    pad = int(round(inv.scale.stroke)) + 2
    h, w = mask.shape
    for x1, y1, x2, y2 in boxes:
        mask[max(0, y1 - pad):min(h, y2 + pad + 1), max(0, x1 - pad):min(w, x2 + pad + 1)] = False
    return _remove_shapes(mask, inv, pad, outer=True)


def marker_mask(inv: Inventory) -> np.ndarray:
    """Ink outside shape interiors, borders kept: arrowheads that overlap a border stay whole."""
    mask = inv.ink.copy()
    if inv.text_mask is not None:
        mask &= ~inv.text_mask
    return _remove_shapes(mask, inv, 0, outer=False)


@dataclass
class _Piece:
    """A walked path between two graph vertices (junction clusters or end points)."""

    pts: np.ndarray  # N x 2, x y
    a: int
    b: int


def _vertex_ids(coords: np.ndarray, offsets: np.ndarray, shape: tuple[int, int]
                ) -> tuple[np.ndarray, int]:
    """Label each path end pixel with a vertex id; adjacent junction pixels share one."""
    ends = np.zeros(shape, np.uint8)
    for i in range(len(offsets) - 1):
        s, e = offsets[i], offsets[i + 1] - 1
        ends[coords[s, 0], coords[s, 1]] = 1
        ends[coords[e, 0], coords[e, 1]] = 1
    n, labels = cv2.connectedComponents(ends, connectivity=8)
    return labels, n


def _pieces(mask: np.ndarray) -> list[_Piece]:
    skel = skeletonize(mask)
    coords, offsets = walk_skeleton(skel)
    labels, _ = _vertex_ids(coords, offsets, mask.shape)
    out = []
    for i in range(len(offsets) - 1):
        c = coords[offsets[i]:offsets[i + 1]]
        a = int(labels[c[0, 0], c[0, 1]])
        b = int(labels[c[-1, 0], c[-1, 1]])
        if a == b and len(c) <= 3:
            continue
        out.append(_Piece(pts=c[:, ::-1].astype(np.float64), a=a, b=b))
    return out


def _direction(pts: np.ndarray, span: float) -> np.ndarray:
    """Unit vector leaving ``pts`` at its first point, fitted over ``span`` pixels."""
    if len(pts) < 2:
        return np.array([0.0, 0.0])
    d = np.linalg.norm(pts - pts[0], axis=1)
    far = pts[min(len(pts) - 1, max(1, int(np.searchsorted(d, span))))]
    v = pts[0] - far
    n = np.linalg.norm(v)
    return v / n if n else np.array([0.0, 0.0])


def _length(pts: np.ndarray) -> float:
    return float(np.linalg.norm(np.diff(pts, axis=0), axis=1).sum()) if len(pts) > 1 else 0.0


def _prune_spurs(pieces: list[_Piece], min_len: float) -> list[_Piece]:
    """Drop short pieces hanging off a junction by a free end, until none is left."""
    while True:
        deg: dict[int, int] = {}
        for p in pieces:
            deg[p.a] = deg.get(p.a, 0) + 1
            deg[p.b] = deg.get(p.b, 0) + 1
        keep = [p for p in pieces
                if not (_length(p.pts) < min_len
                        and ((deg[p.a] == 1 and deg[p.b] >= 3)
                             or (deg[p.b] == 1 and deg[p.a] >= 3)))]
        if len(keep) == len(pieces):
            return keep
        pieces = keep


def _chain(pieces: list[_Piece], span: float) -> list[np.ndarray]:
    """Join pieces into polylines, pairing branches at each vertex by straightness."""
    at: dict[int, list[tuple[int, int]]] = {}
    for i, p in enumerate(pieces):
        at.setdefault(p.a, []).append((i, 0))
        at.setdefault(p.b, []).append((i, 1))
    partner: dict[tuple[int, int], tuple[int, int]] = {}
    for v, branches in at.items():
        if len(branches) < 2:
            continue
        dirs = {}
        for (i, end) in branches:
            pts = pieces[i].pts if end == 0 else pieces[i].pts[::-1]
            dirs[(i, end)] = _direction(pts, span)
        free = list(branches)
        pairs = []
        for x in range(len(free)):
            for y in range(x + 1, len(free)):
                if free[x][0] == free[y][0]:
                    continue
                pairs.append((float(dirs[free[x]] @ dirs[free[y]]), free[x], free[y]))
        pairs.sort(key=lambda t: t[0])
        used = set()
        for cos, b1, b2 in pairs:
            if b1 in used or b2 in used:
                continue
            if cos > (-0.5 if len(branches) > 2 else 0.0):
                continue
            partner[b1], partner[b2] = b2, b1
            used.update((b1, b2))
    seen: set[int] = set()

    def follow(i: int, e: int) -> np.ndarray:
        parts = []
        c = i
        while True:
            seen.add(c)
            pts = pieces[c].pts if e == 0 else pieces[c].pts[::-1]
            parts.append(pts if not parts else pts[1:])
            key = (c, 1 - e)
            if key not in partner or partner[key][0] in seen:
                break
            c, e = partner[key]
        return np.vstack(parts)

    lines = []
    for i in range(len(pieces)):
        for e in (0, 1):
            if i not in seen and (i, e) not in partner:
                lines.append(follow(i, e))
    for i in range(len(pieces)):
        if i not in seen:
            lines.append(follow(i, 0))
    return lines


def _bridge_gaps(lines: list[np.ndarray], max_gap: float, span: float, tiny: float = 3.0
                 ) -> tuple[list[np.ndarray], list[int]]:
    """Join collinear lines whose ends face each other across a short gap.

    Candidate end pairs come from a k-d tree; the closest facing pairs are linked first,
    each end at most once.  Gaps wider than ``2 * tiny`` must also lie along the line.  Returns the joined lines and, per line, how many gaps were
    bridged inside it.
    """
    from scipy.spatial import cKDTree

    if len(lines) < 2:
        return lines, [0] * len(lines)
    pts = np.array([l[0] if e == 0 else l[-1] for l in lines for e in (0, 1)])
    dirs = np.array([_direction(l if e == 0 else l[::-1], span) for l in lines for e in (0, 1)])
    cands = []
    for p, q in cKDTree(pts).query_pairs(max_gap):
        if p // 2 == q // 2:
            continue
        gap = pts[q] - pts[p]
        dist = float(np.linalg.norm(gap))
        if dist == 0:
            continue
        if float(dirs[p] @ dirs[q]) > -0.8:
            continue
        # across a gap of a few pixels the offset's own direction means little
        if dist > 2 * tiny and float(gap @ dirs[p]) / dist < 0.8:
            continue
        cands.append((dist, p, q))
    link: dict[int, int] = {}
    for _, p, q in sorted(cands):
        if p not in link and q not in link:
            link[p], link[q] = q, p
    seen: set[int] = set()
    out, gaps = [], []

    def follow(i: int, e: int) -> tuple[np.ndarray, int]:
        parts, n = [], 0
        while True:
            seen.add(i)
            parts.append(lines[i] if e == 0 else lines[i][::-1])
            far = 2 * i + (1 - e)
            if far not in link or link[far] // 2 in seen:
                break
            nxt = link[far]
            i, e = nxt // 2, nxt % 2
            n += 1
        return np.vstack(parts), n

    for i in range(len(lines)):
        for e in (0, 1):
            if i not in seen and (2 * i + e) not in link:
                joined, n = follow(i, e)
                out.append(joined)
                gaps.append(n)
    for i in range(len(lines)):
        if i not in seen:
            joined, n = follow(i, 0)
            out.append(joined)
            gaps.append(n)
    return out, gaps


def _dash_ends(ys: np.ndarray, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The two extreme points of a dash along its main axis, and that unit axis."""
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    centre = pts.mean(axis=0)
    cov = np.cov((pts - centre).T) if len(pts) > 1 else np.eye(2)
    vals, vecs = np.linalg.eigh(cov)
    axis = vecs[:, np.argmax(vals)]
    t = (pts - centre) @ axis
    return pts[np.argmin(t)], pts[np.argmax(t)], axis


def _join_dashes(mask: np.ndarray, stroke: float, text_height: float = 0.0) -> np.ndarray:
    """Bridge the gaps of dashed and dotted lines, leaving long lines untouched.

    Dash-sized blobs that are elongated are linked end to end with their collinear
    neighbours (gaps up to about two dash lengths); round dots are closed together
    morphologically.
    """
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), 8)
    size = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    limit = 4 * stroke + 6
    small_ids = [i for i in range(1, n) if size[i] <= limit]
    if not small_ids:
        return mask
    out = mask.copy()
    ends, axes, lengths, owners = [], [], [], []
    dots = np.zeros(mask.shape, np.uint8)
    for i in small_ids:
        x, y, w, h = stats[i, :4]
        ys, xs = np.nonzero(labels[y:y + h, x:x + w] == i)
        if max(w, h) >= 2.5 * max(1, min(w, h)) and max(w, h) >= 3:
            a, b, axis = _dash_ends(ys + y, xs + x)
            for p in (a, b):
                ends.append(p)
                axes.append(axis)
                lengths.append(float(np.linalg.norm(b - a)) + 1)
                owners.append(i)
        else:
            dots[labels == i] = 1
    if ends:
        from scipy.spatial import cKDTree

        pts = np.array(ends)
        max_gap = max(2.2 * float(np.median(lengths)), 3 * stroke + 4)
        for i, j in cKDTree(pts).query_pairs(max_gap):
            if owners[i] == owners[j]:
                continue
            v = pts[j] - pts[i]
            d = float(np.linalg.norm(v))
            if d == 0:
                continue
            v /= d
            if abs(float(v @ axes[i])) > 0.9 and abs(float(v @ axes[j])) > 0.9:
                cv2.line(out, tuple(int(round(c)) for c in pts[i]),
                         tuple(int(round(c)) for c in pts[j]), 1, 1)
    if dots.any():
        r = int(round(2 * stroke)) + 1
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        out |= cv2.morphologyEx(dots, cv2.MORPH_CLOSE, kernel).astype(bool)
    return out.astype(bool)


def _style(covered: np.ndarray, n_gaps: int, length: float, stroke: float) -> str:
    """Solid, dashed or dotted from how much of the traced path has ink under it."""
    if covered.size == 0:
        return "solid"
    runs = np.diff(np.concatenate([[0], covered.astype(np.int8), [0]]))
    n_dashes = int((runs == 1).sum()) + n_gaps
    coverage = float(covered.mean())
    if coverage > 0.9 and n_gaps == 0:
        return "solid"
    if n_dashes < 2 or (n_dashes == 2 and coverage > 0.8):
        return "solid"
    dash_len = coverage * length / max(n_dashes, 1)
    return "dotted" if dash_len < 2.5 * stroke + 1 else "dashed"


def trace_connectors(inv: Inventory, mask: np.ndarray | None = None) -> list[Connector]:
    """All connectors of a page as polylines with unattached ends (see ``attach``)."""
    if mask is None:
        mask = connector_mask(inv)
    stroke = inv.scale.stroke
    span = 3 * stroke + 4
    pieces = _prune_spurs(_pieces(_join_dashes(mask, stroke, inv.scale.text_height)),
                          2.5 * stroke + 6)
    lines = _chain(pieces, span)
    lines, gaps = _bridge_gaps(lines, max(3 * stroke + 6, 1.2 * inv.scale.text_height), span,
                               stroke + 1)
    dist = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    near = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    out = []
    for line, n_gaps in zip(lines, gaps):
        length = _length(line)
        if length < max(3 * stroke + 4, 0.8 * inv.scale.text_height):
            continue
        xs = np.clip(line[:, 0].astype(int), 0, mask.shape[1] - 1)
        ys = np.clip(line[:, 1].astype(int), 0, mask.shape[0] - 1)
        width = float(2 * np.median(dist[ys, xs]))
        style = _style(near[ys, xs], n_gaps, length, stroke)
        ends = (End(point=tuple(line[0]), direction=tuple(_direction(line, span))),
                End(point=tuple(line[-1]), direction=tuple(_direction(line[::-1], span))))
        out.append(Connector(points=line, ends=ends, style=style, width=width))
    return out
