"""IS-A triangles: the superclass on the apex side, the subclasses on the base side (or
chosen by key and name when the lines meet any side), and split diamonds told apart.
IS-A circles (Elmasri-Navathe specialisation, ``d`` disjoint / ``o`` overlapping): the
superclass is the entity joined by the one double line, else the one with a key."""

from __future__ import annotations

import re

import numpy as np

from ...model import Entity, IsA
from ...primitives.items import Inventory, Shape
from .geometry import apex_and_base
from .labels import clean_label
from .links import Link


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
            apex_a, base_a = apex_and_base(inv.shapes[i])
            apex_b, base_b = apex_and_base(inv.shapes[j])
            if apex_a[1] < base_a[1] and apex_b[1] > base_b[1]:  # i above, apex up
                out.update((i, j))
    return out


def specialisation_circles(inv: Inventory, links: list[Link],
                           role: dict[int, str | None]) -> list[int]:
    """Circles that are specialisation marks, not attributes: a letter at most inside
    (``d``, ``o``, ``U``) and lines to two entities or more (an attribute hangs on one)."""
    out = []
    for i, r in role.items():
        s = inv.shapes[i]
        if r != "attribute" or s.kind != "circle":
            continue
        text = clean_label(s.label).replace(" ", "")
        if len(text) > 1 or (text and not text.isalpha()):
            continue
        ents = {ln.b if ln.a == i else ln.a for ln in links if i in (ln.a, ln.b)}
        if sum(role.get(o) == "entity" for o in ents - {i}) >= 2:
            out.append(i)
    return out


def doubled_share(inv: Inventory, link: Link) -> float:
    """Share of the middle half of a link (a text height clear of its ends) drawn as two
    parallel strokes: across the line, within about three strokes and a quarter text
    height of the traced path, the ink falls in exactly two runs."""
    ink = inv.ink
    pts = np.asarray(link.points, float)
    if ink is None or len(pts) < 2:
        return 0.0
    th, sw = inv.scale.text_height, max(1.0, inv.scale.stroke)
    seg = np.diff(pts, axis=0)
    lens = np.linalg.norm(seg, axis=1)
    along = np.concatenate([[0.0], np.cumsum(lens)])
    total = along[-1]
    lo, hi = max(0.25 * total, th), min(0.75 * total, total - th)
    if hi - lo < 2 * sw:
        return 0.0
    reach = 3 * sw + 0.25 * th
    offs = np.arange(-reach, reach + 0.5, 0.5)
    step = th / 2
    hits = n = 0
    h, w = ink.shape
    for t in np.arange(lo, hi, 2 * sw):
        t0, t1 = max(0.0, t - step), min(total, t + step)
        a = np.array([np.interp(t0, along, pts[:, 0]), np.interp(t0, along, pts[:, 1])])
        b = np.array([np.interp(t1, along, pts[:, 0]), np.interp(t1, along, pts[:, 1])])
        d = b - a
        norm = float(np.linalg.norm(d))
        if norm == 0:
            continue
        nx, ny = -d[1] / norm, d[0] / norm
        c = (a + b) / 2
        xs = np.round(c[0] + offs * nx).astype(int)
        ys = np.round(c[1] + offs * ny).astype(int)
        if xs.min() < 0 or ys.min() < 0 or xs.max() >= w or ys.max() >= h:
            continue
        prof = ink[ys, xs].astype(np.int8)
        runs = int(prof[0]) + int((np.diff(prof) == 1).sum())
        n += 1
        hits += runs == 2
    return hits / n if n else 0.0


def chen_isas(inv: Inventory, links: list[Link], role: dict[int, str | None],
              names: dict[int, str], entities: dict[str, Entity] | None = None) -> list[IsA]:
    """IS-A objects: the entity attached nearest the triangle's apex is the superclass,
    unless exactly one of the entities has a key of its own (subclasses inherit theirs),
    or exactly one has a name every other one extends (``Member``: ``StudentMember``,
    ``StaffMember``): a layout without ports draws the lines to any side of the triangle."""
    out = []
    for t, r in role.items():
        if r != "isa":
            continue
        if inv.shapes[t].kind == "circle":
            isa = _circle_isa(inv, t, links, names, entities)
            if isa is not None:
                out.append(isa)
            continue
        apex, base = apex_and_base(inv.shapes[t])
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


def _circle_isa(inv: Inventory, c: int, links: list[Link], names: dict[int, str],
                entities: dict[str, Entity] | None) -> IsA | None:
    """The IS-A of a specialisation circle: the superclass is the entity on the one
    double line (more than half of it doubled, every other line under a quarter), else
    the one entity with a key of its own; without either, the first line read."""
    ends: list[tuple[float, str]] = []
    for ln in links:
        if c not in (ln.a, ln.b):
            continue
        o = ln.b if ln.a == c else ln.a
        if o in names and all(names[o] != e[1] for e in ends):
            ends.append((doubled_share(inv, ln), names[o]))
    if len(ends) < 2:
        return None
    ends.sort(key=lambda e: -e[0])
    if not (ends[0][0] > 0.5 and ends[1][0] < 0.25):
        keyed = [e for e in ends if entities and entities[e[1]].primary_keys]
        if len(keyed) == 1:
            ends.remove(keyed[0])
            ends.insert(0, keyed[0])
    label = clean_label(inv.shapes[c].label).replace(" ", "")
    return IsA(superclass=ends[0][1], subclasses=[n for _, n in ends[1:]],
               name=label if label.isalpha() else "ISA")


def _name_extends(name: str, base: str) -> bool:
    """Whether ``name`` is ``base`` with more added (case and separators ignored)."""
    a, b = (re.sub(r"[\s_\-.]", "", x).lower() for x in (name, base))
    return len(b) >= 2 and b in a and a != b


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
