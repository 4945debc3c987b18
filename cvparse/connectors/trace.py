"""Trace connectors: connector mask -> skeleton -> walked paths -> repaired polylines.

Repairs, all scaled to the stroke width: edge labels set on a pale plate over a line
are cleared first; short spurs (arrowhead corners, serifs of the skeleton) are pruned,
but a junction keeps its longest branch (a stub left between a label and its arrowhead);
two three-way junctions joined by a short stretch are one shallow crossing; at a
junction the branches are paired by direction continuity, so two lines that cross stay
two lines, except where lines converge on a shape (a pruned spur touched it, or the
junction lies next to a shape): there only straight-through branches pair; a branch
left unpaired at a junction ends there and is reported as landing on the other
connector.  Gaps are bridged by :mod:`.gaps` (dashed and dotted lines, chained dot by
dot here, marked dashed or dotted) and traced connectors mended by :mod:`.joins`.
Phantom shapes (areas closed off by connectors) are traced through.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from skimage.morphology import skeletonize

from ..primitives.items import Inventory
from .haloheads import bridge_halos
from ..arrays import colour_distance, components, under
from ._walk import walk_skeleton
from .attach import (attach_grow, attach_reach, end_target, landed_reach, phantom_shapes,
                     shape_label_map)
from .lines import Connector, End
from .frames import clear_frames, frame_outlines
from ..primitives.clusters import cluster_borders, clusters_of
from .gaps import bridge_gaps, split_hairpins
from .joins import join_crossings, join_grazing, mark_landings
from .plates import grow_plates, label_plates
from .polylines import polyline_direction, polyline_length


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


def _line_text(inv: Inventory) -> np.ndarray | None:
    """The text ink that line masks leave out (:func:`_text_mask` with the page's phantom
    shapes), computed once per inventory; read, never changed, by the callers."""
    return inv.facts.get("line_text", lambda: _text_mask(inv, phantom_shapes(inv)))


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
    """True for a "word" of one or two characters that is a short line between two
    nodes read as ``I``, ``l`` or ``-``, not text to clear: its box reaches from one
    shape to another, or it touches one shape and its ink is one thin straight stroke
    that runs on out of the box on the side away from that shape (the shaft of a short
    arrow whose head lies outside the box)."""
    if len(text.replace(" ", "")) > 2:
        return False
    x1, y1, x2, y2 = box
    touched = [s.bbox for s in inv.shapes
               if s.bbox[0] <= x2 + gap and s.bbox[2] >= x1 - gap
               and s.bbox[1] <= y2 + gap and s.bbox[3] >= y1 - gap]
    if len(touched) >= 2:
        return True
    return len(touched) == 1 and _stroke_runs_on(inv, box, touched[0])


STUB_WIDTH = 2.0
"""A stroke read as a letter is at most this many stroke widths (plus a pixel of
antialiasing) across, on most of its length."""


def _stroke_runs_on(inv: Inventory, box, shape_box) -> bool:
    """True if the text ink in ``box`` is one thin straight stroke pointing away from
    the shape at ``shape_box`` and the page's ink runs on past the box's far side where
    the stroke meets it (see :func:`_line_read_as_text`)."""
    if inv.text_mask is None or inv.ink is None:
        return False
    x1, y1, x2, y2 = (int(v) for v in box)
    h, w = inv.ink.shape
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
    own = inv.text_mask[y1:y2, x1:x2]
    if own.size == 0 or not own.any():
        return False
    thin = STUB_WIDTH * inv.scale.stroke + 1
    sx = (shape_box[0] + shape_box[2]) / 2 - (x1 + x2) / 2
    sy = (shape_box[1] + shape_box[3]) / 2 - (y1 + y2) / 2
    # is the shape above / below (a vertical stroke) or left / right (a horizontal one)?
    vertical = (shape_box[3] <= y1 + 1 or shape_box[1] >= y2 - 1) and not (
        shape_box[2] <= x1 + 1 or shape_box[0] >= x2 - 1)
    grid = own if vertical else own.T
    rows = np.nonzero(grid.any(axis=1))[0]
    if len(rows) < 0.6 * grid.shape[0]:
        return False
    centre = int(np.median(np.nonzero(grid[rows])[1]))
    span = np.arange(grid.shape[1])
    # rows holding only a thin run about the stroke's axis: a border row it leaves
    # from may be wide, a letter's bars and bowls are many
    narrow = [bool(np.all(np.abs(span[grid[y]] - centre) <= thin)) for y in rows]
    if np.mean(narrow) < 0.75:
        return False
    r = max(1, int(round(inv.scale.stroke)))
    if vertical:
        cx = x1 + centre
        far = y2 if sy < 0 else y1 - 1 - r
        patch = inv.ink[max(0, far):min(h, far + r + 1), max(0, cx - r):cx + r + 1]
    else:
        cy = y1 + centre
        far = x2 if sx < 0 else x1 - 1 - r
        patch = inv.ink[max(0, cy - r):cy + r + 1, max(0, far):min(w, far + r + 1)]
    return bool(patch.any())


def connector_mask(inv: Inventory, ink: np.ndarray | None = None,
                   boxes: Sequence[tuple[int, int, int, int]] = (),
                   phantoms: Collection[int] | None = None) -> np.ndarray:
    """Ink that is not a shape (border, inside) nor text: the connectors and their heads.

    Parameters
    ----------
    inv : Inventory
        The page's shapes and text.
    ink : ndarray, optional
        Boolean ink to use instead of the inventory's (strong ink without drop shadows).
    boxes : sequence of (x1, y1, x2, y2)
        Further rectangles to clear, in pixels (class boxes found from their borders).
    phantoms : collection of int, optional
        Shapes that are no nodes, whose ink stays (the inventory's
        :func:`~cvparse.primitives.phantoms.phantom_shapes` by default).

    Returns
    -------
    ndarray
        Boolean mask of the page's size.
    """
    mask = (inv.ink if ink is None else ink).copy()
    phantoms = phantom_shapes(inv) if phantoms is None else set(phantoms)
    text = _line_text(inv)
    if text is not None:
        mask &= ~text
    pad = _clear_pad(inv)
    h, w = mask.shape
    for x1, y1, x2, y2 in boxes:
        mask[max(0, y1 - pad):min(h, y2 + pad + 1), max(0, x1 - pad):min(w, x2 + pad + 1)] = False
    mask = _remove_shapes(mask, inv, pad, True, phantoms)
    # a head the halo set apart from its line, once cleared of the node it reaches into
    return bridge_halos(mask, inv.ink, inv.scale,
                        heads=None if inv.page is None else inv.page.solid_blobs)


def marker_mask(inv: Inventory) -> np.ndarray:
    """Ink outside shape interiors, borders kept: arrowheads that overlap a border stay
    whole.  Computed once per inventory; the array returned is the caller's own."""
    return inv.facts.get("marker_mask", lambda: _marker_mask(inv)).copy()


def _marker_mask(inv: Inventory) -> np.ndarray:
    mask = inv.ink.copy()
    text = _line_text(inv)
    if text is not None:
        mask &= ~text
    return _remove_shapes(mask, inv, 0, False, phantom_shapes(inv))


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
        out.append(_Piece(pts=pts, a=a, b=b, length=polyline_length(pts)))
    return out


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
            dirs[(i, end)] = polyline_direction(pts, span)
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
    n, labels, stats, _ = components(mask.astype(np.uint8), 8)
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


PAGE_TONE = 24.0
"""A traced line none of whose pixels lies further than this from the page colour (an
RGB distance, like the ink threshold's floor) is drawn nowhere: an edge of the paper
map between two fills, which the ink takes in, not a line."""


def _page_toned(image: np.ndarray | None, line: np.ndarray,
                page: tuple[int, int, int]) -> bool:
    """True if every pixel under polyline ``line`` has the page colour within
    ``PAGE_TONE``: the gap between two filled shapes set close together leaves a band
    of paper-map edges in the ink with nothing drawn in it."""
    if image is None or not len(line):
        return False
    return bool((colour_distance(under(image, line)[None], page)[0] <= PAGE_TONE).all())


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


def trace_connectors(inv: Inventory, mask: np.ndarray | None = None,
                     *, phantoms: Collection[int] | None = None,
                     close_nodes: bool = False) -> list[Connector]:
    """All connectors of a page as polylines with unattached ends (see ``attach``).

    Lines shorter than about a text line are debris (arrowhead and letter remains) unless
    they join two different shapes: nodes can sit close together.

    Parameters
    ----------
    inv : Inventory
        The page's shapes and text.
    mask : ndarray, optional
        Boolean ink to trace (:func:`connector_mask` of ``inv`` by default).
    phantoms : collection of int, optional
        Shapes that are no nodes: lines neither stop at nor dock to them (the
        inventory's :func:`~cvparse.primitives.phantoms.phantom_shapes` by default).
    close_nodes : bool
        Nodes may sit a head's length apart (a flowchart's stacked steps): a stroke
        shorter than debris is kept where both its ends reach two different shapes
        right there.

    Returns
    -------
    list of Connector
        Polylines in page pixels; their ends' markers and nodes are still unset
        (:func:`~cvparse.connectors.stage.build` runs the whole stage).
    """
    if mask is None:
        mask = connector_mask(inv, phantoms=phantoms)
    # edge labels on plates are cleared from the mask and crossed like text boxes
    plates = label_plates(inv)
    if plates:
        mask = mask.copy()
        for x1, y1, x2, y2 in plates:
            mask[y1:y2, x1:x2] = False
    # group frames round sets of nodes are no lines: cleared, the lines crossing them
    # are bridged across the gap
    mask = clear_frames(mask, frame_outlines(mask, [s.bbox for s in inv.shapes],
                                             inv.scale.stroke, inv.scale.text_height),
                        inv.scale.stroke)
    stroke = inv.scale.stroke
    if clusters_of(inv):  # the clusters taken out of the shapes are frames as well
        mask = mask & ~cluster_borders(inv, max(2, int(round(1.5 * stroke)) + 1), framed=True)
    span = 3 * stroke + 4
    phantoms = phantom_shapes(inv) if phantoms is None else set(phantoms)
    blocked = shape_label_map(inv, 0, phantoms) > 0
    targets = shape_label_map(inv, attach_grow(inv), phantoms)
    pieces, docked = _prune_spurs(_pieces(_join_dashes(mask, stroke, inv.scale.text_height)),
                                  2.5 * stroke + 6, targets > 0)
    docked = docked | _vertices_on(pieces, targets > 0)
    pieces, docked = _contract_crossings(pieces, 2 * span, docked)
    lines = _chain(pieces, span, docked)
    texts = [t.bbox for t in inv.texts]
    lines, gaps = bridge_gaps(lines, max(3 * stroke + 6, 1.2 * inv.scale.text_height), span,
                              stroke + 1, blocked=blocked, texts=texts,
                              text_pad=2 * stroke + 0.3 * inv.scale.text_height,
                              near_shape=targets > 0, label_gap=6 * inv.scale.text_height,
                              ink=inv.ink, text_height=inv.scale.text_height,
                              plates=grow_plates(plates, texts))
    lines, gaps = split_hairpins(lines, gaps, 2 * span,
                                  shape_label_map(inv, attach_grow(inv) + int(span), phantoms) > 0)
    dist = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    near = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    floor = 3 * stroke + 4
    min_len = max(floor, 0.8 * inv.scale.text_height)
    reach = attach_reach(inv)
    touch = landed_reach(inv)
    out = []
    for line, n_gaps in zip(lines, gaps):
        length = polyline_length(line)
        if (length < (stroke + 2 if close_nodes else floor)
                or _page_toned(inv.image, line, inv.background)):
            continue
        ends = (End(point=tuple(line[0]), direction=tuple(polyline_direction(line, span))),
                End(point=tuple(line[-1]), direction=tuple(polyline_direction(line[::-1], span))))
        if length < min_len:
            # shorter than debris may be: kept where it joins two different shapes, and
            # where it is shorter than a head's remains, only if it reaches both right
            # there (a line between two nodes stacked a head's length apart)
            ahead = reach if length >= floor else touch
            a, b = (end_target(targets, e.point, e.direction, ahead) for e in ends)
            if a is None or b is None or a == b:
                continue
        xs = np.clip(line[:, 0].astype(int), 0, mask.shape[1] - 1)
        ys = np.clip(line[:, 1].astype(int), 0, mask.shape[0] - 1)
        width = float(2 * np.median(dist[ys, xs]))
        style = _style(near[ys, xs], n_gaps, length, stroke)
        out.append(Connector(points=line, ends=ends, style=style, width=width))
    join_grazing(out, inv, targets, 2 * span, _clear_pad(inv) + stroke)
    mark_landings(out, stroke + 2)
    for _ in range(3):  # a line joined once may be cut by a second crossing further on
        if not join_crossings(out, 2 * inv.scale.text_height, blocked, targets > 0):
            break
        for c in out:
            for e in c.ends:
                e.on_connector = None
        mark_landings(out, stroke + 2)
    return out


