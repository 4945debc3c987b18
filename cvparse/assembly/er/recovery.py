"""Links the connector tracing missed or mangled, recovered from the ink: straight lines
from centre to centre, and lines drawn across an attribute ellipse mended."""

from __future__ import annotations

import cv2
import numpy as np

from ...primitives.items import Inventory
from .geometry import apex_and_base, dist_to_polyline
from .links import Link


def inked_near(inv: Inventory) -> np.ndarray:
    """The page's ink grown by one pixel (blank if the inventory has no ink)."""
    if inv.ink is None:
        return np.zeros((inv.height, inv.width), bool)
    return cv2.dilate(inv.ink.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)


def covered(inv: Inventory, near_ink: np.ndarray, centres: list[np.ndarray], a: int,
            b: int, across: int | None = None, aim: np.ndarray | None = None) -> bool:
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
        aims = [pa] + (list(apex_and_base(inv.shapes[a])) if role.get(a) == "isa" else [])
        for aim in aims:
            if covered(inv, near_ink, centres, b, a, aim=aim):
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
    blank).  One such piece alone (the line's other piece merged with the attribute's own
    line where both leave the same border) is mended the same way when the line runs on
    to an entity or relationship Y beyond the attribute, unless the attribute's own line
    to X (centre to centre) is drawn too.  An attribute left without links is linked
    again by :func:`straight_links`.
    """
    drop: set[int] = set()
    extra: list[Link] = []
    linked = {frozenset((ln.a, ln.b)) for ln in links}
    ends = {n for ln in links for n in (ln.a, ln.b) if role.get(n) in ("entity", "relationship")}
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
                if k1 in drop or k2 in drop or not covered(inv, near_ink, centres, x, y,
                                                           across=m):
                    continue
                drop.update((k1, k2))
                if frozenset((x, y)) not in linked:
                    linked.add(frozenset((x, y)))
                    extra.append(Link(x, y, np.array([centres[x], centres[y]])))
        for k in mine:
            x = links[k].b if links[k].a == m else links[k].a
            # A line of the attribute's own to x, aimed at its centre, may have merged
            # with the piece: then the piece is the attribute's link as well.
            if k in drop or role.get(x) not in ("entity", "relationship") \
                    or covered(inv, near_ink, centres, m, x):
                continue
            y = _beyond(inv, near_ink, centres, role, m, x, ends, links[k].points)
            if y is None:
                continue
            drop.add(k)
            if frozenset((x, y)) not in linked:
                linked.add(frozenset((x, y)))
                extra.append(Link(x, y, np.array([centres[x], centres[y]])))
    return [ln for k, ln in enumerate(links) if k not in drop] + extra


def _beyond(inv: Inventory, near_ink: np.ndarray, centres: list[np.ndarray],
            role: dict[int, str | None], m: int, x: int, ends: set[int], piece: np.ndarray
            ) -> int | None:
    """The entity or relationship the line from ``x`` runs on to across attribute ``m``
    (centre to centre, inked all along, ``m``'s inside included, the traced ``piece``
    between ``m`` and ``x`` within half a text height of it), nearest first; None."""
    x1, y1, x2, y2 = inv.shapes[m].bbox
    half = max(x2 - x1, y2 - y1) / 2
    tol = 0.5 * inv.scale.text_height
    cands = []
    for y in ends:
        if y in (m, x) or "entity" not in (role.get(x), role.get(y)):
            continue
        seg = np.array([centres[x], centres[y]])
        d, frac = dist_to_polyline(centres[m], seg)
        if d <= half and 0 < frac < 1 and all(
                dist_to_polyline(p, seg)[0] <= tol for p in np.asarray(piece, float)):
            cands.append((float(np.linalg.norm(centres[y] - centres[x])), y))
    for _, y in sorted(cands):
        if covered(inv, near_ink, centres, x, y, across=m):
            return y
    return None
