"""Edge labels set on a pale plate over a line: found by colour, so the tracer can clear
them from the connector mask and bridge the line across.

A plate is ink (it differs from the paper) and would join the line and the letters on it
into one blob; it is a flat pale tint without an outline, unlike the paper all round.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..primitives.items import Inventory
from ..arrays import colour_distance
from .attach import phantom_shapes


def label_plates(inv: Inventory) -> list[tuple[int, int, int, int]]:
    """Boxes of edge labels drawn on a pale plate over a line (outside every shape).

    The plate hides the line under it and, being ink, would join the line and the
    letters into one blob.  A plate is a flat pale tint (less than half the contrast of
    the strongest ink, measured against the paper around it at label scale; its fill,
    the pixels off the paper, under ``PLATE_TINT``) far thicker
    than a line and about a text line high, with darker ink (its letters) on it, no
    outline round it and paper of another colour all round it.
    """
    if inv.image is None or not inv.ink.any():
        return []
    h, w = inv.ink.shape
    phantoms = phantom_shapes(inv)
    dist = colour_distance(inv.image, _local_paper(inv, phantoms))
    top = float(np.percentile(dist[inv.ink], 95))
    strong = dist > 0.5 * top
    # a wide plate's tint is not all ink (ink is measured against a finer paper map):
    # take every pixel visibly off the paper around it
    pale = (inv.ink | (dist > max(12.0, 0.05 * top))) & ~strong
    # node fills are tinted too; a group frame (a phantom shape) holds labels itself
    nodes = [s for k, s in enumerate(inv.shapes) if k not in phantoms]
    for shape in nodes:
        x1, y1, x2, y2 = shape.bbox
        pale[y1:y2, x1:x2] = False
    r = int(round(inv.scale.stroke)) + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    # closing fills the letters in; opening drops thin pale ink (anti-aliased edges)
    core = cv2.morphologyEx(pale.astype(np.uint8), cv2.MORPH_CLOSE, kernel)
    core = cv2.morphologyEx(core, cv2.MORPH_OPEN, kernel)
    contours, _ = cv2.findContours(core, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    th = inv.scale.text_height
    out = []
    for contour in contours:
        x, y, bw, bh = cv2.boundingRect(contour)
        if not 0.6 * th <= bh <= 4 * th or bw < th:
            continue
        part = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(part, [contour], -1, 1, cv2.FILLED, offset=(-x, -y))
        part = part.astype(bool) & core[y:y + bh, x:x + bw].astype(bool)
        if part.sum() < 0.6 * bw * bh:
            continue
        # inside or against a node: its fill, or a tint spilling past its corner
        if any(s.bbox[0] - r < x + bw and s.bbox[2] + r > x and s.bbox[1] - r < y + bh
               and s.bbox[3] + r > y for s in nodes):
            continue
        tint = part & ~strong[y:y + bh, x:x + bw]
        if tint.sum() < 0.6 * part.sum() or not strong[y:y + bh, x:x + bw].any():
            continue
        # the fill's colour is read off the paper only: where a line crosses the plate
        # the closing also spans the paper along the line's anti-aliased fringe
        fill = tint & pale[y:y + bh, x:x + bw]
        colour = _uniform_tint(inv.image[y:y + bh, x:x + bw][fill],
                               dist[y:y + bh, x:x + bw][fill], PLATE_TINT * top)
        if colour is None and _clear_share(fill, strong[y:y + bh, x:x + bw]) >= CLEAR_SHARE:
            colour = _uniform_tint(inv.image[y:y + bh, x:x + bw][fill],
                                   dist[y:y + bh, x:x + bw][fill], PLATE_TINT * top, luma=True)
        if (colour is None or _tint_around(inv.image, strong, (x, y, x + bw, y + bh), colour, r)
                or _outlined(strong[y:y + bh, x:x + bw], r)):
            continue
        out.append((max(0, x - 1), max(0, y - 1), min(w, x + bw + 1), min(h, y + bh + 1)))
    return out


def _local_paper(inv: Inventory, phantoms: set[int] = frozenset(), step: int = 4
                 ) -> np.ndarray:
    """Paper colour around every pixel at the scale of a label (several text lines), so a
    plate inside a tinted group frame stands out from the frame's fill, not the page's.

    Node fills are no paper (they would tint the gaps between nodes): every shape but
    the ``phantoms`` (group frames, whose fill is the paper of what they hold) is painted
    over in the paper colour just around it first.  A median on a ``step`` times
    smaller copy keeps it cheap.
    """
    h, w = inv.image.shape[:2]
    sw, sh = max(1, w // step), max(1, h // step)
    small = cv2.resize(inv.image, (sw, sh), interpolation=cv2.INTER_AREA)
    page = small.copy()
    for shape in (s for k, s in enumerate(inv.shapes) if k not in phantoms):
        # the far sides rounded up: a ring cell must hold no outline pixel
        x1, y1 = int(shape.bbox[0]) // step, int(shape.bbox[1]) // step
        x2, y2 = -(-int(shape.bbox[2]) // step), -(-int(shape.bbox[3]) // step)
        x2, y2 = min(sw, max(x2, x1 + 1)), min(sh, max(y2, y1 + 1))
        a, b, c, d = max(0, x1 - 1), max(0, y1 - 1), min(sw, x2 + 1), min(sh, y2 + 1)
        ring = np.ones((d - b, c - a), bool)
        ring[y1 - b:y2 - b, x1 - a:x2 - a] = False
        around = small[b:d, a:c][ring]
        page[y1:y2, x1:x2] = np.median(around, axis=0) if len(around) else inv.background
    k = min(max(3, int(8 * inv.scale.text_height / step) | 1), (min(sw, sh) - 1) | 1)
    if k >= 3:
        page = cv2.medianBlur(page, k)
    return cv2.resize(page, (w, h), interpolation=cv2.INTER_NEAREST)


def grow_plates(plates: list, texts: list) -> list:
    """Each plate grown to cover the text boxes overlapping it (a piece of the line under
    the label read as a letter): a line is bridged across the whole label at once."""
    out = []
    for x1, y1, x2, y2 in plates:
        for a, b, c, d in texts:
            if a <= x2 and c >= x1 and b <= y2 and d >= y1:
                x1, y1, x2, y2 = min(x1, a), min(y1, b), max(x2, c), max(y2, d)
        out.append((x1, y1, x2, y2))
    return out


PLATE_TINT = 0.45
"""Most a plate's fill may differ from the paper, as a share of the strongest ink's
contrast: under the half that makes ink strong (a dark theme's grey plate under light
letters stands at about 0.4), so the letters and lines stay clearly stronger."""

CLEAR_SHARE = 0.08
"""Share of a plate's box its tint covers two pixels or more away from its letters: a
plate has margins and gaps between words; the hue halo JPEG leaves along a dark line
lies all within a pixel or two of it."""


def _clear_share(fill: np.ndarray, strong: np.ndarray) -> float:
    """Share of the box that is ``fill`` at least two pixels from ``strong`` ink."""
    away = cv2.distanceTransform((~strong).astype(np.uint8), cv2.DIST_L2, 3) >= 2
    return float((fill & away).sum()) / max(1, fill.size)


def _uniform_tint(colours: np.ndarray, dist: np.ndarray, most: float, noise: float = 12.0,
                  luma: bool = False) -> np.ndarray | None:
    """The colour most of these pixels share (within JPEG ``noise``) if it is clearly off
    the paper yet pale (at most ``most`` from it): a plate's flat fill, not the colour
    fringes around dark lines nor an icon's grey body; else None.

    With ``luma`` the colours are compared in YCrCb: JPEG keeps hue at half resolution,
    so a tint between dark letters drifts in hue far more than in brightness.
    """
    if len(colours) == 0 or not 2 * noise <= float(np.median(dist)) <= most:
        return None
    centre = np.median(colours.astype(np.float32), axis=0)
    space = colours.astype(np.float32)
    if luma:
        space = cv2.cvtColor(np.clip(colours, 0, 255).astype(np.uint8).reshape(-1, 1, 3),
                             cv2.COLOR_RGB2YCrCb).reshape(-1, 3).astype(np.float32)
    if float((np.linalg.norm(space - np.median(space, axis=0), axis=1) < noise).mean()) < 0.6:
        return None
    return centre


def _outlined(strong: np.ndarray, width: int) -> bool:
    """True if dark ink runs along three sides just inside the box (an icon or a box
    drawn with an outline, its border swallowed by the closing); a plate leaves a margin
    round its letters."""
    sides = (strong[:width], strong[-width:], strong[:, :width], strong[:, -width:])
    return sum(side.size > 0 and float(side.any(axis=0 if k < 2 else 1).mean()) > 0.5
               for k, side in enumerate(sides)) >= 3


def _tint_around(rgb: np.ndarray, strong: np.ndarray, box, colour: np.ndarray, width: int,
                 noise: float = 12.0) -> bool:
    """True if the plate's colour runs on just outside its box (the edge of a tinted area,
    a group frame's fill, rather than a plate set on the paper), or if a dark border runs
    round it (a box drawn with an outline, such as a class box, is no label plate)."""
    h, w = strong.shape
    x1, y1, x2, y2 = box
    a, b, c, d = max(0, x1 - width), max(0, y1 - width), min(w, x2 + width), min(h, y2 + width)
    sides = (strong[b:y1, x1:x2], strong[y2:d, x1:x2], strong[y1:y2, a:x1], strong[y1:y2, x2:c])
    if sum(side.size > 0 and float(side.any(axis=0 if k < 2 else 1).mean()) > 0.5
           for k, side in enumerate(sides)) >= 3:
        return True
    ring = np.ones((d - b, c - a), bool)
    ring[y1 - b:y2 - b, x1 - a:x2 - a] = False
    around = rgb[b:d, a:c][ring & ~strong[b:d, a:c]].astype(np.float32)
    return bool(len(around)) and float(
        (np.linalg.norm(around - colour, axis=1) < noise).mean()) > 0.3
