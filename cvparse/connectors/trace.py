"""Trace connectors: connector mask -> skeleton -> walked paths -> repaired polylines.

Repairs, all scaled to the stroke width: edge labels set on a pale plate over a line
are cleared first; short spurs (arrowhead corners, serifs of the skeleton) are pruned,
but a junction keeps its longest branch (a stub left between a label and its arrowhead);
two three-way junctions joined by a short stretch are one shallow crossing; at a
junction the branches are paired by direction continuity, so two lines that cross stay
two lines, except where lines converge on a shape (a pruned spur touched it, or the
junction lies next to a shape): there only straight-through branches pair; a branch
left unpaired at a junction ends there and is reported as landing on the other
connector; collinear pieces separated by a short gap (dashed and dotted lines, dots
chained one by one, noise specks left out) are bridged and the connector marked dashed
or dotted; facing ends are also joined across a free text box or label plate (a stub
only has to lie ahead) or, for long free lines, across an unread label; no gap is
bridged across a shape; two halves of a line cut by a shallow crossing, both landing on
the crossing line and facing each other, are joined.  Phantom shapes (areas closed off
by connectors) are traced through.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from skimage.morphology import skeletonize

from ..primitives.elements import Inventory
from ._walk import walk_skeleton
from .attach import attach_grow, attach_reach, end_target, phantom_shapes, shape_label_map
from .elements import Connector, End
from .plates import grow_plates, label_plates


def _text_mask(inv: Inventory, phantoms: set[int]) -> np.ndarray | None:
    """The inventory's text ink, less the inside of phantom shapes (everything drawn in a
    "shape" is taken for its text, but a phantom holds connectors, not a label) and less
    lines between two nodes read as a letter (``_line_read_as_text``)."""
    misread = [t.bbox for t in inv.texts
               if _line_read_as_text(inv, t.text, t.bbox, _clear_pad(inv))]
    if inv.text_mask is None or not (phantoms or misread):
        return inv.text_mask
    text = inv.text_mask.copy()
    for k in phantoms:
        r = inv.shapes[k].interior
        x1, y1, x2, y2 = r.bbox
        text[y1:y2, x1:x2] &= ~r.filled.astype(bool)
    for x1, y1, x2, y2 in misread:
        text[y1:y2, x1:x2] = False
    return text


def _clear_pad(inv: Inventory) -> int:
    """Margin cleared round every shape in the connector mask."""
    return int(round(inv.scale.stroke)) + 2


def _remove_shapes(mask: np.ndarray, inv: Inventory, pad: int, outer: bool,
                   phantoms: set[int]) -> np.ndarray:
    """``mask`` without every shape's area (outer or inner border), grown by ``pad``.

    Phantom shapes (areas closed off by connectors, see ``phantom_shapes``) stay in.
    """
    h, w = mask.shape
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pad + 1, 2 * pad + 1))
    for k, s in enumerate(inv.shapes):
        if k in phantoms:
            continue
        r = s.outer if outer else s.interior
        x1, y1, x2, y2 = r.bbox
        grown = cv2.dilate(np.pad(r.filled, pad).astype(np.uint8), kernel).astype(bool)
        gx1, gy1 = x1 - pad, y1 - pad
        cx1, cy1 = max(0, gx1), max(0, gy1)
        cx2, cy2 = min(w, x2 + pad), min(h, y2 + pad)
        mask[cy1:cy2, cx1:cx2] &= ~grown[cy1 - gy1:cy2 - gy1, cx1 - gx1:cx2 - gx1]
    for t in inv.texts:
        if _line_read_as_text(inv, t.text, t.bbox, _clear_pad(inv)):
            continue
        x1, y1, x2, y2 = t.bbox
        mask[y1:y2, x1:x2] = False
    return mask


def _line_read_as_text(inv: Inventory, text: str, box, gap: float) -> bool:
    """True for a "word" of one or two characters whose box reaches from one shape to
    another: a short line between two nodes read as ``I`` or ``l``, not text to clear."""
    if len(text.replace(" ", "")) > 2:
        return False
    x1, y1, x2, y2 = box
    touching = sum(s.bbox[0] <= x2 + gap and s.bbox[2] >= x1 - gap
                   and s.bbox[1] <= y2 + gap and s.bbox[3] >= y1 - gap for s in inv.shapes)
    return touching >= 2


def connector_mask(inv: Inventory, ink: np.ndarray | None = None,
                   boxes: list[tuple[int, int, int, int]] = ()) -> np.ndarray:
    """Ink that is not a shape (border, inside) nor text: the connectors and their heads.

    ``ink`` replaces the inventory's ink (e.g. strong ink without drop shadows) and
    ``boxes`` are further rectangles to clear (class boxes found from their border lines).
    """
    mask = (inv.ink if ink is None else ink).copy()
    phantoms = phantom_shapes(inv)
    text = _text_mask(inv, phantoms)
    if text is not None:
        mask &= ~text
    pad = _clear_pad(inv)
    h, w = mask.shape
    for x1, y1, x2, y2 in boxes:
        mask[max(0, y1 - pad):min(h, y2 + pad + 1), max(0, x1 - pad):min(w, x2 + pad + 1)] = False
    return _remove_shapes(mask, inv, pad, True, phantoms)


def marker_mask(inv: Inventory) -> np.ndarray:
    """Ink outside shape interiors, borders kept: arrowheads that overlap a border stay whole."""
    mask = inv.ink.copy()
    phantoms = phantom_shapes(inv)
    text = _text_mask(inv, phantoms)
    if text is not None:
        mask &= ~text
    return _remove_shapes(mask, inv, 0, False, phantoms)


@dataclass
class _Piece:
    """A walked path between two graph vertices (junction clusters or end points)."""

    pts: np.ndarray  # N x 2, x y
    a: int
    b: int
    length: float = 0.0


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


def _skeleton(mask: np.ndarray) -> np.ndarray:
    """``skeletonize`` run on the bounding box of the ink only (same result, less work)."""
    ys, xs = np.nonzero(mask.any(axis=1))[0], np.nonzero(mask.any(axis=0))[0]
    skel = np.zeros(mask.shape, bool)
    if len(ys):
        y1, y2 = max(0, ys[0] - 1), min(mask.shape[0], ys[-1] + 2)
        x1, x2 = max(0, xs[0] - 1), min(mask.shape[1], xs[-1] + 2)
        skel[y1:y2, x1:x2] = skeletonize(mask[y1:y2, x1:x2])
    return skel


def _pieces(mask: np.ndarray) -> list[_Piece]:
    skel = _skeleton(mask)
    coords, offsets = walk_skeleton(skel)
    labels, _ = _vertex_ids(coords, offsets, mask.shape)
    out = []
    for i in range(len(offsets) - 1):
        c = coords[offsets[i]:offsets[i + 1]]
        a = int(labels[c[0, 0], c[0, 1]])
        b = int(labels[c[-1, 0], c[-1, 1]])
        if a == b and len(c) <= 3:
            continue
        pts = c[:, ::-1].astype(np.float64)
        out.append(_Piece(pts=pts, a=a, b=b, length=_length(pts)))
    return out


def _direction(pts: np.ndarray, span: float) -> np.ndarray:
    """Unit vector leaving ``pts`` at its first point, fitted over ``span`` pixels."""
    if len(pts) < 2:
        return np.array([0.0, 0.0])
    pts = pts[:int(2 * span) + 2]  # path points are at most 1.5 px apart
    rel = pts - pts[0]
    d = np.sqrt((rel * rel).sum(axis=1))
    v = -rel[min(len(pts) - 1, max(1, int(np.searchsorted(d, span))))]
    n = float(np.sqrt(v @ v))
    return v / n if n else np.array([0.0, 0.0])


def _length(pts: np.ndarray) -> float:
    if len(pts) < 2:
        return 0.0
    d = pts[1:] - pts[:-1]
    return float(np.sqrt((d * d).sum(axis=1)).sum())


def _prune_spurs(pieces: list[_Piece], min_len: float, near_shape: np.ndarray | None = None
                 ) -> tuple[list[_Piece], set[int]]:
    """Drop short pieces hanging off a junction by a free end, until none is left.

    A junction whose branches are all such pieces keeps its longest one: the stub of a
    line cut short (by a label) just before its arrowhead.  Returns the pieces left and
    the junctions that lost a spur touching a shape (``near_shape``): lines meeting
    there converge on that shape.
    """
    docked: set[int] = set()
    while True:
        deg: dict[int, int] = {}
        for p in pieces:
            deg[p.a] = deg.get(p.a, 0) + 1
            deg[p.b] = deg.get(p.b, 0) + 1
        hang: dict[int, list[int]] = {}  # junction -> spurs hanging off it
        for k, p in enumerate(pieces):
            if p.length < min_len and deg[p.a] == 1 and deg[p.b] >= 3:
                hang.setdefault(p.b, []).append(k)
            elif p.length < min_len and deg[p.b] == 1 and deg[p.a] >= 3:
                hang.setdefault(p.a, []).append(k)
        spurs = set()
        for v, ks in hang.items():
            if len(ks) == deg[v]:
                ks = sorted(ks, key=lambda k: pieces[k].length)[:-1]
            spurs.update(ks)
        keep = []
        for k, p in enumerate(pieces):
            spur = k in spurs
            if not spur:
                keep.append(p)
            elif near_shape is not None:
                joint = p.b if deg[p.a] == 1 else p.a
                if any(near_shape[int(q[1]), int(q[0])] for q in (p.pts[0], p.pts[-1])):
                    docked.add(joint)
        if len(keep) == len(pieces):
            return keep, docked
        pieces = keep


def _contract_crossings(pieces: list[_Piece], max_len: float, docked: set[int]
                        ) -> tuple[list[_Piece], set[int]]:
    """Two lines crossing at a shallow angle share a short stretch of skeleton between two
    three-way junctions: drop that stretch and make the two junctions one four-way
    crossing, so each line runs straight on through it."""
    while True:
        deg: dict[int, int] = {}
        for p in pieces:
            deg[p.a] = deg.get(p.a, 0) + 1
            deg[p.b] = deg.get(p.b, 0) + 1
        short = next((k for k, p in enumerate(pieces)
                      if p.a != p.b and p.length <= max_len and deg[p.a] == 3 and deg[p.b] == 3
                      and not _parallel_pair(pieces, p.a, p.b)), None)
        if short is None:
            return pieces, docked
        a, b = pieces[short].a, pieces[short].b
        pieces = [p for k, p in enumerate(pieces) if k != short]
        for p in pieces:
            p.a = a if p.a == b else p.a
            p.b = a if p.b == b else p.b
        if b in docked:
            docked = docked | {a}


def _vertices_on(pieces: list[_Piece], area: np.ndarray) -> set[int]:
    """Vertices lying in ``area`` (next to a shape): lines meeting there (two arrowheads
    side by side on one node) are docked, not one line turning back."""
    out = set()
    for p in pieces:
        for v, q in ((p.a, p.pts[0]), (p.b, p.pts[-1])):
            if area[int(q[1]), int(q[0])]:
                out.add(v)
    return out


def _parallel_pair(pieces: list[_Piece], a: int, b: int) -> bool:
    """True if another piece also joins vertices ``a`` and ``b`` (a loop, not a crossing)."""
    return sum({p.a, p.b} == {a, b} for p in pieces) > 1


def _chain(pieces: list[_Piece], span: float, docked: set[int] = frozenset()
           ) -> list[np.ndarray]:
    """Join pieces into polylines, pairing branches at each vertex by straightness.

    At a ``docked`` vertex (lines converging on a shape) only lines running straight on
    through it are paired; the others end there.
    """
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
            if cos > (-0.9 if v in docked else -0.5 if len(branches) > 2 else 0.0):
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


def _crosses(blocked: np.ndarray | None, p: np.ndarray, q: np.ndarray) -> bool:
    """True if the middle of segment ``p``-``q`` runs over a ``blocked`` pixel (a shape)."""
    if blocked is None:
        return False
    t = np.linspace(0.15, 0.85, 15)[:, None]
    s = np.rint(p + t * (q - p)).astype(int)
    h, w = blocked.shape
    s[:, 0] = np.clip(s[:, 0], 0, w - 1)
    s[:, 1] = np.clip(s[:, 1], 0, h - 1)
    return bool(blocked[s[:, 1], s[:, 0]].any())


def _facing(pts: np.ndarray, dirs: np.ndarray, p: int, q: int, cos: float
            ) -> float | None:
    """Gap between ends ``p`` and ``q`` if they point at each other (opposed directions,
    each along the gap, to within ``cos``), else ``None``."""
    gap = pts[q] - pts[p]
    dist = float(np.linalg.norm(gap))
    if dist == 0 or float(dirs[p] @ dirs[q]) > -cos:
        return None
    if float(gap @ dirs[p]) / dist < cos or float(-gap @ dirs[q]) / dist < cos:
        return None
    return dist


def _across_text(pts: np.ndarray, dirs: np.ndarray, boxes, pad: float,
                 stub: np.ndarray | None = None) -> list[tuple[float, int, int]]:
    """End pairs facing each other across one free text box (a label drawn over a line,
    or a piece of line misread as a letter): ``(gap, end, end)`` candidates.

    An end of a ``stub`` (a line too short to have a direction: the rest of a line
    between a label and its arrowhead) only has to lie straight ahead of the other end.
    """
    out = []
    for x1, y1, x2, y2 in boxes:
        inside = np.flatnonzero((pts[:, 0] >= x1 - pad) & (pts[:, 0] <= x2 + pad)
                                & (pts[:, 1] >= y1 - pad) & (pts[:, 1] <= y2 + pad))
        for a in range(len(inside)):
            for b in range(a + 1, len(inside)):
                p, q = int(inside[a]), int(inside[b])
                if p // 2 == q // 2:
                    continue
                dist = _facing(pts, dirs, p, q, 0.5)
                if dist is None and stub is not None and stub[p] != stub[q]:
                    dist = _ahead(pts, dirs, q, p) if stub[p] else _ahead(pts, dirs, p, q)
                if dist is not None:
                    out.append((dist, p, q))
    return out


def _through_plates(pts: np.ndarray, dirs: np.ndarray, plates, pad: float, reach: float,
                    heads: np.ndarray) -> list[tuple[float, int, int]]:
    """A line end entering a label plate paired with the remains of its arrowhead just
    beyond the plate (``heads``: pieces shorter than a text line, the skeleton of a head
    whose stub from the plate was pruned): ``(gap, end, head end)`` candidates.

    The head's remains lie within ``reach`` of the plate on its far side, roughly ahead
    of the end (a curve through a label bends there); their own direction means nothing.
    """
    out = []
    for x1, y1, x2, y2 in plates:
        into = np.flatnonzero((pts[:, 0] >= x1 - pad) & (pts[:, 0] <= x2 + pad)
                              & (pts[:, 1] >= y1 - pad) & (pts[:, 1] <= y2 + pad) & ~heads)
        r = pad + reach
        near = np.flatnonzero((pts[:, 0] >= x1 - r) & (pts[:, 0] <= x2 + r)
                              & (pts[:, 1] >= y1 - r) & (pts[:, 1] <= y2 + r) & heads)
        centre = np.array([(x1 + x2) / 2, (y1 + y2) / 2])
        for p in into:
            for q in near:
                if p // 2 == q // 2:
                    continue
                dist = _ahead(pts, dirs, int(p), int(q), 0.7)
                # the plate lies between them: the head is past the plate's middle
                if dist is not None and float((pts[q] - centre) @ dirs[p]) > 0:
                    out.append((dist, int(p), int(q)))
    return out


def _ahead(pts: np.ndarray, dirs: np.ndarray, p: int, q: int, cos: float = 0.9
           ) -> float | None:
    """Distance from end ``p`` to point ``q`` if ``q`` lies straight ahead of ``p``."""
    gap = pts[q] - pts[p]
    dist = float(np.linalg.norm(gap))
    if dist == 0 or float(gap @ dirs[p]) / dist < cos:
        return None
    return dist


def _across_labels(pts: np.ndarray, dirs: np.ndarray, free: np.ndarray, reach: float,
                   blocked: np.ndarray | None, ink: np.ndarray | None, text_height: float
                   ) -> list[tuple[float, int, int]]:
    """Free end pairs (``free``: long lines touching no shape) that face each other along
    one line across a longer gap: a label drawn over the line that OCR did not report."""
    from scipy.spatial import cKDTree

    out = []
    for p, q in cKDTree(pts).query_pairs(reach):
        if p // 2 == q // 2 or not (free[p] and free[q]):
            continue
        dist = _facing(pts, dirs, p, q, 0.85)
        if dist is None:
            continue
        if not _crosses(blocked, pts[p], pts[q]) and _text_sized_between(ink, pts[p], pts[q],
                                                                         text_height):
            out.append((dist, p, q))
    return out


def _text_sized_between(ink: np.ndarray | None, p: np.ndarray, q: np.ndarray,
                        text_height: float) -> bool:
    """True if the ink lying on segment ``p``-``q`` is no taller across it than a text line
    (the letters of a label, not an icon drawn between two lines)."""
    if ink is None:
        return False
    m = int(round(2 * text_height))
    h, w = ink.shape
    x1, y1 = int(max(0, min(p[0], q[0]) - m)), int(max(0, min(p[1], q[1]) - m))
    x2, y2 = int(min(w, max(p[0], q[0]) + m + 1)), int(min(h, max(p[1], q[1]) + m + 1))
    n, labels = cv2.connectedComponents(ink[y1:y2, x1:x2].astype(np.uint8), connectivity=8)
    t = np.linspace(0.1, 0.9, 25)[:, None]
    s = np.rint(p + t * (q - p)).astype(int) - [x1, y1]
    s[:, 0] = np.clip(s[:, 0], 0, x2 - x1 - 1)
    s[:, 1] = np.clip(s[:, 1], 0, y2 - y1 - 1)
    hit = set(labels[s[:, 1], s[:, 0]].tolist()) - {0}
    u = (q - p) / max(float(np.linalg.norm(q - p)), 1e-6)
    normal = np.array([-u[1], u[0]])
    for k in hit:
        ys, xs = np.nonzero(labels == k)
        across = xs * normal[0] + ys * normal[1]
        if float(across.max() - across.min()) > 1.6 * text_height:
            return False
    return True


def _bridge_gaps(lines: list[np.ndarray], max_gap: float, span: float, tiny: float = 3.0,
                 blocked: np.ndarray | None = None, texts=(), text_pad: float = 0.0,
                 near_shape: np.ndarray | None = None, label_gap: float = 0.0,
                 ink: np.ndarray | None = None, text_height: float = 0.0, plates=()
                 ) -> tuple[list[np.ndarray], list[int]]:
    """Join collinear lines whose ends face each other across a short gap.

    Candidate end pairs come from a k-d tree; the closest facing pairs are linked first,
    each end at most once.  Gaps wider than ``2 * tiny`` must also lie along the line and
    must not cross a ``blocked`` area (a node: a line ending on both sides of a node is
    two connectors).  Ends facing each other across a free text box (``texts``, grown by
    ``text_pad``) are joined whatever the gap, and so are free ends (off ``near_shape``)
    facing each other up to ``label_gap`` apart.  Across a label plate (``plates``) a
    stub too short to have a direction only has to lie ahead of the other end.  Returns
    the joined lines and, per line, how many gaps were bridged inside it.
    """
    from scipy.spatial import cKDTree

    if len(lines) < 2:
        return lines, [0] * len(lines)
    pts = np.array([l[0] if e == 0 else l[-1] for l in lines for e in (0, 1)])
    dirs = np.array([_direction(l if e == 0 else l[::-1], span) for l in lines for e in (0, 1)])
    cands = []
    free = np.ones(len(pts), bool)  # ends off every shape's surroundings
    if near_shape is not None:
        h, w = near_shape.shape
        ix = np.clip(np.rint(pts).astype(int), 0, [w - 1, h - 1])
        free = ~near_shape[ix[:, 1], ix[:, 0]]
    for p, q in cKDTree(pts).query_pairs(max_gap):
        if p // 2 == q // 2:
            continue
        gap = pts[q] - pts[p]
        dist = float(np.linalg.norm(gap))
        if dist == 0:
            continue
        # across a gap of a few pixels the offset's own direction means little: the
        # ends must be opposed; across a wider one each end must point along the gap.
        # Away from shapes a curve's two ends may be less than opposed (its chord lies
        # between them); next to a node, lines converging on it are not one line
        bend = -0.6 if dist > 2 * tiny and free[p] and free[q] else -0.8
        if float(dirs[p] @ dirs[q]) > bend:
            continue
        if dist > 2 * tiny and (float(gap @ dirs[p]) / dist < 0.8
                                or float(-gap @ dirs[q]) / dist < 0.8
                                or _crosses(blocked, pts[p], pts[q])):
            continue
        cands.append((dist, p, q))
    stub = np.repeat([_length(l) < span for l in lines], 2)
    cands.extend(_across_text(pts, dirs, texts, text_pad))
    cands.extend(_across_text(pts, dirs, plates, text_pad, stub))
    heads = np.repeat([_length(l) < text_height for l in lines], 2)
    beyond = _through_plates(pts, dirs, plates, text_pad, text_height, heads)
    cands.extend(beyond)
    if near_shape is not None and label_gap > max_gap:
        # letters of the label itself are traced too: only real line pieces take part
        long = np.repeat([_length(l) >= 2 * max_gap for l in lines], 2)
        cands.extend(_across_labels(pts, dirs, free & long, label_gap, blocked, ink,
                                    text_height))
    link: dict[int, int] = {}
    for _, p, q in sorted(cands):
        if p not in link and q not in link:
            link[p], link[q] = q, p
    lines = list(lines)
    for _, p, q in beyond:  # the far tip of an arrowhead's remains ends the line
        if link.get(p) == q:
            head = lines[q // 2]
            lines[q // 2] = head[int(np.argmax((head - pts[p]) @ dirs[p]))][None]
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


def _split_hairpins(lines: list[np.ndarray], gaps: list[int], span: float,
                    near_shape: np.ndarray) -> tuple[list[np.ndarray], list[int]]:
    """Lines cut where they turn right back on themselves next to a shape.

    Two lines arriving side by side at one node merge in their arrowheads, and the
    skeleton runs in along one line, round the heads and out along the other; a drawn
    line does not turn back right at a node's border (a loop turns back away from it).
    The turn is measured over ``span`` pixels of arc either side of each point.
    """
    out, out_gaps = [], []
    h, w = near_shape.shape
    for line, n in zip(lines, gaps):
        pieces = [line]
        while True:
            cut = _hairpin(pieces[-1], span, near_shape, h, w)
            if cut is None:
                break
            last = pieces.pop()
            pieces.extend([last[:cut + 1], last[cut:]])
        out.extend(pieces)
        out_gaps.extend([n] * len(pieces))
    return out, out_gaps


def _hairpin(line: np.ndarray, span: float, near_shape: np.ndarray, h: int, w: int
             ) -> int | None:
    """Index of the sharpest turn back (more than 135 degrees over ``span`` either side)
    whose bend touches ``near_shape`` and whose two sides each end at least ``span``
    away from it, or ``None``."""
    if len(line) < 5:
        return None
    arc = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(line, axis=0), axis=1))])
    if arc[-1] < 2 * span:
        return None
    back = np.searchsorted(arc, arc - span, side="right") - 1
    fwd = np.searchsorted(arc, arc + span)
    ok = (arc >= span) & (arc <= arc[-1] - span)
    idx = np.flatnonzero(ok)
    if len(idx) == 0:
        return None
    v1 = line[idx] - line[np.clip(back[idx], 0, len(line) - 1)]
    v2 = line[np.clip(fwd[idx], 0, len(line) - 1)] - line[idx]
    n1, n2 = np.linalg.norm(v1, axis=1), np.linalg.norm(v2, axis=1)
    cos = (v1 * v2).sum(axis=1) / np.maximum(n1 * n2, 1e-9)
    xs = np.clip(np.rint(line[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.rint(line[:, 1]).astype(int), 0, h - 1)
    on = np.concatenate([[0], np.cumsum(near_shape[ys, xs])])
    # the bend itself may lie an arrowhead's length off the node: any point of it will do
    docked = on[np.clip(fwd[idx], 0, len(line) - 1) + 1] > on[np.clip(back[idx], 0, None)]
    cos = np.where(docked, cos, 1.0)
    k = int(np.argmin(cos))
    if cos[k] >= -0.7:
        return None
    # both sides run on as lines, not round the outline of a hollow head
    cut = int(idx[k])
    reach = min(np.linalg.norm(line[0] - line[cut]), np.linalg.norm(line[-1] - line[cut]))
    return cut if reach >= span else None


def _dash_ends(ys: np.ndarray, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The two extreme points of a dash along its main axis, and that unit axis."""
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    centre = pts.mean(axis=0)
    cov = np.cov((pts - centre).T) if len(pts) > 1 else np.eye(2)
    vals, vecs = np.linalg.eigh(cov)
    axis = vecs[:, np.argmax(vals)]
    t = (pts - centre) @ axis
    return pts[np.argmin(t)], pts[np.argmax(t)], axis


def _chain_dots(centres: np.ndarray, max_gap: float) -> list[tuple[int, int]]:
    """Pairs of dot centres to join: each dot picks its nearest neighbour and the nearest
    one on the far side of it; a pair is joined when both dots picked each other.

    The reach is 1.8 times the typical dot spacing (at most ``max_gap``), so dots of a
    parallel line further off than the spacing are never joined across.
    """
    from scipy.spatial import cKDTree

    if len(centres) < 2:
        return []
    tree = cKDTree(centres)
    d, _ = tree.query(centres, k=2)
    spacing = float(np.median(d[:, 1]))
    reach = min(1.8 * spacing, max_gap)
    picks: list[set[int]] = [set() for _ in range(len(centres))]
    for i, near in enumerate(tree.query_ball_point(centres, reach)):
        others = sorted((float(np.linalg.norm(centres[j] - centres[i])), j)
                        for j in near if j != i)
        if not others:
            continue
        first = others[0][1]
        picks[i].add(first)
        u = centres[first] - centres[i]
        for dist, j in others[1:]:
            v = centres[j] - centres[i]
            if float(u @ v) < -0.5 * float(np.linalg.norm(u)) * dist:
                picks[i].add(j)
                break
    return [(i, j) for i in range(len(centres)) for j in picks[i] if j > i and i in picks[j]]


def _extend_dot_chains(out: np.ndarray, labels: np.ndarray, dots: list[tuple[float, float, int]],
                       pairs: list[tuple[int, int]], reach: float, width: int) -> None:
    """Draw each dotted line's last dot on to the ink it leads into (its arrowhead, or
    the solid part of the line), searching straight ahead for up to ``reach`` pixels."""
    partners: dict[int, list[int]] = {}
    for i, j in pairs:
        partners.setdefault(i, []).append(j)
        partners.setdefault(j, []).append(i)
    chained = {dots[i][2] for i in partners}  # an unchained "dot" may be a cut arrowhead
    h, w = labels.shape
    for i, near in partners.items():
        if len(near) != 1:
            continue
        c = np.array(dots[i][:2])
        u = c - np.array(dots[near[0]][:2])
        n = float(np.linalg.norm(u))
        if n == 0:
            continue
        u /= n
        for t in range(1, int(reach) + 1):
            x, y = int(round(c[0] + u[0] * t)), int(round(c[1] + u[1] * t))
            if not (0 <= x < w and 0 <= y < h):
                break
            lab = int(labels[y, x])
            if lab and lab != dots[i][2]:
                if lab not in chained:
                    cv2.line(out, (int(round(c[0])), int(round(c[1]))), (x, y), 1, width)
                break


def _join_dashes(mask: np.ndarray, stroke: float, text_height: float = 0.0) -> np.ndarray:
    """Bridge the gaps of dashed and dotted lines, leaving long lines untouched.

    Dash-sized blobs that are elongated are linked end to end with their collinear
    neighbours (gaps up to about two dash lengths); round dots are chained to their
    nearest neighbours on either side (``_chain_dots``), so two dotted lines running
    close together stay apart.
    """
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), 8)
    size = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    limit = 4 * stroke + 6
    small_ids = [i for i in range(1, n) if size[i] <= limit]
    if not small_ids:
        return mask
    out = mask.copy()
    ends, axes, lengths, owners = [], [], [], []
    dots = []
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
            dots.append((x + (w - 1) / 2, y + (h - 1) / 2, i))
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
    if len(dots) >= 3:
        # a speck of noise next to a dotted line would win a dot's pairing and cut it
        area = stats[[d[2] for d in dots], cv2.CC_STAT_AREA]
        dots = [d for d, a in zip(dots, area) if a >= 0.3 * float(np.median(area))]
    centres = np.array([d[:2] for d in dots], np.float64).reshape(-1, 2)
    width = max(1, int(round(stroke)))
    pairs = _chain_dots(centres, 3 * stroke + 6)
    for i, j in pairs:
        cv2.line(out, tuple(int(round(v)) for v in centres[i]),
                 tuple(int(round(v)) for v in centres[j]), 1, width)
    _extend_dot_chains(out, labels, dots, pairs, 3 * stroke + 6, width)
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
    """All connectors of a page as polylines with unattached ends (see ``attach``).

    Lines shorter than about a text line are debris (arrowhead and letter remains) unless
    they join two different shapes: nodes can sit close together.
    """
    if mask is None:
        mask = connector_mask(inv)
    # edge labels on plates are cleared from the mask and crossed like text boxes
    plates = label_plates(inv)
    if plates:
        mask = mask.copy()
        for x1, y1, x2, y2 in plates:
            mask[y1:y2, x1:x2] = False
    stroke = inv.scale.stroke
    span = 3 * stroke + 4
    phantoms = phantom_shapes(inv)
    blocked = shape_label_map(inv, 0, phantoms) > 0
    targets = shape_label_map(inv, attach_grow(inv), phantoms)
    pieces, docked = _prune_spurs(_pieces(_join_dashes(mask, stroke, inv.scale.text_height)),
                                  2.5 * stroke + 6, targets > 0)
    docked = docked | _vertices_on(pieces, targets > 0)
    pieces, docked = _contract_crossings(pieces, 2 * span, docked)
    lines = _chain(pieces, span, docked)
    texts = [t.bbox for t in inv.texts]
    lines, gaps = _bridge_gaps(lines, max(3 * stroke + 6, 1.2 * inv.scale.text_height), span,
                               stroke + 1, blocked, texts,
                               2 * stroke + 0.3 * inv.scale.text_height, targets > 0,
                               6 * inv.scale.text_height, inv.ink, inv.scale.text_height,
                               grow_plates(plates, texts))
    lines, gaps = _split_hairpins(lines, gaps, 2 * span,
                                  shape_label_map(inv, attach_grow(inv) + int(span), phantoms) > 0)
    dist = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    near = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    floor = 3 * stroke + 4
    min_len = max(floor, 0.8 * inv.scale.text_height)
    reach = attach_reach(inv)
    out = []
    for line, n_gaps in zip(lines, gaps):
        length = _length(line)
        if length < floor:
            continue
        ends = (End(point=tuple(line[0]), direction=tuple(_direction(line, span))),
                End(point=tuple(line[-1]), direction=tuple(_direction(line[::-1], span))))
        if length < min_len:
            a, b = (end_target(targets, e.point, e.direction, reach) for e in ends)
            if a is None or b is None or a == b:
                continue
        xs = np.clip(line[:, 0].astype(int), 0, mask.shape[1] - 1)
        ys = np.clip(line[:, 1].astype(int), 0, mask.shape[0] - 1)
        width = float(2 * np.median(dist[ys, xs]))
        style = _style(near[ys, xs], n_gaps, length, stroke)
        out.append(Connector(points=line, ends=ends, style=style, width=width))
    _join_grazing(out, inv, targets, 2 * span, _clear_pad(inv) + stroke)
    _mark_landings(out, stroke + 2)
    if _join_crossings(out, 2 * inv.scale.text_height, blocked):
        for c in out:
            for e in c.ends:
                e.on_connector = None
        _mark_landings(out, stroke + 2)
    return out


def _join_grazing(connectors: list[Connector], inv: Inventory, targets: np.ndarray,
                  span: float, depth: float) -> None:
    """Join the two pieces of a line cut where it brushes past a node.

    The margin cleared round every shape cuts a line that touches a node's border in
    passing (or runs over an arrowhead there): its two pieces end by that one node,
    head at each other (directions opposed to within 25 degrees, the far end ahead and
    at most ``depth`` aside) across a gap of at most ``span`` that stays within ``depth``
    pixels of the node's border.  Lines ending on the node head into it, so two of them facing each
    other are a node's width apart.  Closest pairs first, each end once; ``connectors``
    is changed in place.
    """
    ends = [(i, e) for i, c in enumerate(connectors) for e in (0, 1)]
    if len(ends) < 2:
        return
    h, w = targets.shape
    pts = np.array([connectors[i].ends[e].point for i, e in ends], np.float64)
    ix = np.clip(np.rint(pts).astype(int), 0, [w - 1, h - 1])
    node = targets[ix[:, 1], ix[:, 0]] - 1
    dirs = np.array([_direction(connectors[i].points if e == 0 else connectors[i].points[::-1],
                                span) for i, e in ends])
    cands = []
    for p in range(len(ends)):
        for q in range(p + 1, len(ends)):
            k = int(node[p])
            if k < 0 or node[q] != k or ends[p][0] == ends[q][0]:
                continue
            outer = inv.shapes[k].outer
            if _inside(outer, pts[p]) or _inside(outer, pts[q]):
                continue  # a line running on into the node (over it) is not brushing past
            gap = pts[q] - pts[p]
            dist = float(np.linalg.norm(gap))
            side = abs(float(dirs[p][0] * gap[1] - dirs[p][1] * gap[0]))
            if (0 < dist <= span and float(dirs[p] @ dirs[q]) <= -0.9 and side <= depth
                    and float(gap @ dirs[p]) > 0
                    and _depth_along(inv.shapes[k].outer, pts[p], pts[q]) <= depth):
                cands.append((dist, p, q))
    link: dict[int, int] = {}
    for _, p, q in sorted(cands):
        if p not in link and q not in link:
            link[p], link[q] = q, p
    if not link:
        return
    # follow each chain of links from a free end, joining piece after piece
    conns = list(connectors)
    seen: set[int] = set()
    joined = []
    index = {ref: n for n, ref in enumerate(ends)}
    for start in range(len(conns)):
        for e in (0, 1):
            if start in seen or index[(start, e)] in link:
                continue
            c, i, far = conns[start], start, 1 - e
            seen.add(start)
            if e == 1:
                c = Connector(points=c.points[::-1], ends=(c.ends[1], c.ends[0]),
                              style=c.style, width=c.width, colour=c.colour)
            while index[(i, far)] in link:
                j, f = ends[link[index[(i, far)]]]
                if j in seen:
                    break
                seen.add(j)
                c = _join(c, 1, conns[j], f)
                i, far = j, 1 - f
            joined.append(c)
    joined.extend(c for i, c in enumerate(conns) if i not in seen)
    connectors[:] = joined


def _inside(region, p: np.ndarray) -> bool:
    """True if point ``p`` lies in ``region`` (inside a shape's border)."""
    x1, y1, x2, y2 = region.bbox
    x, y = int(round(p[0])), int(round(p[1]))
    return x1 <= x < x2 and y1 <= y < y2 and bool(region.filled[y - y1, x - x1])


def _depth_along(region, p: np.ndarray, q: np.ndarray) -> float:
    """How deep the segment ``p``-``q`` runs into ``region`` (pixels from its border)."""
    x1, y1, x2, y2 = region.bbox
    filled = np.pad(region.filled.astype(np.uint8), 1)
    inside = cv2.distanceTransform(filled, cv2.DIST_L2, 3)
    t = np.linspace(0.0, 1.0, max(2, int(np.linalg.norm(q - p)) + 1))[:, None]
    s = np.rint(p + t * (q - p)).astype(int) - [x1 - 1, y1 - 1]
    ok = (s[:, 0] >= 0) & (s[:, 0] < inside.shape[1]) & (s[:, 1] >= 0) & (s[:, 1] < inside.shape[0])
    return float(inside[s[ok, 1], s[ok, 0]].max()) if ok.any() else 0.0


def _join_crossings(connectors: list[Connector], reach: float, blocked: np.ndarray | None
                    ) -> bool:
    """Join the two halves of a line cut where another line crosses it at a shallow angle.

    Both halves end on the crossing line (``on_connector``) and face each other across
    it; the skeleton of two strokes meeting at a small angle is one blob there, so the
    branches could not be paired.  Closest pairs first, each end once; ``connectors`` is
    changed in place.  Returns whether anything was joined.
    """
    ends = [(i, e) for i, c in enumerate(connectors) for e in (0, 1)
            if c.ends[e].on_connector is not None]
    if len(ends) < 2:
        return False
    pts = np.array([connectors[i].ends[e].point for i, e in ends], np.float64)
    # over a longer span than the ends' own: the tips bend along the crossing stroke
    dirs = np.array([_direction(connectors[i].points if e == 0 else connectors[i].points[::-1],
                                reach) for i, e in ends])
    cands = []
    for p in range(len(ends)):
        for q in range(p + 1, len(ends)):
            (i, e), (j, f) = ends[p], ends[q]
            on = connectors[i].ends[e].on_connector
            if i == j or on != connectors[j].ends[f].on_connector or on in (i, j):
                continue
            dist = _facing(pts, dirs, p, q, 0.8)
            if dist is not None and dist <= reach and not _crosses(blocked, pts[p], pts[q]):
                cands.append((dist, p, q))
    link: dict[int, int] = {}
    for _, p, q in sorted(cands):
        i, j = ends[p][0], ends[q][0]
        if all(x not in link for x in (p, q)) and i not in link.values() and j not in link:
            link[p] = q
    if not link:
        return False
    joined: dict[int, Connector] = {}
    gone: set[int] = set()
    for p, q in link.items():
        (i, e), (j, f) = ends[p], ends[q]
        joined[i] = _join(connectors[i], e, connectors[j], f)
        gone.add(j)
    connectors[:] = [joined.get(i, c) for i, c in enumerate(connectors) if i not in gone]
    return True


def _join(a: Connector, ea: int, b: Connector, eb: int) -> Connector:
    """Connector ``a`` continued through its end ``ea`` by ``b`` from its end ``eb``."""
    pa = a.points if ea == 1 else a.points[::-1]
    pb = b.points if eb == 0 else b.points[::-1]
    first, last = a.ends[1 - ea], b.ends[1 - eb]
    la, lb = a.length, b.length
    style = a.style if la >= lb else b.style
    width = (a.width * la + b.width * lb) / max(la + lb, 1e-6)
    return Connector(points=np.vstack([pa, pb]), ends=(first, last), style=style, width=width,
                     colour=a.colour)


def _mark_landings(connectors: list[Connector], tol: float) -> None:
    """Set ``on_connector`` on every end that stops on the middle of another connector
    (a T-junction): the nearest such line within ``tol`` pixels.  Lines that merely end
    next to each other are not marked."""
    from scipy.spatial import cKDTree

    if len(connectors) < 2:
        return
    pts = np.vstack([c.points for c in connectors])
    owner = np.concatenate([np.full(len(c.points), i) for i, c in enumerate(connectors)])
    # arc position of every point from the nearer end of its own line
    inner = []
    for c in connectors:
        step = np.linalg.norm(np.diff(c.points, axis=0), axis=1)
        arc = np.concatenate([[0.0], np.cumsum(step)])
        inner.append(np.minimum(arc, arc[-1] - arc))
    inner = np.concatenate(inner)
    tree = cKDTree(pts)
    for i, c in enumerate(connectors):
        for end in c.ends:
            hits = [j for j in tree.query_ball_point(end.point, tol)
                    if owner[j] != i and inner[j] > 3 * tol]
            if hits:
                d = np.linalg.norm(pts[hits] - np.asarray(end.point), axis=1)
                end.on_connector = int(owner[hits[int(np.argmin(d))]])
