"""IS-A triangles: the superclass on the apex side, the subclasses on the base side (or
chosen by key and name when the lines meet any side), and split diamonds told apart."""

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
