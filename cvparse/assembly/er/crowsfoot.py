"""Crow's-foot line ends: many (``|{``, ``o{``) or one (``||``, ``o|``) read from the ink
where a relationship line meets a table's side.

A crow's foot fans out into prongs that touch the table's side apart from each other; a
bar, a circle or a plain end reaches the side as one line.  Scanned along the side, a few
strokes outside it, the ink of a crow's foot falls into two runs or more spread over
a good part of a text height; that of any other end into one narrow run.  A page that
draws crow's feet gives each other end of its lines the cardinality ``1``.
"""

from __future__ import annotations

import numpy as np

SPREAD = 0.4
"""How far apart (text heights) the outer prongs of a crow's foot touch the side."""
BAR = 0.3
"""How far (text heights) a bar reaches to each side of its line."""
FILLED = (0.3, 1.5)
"""Narrowest and widest (text heights) the ink across a line's end spreads where a
filled foot is drawn."""
FILLED_STROKES = 2.5
"""A filled foot is also this many strokes wide or more: wider than the line itself."""
WEDGE_LENGTH = 0.3
"""A filled foot read through anti-aliasing (a pixel wider here and there) or followed
by a circle (``o{``) narrows over this many text heights or more ..."""
WEDGE_DROP = 2.0
"""... and by this many strokes or more."""


def _side(box: tuple[int, int, int, int], p: np.ndarray) -> int:
    """Which side of ``box`` the point ``p`` is nearest: 0 left, 1 top, 2 right, 3 bottom."""
    x1, y1, x2, y2 = box
    return int(np.argmin([abs(p[0] - x1), abs(p[1] - y1), abs(p[0] - x2), abs(p[1] - y2)]))


def _runs(line: np.ndarray) -> list[tuple[int, int]]:
    """Runs of True in a 1-D mask, as (start, end) index pairs."""
    out, k = [], 0
    while k < len(line):
        if line[k]:
            s = k
            while k < len(line) and line[k]:
                k += 1
            out.append((s, k))
        else:
            k += 1
    return out


def _side_normal(side: int) -> np.ndarray:
    """Outward unit normal of a box side (0 left, 1 top, 2 right, 3 bottom)."""
    return np.array(((-1.0, 0.0), (0.0, -1.0), (1.0, 0.0), (0.0, 1.0))[side])


def _outside(box: tuple[int, int, int, int], p: np.ndarray, side: int) -> float:
    """Signed distance of ``p`` outside the side ``side`` of ``box``."""
    x1, y1, x2, y2 = box
    return float((x1 - p[0], y1 - p[1], p[0] - x2, p[1] - y2)[side])


def _scans(ink: np.ndarray, box: tuple[int, int, int, int], point: np.ndarray,
           offsets: list[int], th: float, stroke: float, direction: np.ndarray | None,
           avoid: np.ndarray | None) -> list[np.ndarray | None]:
    """The ink across a line's end at each of ``offsets`` (pixels outside the side of
    ``box`` it meets), a text height to each side of the line (index ``th`` the line's
    own middle); None where the scan's middle is off the page.

    The scans run across the line's own ``direction`` (unit, out of the box) where it
    is given and meets the side at 20 degrees or more, along the side otherwise: the
    marks at a line's end are drawn square to the line, so a scan along the side of a
    slanting line crosses the line and each bar of a ``||`` apart, as if they were
    prongs.  Scan pixels inside ``avoid`` boxes (the page's entity boxes, ``box``
    always) grown by a stroke are no ink: a slanting scan dips to the table's border.
    """
    h, w = ink.shape
    side = _side(box, point)
    normal = _side_normal(side)
    d = normal if direction is None else np.asarray(direction, float)
    if float(d @ normal) < 0.34:
        d = normal
    cos = float(d @ normal)
    # where the line, carried on along d, meets the side
    start = np.asarray(point, float) - d * _outside(box, point, side) / cos
    across = np.array([-d[1], d[0]])
    half = int(round(th))
    steps = np.arange(-half, half + 1, dtype=float)
    boxes = np.asarray([box] if avoid is None or not len(avoid) else
                       list(avoid) + [box], float)
    out: list[np.ndarray | None] = []
    for off in offsets:
        pts = np.rint(start + d * off / cos + steps[:, None] * across).astype(int)
        ok = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
        if not ok[half]:
            out.append(None)
            continue
        inside = ((pts[:, None, 0] >= boxes[None, :, 0] - stroke)
                  & (pts[:, None, 0] <= boxes[None, :, 2] + stroke)
                  & (pts[:, None, 1] >= boxes[None, :, 1] - stroke)
                  & (pts[:, None, 1] <= boxes[None, :, 3] + stroke)).any(axis=1)
        scan = np.zeros(len(pts), bool)
        keep = ok & ~inside
        scan[keep] = ink[pts[keep, 1], pts[keep, 0]]
        out.append(scan)
    return out


def _spread_runs(scans: list[np.ndarray | None], th: float) -> int:
    """How many of the scans (nearest the side first) hold two runs of ink or more whose
    outer ends are ``SPREAD`` text heights apart or more; 0 where the ink spreads wider
    at every step away from the side (a hollow arrowhead's sides, not prongs that meet
    away from the side)."""
    spreads = []
    for scan in scans:
        runs = [] if scan is None else _runs(scan)
        if scan is not None:
            spreads.append(runs[-1][1] - runs[0][0] if len(runs) >= 2 else 0)
    if len(spreads) >= 2 and all(a < b for a, b in zip(spreads, spreads[1:])):
        return 0
    return sum(x >= SPREAD * th for x in spreads)


def filled_foot(ink: np.ndarray, box: tuple[int, int, int, int], point: np.ndarray,
                stroke: float, th: float, direction: np.ndarray | None = None,
                avoid: np.ndarray | None = None) -> bool:
    """Whether the line ending at ``point`` beside ``box`` ends in a small crow's foot
    drawn filled: its prongs run together into one wedge, wide at the side and narrowing
    to the line away from it.

    Scanned across the line (:func:`_scans`) a pixel at a time out to a text height,
    from the side or the box's own border band just outside it (ink wider than
    ``FILLED[1]`` text heights), the ink's spread is ``FILLED`` text heights (and
    ``FILLED_STROKES`` strokes, wider than the line) on three scans or more in a row
    that end narrower than they begin, and then drops below that.  A bar, a stroke or
    two thick, keeps its width over fewer scans; an arrowhead with its tip at the side
    widens away from it."""
    if _wedge(ink, box, point, stroke, th, direction, avoid, steady=True):
        return True
    # A foot drawn square to the side at the end of a line that bends into it (or of
    # several lines meeting at one foot) is crossed askew by scans across the line;
    # along the side, two bars a stroke apart narrow over three scans as well.
    return direction is not None and _wedge(ink, box, point, stroke, th, None, avoid,
                                            steady=False)


def _wedge(ink: np.ndarray, box: tuple[int, int, int, int], point: np.ndarray,
           stroke: float, th: float, direction: np.ndarray | None,
           avoid: np.ndarray | None, steady: bool) -> bool:
    """Whether the scans of :func:`filled_foot` across ``direction`` (along the side
    where None) find its wedge: widths that narrow, from the side on, with a pixel's
    jitter by ``WEDGE_DROP`` strokes over ``WEDGE_LENGTH`` text heights or more, or
    (``steady``) without jitter over three scans or more, before a text height (the ink
    then thins to the line or widens into the circle of an ``o{``)."""
    lo, hi = max(FILLED[0] * th, FILLED_STROKES * stroke), FILLED[1] * th
    widths = []
    for scan in _scans(ink, box, point, list(range(1, int(round(th)) + 1)), th, stroke,
                       direction, avoid):
        if scan is None:
            return False
        runs = _runs(scan)
        widths.append(runs[-1][1] - runs[0][0] if runs else 0)
    k = 0
    while k < len(widths) and k < 0.5 * th and not lo <= widths[k] <= hi:
        k += 1
    if k and 0 < widths[k - 1] <= hi:  # the wedge must start at the side or its band
        return False
    start, run = k, []
    while k < len(widths) and lo <= widths[k] <= hi:
        run.append(widths[k])
        k += 1
    if (steady and len(run) >= 3 and k < len(widths) and run[-1] < run[0]
            and all(a >= b for a, b in zip(run, run[1:]))):
        return True
    k, run = start, []
    while (k < len(widths) and lo <= widths[k] <= hi
           and (not run or widths[k] <= run[-1] + 1)):
        run.append(widths[k])
        k += 1
    return (k < len(widths) and len(run) >= WEDGE_LENGTH * th
            and run[0] - run[-1] >= WEDGE_DROP * stroke)


def is_crowsfoot(ink: np.ndarray, box: tuple[int, int, int, int], point: np.ndarray,
                 stroke: float, th: float, direction: np.ndarray | None = None,
                 avoid: np.ndarray | None = None) -> bool:
    """Whether the line ending at ``point`` beside ``box`` (a table or its row) ends in a
    crow's foot: on two of the scans (:func:`_scans`) two, three and four strokes outside
    the side it meets, the ink makes two runs or more whose outer ends are ``SPREAD``
    text heights apart or more.

    Tools draw the foot along the line (scanned across the line's ``direction``) or
    square to the side whatever the line's slant (scanned along the side); a slanting
    line's bars look like prongs to the scan along the side, so that reading needs no
    bar (:func:`has_bar`) across the line.
    """
    if filled_foot(ink, box, point, stroke, th, direction, avoid):
        return True
    offsets = [int(round(k * stroke)) + 1 for k in (2, 3, 4)]
    if _spread_runs(_scans(ink, box, point, offsets, th, stroke, direction, avoid), th) >= 2:
        return True
    if direction is None:
        return False
    if _spread_runs(_scans(ink, box, point, offsets, th, stroke, None, avoid), th) < 2:
        return False
    return not has_bar(ink, box, point, stroke, th, direction, avoid)


def has_bar(ink: np.ndarray, box: tuple[int, int, int, int], point: np.ndarray,
            stroke: float, th: float, direction: np.ndarray | None = None,
            avoid: np.ndarray | None = None) -> bool:
    """Whether the line ending at ``point`` beside ``box`` carries a bar (``||``, ``|o``:
    one) within a text height of the side: a scan across the line (:func:`_scans`) whose
    run through the line's middle reaches ``BAR`` text heights or more to each side of
    it, where the line alone is a stroke wide (and a circle's arc, touched at its side,
    less)."""
    offsets = list(range(int(round(2 * stroke)) + 1, int(round(1.2 * th)) + 1))
    half = int(round(th))
    reach = BAR * th
    for scan in _scans(ink, box, point, offsets, th, stroke, direction, avoid):
        if scan is None or not scan[half]:
            continue
        lo = hi = half
        while lo > 0 and scan[lo - 1]:
            lo -= 1
        while hi < len(scan) - 1 and scan[hi + 1]:
            hi += 1
        if half - lo >= reach and hi - half >= reach:
            return True
    return False
