"""Bridging the gaps of traced lines: collinear pieces of dashed and dotted lines, facing
ends across a free text box or label plate (a stub only has to lie ahead; an arrowhead's
remains just past a plate end the line), across an unread label for long free lines, but
never across a shape; and lines cut apart where they turn right back beside a node (two
lines met in their arrowheads)."""

from __future__ import annotations

import cv2
import numpy as np

from .polylines import polyline_direction, polyline_length


def crosses(blocked: np.ndarray | None, p: np.ndarray, q: np.ndarray) -> bool:
    """True if the middle of segment ``p``-``q`` runs over a ``blocked`` pixel (a shape)."""
    if blocked is None:
        return False
    t = np.linspace(0.15, 0.85, 15)[:, None]
    s = np.rint(p + t * (q - p)).astype(int)
    h, w = blocked.shape
    s[:, 0] = np.clip(s[:, 0], 0, w - 1)
    s[:, 1] = np.clip(s[:, 1], 0, h - 1)
    return bool(blocked[s[:, 1], s[:, 0]].any())


def facing(pts: np.ndarray, dirs: np.ndarray, p: int, q: int, cos: float
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
                dist = facing(pts, dirs, p, q, 0.5)
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


def _lone_pairs(pts: np.ndarray, boxes, pad: float, free: np.ndarray, link: dict[int, int]
                ) -> list[tuple[int, int]]:
    """The two ends left unjoined at a label (a plate or a text box, grown by ``pad``)
    when no other end of a line reaches it: one line drawn through the label, whichever
    way its two pieces leave it (a step or curved line turns at its label, and the
    remains of the plate's edge can bend a piece's last pixels).  Only free ends (off
    every shape's surroundings) take part; a box with one end or three is left alone."""
    out: list[tuple[int, int]] = []
    taken: set[int] = set(link)
    for x1, y1, x2, y2 in boxes:
        hits = np.flatnonzero((pts[:, 0] >= x1 - pad) & (pts[:, 0] <= x2 + pad)
                              & (pts[:, 1] >= y1 - pad) & (pts[:, 1] <= y2 + pad))
        inside = [int(k) for k in hits if int(k) not in taken]
        if len(inside) != 2 or inside[0] // 2 == inside[1] // 2:
            continue
        p, q = inside
        if not (free[p] and free[q]):
            continue
        out.append((p, q))
        taken.update((p, q))
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
        dist = facing(pts, dirs, p, q, 0.85)
        if dist is None:
            continue
        if not crosses(blocked, pts[p], pts[q]) and _text_sized_between(ink, pts[p], pts[q],
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


def bridge_gaps(lines: list[np.ndarray], max_gap: float, span: float, tiny: float = 3.0, *,
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
    dirs = np.array([polyline_direction(l if e == 0 else l[::-1], span)
                     for l in lines for e in (0, 1)])
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
                                or crosses(blocked, pts[p], pts[q])):
            continue
        cands.append((dist, p, q))
    stub = np.repeat([polyline_length(l) < span for l in lines], 2)
    cands.extend(_across_text(pts, dirs, texts, text_pad))
    cands.extend(_across_text(pts, dirs, plates, text_pad, stub))
    heads = np.repeat([polyline_length(l) < text_height for l in lines], 2)
    beyond = _through_plates(pts, dirs, plates, text_pad, text_height, heads)
    cands.extend(beyond)
    if near_shape is not None and label_gap > max_gap:
        # letters of the label itself are traced too: only real line pieces take part
        long = np.repeat([polyline_length(l) >= 2 * max_gap for l in lines], 2)
        cands.extend(_across_labels(pts, dirs, free & long, label_gap, blocked, ink,
                                    text_height))
    link: dict[int, int] = {}
    for _, p, q in sorted(cands):
        if p not in link and q not in link:
            link[p], link[q] = q, p
    # a label's plate is a text line high and stands a little clear of its letters: the
    # line stops at the plate's edge, up to half a text line outside the text's box
    for p, q in _lone_pairs(pts, list(plates) + list(texts), text_pad + 0.5 * text_height,
                            free, link):
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


def split_hairpins(lines: list[np.ndarray], gaps: list[int], span: float,
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
