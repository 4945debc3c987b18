"""Dotted and dashed lines among the glyphs of free text: their dots and dashes are
glyph-sized, so a row of them (evenly spaced, in line) is found and taken out before
words are grouped, with what such a line runs into at its ends."""

from __future__ import annotations

import numpy as np

from .items import Scale
from .strokes import is_straight_stroke, solid


def cut_run_ends(found: set[int],
                  pieces: dict[int, tuple[float, float, float, tuple[float, float] | None]],
                  labels: np.ndarray, stats: np.ndarray, glyphs: list[int], scale: Scale
                  ) -> np.ndarray:
    """Take what a dotted or dashed line runs into at its ends off the glyphs: a lone
    glyph there (a corner of the line, an open arrowhead, a crossing) is line, and where
    the line ends on a word's letter, its last dash merges with the letter: the dash's
    pixels (a line width about the line's axis, one dash long, where the pitch puts the
    next dash) are taken off it.  ``labels``, ``stats`` and ``glyphs`` are updated in
    place; returns the mask of the removed pixels."""
    cut = np.zeros(labels.shape, bool)
    h, w = labels.shape
    ids = sorted(i for i in found if i in pieces)
    if len(ids) < 2:
        return cut
    th = scale.text_height
    pts = np.array([[pieces[i][0], pieces[i][1]] for i in ids])
    boxes = stats[:, :4].astype(float).copy()
    boxes[:, 2:] += boxes[:, :2]
    half = 0.5 * scale.stroke + 1.0
    dd = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    np.fill_diagonal(dd, np.inf)
    nearest = np.argsort(dd, axis=1)[:, :3]
    own = [next(((j, float(dd[k, j])) for j in nearest[k].tolist()
                 if dd[k, j] <= 1.5 * th and _along(pieces[i], pieces[ids[j]])), None)
           for k, i in enumerate(ids)]
    for k, i in enumerate(ids):
        d = dd[k]
        step = _step_back(k, ids, pieces, dd, own, th)
        if step is None:
            continue
        j, pitch = step
        u = (pts[k] - pts[j]) / float(d[j])
        ahead = (pts - pts[k]) @ u
        aside = np.abs((pts[:, 1] - pts[k, 1]) * u[0] - (pts[:, 0] - pts[k, 0]) * u[1])
        if np.any((ahead > 0.3 * pitch) & (d <= 1.5 * pitch) & (aside <= 0.3 * pitch)):
            continue  # not the last piece on this side
        size = pieces[i][2]
        t = np.arange(size / 2 + 1, pitch + size / 2 + 1)
        xs = np.round(pts[k, 0] + t * u[0]).astype(int)
        ys = np.round(pts[k, 1] + t * u[1]).astype(int)
        ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        on = np.zeros(len(t), int)
        on[ok] = labels[ys[ok], xs[ok]]
        hits = [int(v) for v in on if v and v != i]
        if not hits or hits[0] not in glyphs or hits[0] in found:
            continue
        g = hits[0]
        x, y, gw, gh = (int(v) for v in stats[g, :4])
        box = labels[y:y + gh, x:x + gw]
        gy, gx = np.mgrid[y:y + gh, x:x + gw]
        along = (gx - pts[k, 0]) * u[0] + (gy - pts[k, 1]) * u[1]
        across = np.abs(-(gx - pts[k, 0]) * u[1] + (gy - pts[k, 1]) * u[0])
        piece = (box == g) & (across <= max(half, size / 2 + 1)) \
            & (along >= pitch - size / 2 - 1) & (along <= pitch + size / 2 + 1)
        rest = (box == g) & ~piece
        if (_lone(g, glyphs, boxes, th, 0.3 * th)
                or _open_head(box == g, (x, y), pts[k], u, float(t[on.tolist().index(g)]),
                              scale)
                or (piece.any() and rest.any() and solid(rest, scale.stroke))):
            # line debris, an open head, or a filled head with the next piece merged
            cut[y:y + gh, x:x + gw] |= box == g
            box[box == g] = 0
            glyphs.remove(g)
            continue
        nxt = (t >= pitch - size / 2) & (t <= pitch + size / 2)
        if pieces[i][3] is None or nxt.sum() == 0 or (on[nxt] == g).mean() < 0.6:
            continue  # a dotted line, or it stops short of the letter: nothing merged
        mine = (box == g) & (across <= half) & (along >= pitch - size / 2 - 1) \
            & (along <= pitch + size / 2 + 1)
        if not mine.any():
            continue
        box[mine] = 0
        cut[y:y + gh, x:x + gw] |= mine
        left = box == g
        if left.any():
            ly, lx = np.nonzero(left)
            stats[g, :5] = (x + lx.min(), y + ly.min(), np.ptp(lx) + 1, np.ptp(ly) + 1,
                            int(left.sum()))
    return cut


def _step_back(k: int, ids: list[int], pieces: dict, dd: np.ndarray,
               own: list[tuple[int, float] | None], text_height: float
               ) -> tuple[int, float] | None:
    """The piece a row's piece ``k`` follows on from and the row's pitch: its nearest
    neighbour along the line, or, past a crossing that took a few dashes out, the nearest
    piece along the line a whole number of that piece's own pitches away."""
    if own[k] is not None:
        return own[k]
    for j in np.argsort(dd[k]).tolist():
        if dd[k, j] > 6 * text_height:
            break
        if own[j] is None or not _along(pieces[ids[k]], pieces[ids[j]]):
            continue
        p = own[j][1]
        steps = float(dd[k, j]) / p
        if steps >= 1.5 and abs(steps - round(steps)) <= 0.2:
            return j, p
        break
    return None


def in_words(found: set[int],
              pieces: dict[int, tuple[float, float, float, tuple[float, float] | None]],
              stats: np.ndarray, glyphs: list[int], text_height: float) -> set[int]:
    """The dashes of ``found`` with ``glyphs`` a word gap away on both sides of the dash,
    beside it (not beyond its ends): a letter (l, I, 1) that a dashed line crosses in line
    with it, not a dash.  The two sides of an open head just past a line's last dash lie
    beyond that dash."""
    if not glyphs:
        return set()
    g = np.array(glyphs, int)
    boxes = stats[g, :4].astype(float)
    centres = boxes[:, :2] + boxes[:, 2:] / 2
    boxes[:, 2:] += boxes[:, :2]
    gap = 0.45 * text_height
    inside = set()
    for i in found:
        if i not in pieces or pieces[i][3] is None:
            continue
        x, y, w, h = (float(v) for v in stats[i, :4])
        near = ((boxes[:, 0] <= x + w + gap) & (boxes[:, 2] >= x - gap)
                & (boxes[:, 1] <= y + h + gap) & (boxes[:, 3] >= y - gap))
        if near.sum() < 2:
            continue
        cx, cy, length, (ux, uy) = pieces[i]
        along = (centres[:, 0] - cx) * ux + (centres[:, 1] - cy) * uy
        near &= np.abs(along) <= max(length / 2, 0.5 * text_height)
        if near.sum() < 2:
            continue
        side = (centres[near, 1] - cy) * ux - (centres[near, 0] - cx) * uy
        if side.min() < 0 < side.max():
            inside.add(i)
    return inside


def _open_head(own: np.ndarray, origin: tuple[int, int], start: np.ndarray, u: np.ndarray,
               hit: float, scale: Scale) -> bool:
    """An open arrowhead ending a line that comes in along ``u`` from ``start``: its
    two sides reach back towards the line, one on either side of its axis, and the line's
    axis first meets its ink at the point (``hit``, distance from ``start``), not at its
    near side as it meets a letter."""
    ys, xs = np.nonzero(own)
    dx, dy = xs + origin[0] - start[0], ys + origin[1] - start[1]
    along = dx * u[0] + dy * u[1]
    across = -dx * u[1] + dy * u[0]
    if hit < along.max() - (scale.stroke + 2) or np.ptp(along) < 0.3 * scale.text_height:
        return False
    left, right = int((across < -scale.stroke).sum()), int((across > scale.stroke).sum())
    return min(left, right) >= 0.5 * max(left, right) > 0


def _lone(g: int, glyphs: list[int], boxes: np.ndarray, text_height: float,
          speck: float = 0.0) -> bool:
    """No other glyph within a word gap of glyph ``g`` (``boxes``: x1, y1, x2, y2 by
    label): it makes no word with anything.  Glyphs no longer than ``speck`` (crumbs of
    the line or head beside it) do not count."""
    sizes = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    others = np.array([i for i in glyphs if i != g and sizes[i] > speck], int)
    if not len(others):
        return True
    gap = 0.45 * text_height
    b, o = boxes[g], boxes[others]
    near = ((o[:, 0] <= b[2] + gap) & (o[:, 2] >= b[0] - gap)
            & (o[:, 1] <= b[3] + gap) & (o[:, 3] >= b[1] - gap))
    return not bool(near.any())


def line_piece(ys: np.ndarray, xs: np.ndarray, x0: int, y0: int, size: int, scale: Scale
                ) -> tuple[float, float, float, tuple[float, float] | None] | None:
    """A glyph-sized component (pixels ``ys, xs`` in its box at ``x0, y0``, the box's
    longer side ``size``) that could be one dot or dash of a dotted or dashed line:
    ``(cx, cy, length, direction)``, direction ``None`` for a dot; else ``None``."""
    stroke = scale.stroke
    cx, cy = x0 + float(xs.mean()), y0 + float(ys.mean())
    if size <= min(2 * stroke + 2, 0.4 * scale.text_height):
        return cx, cy, float(size), None
    if size < 2 * stroke or size > 1.5 * scale.text_height:
        return None
    if len(xs) > 1.5 * size * stroke + 2 or not is_straight_stroke(ys, xs, stroke):
        return None
    pts = np.stack([xs, ys], 1).astype(float)
    _, _, vt = np.linalg.svd(pts - pts.mean(0), full_matrices=False)
    return cx, cy, float(size), (float(vt[0, 0]), float(vt[0, 1]))


def dash_runs(pieces: dict[int, tuple[float, float, float, tuple[float, float] | None]],
               labels: np.ndarray, scale: Scale) -> set[int]:
    """Components that are the dots or dashes of a dotted or dashed line: three or more
    pieces in a straight row at an even pitch, nothing drawn between them, each dash
    lying along the row (four or more when all are dots, so an ellipsis stays).

    A dotted line running on to a label chains its dots into the label's word; taken out,
    the label reads alone.
    """
    ids = list(pieces)
    if len(ids) < 3:
        return set()
    th = scale.text_height
    pts = np.array([[pieces[i][0], pieces[i][1]] for i in ids])
    size = np.array([pieces[i][2] for i in ids])
    d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    # Neighbours: near, and the gap between the two pieces at most a letter wide.
    gap = d - (size[:, None] + size[None, :]) / 2
    near = (d > 0) & (d <= 1.5 * th) & (gap <= 0.8 * th)
    # ... and each dash lying along the line joining the two
    dirs = np.array([pieces[i][3] or (0.0, 0.0) for i in ids])
    dot = np.array([pieces[i][3] is None for i in ids])
    ps, qs = np.nonzero(np.triu(near, 1))
    v = (pts[qs] - pts[ps]) / d[ps, qs][:, None]
    along = ((dot[ps] | (np.abs((v * dirs[ps]).sum(1)) >= 0.96))
             & (dot[qs] | (np.abs((v * dirs[qs]).sum(1)) >= 0.96)))
    nbs: list[list[int]] = [[] for _ in ids]
    for p, q in zip(ps[along].tolist(), qs[along].tolist()):
        if _clear_between(labels, pieces[ids[p]], pieces[ids[q]], ids[p], ids[q]):
            nbs[p].append(q)
            nbs[q].append(p)
    links: dict[int, set[int]] = {}
    for p, nb in enumerate(nbs):
        for ai, a in enumerate(nb):
            for b in nb[ai + 1:]:
                ua = (pts[a] - pts[p]) / d[p, a]
                ub = (pts[b] - pts[p]) / d[p, b]
                if float(ua @ ub) > -0.97 or not 0.5 <= d[p, a] / d[p, b] <= 2.0:
                    continue  # not on opposite sides in a row at an even pitch
                for q in (a, b, p):
                    links.setdefault(q, set()).update({a, b, p} - {q})
    found: set[int] = set()
    seen: set[int] = set()
    for start in links:
        if start in seen:
            continue
        run, todo = [], [start]
        seen.add(start)
        while todo:
            q = todo.pop()
            run.append(q)
            for r in links[q] - seen:
                seen.add(r)
                todo.append(r)
        dots = all(pieces[ids[q]][3] is None for q in run)
        if len(run) >= (4 if dots else 3):
            found.update(ids[q] for q in run)
    return found


def run_gaps(found: set[int],
              pieces: dict[int, tuple[float, float, float, tuple[float, float] | None]],
              others: dict[int, tuple[float, float, float, None]], labels: np.ndarray,
              stats: np.ndarray, glyphs: list[int], text_height: float) -> set[int]:
    """The ``others`` lying in a row of line pieces ``found`` with a piece on either side,
    each at most about one pitch (the distance between neighbouring pieces) away, that
    make no word with any of the ``glyphs``: where two lines cross, their pieces merge.
    (A letter a dashed line crosses has letters beside it.)  No rows, no gaps: ``found``
    may be left empty by the dashes taken back as letters (``in_words``)."""
    ids = sorted(i for i in found if i in pieces)
    if not others or not ids:
        return set()
    boxes = stats[:, :4].astype(float).copy()
    boxes[:, 2:] += boxes[:, :2]
    pts = np.array([[pieces[i][0], pieces[i][1]] for i in ids])
    d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    np.fill_diagonal(d, np.inf)
    pitch = d.min(axis=1)
    gaps = set()
    oid = list(others)
    opts = np.array([[others[i][0], others[i][1], others[i][2]] for i in oid])
    dists = np.hypot(opts[:, None, 0] - pts[None, :, 0], opts[:, None, 1] - pts[None, :, 1])
    within = dists <= 1.6 * pitch[None, :] + opts[:, 2:3] / 2
    for o in np.flatnonzero(within.sum(axis=1) >= 2):
        i, c, dist = oid[o], others[oid[o]], dists[o]
        close = [k for k in np.flatnonzero(within[o])
                 if _along(c, pieces[ids[k]])
                 and _clear_between(labels, c, pieces[ids[k]], i, ids[k])]
        for ai, a in enumerate(close):
            ua = (pts[a] - c[:2]) / dist[a]
            if any(float(ua @ ((pts[b] - c[:2]) / dist[b])) <= -0.97 for b in close[ai + 1:]):
                if _lone(i, glyphs, boxes, text_height):
                    gaps.add(i)
                break
    return gaps


def _along(a: tuple, b: tuple) -> bool:
    """Two line pieces whose dashes (dots have no direction) lie along the line joining
    them, within about 15 degrees."""
    v = np.array([a[0] - b[0], a[1] - b[1]])
    v /= max(1e-6, float(np.hypot(*v)))
    return all(p[3] is None or abs(v[0] * p[3][0] + v[1] * p[3][1]) >= 0.96 for p in (a, b))


def _clear_between(labels: np.ndarray, a: tuple, b: tuple, ia: int, ib: int) -> bool:
    """No other component's ink on the straight path between two pieces' centres."""
    n = int(np.hypot(a[0] - b[0], a[1] - b[1])) + 2
    t = np.arange(n) / (n - 1)
    xs = np.rint(a[0] + (b[0] - a[0]) * t).astype(int)  # centres lie in the image
    ys = np.rint(a[1] + (b[1] - a[1]) * t).astype(int)
    on = labels[ys, xs]
    return bool(((on == 0) | (on == ia) | (on == ib)).all())


def extend_runs(found: set[int],
                pieces: dict[int, tuple[float, float, float, tuple[float, float] | None]],
                scale: Scale, max_skip: int = 4) -> set[int]:
    """Pieces that carry a row of ``found`` pieces on along its axis: lying on the axis
    (within about a line width), lying along it, about as long as the row's pieces, and a
    whole number of pitches (up to ``max_skip``) beyond the row's last piece.  Where a
    dashed line crosses another line, a dash or two merge with it or are taken out with
    it, and the one or two dashes left on the far side are too few to make a row."""
    if len(found) < 3:
        return set()
    th = scale.text_height
    ids = sorted(i for i in found if i in pieces)
    rest = [i for i in pieces if i not in found]
    if not rest or len(ids) < 3:
        return set()
    pts = np.array([[pieces[i][0], pieces[i][1]] for i in ids])
    d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    np.fill_diagonal(d, np.inf)
    parent = list(range(len(ids)))

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for p, q in zip(*np.nonzero(np.triu(d <= 1.5 * th, 1))):
        if _along(pieces[ids[p]], pieces[ids[q]]):
            parent[root(int(q))] = root(int(p))
    runs: dict[int, list[int]] = {}
    for k in range(len(ids)):
        runs.setdefault(root(k), []).append(k)
    tol = 0.5 * scale.stroke + 1.5
    added: set[int] = set()
    for members in runs.values():
        if len(members) < 3:
            continue
        rp = pts[members]
        centre = rp.mean(0)
        _, _, vt = np.linalg.svd(rp - centre, full_matrices=False)
        u = vt[0]
        pos = (rp - centre) @ u
        if np.abs((rp - centre) @ vt[1]).max() > tol:
            continue  # not one straight row
        pitch = float(np.median(np.diff(np.sort(pos))))
        if pitch <= 0:
            continue  # most pieces lie on top of one another: no pitch to carry on by
        dots = all(pieces[ids[k]][3] is None for k in members)
        size = float(np.median([pieces[ids[k]][2] for k in members]))
        cand = []
        for i in rest:
            cx, cy, length, direction = pieces[i]
            if (direction is None) != dots or not 0.7 * size <= length <= 1.3 * size:
                continue
            if direction is not None and abs(float(np.dot(direction, u))) < 0.96:
                continue
            off = np.array([cx, cy]) - centre
            if abs(float(off @ vt[1])) <= tol:
                cand.append((float(off @ u), i))
        for sign in (1.0, -1.0):
            end = float((sign * pos).max())
            for t, i in sorted((sign * t, i) for t, i in cand if sign * t > end):
                steps = (t - end) / pitch
                if round(steps) < 1 or round(steps) > max_skip \
                        or abs(steps - round(steps)) > 0.2:
                    break
                added.add(i)
                end = t
    return added
