"""Assemble a Chen ER schema from shapes, connectors and free text.

Entities are rectangles (double border: weak), relationships diamonds (double: identifying),
attributes ellipses (double: multivalued, dashed: derived, underlined label: primary key),
IS-A triangles join a superclass on the apex side to subclasses on the base side.  The
connectors give the adjacency; a cardinality is the free text nearest a relationship
line's entity end.  Table-like entity boxes (Silberschatz style, relational schemas) are
handled by :mod:`cvparse.assembly.er_tables`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import cv2
import numpy as np

from ..connectors.elements import Connector
from ..model import Entity, ERSchema, IsA, Relationship
from ..primitives.elements import Inventory, Shape, TextItem
from ..primitives.freetext import WordBox, shapes_mask
from ..primitives.ocr import read_crops
from ..primitives.paper import colour_distance
from ..primitives.strokes import is_straight_stroke

ROLE_OF_KIND = {"rect": "entity", "round_rect": "entity", "stadium": "attribute",
                "diamond": "relationship", "ellipse": "attribute", "circle": "attribute",
                "triangle": "isa"}

CARDINALITY = re.compile(r"^(\d+|[NnMm*]|\d+\.\.(\d+|[NnMm*]))$")
"""Free text that reads as a cardinality: ``1``, ``N``, ``M``, ``*``, ``0..1``, ``1..N``."""


@dataclass
class Link:
    """One connector between two shapes, with the end points at each shape."""

    a: int
    b: int
    points: np.ndarray = field(repr=False)
    """Polyline from the end at ``a`` to the end at ``b``."""
    style: str = "solid"


def _ink_along(ink: np.ndarray, p: np.ndarray, q: np.ndarray) -> float:
    """Share of the samples on the segment ``p``-``q`` that hit ink (within one pixel)."""
    n = max(2, int(np.linalg.norm(q - p)))
    h, w = ink.shape
    hits = 0
    for t in np.linspace(0, 1, n):
        x, y = (p + (q - p) * t).round().astype(int)
        hits += bool(ink[max(0, y - 1):min(h, y + 2), max(0, x - 1):min(w, x + 2)].any())
    return hits / n


def _end_chord(points: np.ndarray, end: int, th: float) -> np.ndarray:
    """Unit direction in which a traced piece leaves through its end ``end`` (0: first
    point), along the last stretch of the piece straightened to within 0.3 text heights."""
    pts = _straight(points, th) if len(points) >= 2 else np.asarray(points, float)
    if len(pts) < 2:
        return np.zeros(2)
    seg = pts[0] - pts[1] if end == 0 else pts[-1] - pts[-2]
    n = float(np.linalg.norm(seg))
    return seg / n if n > 0 else np.zeros(2)


def pass_through_pairs(inv: Inventory, connectors: list[Connector]
                       ) -> dict[tuple[int, int], tuple[int, int]]:
    """Connector ends that meet at a shape only because one line crosses it.

    Two ends on one shape, pointing at each other along one straight line, with that line
    drawn across the inside: the line passes through (a neato layout artefact) and the
    shape is attached to neither piece.  Returns ``(connector, end)`` pairs both ways.
    """
    by_shape: dict[int, list[tuple[int, int]]] = {}
    for ci, c in enumerate(connectors):
        for ei, e in enumerate(c.ends):
            if e.node is not None:
                by_shape.setdefault(e.node, []).append((ci, ei))
    tol = 2 * inv.scale.stroke + 2
    chords = {(ci, ei): _end_chord(connectors[ci].points, ei, inv.scale.text_height)
              for ends in by_shape.values() for ci, ei in ends}
    pairs: dict[tuple[int, int], tuple[int, int]] = {}
    for node, ends in by_shape.items():
        if inv.shapes[node].kind == "triangle":
            continue  # IS-A lines are drawn into the triangle, to its centre
        cands = []
        for i, (c1, e1) in enumerate(ends):
            for c2, e2 in ends[i + 1:]:
                if c1 == c2:
                    continue
                a, b = connectors[c1].ends[e1], connectors[c2].ends[e2]
                p, q = np.asarray(a.point, float), np.asarray(b.point, float)
                off = q - p
                # The traced end direction is noisy on a short piece: the straightened
                # piece's last stretch is the other estimate.
                for d1, d2 in ((np.asarray(a.direction, float), np.asarray(b.direction, float)),
                               (chords[(c1, e1)], chords[(c2, e2)])):
                    if float(d1 @ d2) <= -0.97 and float(off @ d1) > 0 \
                            and abs(off[0] * d1[1] - off[1] * d1[0]) <= tol:
                        break
                else:
                    continue
                if _ink_along(inv.ink, p, q) >= 0.85:
                    cands.append((float(d1 @ d2), (c1, e1), (c2, e2)))
        for _, x, y in sorted(cands):
            if x not in pairs and y not in pairs:
                pairs[x], pairs[y] = y, x
    return pairs


def _stub(inv: Inventory, points: np.ndarray, node: int) -> bool:
    """A short piece that stops well short of the shape ``node`` its last point was
    attached to (the pointed tip of a double border, traced as a line): shorter than one
    and a half text heights and ending more than a text height from that shape."""
    th = inv.scale.text_height
    seg = np.diff(points, axis=0)
    if float(np.linalg.norm(seg, axis=1).sum()) >= 1.5 * th:
        return False
    x1, y1, x2, y2 = inv.shapes[node].bbox
    x, y = points[-1]
    return float(np.hypot(max(x1 - x, 0, x - x2), max(y1 - y, 0, y - y2))) > th


def shape_links(inv: Inventory, connectors: list[Connector]) -> list[Link]:
    """Shape-to-shape links: connectors whose two ends attach to two different shapes,
    with the pieces of a line that crosses a shape joined back into one."""
    pairs = pass_through_pairs(inv, connectors)
    links = []
    seen: set[int] = set()
    for ci, c in enumerate(connectors):
        for ei in (0, 1):
            if ci in seen or (ci, ei) in pairs:
                continue
            # Walk from a real end through every crossed shape to the far end.
            pts = [np.asarray(c.points, float)[::1 if ei == 0 else -1]]
            start = c.ends[ei].node
            cur, cur_end = ci, 1 - ei
            seen.add(ci)
            while (cur, cur_end) in pairs:
                nxt, nxt_end = pairs[(cur, cur_end)]
                if nxt in seen:
                    break
                seen.add(nxt)
                seq = np.asarray(connectors[nxt].points, float)
                pts.append(seq[::1 if nxt_end == 0 else -1])
                cur, cur_end = nxt, 1 - nxt_end
            end = connectors[cur].ends[cur_end].node
            if start is None or end is None or start == end:
                continue
            whole = np.concatenate(pts)
            if (inv.shapes[start].double and _stub(inv, whole, end)) or (
                    inv.shapes[end].double and _stub(inv, whole[::-1], start)):
                continue
            links.append(Link(start, end, whole, c.style))
    return drop_split_duplicates(links, 2 * inv.scale.text_height)


def drop_split_duplicates(links: list[Link], gap: float) -> list[Link]:
    """One line cut in two (where a label box was taken out of it) between the same two
    shapes: keep the longer piece.  The shorter piece lies within ``gap / 2`` of the longer
    line or is shorter than that; a recursive relationship's two lines run apart."""
    def length(ln: Link) -> float:
        return float(np.linalg.norm(np.diff(ln.points, axis=0), axis=1).sum())

    drop: set[int] = set()
    for i, a in enumerate(links):
        for j in range(i + 1, len(links)):
            b = links[j]
            if i in drop or j in drop or {a.a, a.b} != {b.a, b.b}:
                continue
            short, long_ = (a, b) if length(a) < length(b) else (b, a)
            # The short piece lies along the long one (its direction is too noisy to use),
            # or is a mere stub (the pointed tip of a double border, traced as a line).
            if length(short) < gap / 2 or max(
                    _dist_to_polyline(p, long_.points)[0] for p in short.points) <= gap / 2:
                drop.add(i if short is a else j)
    return [ln for k, ln in enumerate(links) if k not in drop]


def inked_near(inv: Inventory) -> np.ndarray:
    """The page's ink grown by one pixel (blank if the inventory has no ink)."""
    if inv.ink is None:
        return np.zeros((inv.height, inv.width), bool)
    return cv2.dilate(inv.ink.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)


def _centre(s: Shape) -> np.ndarray:
    """Centre of mass of a shape's inside (where layouts aim lines; for a triangle it lies
    two thirds of the way from apex to base, not at its box centre)."""
    ys, xs = np.nonzero(s.interior.filled)
    if xs.size == 0:
        x1, y1, x2, y2 = s.bbox
        return np.array([(x1 + x2) / 2, (y1 + y2) / 2], float)
    x1, y1 = s.interior.bbox[:2]
    return np.array([x1 + xs.mean() + 0.5, y1 + ys.mean() + 0.5], float)


def _covered(inv: Inventory, near_ink: np.ndarray, centres: list[np.ndarray], a: int, b: int,
             across: int | None = None, aim: np.ndarray | None = None) -> bool:
    """Whether the straight segment between the centres of shapes ``a`` and ``b`` (or
    ``aim`` instead of the centre of ``b``) is drawn: inked (within a pixel) everywhere
    outside the two shapes, for a few strokes.  With ``across``, the segment must pass
    through the inside of that shape too."""
    sa, sb = inv.shapes[a], inv.shapes[b]
    p, q = centres[a], (centres[b] if aim is None else aim)
    n = max(2, int(np.linalg.norm(q - p)))
    pts = p + (q - p) * np.linspace(0, 1, n)[:, None]
    xs, ys = pts[:, 0].round().astype(int), pts[:, 1].round().astype(int)
    inside = np.zeros(n, bool)
    for s in (sa, sb):
        x1, y1, x2, y2 = s.outer.bbox
        ok = (xs >= x1) & (xs < x2) & (ys >= y1) & (ys < y2)
        inside[ok] |= s.outer.filled[ys[ok] - y1, xs[ok] - x1]
    if across is not None:
        r = inv.shapes[across].interior
        x1, y1, x2, y2 = r.bbox
        ok = (xs >= x1) & (xs < x2) & (ys >= y1) & (ys < y2)
        if not r.filled[ys[ok] - y1, xs[ok] - x1].any():
            return False
    out = ~inside
    if out.sum() < 2 * inv.scale.stroke + 2:
        return False
    h, w = near_ink.shape
    xs, ys = np.clip(xs[out], 0, w - 1), np.clip(ys[out], 0, h - 1)
    return bool(near_ink[ys, xs].mean() >= 0.97)


def straight_links(inv: Inventory, links: list[Link], role: dict[int, str | None],
                   head: dict[int, int], centres: list[np.ndarray], near_ink: np.ndarray
                   ) -> list[Link]:
    """Links the connector tracing missed, drawn as a straight line from centre to centre
    (how Chen layouts draw them): a relationship or IS-A triangle and an entity not yet
    linked, or an attribute linked to nothing and the shape it hangs on.

    A short line hidden under a cardinality, or one crossing a shape that was not found,
    is lost to the tracer but still lies, inked, on the line between the two centres.
    """
    th = inv.scale.text_height
    linked = {frozenset((ln.a, ln.b)) for ln in links}
    lengths = [float(np.linalg.norm(centres[ln.a] - centres[ln.b]))
               for ln in links]
    reach = 1.5 * max(lengths) if lengths else 15 * th
    degree: dict[int, int] = {}
    for ln in links:
        degree[ln.a] = degree.get(ln.a, 0) + 1
        degree[ln.b] = degree.get(ln.b, 0) + 1
    ents = [i for i, r in role.items() if r == "entity" and head.get(i, i) == i]
    rels = [i for i, r in role.items() if r in ("relationship", "isa")]
    lonely = [i for i, r in role.items() if r == "attribute" and i not in degree]
    pairs = [(r, e) for r in rels for e in ents]
    pairs += [(a, o) for a in lonely for o in ents + rels + [i for i, r in role.items()
                                                            if r == "attribute" and i != a]]
    out = []
    for a, b in pairs:
        if frozenset((a, b)) in linked:
            continue
        pa, pb = centres[a], centres[b]
        if np.linalg.norm(pb - pa) > reach:
            continue
        # Lines to an IS-A triangle may be aimed at its apex or its base's middle instead
        # of its centre.
        aims = [pa] + (list(_apex_and_base(inv.shapes[a])) if role.get(a) == "isa" else [])
        for aim in aims:
            if _covered(inv, near_ink, centres, b, a, aim=aim):
                out.append(Link(a, b, np.array([aim, pb])))
                linked.add(frozenset((a, b)))
                break
    # An attribute hangs on one shape: keep only its nearest new link, to an entity or
    # relationship if it has one (another attribute only makes it a component).
    best: dict[int, tuple[tuple[bool, float], Link]] = {}
    kept = []
    for ln in out:
        if ln.a in lonely:
            key = (role.get(ln.b) == "attribute",
                   float(np.linalg.norm(ln.points[1] - ln.points[0])))
            if ln.a not in best or key < best[ln.a][0]:
                best[ln.a] = (key, ln)
        else:
            kept.append(ln)
    return kept + [ln for _, ln in best.values()]


def through_links(inv: Inventory, links: list[Link], role: dict[int, str | None],
                  centres: list[np.ndarray], near_ink: np.ndarray) -> list[Link]:
    """Lines drawn straight across an attribute ellipse, mended.

    An attribute linked to two shapes X and Y may just lie on the line X-Y (the tracer
    then sees two lines ending on it).  If the segment between the centres of X and Y is
    inked all along, the attribute's interior included, X-Y is one line: it replaces the
    two pieces (a composite's lines end at the parent's border and leave its inside
    blank).  An attribute left without links is linked again by :func:`straight_links`.
    """
    drop: set[int] = set()
    extra: list[Link] = []
    linked = {frozenset((ln.a, ln.b)) for ln in links}
    for m, r in role.items():
        if r != "attribute":
            continue
        mine = [k for k, ln in enumerate(links) if m in (ln.a, ln.b) and k not in drop]
        for i, k1 in enumerate(mine):
            for k2 in mine[i + 1:]:
                x = links[k1].b if links[k1].a == m else links[k1].a
                y = links[k2].b if links[k2].a == m else links[k2].a
                if x == y or (role.get(x) == "attribute" and role.get(y) == "attribute"):
                    continue
                if k1 in drop or k2 in drop or not _covered(inv, near_ink, centres, x, y,
                                                            across=m):
                    continue
                drop.update((k1, k2))
                if frozenset((x, y)) not in linked:
                    linked.add(frozenset((x, y)))
                    extra.append(Link(x, y, np.array([centres[x], centres[y]])))
    return [ln for k, ln in enumerate(links) if k not in drop] + extra


def clean_label(text: str) -> str:
    """An identifier as drawn: OCR spaces around underscores dropped, and a space OCR put
    inside a CamelCase name (one of whose words is CamelCase itself) taken out."""
    text = re.sub(r"\s*_\s*", "_", text.strip())
    text = re.sub(r"\s+", " ", text)
    words = text.split(" ")
    if 1 < len(words) <= 3 and all(re.fullmatch(r"[A-Z][A-Za-z0-9]*", w) for w in words) \
            and any(re.search(r"[a-z][A-Z]", w) for w in words):
        text = "".join(words)
    return text


def _unique_name(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    k = 2
    while f"{name}#{k}" in taken:
        k += 1
    return f"{name}#{k}"


def _dist_to_polyline(p: np.ndarray, pts: np.ndarray) -> tuple[float, float]:
    """Distance from ``p`` to a polyline and the arc-length fraction of the nearest point."""
    if len(pts) < 2:
        return float(np.linalg.norm(p - pts[0])), 0.0
    a, b = pts[:-1], pts[1:]
    ab = b - a
    L = np.linalg.norm(ab, axis=1)
    t = np.clip(((p - a) * ab).sum(1) / np.maximum(L ** 2, 1e-9), 0, 1)
    proj = a + ab * t[:, None]
    d = np.linalg.norm(proj - p, axis=1)
    i = int(d.argmin())
    total = max(L.sum(), 1e-9)
    return float(d[i]), float((L[:i].sum() + t[i] * L[i]) / total)


def cardinality_text(text: str) -> str:
    """A free word as a cardinality: stray dots and quotes OCR adds around it dropped."""
    return text.strip().strip(".,'`:;")


def _box_to_polyline(box: tuple[int, int, int, int], pts: np.ndarray) -> float:
    """Distance from a box to a polyline (0 where the line runs through the box)."""
    pts = np.asarray(pts, float)
    if len(pts) >= 2:
        seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
        along = np.concatenate([[0.0], np.cumsum(seg)])
        ts = np.linspace(0, along[-1], max(2, int(along[-1])))
        pts = np.column_stack([np.interp(ts, along, pts[:, 0]), np.interp(ts, along, pts[:, 1])])
    x1, y1, x2, y2 = box
    dx = np.maximum(np.maximum(x1 - pts[:, 0], pts[:, 0] - x2), 0)
    dy = np.maximum(np.maximum(y1 - pts[:, 1], pts[:, 1] - y2), 0)
    return float(np.hypot(dx, dy).min())


def _text_centre(t: TextItem) -> np.ndarray:
    x1, y1, x2, y2 = t.bbox
    return np.array([(x1 + x2) / 2, (y1 + y2) / 2], float)


def assign_cardinalities(inv: Inventory, lines: list[Link], radius: float,
                         exclude: set[int] | None = None, used: set[int] | None = None
                         ) -> dict[int, str]:
    """Cardinality text of each relationship line (index into ``lines``), nearest first.

    Each line is oriented relationship -> entity; a text near the entity end wins over
    one equally near the middle, and each text is used once.
    """
    texts = [(k, t) for k, t in enumerate(inv.texts)
             if CARDINALITY.match(cardinality_text(t.text)) and k not in (exclude or set())]
    pairs = []
    for ti, (_, t) in enumerate(texts):
        c = _text_centre(t)
        for li, ln in enumerate(lines):
            d, frac = _dist_to_polyline(c, ln.points)
            if d <= radius:
                pairs.append((d + radius * 0.25 * (1 - frac), ti, li))
    pairs.sort()
    used_t: set[int] = set()
    out: dict[int, str] = {}
    for _, ti, li in pairs:
        if ti in used_t or li in out:
            continue
        used_t.add(ti)
        out[li] = cardinality_text(texts[ti][1].text)
        if used is not None:
            used.add(texts[ti][0])
    return out


LOST_ONE = frozenset("1lI|i!]L")
"""What a lone cardinality 1 reads as once the line it touched is cut away from it."""


def _straightened(connectors: list[Connector], th: float) -> list[np.ndarray]:
    """Connector polylines with the wiggles under a text height taken out: the traced
    skeleton bends into a glyph that touches the line."""
    return [_straight(c.points, th) for c in connectors if len(c.points) >= 2]


def _straight(points: np.ndarray, th: float) -> np.ndarray:
    """A polyline simplified to within 0.3 text heights (Douglas-Peucker)."""
    pts = cv2.approxPolyDP(np.asarray(points, np.float32).reshape(-1, 1, 2), 0.3 * th, False)
    return pts.reshape(-1, 2).astype(float)


def _glyph_boxes(inv: Inventory, connectors: list[Connector]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ink outside shapes, free text and connector lines: component label image, boxes
    ``x1, y1, x2, y2`` (one row per label) and which of them are letter-sized."""
    th, st = inv.scale.text_height, inv.scale.stroke
    rest = inv.ink.copy()
    if inv.text_mask is not None:
        rest &= ~inv.text_mask
        # A glyph or two read as no cardinality may be one misread ("L" for a cut "1").
        for t in inv.texts:
            if len(t.text) <= 2 and not CARDINALITY.match(cardinality_text(t.text)):
                x1, y1, x2, y2 = t.bbox
                rest[y1:y2, x1:x2] |= inv.ink[y1:y2, x1:x2]
    rest &= ~shapes_mask(inv.shapes, rest.shape, int(round(2 * st)) + 1)
    lines = np.zeros(rest.shape, np.uint8)
    width = int(round(st)) + 2
    for pts in _straightened(connectors, th):
        if np.linalg.norm(np.diff(pts, axis=0), axis=1).sum() < 1.5 * th:
            continue  # a stub: most often the stem of a glyph touching a line, traced
        cv2.polylines(lines, [pts.round().astype(np.int32).reshape(-1, 1, 2)], False, 1, width)
    rest &= ~lines.astype(bool)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(rest.astype(np.uint8), 8)
    boxes = np.column_stack([stats[:, 0], stats[:, 1], stats[:, 0] + stats[:, 2],
                             stats[:, 1] + stats[:, 3]])
    w, h = stats[:, 2], stats[:, 3]
    ok = (np.maximum(w, h) >= 0.2 * th) & (h <= 1.2 * th) & (w <= 1.5 * th)
    ok[0] = False
    return labels, boxes, ok


def _glyph_crop(inv: Inventory, labels: np.ndarray, boxes: np.ndarray, word: WordBox
                ) -> np.ndarray:
    """Grayscale crop (dark on white) of a glyph cut out of a line: its pieces and the
    specks beside them (other ink in its box, the line's included, left out)."""
    th, st = inv.scale.text_height, inv.scale.stroke
    pad = int(round(st)) + 3
    h, w = labels.shape
    x1, y1, x2, y2 = word.bbox
    wx1, wy1, wx2, wy2 = max(0, x1 - pad), max(0, y1 - pad), min(w, x2 + pad), min(h, y2 + pad)
    win = labels[wy1:wy2, wx1:wx2]
    specks = [int(k) for k in np.unique(win) if k and k not in word.labels
              and max(boxes[k, 2] - boxes[k, 0], boxes[k, 3] - boxes[k, 1]) < 0.2 * th]
    own = np.isin(win, list(word.labels) + specks).astype(np.uint8)
    own = cv2.dilate(own, np.ones((3, 3), np.uint8)).astype(bool)
    dist = colour_distance(inv.image[wy1:wy2, wx1:wx2], inv.background)
    top = max(float(dist[own].max()) if own.any() else 1.0, 30.0)
    gray = 255.0 - np.clip(dist / top, 0, 1) * 255.0
    gray[~own] = 255
    ys, xs = np.nonzero(gray < 200)
    if not ys.size:
        return np.full((2, 2), 255, np.uint8)
    return gray[max(0, ys.min() - 2):ys.max() + 3,
                max(0, xs.min() - 2):xs.max() + 3].astype(np.uint8)


def recover_cardinalities(inv: Inventory, lines: list[Link], cards: dict[int, str],
                          connectors: list[Connector]) -> dict[int, str]:
    """Cardinalities of the relationship lines that got none: the free-text pass loses a
    letter that touches its line (the line's removal cuts it) and a lone ``1`` (a bar, like
    a line stub).  The glyph pieces left beside each such line, once every traced line is
    taken out, are read in one batched OCR call."""
    missing = [li for li in range(len(lines)) if li not in cards]
    if not missing or inv.ink is None or inv.image is None:
        return {}
    th = inv.scale.text_height
    labels, boxes, letter_sized = _glyph_boxes(inv, connectors)
    ids = np.flatnonzero(letter_sized)
    if not ids.size:
        return {}
    centres = np.column_stack([(boxes[ids, 0] + boxes[ids, 2]) / 2,
                               (boxes[ids, 1] + boxes[ids, 3]) / 2])
    near = {li: _dists_to_polyline(centres, _straight(lines[li].points, th)) for li in missing}
    close = np.flatnonzero(np.any([d <= 1.3 * th for d, _ in near.values()], axis=0))
    if not close.size:
        return {}
    # A piece nearer another traced line than to its own is that line's label.
    nearest = np.full(len(ids), np.inf)
    for q in _straightened(connectors, th):
        if np.linalg.norm(q[-1] - q[0]) >= th:
            nearest[close] = np.minimum(nearest[close], _dists_to_polyline(centres[close], q)[0])
    taken = np.zeros(len(ids), bool)
    words, targets = [], []
    for li in missing:
        d, frac = near[li]
        ok = (d <= 1.3 * th) & (frac >= 0.1) & ~taken & (d <= nearest + 1.0)
        if not ok.any():
            continue
        order = np.flatnonzero(ok)[np.argsort(d[ok])]
        group = [int(order[0])]
        for k in order[1:]:
            if any(_box_gap(boxes[ids[k]], boxes[ids[g]]) <= 0.3 * th for g in group):
                group.append(int(k))
        if len(group) > 1:
            group = [g for g in group
                     if not _line_remnant(labels, boxes[ids[g]], int(ids[g]), lines[li].points,
                                          inv.scale.stroke)] or group[:1]
        gb = boxes[ids[group]]
        box = (int(gb[:, 0].min()), int(gb[:, 1].min()), int(gb[:, 2].max()),
               int(gb[:, 3].max()))
        if box[2] - box[0] > 2.5 * th or box[3] - box[1] < 0.5 * th:
            continue
        taken[group] = True
        words.append(WordBox(box, [int(ids[g]) for g in group]))
        targets.append(li)
    if not words:
        return {}
    crops = [_glyph_crop(inv, labels, boxes, w) for w in words]
    out = {}
    for li, word, ws in zip(targets, words, read_crops(crops, th)):
        text = _lost_cardinality(cardinality_text("".join(w.text for w in ws)), word.bbox, th)
        if text:
            out[li] = text
    return out


GLYPH_RECALL = 0.85
"""Share of a template glyph's ink a match must find inked on the page."""
GLYPH_OWN = 0.25
"""Share of it that must lie off the traced lines and shape borders (a glyph, not a line)."""
GLYPH_EXTRA = 0.25
"""Most ink (off lines and borders) a match may leave unexplained, as a share of the glyph."""


@dataclass
class GlyphMatch:
    """Where a page's own cardinality glyph was found beside a relationship line."""

    line: int
    text: str
    score: float
    box: tuple[int, int, int, int]


def structure_mask(inv: Inventory, connectors: list[Connector]) -> np.ndarray:
    """The ink a label drawn over the diagram may hide under: every traced line (a stroke
    and a bit wide, stubs under one and a half text heights left out: those are most often
    glyph stems) and every shape's border band."""
    th, st = inv.scale.text_height, inv.scale.stroke
    mask = np.zeros((inv.height, inv.width), np.uint8)
    for pts in _straightened(connectors, th):
        if np.linalg.norm(np.diff(pts, axis=0), axis=1).sum() >= 1.5 * th:
            cv2.polylines(mask, [pts.round().astype(np.int32).reshape(-1, 1, 2)], False, 1,
                          int(round(st)) + 2)
    pad = int(round(st)) + 1
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pad + 1, 2 * pad + 1))
    for s in inv.shapes:
        x1, y1, x2, y2 = s.outer.bbox
        filled = np.zeros((y2 - y1 + 2 * pad + 2, x2 - x1 + 2 * pad + 2), np.uint8)
        filled[pad + 1:pad + 1 + y2 - y1, pad + 1:pad + 1 + x2 - x1] = s.outer.filled
        band = cv2.dilate(filled, k) & ~cv2.erode(filled, k) & 1
        bx, by = x1 - pad - 1, y1 - pad - 1
        h, w = band.shape
        cx1, cy1 = max(bx, 0), max(by, 0)
        cx2, cy2 = min(bx + w, inv.width), min(by + h, inv.height)
        mask[cy1:cy2, cx1:cx2] |= band[cy1 - by:cy2 - by, cx1 - bx:cx2 - bx]
    return mask.astype(bool)


def glyph_templates(inv: Inventory, structure: np.ndarray, per_text: int = 3
                    ) -> list[tuple[str, np.ndarray]]:
    """The page's cardinality glyphs as ink masks, from the free texts OCR read as one:
    per reading, the ``per_text`` least crossed by lines or borders."""
    th = inv.scale.text_height
    found: dict[str, list[tuple[float, np.ndarray]]] = {}
    for t in inv.texts:
        text = cardinality_text(t.text)
        if not CARDINALITY.match(text):
            continue
        x1, y1, x2, y2 = t.bbox
        ink = inv.ink[y1:y2, x1:x2]
        if not ink.any():
            continue
        crossed = float((ink & structure[y1:y2, x1:x2]).sum()) / float(ink.sum())
        glyph = ink & ~structure[y1:y2, x1:x2]
        ys, xs = np.nonzero(glyph)
        if not ys.size or ys.max() - ys.min() + 1 < 0.5 * th:
            continue
        glyph = glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        found.setdefault(text.upper() if text in "mn" else text, []).append((crossed, glyph))
    return [(text, g) for text, gs in found.items()
            for _, g in sorted(gs, key=lambda x: x[0])[:per_text]]


def match_cardinalities(inv: Inventory, lines: list[Link], cards: dict[int, str],
                        connectors: list[Connector]) -> dict[int, str]:
    """Cardinalities of the relationship lines still without one, found by matching the
    page's own cardinality glyphs (those OCR read elsewhere on it) against the ink beside
    each line.  A label drawn across a line or a box border is no word for OCR, but its
    glyph is still all inked there: the traced lines and shape borders may supply any of
    its pixels, while ink off them must be the glyph's own."""
    missing = [li for li in range(len(lines)) if li not in cards]
    if not missing or inv.ink is None:
        return {}
    th = inv.scale.text_height
    structure = structure_mask(inv, connectors)
    templates = glyph_templates(inv, structure)
    if not templates:
        return {}
    ink = inv.ink.copy()
    for t in inv.texts:  # a glyph read already belongs to its own line
        if CARDINALITY.match(cardinality_text(t.text)):
            x1, y1, x2, y2 = t.bbox
            ink[y1:y2, x1:x2] = False
    own = (ink & ~structure).astype(np.float32)
    inked = ink.astype(np.float32)
    others = [q for q in _straightened(connectors, th) if np.linalg.norm(q[-1] - q[0]) >= th]
    found: list[GlyphMatch] = []
    for li in missing:
        pts = _straight(lines[li].points, th)
        best = _best_glyph(li, pts, templates, inked, own, others, th)
        if best is not None:
            found.append(best)
    out: dict[int, str] = {}
    taken: list[tuple[int, int, int, int]] = []
    for m in sorted(found, key=lambda m: -m.score):
        if any(_box_gap(np.array(m.box), np.array(b)) <= 0 for b in taken):
            continue
        taken.append(m.box)
        out[m.line] = m.text
    return out


def _best_glyph(li: int, pts: np.ndarray, templates: list[tuple[str, np.ndarray]],
                inked: np.ndarray, own: np.ndarray, others: list[np.ndarray], th: float
                ) -> GlyphMatch | None:
    """The best-scoring template placement within 1.3 text heights of the line ``pts``
    (past its first tenth, nearer to it than to any other traced line)."""
    h_img, w_img = inked.shape
    reach = 1.3 * th
    margin = max(1, int(round(0.25 * th)))
    best: GlyphMatch | None = None
    for text, glyph in templates:
        gh, gw = glyph.shape
        x1 = int(max(0, pts[:, 0].min() - reach - gw))
        y1 = int(max(0, pts[:, 1].min() - reach - gh))
        x2 = int(min(w_img, pts[:, 0].max() + reach + gw))
        y2 = int(min(h_img, pts[:, 1].max() + reach + gh))
        if x2 - x1 < gw + 2 * margin or y2 - y1 < gh + 2 * margin:
            continue
        t = glyph.astype(np.float32)
        n = float(t.sum())
        grown = cv2.dilate(glyph.astype(np.uint8), np.ones((3, 3), np.uint8))
        roi_ink, roi_own = inked[y1:y2, x1:x2], own[y1:y2, x1:x2]
        # Ink left over in a margin around the glyph only ranks the matches: a 1 found
        # in the stem of an N explains less of it than the N does.
        around = _unexplained(roi_own, np.pad(grown, margin)) / n
        eh, ew = around.shape
        inner = (slice(margin, margin + eh), slice(margin, margin + ew))
        recall = (cv2.matchTemplate(roi_ink, t, cv2.TM_CCORR) / n)[inner]
        mine = (cv2.matchTemplate(roi_own, t, cv2.TM_CCORR) / n)[inner]
        extra = (_unexplained(roi_own, grown) / n)[inner]
        ok = (recall >= GLYPH_RECALL) & (mine >= GLYPH_OWN) & (extra <= GLYPH_EXTRA)
        ys, xs = np.nonzero(ok)
        if not ys.size:
            continue
        rank = ((mine - around) * n / th ** 2)[ys, xs]
        ys, xs = ys + margin, xs + margin
        centres = np.column_stack([x1 + xs + gw / 2, y1 + ys + gh / 2])
        d, frac = _dists_to_polyline(centres, pts)
        keep = (d <= reach) & (frac >= 0.1)
        for q in others:
            if keep.any() and not _runs_along(q, pts, 0.5 * th):
                dq = _dists_to_polyline(centres, q)[0]
                keep &= d <= dq + 1.0
        if not keep.any():
            continue
        score = rank - 0.05 * d / th
        score[~keep] = -np.inf
        k = int(np.argmax(score))
        if best is None or score[k] > best.score:
            bx, by = int(x1 + xs[k]), int(y1 + ys[k])
            best = GlyphMatch(li, text, float(score[k]), (bx, by, bx + gw, by + gh))
    return best


def _unexplained(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """For each placement of ``kernel`` (0/1) on ``image`` (0/1 float), the image's ink in
    the kernel's box that the kernel leaves uncovered."""
    k = kernel.astype(np.float32)
    return (cv2.matchTemplate(image, np.ones_like(k), cv2.TM_CCORR)
            - cv2.matchTemplate(image, k, cv2.TM_CCORR))


def _runs_along(piece: np.ndarray, line: np.ndarray, tol: float) -> bool:
    """Whether a traced piece lies along ``line`` (both its ends within ``tol``): a piece of
    that very line, cut where it crosses a shape or a label."""
    return bool((_dists_to_polyline(np.asarray(piece, float)[[0, -1]], line)[0] <= tol).all())


def _lost_cardinality(text: str, box: tuple[int, int, int, int], th: float) -> str:
    """The cardinality a glyph cut out of a line reads as, or ''.

    Line remnants left on it add strokes OCR reads as extra letters: a reading with one
    many-letter (N or M) in it is that letter; bars and marks read for a lone upright
    glyph (no wider than tall) are the digit 1.
    """
    if CARDINALITY.match(text):
        return text
    many = {ch for ch in text if ch in "NM"}
    if len(many) == 1 and not any(ch.isdigit() for ch in text):
        return many.pop()
    x1, y1, x2, y2 = box
    if text and all(ch in LOST_ONE for ch in text) and y2 - y1 >= 0.6 * th \
            and x2 - x1 <= 0.7 * (y2 - y1):
        return "1"
    return ""


def _line_remnant(labels: np.ndarray, box: np.ndarray, k: int, line: np.ndarray,
                  stroke: float) -> bool:
    """A piece of ink that is a straight stroke along ``line`` (what its removal left of
    the line), not part of a letter."""
    x1, y1, x2, y2 = (int(v) for v in box)
    ys, xs = np.nonzero(labels[y1:y2, x1:x2] == k)
    if len(xs) < 3 or not is_straight_stroke(ys, xs, stroke):
        return False
    pts = np.stack([xs, ys], 1).astype(float)
    u = np.linalg.svd(pts - pts.mean(0), full_matrices=False)[2][0]
    c = pts.mean(0) + (x1, y1)
    seg = np.diff(np.asarray(line, float), axis=0)
    mids = np.asarray(line, float)[:-1] + seg / 2
    v = seg[int(np.linalg.norm(mids - c, axis=1).argmin())]
    v = v / max(float(np.linalg.norm(v)), 1e-9)
    return abs(float(u @ v)) >= 0.95


def _dists_to_polyline(ps: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_dist_to_polyline` for many points at once (``ps``: N x 2)."""
    pts = np.asarray(pts, float)
    if len(pts) < 2:
        return np.linalg.norm(ps - pts[0], axis=1), np.zeros(len(ps))
    a, ab = pts[:-1], np.diff(pts, axis=0)
    L = np.linalg.norm(ab, axis=1)
    rel = ps[:, None, :] - a[None]
    t = np.clip((rel * ab[None]).sum(2) / np.maximum(L ** 2, 1e-9), 0, 1)
    d = np.linalg.norm(rel - ab[None] * t[..., None], axis=2)
    i = d.argmin(axis=1)
    before = np.concatenate([[0.0], np.cumsum(L)])[i]
    frac = (before + t[np.arange(len(ps)), i] * L[i]) / max(L.sum(), 1e-9)
    return d[np.arange(len(ps)), i], frac


def _box_gap(a: np.ndarray, b: np.ndarray) -> float:
    """Gap between two boxes ``x1, y1, x2, y2`` (0 if they overlap)."""
    return float(np.hypot(max(a[0] - b[2], b[0] - a[2], 0), max(a[1] - b[3], b[1] - a[3], 0)))


def _spare_cardinality(inv: Inventory, entity: Shape, rel: Shape, used: set[int]) -> str:
    """An unused cardinality text beside ``entity`` (within a few text heights of its box),
    the one nearest the relationship; '' if there is none.  Marks it used."""
    th = inv.scale.text_height
    x1, y1, x2, y2 = entity.bbox
    best = None
    for k, t in enumerate(inv.texts):
        if k in used or not CARDINALITY.match(cardinality_text(t.text)):
            continue
        c = _text_centre(t)
        gap = np.hypot(max(x1 - c[0], 0, c[0] - x2), max(y1 - c[1], 0, c[1] - y2))
        if gap > 2.5 * th:
            continue
        d = float(np.linalg.norm(c - _centre(rel)))
        if best is None or d < best[0]:
            best = (d, k)
    if best is None:
        return ""
    used.add(best[1])
    return cardinality_text(inv.texts[best[1]].text)


def _apex_and_base(s: Shape) -> tuple[np.ndarray, np.ndarray]:
    """Apex point and base midpoint of a triangle shape, from its widest and narrowest rows."""
    m = s.interior.filled
    x1, y1 = s.interior.bbox[:2]
    widths = m.sum(axis=1)
    h = len(widths)
    k = max(1, h // 5)
    top, bottom = widths[:k].mean(), widths[-k:].mean()
    cx = x1 + m.shape[1] / 2
    if top < bottom:
        return np.array([cx, y1]), np.array([cx, y1 + h])
    return np.array([cx, y1 + h]), np.array([cx, y1])


def _end_at(link: Link, node: int) -> np.ndarray:
    return link.points[0] if link.a == node else link.points[-1]


def _entry(link: Link, node: int, shape: Shape) -> np.ndarray:
    """Where a link coming from its other end first enters ``shape`` (a link added from
    centre to centre ends at the centre, which tells no side)."""
    pts = link.points if link.b == node else link.points[::-1]
    seg = np.diff(pts, axis=0)
    n = max(2, int(np.linalg.norm(seg, axis=1).sum()))
    along = np.concatenate([[0.0], np.cumsum(np.linalg.norm(seg, axis=1))])
    ts = np.linspace(0, along[-1], n)
    xs, ys = np.interp(ts, along, pts[:, 0]), np.interp(ts, along, pts[:, 1])
    x1, y1, x2, y2 = shape.outer.bbox
    for x, y in zip(xs, ys):
        xi, yi = int(round(x)), int(round(y))
        if x1 <= xi < x2 and y1 <= yi < y2 and shape.outer.filled[yi - y1, xi - x1]:
            return np.array([x, y])
    return pts[-1]


def assemble_er(inv: Inventory, connectors: list[Connector]) -> ERSchema:
    """The ER schema drawn on a page, from its inventory and attached connectors."""
    from .er_tables import table_entities

    shapes = inv.shapes
    tables = table_entities(inv)
    in_table = {i for t in tables for i in t.shapes}
    role = {i: ROLE_OF_KIND.get(s.kind) for i, s in enumerate(shapes) if i not in in_table}
    for t in tables:
        for i in t.shapes:
            role[i] = "entity"
    table_of = {i: t for t in tables for i in t.shapes}
    head = {i: t.shapes[0] for t in tables for i in t.shapes}
    links = []
    for ln in shape_links(inv, connectors):
        a, b = head.get(ln.a, ln.a), head.get(ln.b, ln.b)
        if a != b:
            links.append(Link(a, b, ln.points, ln.style))
    # A plain box hung on relationships by dashed lines only is a relationship attribute
    # (Silberschatz style), not an entity.
    for i, r in list(role.items()):
        if r != "entity" or i in table_of:
            continue
        mine = [ln for ln in links if i in (ln.a, ln.b)]
        if mine and all(ln.style in ("dashed", "dotted") for ln in mine) and all(
                role.get(ln.b if ln.a == i else ln.a) == "relationship" for ln in mine):
            role[i] = "attribute"
    for i in split_diamonds(inv):
        role[i] = None
    labels = {i: clean_label(s.label) for i, s in enumerate(shapes)}
    for t in tables:
        labels[t.shapes[0]] = t.name
    centres = [_centre(s) for s in shapes]
    near_ink = inked_near(inv)
    links = through_links(inv, links, role, centres, near_ink)
    links += straight_links(inv, links, role, head, centres, near_ink)
    headed = headed_links(inv, connectors, role, head, links, table_of)
    links += headed

    adj: dict[int, list[int]] = {}
    for li, ln in enumerate(links):
        adj.setdefault(ln.a, []).append(li)
        adj.setdefault(ln.b, []).append(li)

    def other(li: int, node: int) -> int:
        ln = links[li]
        return ln.b if ln.a == node else ln.a

    entity_ids = [i for i, r in role.items() if r == "entity" and head.get(i, i) == i]
    names: dict[int, str] = {}
    taken: set[str] = set()
    for i in sorted(entity_ids, key=lambda i: (shapes[i].bbox[1], shapes[i].bbox[0])):
        names[i] = _unique_name(labels[i] or f"E{i}", taken)
        taken.add(names[i])
    entities = {names[i]: Entity(name=names[i], weak=shapes[i].double and i not in table_of)
                for i in entity_ids}
    for i in entity_ids:
        if i in table_of:
            t = table_of[i]
            e = entities[names[i]]
            e.attributes, e.primary_keys = list(t.attributes), list(t.primary_keys)
            e.multivalued, e.derived = list(t.multivalued), list(t.derived)
            e.composite = {k: list(v) for k, v in t.composite.items()}

    def attr_name(i: int) -> str:
        return labels[i] or f"A{i}"

    def mark(e: Entity, i: int) -> None:
        s = shapes[i]
        name = attr_name(i)
        e.attributes.append(name)
        if s.underlined:
            e.primary_keys.append(name)
        if s.double:
            e.multivalued.append(name)
        if s.dashed:
            e.derived.append(name)

    # Attributes: hop through attribute-attribute links to the owning entity/relationship.
    attr_ids = [i for i, r in role.items() if r == "attribute"]
    owner: dict[int, tuple[int, int | None]] = {}
    """attribute -> (entity or relationship shape, composite parent or None)."""
    for i in attr_ids:
        owners = [other(li, i) for li in adj.get(i, [])
                  if role.get(other(li, i)) in ("entity", "relationship")]
        if len(owners) > 1:
            # One of them is a tracing slip: the drawn line runs straight between centres.
            owners.sort(key=lambda o: (not _covered(inv, near_ink, centres, i, o),
                                       role.get(o) != "entity",
                                       float(np.linalg.norm(centres[o] - centres[i]))))
        if owners:
            owner[i] = (owners[0], None)
    for i in attr_ids:
        if i in owner:
            continue
        parents = [other(li, i) for li in adj.get(i, []) if other(li, i) in owner
                   and owner[other(li, i)][1] is None]
        if parents:
            p = parents[0]
            owner[i] = (owner[p][0], p)

    rel_ids = [i for i, r in role.items() if r == "relationship"]
    rel_attrs: dict[int, list[str]] = {i: [] for i in rel_ids}
    for i in sorted(attr_ids, key=lambda i: (shapes[i].bbox[1], shapes[i].bbox[0])):
        if i not in owner:
            continue
        o, parent = owner[i]
        if role.get(o) == "relationship":
            if parent is None:
                rel_attrs[o].append(attr_name(i))
            continue
        e = entities[names[o]]
        if parent is None:
            mark(e, i)
        else:
            e.composite.setdefault(attr_name(parent), []).append(attr_name(i))

    rel_lines = [ln for ln in links
                 if (role.get(ln.a) == "relationship") != (role.get(ln.b) == "relationship")
                 and "entity" in (role.get(ln.a), role.get(ln.b))]
    oriented = [ln if role.get(ln.a) == "relationship" else Link(ln.b, ln.a, ln.points[::-1])
                for ln in rel_lines]
    cards_used: set[int] = set()
    cards = assign_cardinalities(inv, oriented, 2.5 * inv.scale.text_height, used=cards_used)
    cards.update(match_cardinalities(inv, oriented, cards, connectors))
    cards.update(recover_cardinalities(inv, oriented, cards, connectors))
    relationships: list[Relationship | IsA] = []
    for r in sorted(rel_ids, key=lambda i: (shapes[i].bbox[1], shapes[i].bbox[0])):
        ends = [(names[ln.b], cards.get(k, "")) for k, ln in enumerate(oriented)
                if ln.a == r and ln.b in names]
        if not ends:
            continue
        if len(ends) == 1:
            # A relationship joins two or more entity roles: with one line found, the other
            # is most often the second line of a recursive relationship, lost in tracing.
            ent = next(ln.b for ln in oriented if ln.a == r and ln.b in names)
            ends.append((ends[0][0], _spare_cardinality(inv, shapes[ent], shapes[r],
                                                        cards_used)))
        ends = drop_repeated_roles(ends)
        relationships.append(Relationship(
            name=labels[r], entities=[e for e, _ in ends], cardinalities=[c for _, c in ends],
            weak=shapes[r].double, attributes=rel_attrs[r]))
    relationships.extend(_isas(inv, links, role, names, entities))
    arrow_isas, plain = _arrow_isas(inv, links, role, names, table_of, headed)
    relationships.extend(arrow_isas)
    # A line taken up only for its arrowhead is no relationship when no IS-A came of it.
    plain = [ln for ln in plain if not any(ln is h for h in headed)]
    relationships.extend(_edge_relationships(inv, plain, role, names, cards_used, connectors))
    return ERSchema(entities=entities, relationships=relationships)


def drop_repeated_roles(ends: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A relationship's (entity, cardinality) ends with the spurious ones of a repeated
    entity dropped.  Three or more ends with an entity among them twice is no drawing
    convention (a recursive relationship joins one entity twice, an n-ary one distinct
    entities): a line was traced twice, or one passing by was taken up.  Ends go, while
    three or more are left and one entity repeats, in this order: a repeated entity's end
    without a cardinality, any end without one, a repeated (entity, cardinality) pair, the
    last end of a repeated entity."""
    ends = list(ends)
    while len(ends) >= 3:
        names = [e for e, _ in ends]
        repeated = [names.count(e) > 1 for e in names]
        if not any(repeated):
            break
        blank = [not c for _, c in ends]
        twice = [ends.count(x) > 1 for x in ends]
        for marks in ([r and b for r, b in zip(repeated, blank)], blank, twice, repeated):
            if any(marks):
                del ends[max(k for k, m in enumerate(marks) if m)]
                break
    return ends


def split_diamonds(inv: Inventory) -> set[int]:
    """Triangles that are the two halves of a diamond a line runs along the diagonal of:
    one apex up and one apex down, base to base (within two strokes), spanning the same
    width.  They are no IS-A triangles."""
    tol = 2 * inv.scale.stroke + 2
    tris = [i for i, s in enumerate(inv.shapes) if s.kind == "triangle"]
    out: set[int] = set()
    for i in tris:
        for j in tris:
            a, b = inv.shapes[i].bbox, inv.shapes[j].bbox
            if i == j or abs(a[0] - b[0]) > tol or abs(a[2] - b[2]) > tol \
                    or abs(a[3] - b[1]) > tol:
                continue
            apex_a, base_a = _apex_and_base(inv.shapes[i])
            apex_b, base_b = _apex_and_base(inv.shapes[j])
            if apex_a[1] < base_a[1] and apex_b[1] > base_b[1]:  # i above, apex up
                out.update((i, j))
    return out


def _isas(inv: Inventory, links: list[Link], role: dict[int, str | None],
          names: dict[int, str], entities: dict[str, Entity] | None = None) -> list[IsA]:
    """IS-A objects: the entity attached nearest the triangle's apex is the superclass,
    unless exactly one of the entities has a key of its own (subclasses inherit theirs),
    or exactly one has a name every other one extends (``Member``: ``StudentMember``,
    ``StaffMember``): a layout without ports draws the lines to any side of the triangle."""
    out = []
    for t, r in role.items():
        if r != "isa":
            continue
        apex, base = _apex_and_base(inv.shapes[t])
        ends = []
        for ln in links:
            if t not in (ln.a, ln.b):
                continue
            o = ln.b if ln.a == t else ln.a
            if o not in names:
                continue
            p = _entry(ln, t, inv.shapes[t])
            ends.append((float(np.linalg.norm(p - apex)) - float(np.linalg.norm(p - base)),
                         names[o]))
        ends.sort()
        seen: set[str] = set()
        ends = [e for e in ends if not (e[1] in seen or seen.add(e[1]))]
        if len(ends) < 2:
            continue
        keyed = [e for e in ends if entities and entities[e[1]].primary_keys]
        named = [e for e in ends if all(_name_extends(o[1], e[1]) for o in ends if o is not e)]
        for chosen in (keyed, named):
            if len(chosen) == 1:
                ends.remove(chosen[0])
                ends.insert(0, chosen[0])
        label = clean_label(inv.shapes[t].label)
        out.append(IsA(superclass=ends[0][1], subclasses=[n for _, n in ends[1:]],
                       name=label if label.replace(" ", "").isalpha() else "ISA"))
    return out


def _name_extends(name: str, base: str) -> bool:
    """Whether ``name`` is ``base`` with more added (case and separators ignored)."""
    a, b = (re.sub(r"[\s_\-.]", "", x).lower() for x in (name, base))
    return len(b) >= 2 and b in a and a != b


def _sides(mask: np.ndarray, tip: tuple[float, float], inward: tuple[float, float],
           length: int, half_span: int) -> tuple[np.ndarray, np.ndarray]:
    """Stepping back from ``tip`` against ``inward``: how far ink reaches to the left and
    to the right of the line at each step (-1 where there is none)."""
    h, w = mask.shape
    ux, uy = inward
    offsets = np.arange(-half_span, half_span + 1)
    left = np.full(length, -1.0)
    right = np.full(length, -1.0)
    for t in range(length):
        xs = np.round(tip[0] - ux * t - uy * offsets).astype(int)
        ys = np.round(tip[1] - uy * t + ux * offsets).astype(int)
        ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        on = np.zeros(offsets.size, bool)
        on[ok] = mask[ys[ok], xs[ok]]
        if on.any():
            idx = offsets[on]
            left[t], right[t] = -idx.min(), idx.max()
    return left, right


def has_head(mask: np.ndarray, tip: tuple[float, float], inward: tuple[float, float],
             stroke: float, text_height: float) -> bool:
    """An arrowhead (hollow or filled) drawn where a line meets a box, the box itself
    masked out: right where the ink starts, ink spreads well to both sides of the line
    for a good part of a text height.  Text beside a line spreads to one side only."""
    left, right = _sides(mask, tip, inward, int(1.2 * text_height), int(0.8 * text_height))
    drawn = np.flatnonzero(right > -1)
    if drawn.size == 0:
        return False
    # Measure from the line's own middle: the traced direction can be off by a pixel or
    # two, which makes a head look lopsided.
    narrow = drawn[(left[drawn] + right[drawn]) <= 2 * stroke + 1]
    if narrow.size:
        shift = float(np.median((right[narrow] - left[narrow]) / 2))
        left, right = left + shift, right - shift
    lo, hi = np.minimum(left, right), np.maximum(left, right)
    wide = (lo >= stroke) & (hi >= stroke + 1.5) & (lo >= 0.4 * hi)
    start = drawn[0]
    return int(wide[start:start + int(0.6 * text_height) + 1].sum()) >= 0.3 * text_height


def _approach(points: np.ndarray, back: float) -> tuple[np.ndarray, np.ndarray]:
    """The point ``back`` pixels along a polyline from its last point, and the unit
    direction from there to the last point."""
    seg = np.diff(points[::-1], axis=0)
    along = np.concatenate([[0.0], np.cumsum(np.linalg.norm(seg, axis=1))])
    t = min(back, float(along[-1]))
    far = np.array([np.interp(t, along, points[::-1, 0]), np.interp(t, along, points[::-1, 1])])
    d = points[-1] - far
    n = float(np.linalg.norm(d))
    return far, (d / n if n > 0 else np.array([1.0, 0.0]))


def _border_tip(far: np.ndarray, u: np.ndarray, boxes: list[tuple[int, int, int, int]],
                reach: float) -> np.ndarray | None:
    """Where the ray from ``far`` along ``u`` first enters one of ``boxes``."""
    for t in np.arange(0.0, reach, 1.0):
        x, y = far + u * t
        if any(b[0] <= x < b[2] and b[1] <= y < b[3] for b in boxes):
            return np.array([x, y])
    return None


def _entity_mask(inv: Inventory, boxes: list[tuple[int, int, int, int]]) -> np.ndarray:
    """The page's ink with the entity boxes (grown by a stroke) blanked: arrowheads lie
    outside the boxes, and box borders crossed at a slant look wide."""
    mask = inv.ink.copy()
    pad = int(round(inv.scale.stroke)) + 1
    for x1, y1, x2, y2 in boxes:
        mask[max(0, y1 - pad):y2 + pad, max(0, x1 - pad):x2 + pad] = False
    return mask



def headed_links(inv: Inventory, connectors: list[Connector], role: dict[int, str | None],
                 head: dict[int, int], links: list[Link], table_of: dict) -> list[Link]:
    """Entity-to-entity lines whose arrowhead end was left unattached: tracing stops where
    a hollow head begins, short of the box its tip touches.  The free end's ray meets an
    entity box within a text height and a half, with an arrowhead drawn at that border."""
    th, stroke = inv.scale.text_height, inv.scale.stroke
    if inv.ink is None:
        return []
    entities = [i for i, r in role.items() if r == "entity"]
    owner = {i: head.get(i, i) for i in entities}
    have = {frozenset((ln.a, ln.b)) for ln in links}
    mask = None
    out = []
    for c in connectors:
        ends = [e.node for e in c.ends]
        if sum(n is not None for n in ends) != 1:
            continue
        k = 0 if ends[0] is not None else 1
        a = owner.get(ends[k])
        if a is None:
            continue
        pts = np.asarray(c.points, float)
        pts = pts if k == 0 else pts[::-1]  # from the attached end to the free one
        if len(pts) < 2:
            continue
        far, u = _approach(pts, 2.5 * th)
        reach = float(np.linalg.norm(pts[-1] - far)) + 1.5 * th
        boxes = {i: inv.shapes[i].bbox for i in entities if owner[i] != a}
        tip = _border_tip(far, u, list(boxes.values()), reach)
        if tip is None:
            continue
        hit = next(i for i, b in boxes.items() if b[0] <= tip[0] < b[2] and b[1] <= tip[1] < b[3])
        b = owner[hit]
        if frozenset((a, b)) in have:
            continue
        if mask is None:
            mask = _entity_mask(inv, [inv.shapes[i].bbox for i in entities])
        if has_head(mask, tuple(tip), tuple(u), stroke, th):
            have.add(frozenset((a, b)))
            out.append(Link(a, b, np.vstack([pts, tip]), c.style))
    return out


def _arrow_isas(inv: Inventory, links: list[Link], role: dict[int, str | None],
                names: dict[int, str], table_of: dict, headed: list[Link] | None = None
                ) -> tuple[list[IsA], list[Link]]:
    """Lines between two entity boxes with an arrowhead at exactly one end: the head's
    entity is the superclass.  Returns the IS-A objects and the other entity lines.
    The ``headed`` links (from :func:`headed_links`) have a head found at their ``b`` end
    already: looked for again from the border point they were extended to, a curved
    line's direction there can miss it."""
    th, stroke = inv.scale.text_height, inv.scale.stroke
    lines = [ln for ln in links if ln.a in names and ln.b in names
             and role.get(ln.a) == "entity" and role.get(ln.b) == "entity"]
    if not lines or inv.ink is None:
        return [], links
    # Box borders crossed at a slant look wide; arrowheads lie outside the boxes.  (Free
    # text is kept: an arrowhead is often read as a letter.)
    mask = inv.ink.copy()
    pad = int(round(inv.scale.stroke)) + 1
    for i in names:
        for j in (table_of[i].shapes if i in table_of else [i]):
            x1, y1, x2, y2 = inv.shapes[j].bbox
            mask[max(0, y1 - pad):y2 + pad, max(0, x1 - pad):x2 + pad] = False

    def boxes_of(node: int) -> list[tuple[int, int, int, int]]:
        cells = table_of[node].shapes if node in table_of else [node]
        return [inv.shapes[i].bbox for i in cells]

    head: dict[int, list[int]] = {}
    for li, ln in enumerate(lines):
        for side, (node, pts) in enumerate(((ln.b, ln.points), (ln.a, ln.points[::-1]))):
            if side == 0 and any(ln is h for h in headed or ()):
                head.setdefault(li, []).append(side)
                continue
            far, u = _approach(pts, 2.5 * th)
            reach = float(np.linalg.norm(pts[-1] - far)) + 3 * th
            tip = _border_tip(far, u, boxes_of(node), reach)
            if tip is None:
                continue
            if has_head(mask, tuple(tip), tuple(u), stroke, th):
                head.setdefault(li, []).append(side)
    subs: dict[int, list[str]] = {}
    plain = []
    for li, ln in enumerate(lines):
        sides = head.get(li, [])
        if len(sides) == 1:
            sup, sub = (ln.b, ln.a) if sides[0] == 0 else (ln.a, ln.b)
            subs.setdefault(sup, []).append(names[sub])
        else:
            plain.append(ln)
    isas = [IsA(superclass=names[sup], subclasses=s, name="ISA") for sup, s in subs.items()]
    others = [ln for ln in links if not any(ln is x for x in lines)]
    return isas, others + plain


def _edge_relationships(inv: Inventory, links: list[Link], role: dict[int, str | None],
                        names: dict[int, str], cards_used: set[int],
                        connectors: list[Connector]) -> list[Relationship]:
    """Relationships drawn as a line straight between two entity boxes (schema style):
    the name is the nearest free word that is no cardinality, the cardinalities the
    ones nearest each end."""
    th = inv.scale.text_height
    lines = [ln for ln in links if ln.a in names and ln.b in names
             and role.get(ln.a) == "entity" and role.get(ln.b) == "entity"]
    if not lines:
        return []
    words = [(k, t) for k, t in enumerate(inv.texts)
             if k not in cards_used and not CARDINALITY.match(cardinality_text(t.text))]
    pairs = []
    for wi, (k, t) in enumerate(words):
        for li, ln in enumerate(lines):
            # From the word's box, not its centre: a long name sits beside the line.
            d = _box_to_polyline(t.bbox, ln.points)
            if d <= 1.5 * th:
                pairs.append((d, wi, li))
    pairs.sort()
    name_of: dict[int, str] = {}
    used: set[int] = set()
    joiner = _word_joiner(inv)
    for _, wi, li in pairs:
        if wi in used or li in name_of:
            continue
        group = _same_row_words(wi, [t for _, t in words], used, th)
        used.update(group)
        name_of[li] = clean_label(joiner.join(words[g][1].text for g in group))
    ends = [Link(ln.a, ln.b, ln.points) for ln in lines] + \
        [Link(ln.b, ln.a, ln.points[::-1]) for ln in lines]
    cards = assign_cardinalities(inv, ends, 2.5 * th, exclude=cards_used)
    cards.update(match_cardinalities(inv, ends, cards, connectors))
    cards.update(recover_cardinalities(inv, ends, cards, connectors))
    out = []
    n = len(lines)
    for li, ln in enumerate(lines):
        out.append(Relationship(name=name_of.get(li, "relates"),
                                entities=[names[ln.a], names[ln.b]],
                                cardinalities=[cards.get(li + n, ""), cards.get(li, "")]))
    return out


def _same_row_words(seed: int, texts: list[TextItem], used: set[int], th: float) -> list[int]:
    """The word ``seed`` with the unused words that continue it on its text row (boxes
    overlapping by half a height, at most a text height apart), left to right: a name
    the line crosses is read in pieces."""
    group = [seed]
    grown = True
    while grown:
        grown = False
        x1 = min(texts[g].bbox[0] for g in group)
        x2 = max(texts[g].bbox[2] for g in group)
        top, bottom = texts[seed].bbox[1], texts[seed].bbox[3]
        for k, t in enumerate(texts):
            if k in group or k in used:
                continue
            overlap = min(bottom, t.bbox[3]) - max(top, t.bbox[1])
            gap = max(t.bbox[0] - x2, x1 - t.bbox[2])
            if overlap >= 0.5 * min(bottom - top, t.bbox[3] - t.bbox[1]) and gap <= th:
                group.append(k)
                grown = True
    return sorted(group, key=lambda g: texts[g].bbox[0])


def _word_joiner(inv: Inventory) -> str:
    """How the page writes a name of several words: with underscores if any word of its
    labels holds one (a shape's label runs its lines together with spaces, so spaces
    tell nothing), else with spaces."""
    words = [w for x in [s.label for s in inv.shapes] + [t.text for t in inv.texts]
             for w in x.split()]
    return "_" if any("_" in w.strip("_") for w in words) else " "
