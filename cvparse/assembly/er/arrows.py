"""Entity-to-entity lines with an arrowhead (schema style): a head's end left unattached
by tracing is linked to the box it points at, and a line headed at one end only is an
IS-A with the superclass at the head, except on a page in crow's-foot notation (no such
page draws IS-A heads; its end marks look like them)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...boxes import point_gaps
from ...connectors.lines import Connector
from ...connectors.markers import side_reach
from ...model import IsA
from ...primitives.items import Inventory
from .crowsfoot import is_crowsfoot
from .links import Link
from .ports import end_direction


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


def arrow_isas(inv: Inventory, links: list[Link], role: dict[int, str | None],
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

    every = np.array([b for i in names for b in boxes_of(i)], float)
    head: dict[int, list[int]] = {}
    foot: set[int] = set()
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
                box = next(b for b in boxes_of(node)
                           if b[0] <= tip[0] < b[2] and b[1] <= tip[1] < b[3])
                if is_crowsfoot(inv.ink, box, tip, stroke, th, -u, every):
                    foot.add(li)
    # A page in crow's-foot notation draws no IS-A heads: every head there is an end mark.
    # Its lines carry marks at both ends (an IS-A arrow has one head), or a foot at an
    # end with no head (a hollow head's sides spread like prongs: no evidence alone).
    if any(len(s) == 2 for s in head.values()) \
            or _crowsfoot_page(inv, lines, boxes_of, every, head):
        foot = set(range(len(lines)))
    subs: dict[int, list[str]] = {}
    plain = []
    for li, ln in enumerate(lines):
        sides = head.get(li, [])
        # A crow's foot at either end makes the line a relationship whatever the other
        # end's mark (a bar spreads like a head).
        if len(sides) == 1 and li not in foot:
            sup, sub = (ln.b, ln.a) if sides[0] == 0 else (ln.a, ln.b)
            subs.setdefault(sup, []).append(names[sub])
        else:
            plain.append(ln)
    isas = [IsA(superclass=names[sup], subclasses=s, name="ISA") for sup, s in subs.items()]
    others = [ln for ln in links if not any(ln is x for x in lines)]
    return isas, others + plain


def _crowsfoot_page(inv: Inventory, lines: list[Link],
                    boxes_of: Callable[[int], list[tuple[int, int, int, int]]],
                    every: np.ndarray, headed: dict[int, list[int]]) -> bool:
    """Whether any end of the page's entity-to-entity ``lines`` that has no head
    (``headed``: per line, the sides found with one) is a crow's foot.  A page drawn in
    crow's-foot (IE) notation marks its line ends with feet, bars and circles, and does
    not also draw IS-A as hollow triangles: a head found there is such a mark."""
    th, stroke = inv.scale.text_height, inv.scale.stroke
    for li, ln in enumerate(lines):
        for side, (node, pts) in enumerate(((ln.b, ln.points), (ln.a, ln.points[::-1]))):
            if side in headed.get(li, ()):
                continue
            p = np.asarray(pts[-1], float)
            b = np.array(boxes_of(node), float)
            gap = point_gaps(p, b.T)
            j = int(np.argmin(gap))
            if gap[j] > 2 * th:
                continue
            out = -end_direction(pts, False, 2 * th)
            box = tuple(int(v) for v in b[j])
            if is_crowsfoot(inv.ink, box, p, stroke, th, out, every):
                return True
    return False


def has_head(mask: np.ndarray, tip: tuple[float, float], inward: tuple[float, float],
             stroke: float, text_height: float) -> bool:
    """An arrowhead (hollow or filled) drawn where a line meets a box, the box itself
    masked out: right where the ink starts, ink spreads well to both sides of the line
    for a good part of a text height.  Text beside a line spreads to one side only."""
    left, right = side_reach(mask, tip, inward, int(1.2 * text_height),
                             int(0.8 * text_height))
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
