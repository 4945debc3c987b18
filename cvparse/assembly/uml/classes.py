"""UML class boxes read: found on the page, their name, attribute and method compartments
cropped (icons, badges and specks left out) and read with batched OCR."""

from __future__ import annotations

import math
import re

import cv2
import numpy as np

from ...model import UMLClass
from ...primitives.boxes import Box
from ...primitives.items import Inventory
from ...primitives.glyphs import (LOOKALIKE, SAME_SHAPE, is_single_glyph, repeat_glyph,
                                 repeated_letter)
from ...arrays import colour_distance, components
from ...primitives.ocr import clean_single_glyph, word_lines

_STEREOTYPE = re.compile(r"^(«|<<|\(\().*")


def _within(rect: tuple[int, int, int, int], inset: int) -> tuple[int, int, int, int]:
    """The crop ``x1, y1, x2, y2`` (ends exclusive) of a compartment ``rect`` whose sides are
    border line centres, kept ``inset`` pixels off every side alike (a letter one pixel
    from the right border of a tight box, in small text, stays in)."""
    x1, y1, x2, y2 = rect
    return x1 + inset, y1 + inset, x2 - inset + 1, y2 - inset + 1


def _compartment_crop(rgb: np.ndarray, rect: tuple[int, int, int, int], inset: int,
                      icons: list[tuple[int, int, int, int]]) -> np.ndarray:
    """Dark-on-white crop of the text in a compartment; coloured marks and icons erased."""
    x1, y1, x2, y2 = _within(rect, inset)
    if x2 - x1 < 3 or y2 - y1 < 3:
        return np.full((2, 2), 255, np.uint8)
    sub = rgb[y1:y2, x1:x2]
    fill = np.median(sub.reshape(-1, 3), axis=0)
    dist = colour_distance(sub, fill)
    top = max(float(np.percentile(dist, 99.5)), 30.0)
    gray = 255.0 - np.clip(dist / top, 0, 1) * 255.0
    hsv = cv2.cvtColor(sub, cv2.COLOR_RGB2HSV)
    gray[(hsv[:, :, 1] > 90) & (hsv[:, :, 2] > 60)] = 255
    for ix1, iy1, ix2, iy2 in icons:
        centre = ((ix1 + ix2) / 2 - x1, (iy1 + iy2) / 2 - y1)
        cv2.ellipse(gray, (centre, (float(ix2 - ix1), float(iy2 - iy1)), 0.0), 255, -1)
    # border remnants: long thin strokes along the crop edges
    n, labels, stats, _ = cv2.connectedComponentsWithStats((gray < 160).astype(np.uint8), 8)
    for i in range(1, n):
        if _border_remnant(stats[i], gray.shape):
            gray[labels == i] = 255
    ys, xs = np.nonzero(gray < 200)
    if ys.size == 0:
        return np.full((2, 2), 255, np.uint8)
    m = 2
    return gray[max(0, ys.min() - m):ys.max() + m + 1,
                max(0, xs.min() - m):xs.max() + m + 1].astype(np.uint8)


def _border_remnant(stat: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a component (``x, y, w, h`` stats) of a compartment crop is what is left of
    the box border: a long thin stroke along one of the crop's sides.  The stem of a
    capital letter in tight small text is as long and thin, but stands off the sides."""
    x, y, bw, bh = (int(v) for v in stat[:4])
    h, w = shape[:2]
    side = 3
    upright = bh >= 0.8 * h and bw <= 3 and (x <= side or x + bw >= w - side)
    flat = bw >= 0.8 * w and bh <= 3 and (y <= side or y + bh >= h - side)
    return upright or flat


BADGE_LIFT = 1.7
"""A badge stands at least this many times taller than the name's other letters: a
capital (or a capital run into the next letter) starting a name of lower-case letters
stands up to about 1.5 times their height."""


def _badge_disc(stats: np.ndarray, keep: np.ndarray, width: int) -> tuple | None:
    """``(cx, cy, r)`` of a round class-kind badge among a name compartment's ink blobs.

    The badge ("C", "I", "A" in a circle) is a roughly round blob left of everything else,
    clearly taller than every letter of the name; when the first letter touches it, the
    blob is wider than tall and the disc is its left part.
    """
    n = len(stats)
    for i in range(1, n):
        bx, by, bw, bh, _ = stats[i]
        others = [j for j in range(1, n) if j != i and keep[j] and stats[j, 4] >= 4]
        if not keep[i] or not others or bh < BADGE_LIFT * max(stats[j, 3] for j in others):
            continue  # not clearly taller than every letter, capitals included
        if bx + bh / 2 > 0.5 * width or bw < 0.75 * bh:
            continue
        if bx > min(stats[j, 0] for j in others):
            continue  # the badge comes first
        return bx + bh / 2.0, by + bh / 2.0, bh / 2.0
    return None


def _stray_specks(stats: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Components of a name compartment that are specks well above or below the text line
    (the point of a marker touching the border, a speck of a shadow): to Tesseract a dot
    above the line turns a capital I into an "i".

    The text line is the rows of the kept components at least half as tall as the tallest;
    a speck (under a third of that height either way) more than half that height away
    from the line is stray.  An i's dot sits a stroke or two above its stem.
    """
    out = np.zeros(len(keep), bool)
    idx = np.flatnonzero(keep)
    if idx.size < 2:
        return out
    tops, heights = stats[idx, 1], stats[idx, 3]
    tall = heights.max()
    line = idx[heights >= 0.5 * tall]
    top = stats[line, 1].min()
    bottom = (stats[line, 1] + stats[line, 3]).max()
    for i, y, h in zip(idx, tops, heights):
        small = h < tall / 3 and stats[i, 2] < tall / 3
        away = max(top - (y + h), y - bottom)
        out[i] = small and away > 0.5 * tall
    return out


def _name_crop(rgb: np.ndarray, rect: tuple[int, int, int, int], inset: int) -> np.ndarray:
    """Dark-on-white crop of the text of a name compartment, the class-kind badge removed.

    The box fill is taken from the compartment's edge (a badge may cover most of a small
    compartment); ink is whatever differs clearly from it.  Contrast is stretched to the
    text's own ink so that light or coloured names read as well as black ones.
    """
    x1, y1, x2, y2 = _within(rect, inset)
    blank = np.full((2, 2), 255, np.uint8)
    if x2 - x1 < 3 or y2 - y1 < 3:
        return blank
    sub = rgb[y1:y2, x1:x2]
    edge = np.concatenate([sub[0], sub[-1], sub[:, 0], sub[:, -1]])
    dist = colour_distance(sub, np.median(edge, axis=0))
    top = float(dist.max())
    if top < 30:
        return blank
    ink = dist > max(25.0, 0.3 * top)
    n, labels, stats, _ = components(ink.astype(np.uint8), 8)
    h, w = ink.shape
    keep = np.ones(n, bool)
    keep[0] = False
    for i in range(1, n):
        if _border_remnant(stats[i], ink.shape):
            keep[i] = False
    disc = _badge_disc(stats, keep, w)
    if disc is not None:
        cx, cy, r = disc
        yy, xx = np.mgrid[0:h, 0:w]
        d2 = (xx - cx) ** 2 + (yy - cy) ** 2
        # the badge's blob goes; pieces of its outline and its letter lie within the
        # disc; a name letter touching the disc keeps what lies outside it
        inside, halo = d2 <= (r + 0.5) ** 2, d2 <= (1.05 * r + 2) ** 2
        for j in range(1, n):
            pix = labels == j
            if (pix & halo).sum() >= 0.8 * stats[j, 4]:
                keep[j] = False
        ink &= ~inside
    keep &= ~_stray_specks(stats, keep)
    mask = keep[labels] & ink
    if not mask.any():
        return blank
    scale = max(float(np.percentile(dist[mask], 90)), 30.0)
    near = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    gray = np.where(near, 255.0 - np.clip(dist / scale, 0, 1) * 255.0, 255.0)
    ys, xs = np.nonzero(mask)
    m = 2
    text = gray[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.uint8)
    return cv2.copyMakeBorder(text, m, m, m, m, cv2.BORDER_CONSTANT, value=255)


_WORD_START_DIGIT = re.compile(r"(?<![A-Za-z0-9_])[012568]")


def _class_name(lines: list[str], crop: np.ndarray) -> str:
    """The class name from the text lines of a name compartment.

    Stereotype lines are skipped; the name is one identifier, which cannot start with a
    digit (a leading digit is its look-alike letter); a name drawn as one glyph is one
    character.
    """
    names = [ln for ln in lines if not _STEREOTYPE.match(ln)] or lines
    if not names:
        return ""
    raw = _WORD_START_DIGIT.sub(lambda m: m.group().translate(LOOKALIKE),
                                "".join(names[-1].split()))
    # sans-serif I and l look alike: an l with no lower-case letter before it and a
    # capital after it ("lOException", "WSGlTransport", "_lOBase") starts no word
    # part in an identifier's casing, a capital I does
    name = _CAPITAL_I.sub("I", _identifier(raw))
    if is_single_glyph(crop):
        name = clean_single_glyph(name)
        letters = [ch for ch in name if ch.isalnum()]
        name = letters[0] if letters else name
        if name in SAME_SHAPE:
            name = name.upper()  # a lone letter whose cases look alike is a capital
    return name


_CAPITAL_I = re.compile(r"(?<![a-z])l(?=[A-Z])")
_IDENT = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]+\.)*[A-Za-z_][A-Za-z0-9_]*")


def _identifier(text: str) -> str:
    """A class name is one identifier, qualified by its module path where the tool writes
    one ("rich.padding.Padding", as pyreverse does); marks read from a badge or a border
    before it ("C°Employee", "{-UserService") are dropped by keeping the last identifier.
    A one-letter part is no module name but such a mark ("C.Employee")."""
    tokens = _IDENT.findall(text)
    return tokens[-1] if tokens else text


def _lines(words) -> list[str]:
    return [" ".join(w.text for w in ws) for ws in word_lines(words)]


def _icons_in(inv: Inventory, rect: tuple[int, int, int, int]) -> list[tuple]:
    """Shapes lying inside a compartment but much smaller than it (the circled class icon)."""
    x1, y1, x2, y2 = rect
    area = (x2 - x1) * (y2 - y1)
    out = []
    pad = 0
    for s in inv.shapes:
        sx1, sy1, sx2, sy2 = s.outer.bbox
        if sx1 >= x1 - pad and sy1 >= y1 - pad and sx2 <= x2 + pad and sy2 <= y2 + pad \
                and (sx2 - sx1) * (sy2 - sy1) < 0.5 * area:
            out.append((sx1 - pad, sy1 - pad, sx2 + pad, sy2 + pad))
    return out


_VALID_NAME = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]+\.)*[A-Za-z_][A-Za-z0-9_]*$")
NAME_ZOOM = 1.5
"""Names are read twice on one sheet, as cropped and this much larger (one-letter names
written out repeatedly, see ``glyphs.REPEATS``); the sheet is scaled by the median glyph
height, so the two copies straddle Tesseract's usual text size.  Which copy reads better
depends on the text's own size: the read is chosen per name (:func:`_better_read`)."""


def _confidence(words) -> float:
    """Tesseract's mean word confidence over the name's line (0 when nothing was read)."""
    return float(np.mean([w.confidence for w in words])) if words else 0.0


_ECHOES = {frozenset("lI")}
"""Letters of one shape in sans-serif type, echoed as each other like a case twin."""


def _case_echo(longer: str, shorter: str) -> bool:
    """``longer`` is ``shorter`` with one letter put in front of its own other case
    ("NodevVisitor" for "NodeVisitor", "ColortTriplet") or of its look-alike
    ("_NamedTextlIOWrapper"): the echo Tesseract's LSTM leaves on an upscaled capital."""
    if len(longer) != len(shorter) + 1:
        return False
    for i in range(len(longer) - 1):
        a, b = longer[i], longer[i + 1]
        twin = a.lower() == b.lower() or frozenset((a, b)) in _ECHOES
        if a != b and twin and longer[:i] + longer[i + 1:] == shorter:
            return True
    return False


def _better_read(reads: list[tuple[str, float]]) -> str:
    """The name from its reads on the two copies, ``(name, confidence)`` each, the larger
    copy first.  A valid name beats an invalid one; a read that is the other with a case
    echo put in (see :func:`_case_echo`) loses to it; otherwise the more confident read
    wins, the larger copy on a tie."""
    valid = [(n, c) for n, c in reads if n and _VALID_NAME.match(n)]
    if not valid:
        return reads[-1][0]
    if len(valid) == 2:
        (a, ca), (b, cb) = valid
        if _case_echo(a, b):
            return b
        if _case_echo(b, a):
            return a
        return b if cb > ca else a
    return valid[0][0]


def read_names(inv: Inventory, names: list[np.ndarray], th: float) -> list[str]:
    """Class names from name-compartment crops, one OCR call (through the page)."""
    if not names:
        return []
    single = [is_single_glyph(c) for c in names]
    first = [cv2.resize(repeat_glyph(c) if one else c, None, fx=NAME_ZOOM, fy=NAME_ZOOM,
                        interpolation=cv2.INTER_CUBIC) if c.shape[0] > 2 else c
             for c, one in zip(names, single)]
    second = [repeat_glyph(c) if one else c for c, one in zip(names, single)]
    words = inv.read(first + second, th)
    out = []
    for k, (c, one) in enumerate(zip(names, single)):
        big, small = words[k], words[len(names) + k]
        if one:
            name = repeated_letter(" ".join(w.text for w in big)) or \
                repeated_letter(" ".join(w.text for w in small))
            out.append(name if _VALID_NAME.match(name) else _class_name(_lines(small), c))
            continue
        out.append(_better_read([(_class_name(_lines(big), first[k]), _name_confidence(big)),
                                 (_class_name(_lines(small), c), _name_confidence(small))]))
    return out


def _name_confidence(words) -> float:
    """The confidence of the line the name is taken from (the last one not a stereotype,
    see :func:`_class_name`)."""
    lines = [ws for ws in word_lines(words)
             if not _STEREOTYPE.match(" ".join(w.text for w in ws))] or word_lines(words)
    return _confidence(lines[-1]) if lines else 0.0


def read_classes(inv: Inventory, boxes: list[Box]) -> list[UMLClass]:
    """Name, attributes and methods of every box, read with two OCR calls (one if no box
    has attributes or methods).

    Names are read on a sheet of their own: beside attribute lines Tesseract merged a
    lone capital with its neighbours' text ("S" read as "iS)"); see :func:`read_names`.
    """
    inset = math.ceil(0.5 * inv.scale.stroke) + 1
    th = inv.scale.text_height
    names = [_name_crop(inv.image, b.compartments[0], inset) for b in boxes]
    crops, owners = [], []
    for bi, b in enumerate(boxes):
        for rect in b.compartments[1:]:
            crop = _compartment_crop(inv.image, rect, inset, _icons_in(inv, rect))
            if crop.shape[0] > 2:  # empty compartments are not sent to OCR
                crops.append(crop)
                owners.append(bi)
    classes = [UMLClass(name="", bbox=[int(v) for v in b.bbox]) for b in boxes]
    for cls, name in zip(classes, read_names(inv, names, th)):
        cls.name = name
    for bi, words in zip(owners, inv.read(crops, th)):
        for ln in _lines(words):
            (classes[bi].methods if "(" in ln else classes[bi].attributes).append(ln)
    return classes
