"""Relationships drawn as a line straight between two entity boxes (schema style): the
name is the free text beside the line (or, where the line touches it and free text lost
it, the glyphs left beside the line, read again), the cardinalities those nearest each
end."""

from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher
from collections.abc import Set as AbstractSet

import numpy as np

from ...boxes import point_gaps
from ...connectors.lines import Connector
from ...model import Relationship
from ...primitives.items import Inventory, TextItem
from ...primitives.freetext import WordBox
from ...primitives.ocr import Word, glyph_height
from ...primitives.wordjoin import join_label
from .cardinalities import assign_cardinalities, glyph_cardinalities
from .crowsfoot import has_bar, is_crowsfoot
from .cut_glyphs import glyph_boxes, group_box, line_bands, read_words
from .geometry import box_to_polyline, dist_to_polyline, dists_to_polyline, straighten
from .labels import CARDINALITY, RANGE, cardinality_text, clean_label, snap_name
from .links import Link
from .ports import end_direction


END_LABEL = 2.5
"""How wide (text heights) at most and how near a line's end a cardinality or an end
mark is: glyphs of that size there are no relationship name."""


SURE_NAME = 50.0
"""OCR confidence (0-100) at least one word of a name read from a line's leftover glyphs
has: glyphs that are no word (marks, a range's dots) read as letters score far less."""


REREAD_LIKE = 0.75
"""How alike (difflib ratio, letters and digits) a name read again with the crossing
strokes of its letters put back must be to the free-text reading to replace it: a line
run through a label makes OCR misread a letter or two, never the whole word."""


def edge_relationships(inv: Inventory, links: list[Link], role: dict[int, str | None],
                       names: dict[int, str], cards_used: set[int],
                       connectors: list[Connector],
                       columns: AbstractSet[str] = frozenset()) -> list[Relationship]:
    """Relationships drawn as a line straight between two entity boxes (schema style):
    the name is the nearest free word that is no cardinality, the cardinalities the
    ones nearest each end.  A name often is a column of a table it joins (a foreign
    key), and a line running through its label garbles it: a reading close to one of
    the page's ``columns`` alone is that column (:func:`~.labels.snap_name`)."""
    th = inv.scale.text_height
    lines = [ln for ln in links if ln.a in names and ln.b in names
             and role.get(ln.a) == "entity" and role.get(ln.b) == "entity"
             and not touches_connector_shape(inv, ln, role)]
    if not lines:
        return []
    words = [(k, t) for k, t in enumerate(inv.texts)
             if k not in cards_used and not CARDINALITY.match(cardinality_text(t.text))
             and not end_mark_word(t, lines, th)]
    pairs = []
    for wi, (_k, t) in enumerate(words):
        for li, ln in enumerate(lines):
            # From the word's box, not its centre: a long name sits beside the line.
            d = box_to_polyline(t.bbox, ln.points)
            if d <= 1.5 * th:
                pairs.append((d, wi, li))
    pairs.sort()
    name_of: dict[int, str] = {}
    name_box: dict[int, tuple[int, int, int, int]] = {}
    used: set[int] = set()
    joiner = _word_joiner(inv)
    # A name the line passes under is its own (an end mark read as a letter is none).
    at = {k: wi for wi, (k, _) in enumerate(words)}
    for li, ln in enumerate(lines):
        for k in ln.under:
            if k in at and len(re.findall(r"[A-Za-z]", inv.texts[k].text)) >= 2:
                pairs.insert(0, (-1.0, at[k], li))
                break

    def take(pairs: list[tuple[float, int, int]]) -> None:
        for _, wi, li in pairs:
            if wi in used or li in name_of:
                continue
            group = _same_row_words(wi, [t for _, t in words], used, th)
            used.update(group)
            name_of[li] = clean_label(joiner.join(words[g][1].text for g in group))
            gb = np.array([words[g][1].bbox for g in group])
            name_box[li] = (int(gb[:, 0].min()), int(gb[:, 1].min()), int(gb[:, 2].max()),
                            int(gb[:, 3].max()))

    take(pairs)
    take(_off_curve_names(words, lines, used, name_of, th))
    name_of.update(extend_names(inv, lines, name_of, name_box))
    unnamed = [li for li in range(len(lines)) if li not in name_of]
    name_of.update(recover_names(inv, lines, unnamed, columns))
    name_of = {li: snap_name(n, columns) for li, n in name_of.items()}
    ends = [Link(ln.a, ln.b, ln.points) for ln in lines] + \
        [Link(ln.b, ln.a, ln.points[::-1]) for ln in lines]
    cards = end_cardinalities(inv, ends, role, connectors, cards_used)
    out = []
    n = len(lines)
    for li, ln in enumerate(lines):
        out.append(Relationship(name=name_of.get(li, ""),
                                entities=[names[ln.a], names[ln.b]],
                                cardinalities=[cards.get(li + n, ""), cards.get(li, "")]))
    return out


def _off_curve_names(words: list[tuple[int, TextItem]], lines: list[Link], used: set[int],
                     name_of: dict[int, str], th: float) -> list[tuple[float, int, int]]:
    """(distance, word, line) pairs for names written off their line: a spline bends away
    from the point its label was placed at.  A word left over (two letters or more) whose
    nearest line is still unnamed, within four text heights of it and at most half as
    far from it as from any other line."""
    out = []
    for wi, (_k, t) in enumerate(words):
        if wi in used or len(re.findall(r"[A-Za-z]", t.text)) < 2:
            continue
        d = sorted((box_to_polyline(t.bbox, ln.points), li) for li, ln in enumerate(lines))
        if d[0][0] <= 4 * th and d[0][1] not in name_of \
                and (len(d) == 1 or d[1][0] >= 2 * d[0][0]):
            out.append((d[0][0], wi, d[0][1]))
    return sorted(out)


def end_mark_word(t: TextItem, lines: list[Link], th: float) -> bool:
    """Whether free word ``t`` is a line's end mark read as text: fewer than two letters
    (a crow's foot's circle reads as ``O``, its bar as ``T`` or ``I``) within two text
    heights of a line's end.  Such a word is no relationship's name."""
    if len(re.findall(r"[A-Za-z]", t.text)) >= 2:
        return False
    p = np.array([q for ln in lines for q in (ln.points[0], ln.points[-1])], float)
    return bool((point_gaps(p, t.bbox) <= 2 * th).any())


def end_cardinalities(inv: Inventory, ends: list[Link], role: dict[int, str | None],
                      connectors: list[Connector], cards_used: set[int]) -> dict[int, str]:
    """Cardinality of each line end (index into ``ends``, each oriented towards the entity
    it reads for).

    The free text nearest each end comes first.  On a page that draws crow's-foot
    marks at the ends left without text (:func:`end_marks`), the marks decide: ``N``
    where a crow's foot is drawn (over a text read there too: OCR takes a foot with a
    circle for a digit) and ``1`` at the other ends.  Glyph matching and the OCR of cut
    glyphs (:func:`~.cardinalities.glyph_cardinalities`) serve only pages without marks:
    their templates are the page's cardinality texts, and on a marked page those are
    mostly marks misread, which would be found again at every other foot.  A page that
    writes a range (``0..N``, ``{0,1}``) at a line end writes its cardinalities: what
    looks like a mark there is a label's glyphs beside the line."""
    th = inv.scale.text_height
    cards = assign_cardinalities(inv, ends, 2.5 * th, exclude=cards_used)
    if any(RANGE.match(c) for c in cards.values()):
        return written_cardinalities(glyph_cardinalities(inv, ends, cards, connectors),
                                     len(ends))
    marks = end_marks(inv, ends, role)
    if not any(marks.get(k) for k in range(len(ends)) if k not in cards):
        return glyph_cardinalities(inv, ends, cards, connectors)
    for k in range(len(ends)):
        if marks.get(k) == "N" or k not in cards:
            cards[k] = "N" if marks.get(k) == "N" else "1"
    return cards


def written_cardinalities(cards: dict[int, str], n: int) -> dict[int, str]:
    """The cardinality of each of ``n`` line ends on a page that writes ranges at every
    end, from those read (``cards``); ends ``k`` and ``k + n / 2`` are one line's two.
    A lone ``0`` is no cardinality (nothing can be at most none): the rest of a range
    the line cut off, the range starting with ``0`` the page writes most.  An end left
    without a reading faces the other end's multiplicity: where that end reads a one
    (``1``, ``{0,1}``), the many-range the page writes most (a line joins a key to the
    rows that refer to it; a range's glyphs, dots and all, are what a dashed line
    touching them loses); else ``1``, the label OCR and glyph matching lose most (one
    thin upright glyph)."""
    zero = Counter(c for c in cards.values() if RANGE.match(c) and c.lstrip("{").startswith("0"))
    many = Counter(c for c in cards.values() if RANGE.match(c) and is_many(c))
    out = {}
    for k in range(n):
        c = cards.get(k)
        if c is None:
            other = cards.get((k + n // 2) % n) if n % 2 == 0 else None
            c = many.most_common(1)[0][0] if other is not None and many \
                and not is_many(other) and other != "0" else "1"
        out[k] = zero.most_common(1)[0][0] if c == "0" and zero else c
    return out


def is_many(card: str) -> bool:
    """Whether a cardinality allows many: ``N``, ``M``, ``*`` or a number above one at
    its upper end (``0..N``, ``{1,*}``, ``2``)."""
    top = re.split(r"\.\.|,", card.strip("{}"))[-1].strip()
    return top.upper() in ("N", "M", "*") or (top.isdigit() and int(top) > 1)


def end_marks(inv: Inventory, ends: list[Link], role: dict[int, str | None]
              ) -> dict[int, str]:
    """The crow's-foot mark at each line end (:mod:`.crowsfoot`): ``N`` for a crow's
    foot, ``1`` for a bar, ``""`` for neither; ends more than two text heights from any
    entity box are left out.  An end's side is that of the entity box (a table's row)
    nearest it."""
    if inv.ink is None:
        return {}
    th, stroke = inv.scale.text_height, inv.scale.stroke
    boxes = [inv.shapes[i].bbox for i, r in role.items() if r == "entity"]
    if not boxes:
        return {}
    b = np.array(boxes, float)
    out: dict[int, str] = {}
    for k, ln in enumerate(ends):
        p = np.asarray(ln.points[-1], float)
        gap = point_gaps(p, b.T)
        j = int(np.argmin(gap))
        if gap[j] <= 2 * th:
            # out of the box along the line's last two text heights
            out_dir = -end_direction(ln.points, False, 2 * th)
            if is_crowsfoot(inv.ink, boxes[j], p, stroke, th, out_dir, b):
                out[k] = "N"
            elif has_bar(inv.ink, boxes[j], p, stroke, th, out_dir, b):
                out[k] = "1"
            else:
                out[k] = ""
    return out


def touches_connector_shape(inv: Inventory, line: Link, role: dict[int, str | None]) -> bool:
    """Whether a line between two entities meets the outline of a relationship diamond or
    IS-A triangle on its way: two lines meeting at that shape's border were traced as one, so
    the entities are joined through the shape, not directly.  The region's contour is the
    paper inside the border; a touching line's centre is a border and half a line away."""
    tol = 3 * inv.scale.stroke + 1
    pts = np.asarray(line.points, float)
    for i, r in role.items():
        if r not in ("relationship", "isa") or i in (line.a, line.b):
            continue
        contour = np.asarray(inv.shapes[i].outer.contour, float).reshape(-1, 2)
        x1, y1, x2, y2 = inv.shapes[i].outer.bbox
        if (pts[:, 0].max() < x1 - tol or pts[:, 0].min() > x2 + tol
                or pts[:, 1].max() < y1 - tol or pts[:, 1].min() > y2 + tol):
            continue
        if len(contour) and float(dists_to_polyline(contour, pts)[0].min()) <= tol:
            return True
    return False


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


def _joined(words: list[Word], crop: np.ndarray, joiner: str, th: float) -> str:
    """A name read from a glyph crop, its words joined as the page joins them."""
    return joiner.join(clean_label(join_label(words, crop, False, glyph_height(crop) or th))
                       .split())


def recover_names(inv: Inventory, lines: list[Link], unnamed: list[int],
                  columns: AbstractSet[str] = frozenset()) -> dict[int, str]:
    """Names of the ``unnamed`` lines read from the glyphs left beside them once shapes,
    free text and lines are taken out: a name the line touches is lost to the free-text
    pass.  Per line, the word piece nearest it (within one and a half text heights, off
    its ends, at least 0.4 text heights tall) and the pieces continuing it on its text
    row (no short group at any line's end, :func:`_end_label`), read in one batched OCR
    call; a reading of two or more letters that is no cardinality, one word of it read
    with ``SURE_NAME`` confidence or more (an end mark or a range's glyphs read as
    letters are guessed at), its words joined as the page joins them; or, read with
    other marks (a letter the line cut through), one of the page's ``columns`` it is
    close to."""
    if not unnamed or inv.ink is None or inv.image is None:
        return {}
    th = inv.scale.text_height
    # Only the relationship lines are taken out: a piece traced along a name that touches
    # a line would take the name's middle with it.
    polylines = [straighten(ln.points, th) for ln in lines]
    labels, boxes, _ = glyph_boxes(inv, polylines)
    ids = _word_pieces(boxes, th)
    if not ids.size:
        return {}
    bands = line_bands(labels.shape, polylines, th, inv.scale.stroke)
    b = boxes[ids].astype(float)
    centres = np.column_stack([(b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2])
    letter = b[:, 3] - b[:, 1] >= 0.4 * th  # no speck or dot starts a name
    tips = np.array([ln.points[k] for ln in lines for k in (0, -1)], float)
    taken = np.zeros(len(ids), bool)
    words, targets = [], []
    for li in unnamed:
        line = straighten(lines[li].points, th)
        d, frac = dists_to_polyline(centres, line)
        ok = (d <= 1.5 * th) & (frac >= 0.15) & (frac <= 0.85) & ~taken & letter
        if not ok.any():
            continue
        # Nearest first: a speck of the line or a cardinality's piece groups with nothing.
        for seed in np.flatnonzero(ok)[np.argsort(d[ok])]:
            group = _row_pieces([int(seed)], b, taken, th, line)
            if len(group) >= 2:
                break
        box = group_box(b[group])
        if len(group) < 2 or box[2] - box[0] > 20 * th:
            continue
        taken[group] = True
        if _end_label(box, tips, th):
            continue
        words.append(WordBox(box, [int(ids[g]) for g in group]))
        targets.append(li)
    if not words:
        return {}
    # A name a line runs through is read a second time, its letters' cut strokes put
    # back: that reading stands in where the cut one gives no name.
    whole = [k for k, w in enumerate(words) if bands.crosses(w.bbox)]
    reads = read_words(inv, labels, boxes, words + [words[k] for k in whole], bands,
                       [False] * len(words) + [True] * len(whole))
    joiner = _word_joiner(inv)
    out: dict[int, str] = {}
    for li, (crop, ws), join in zip(targets + [targets[k] for k in whole], reads,
                                    [joiner] * len(words) + [" "] * len(whole)):
        if li not in out and (name := _line_name(_joined(ws, crop, join, th), ws, columns)):
            out[li] = name
    return out


def _line_name(text: str, ws: list[Word], columns: AbstractSet[str]) -> str:
    """The name a reading of a line's leftover glyphs gives, or '': two or more letters
    and no cardinality, one word read with ``SURE_NAME`` confidence or more (an end mark
    or a range's glyphs read as letters are guessed at); or, read with other marks (a
    letter the line cut through), one of the page's ``columns`` it is close to."""
    sure = max((w.confidence for w in ws), default=0.0) >= SURE_NAME
    if sure and len(re.findall(r"[A-Za-z]", text)) >= 2 \
            and re.fullmatch(r"[A-Za-z0-9_ ]+", text) \
            and not CARDINALITY.match(cardinality_text(text)):
        return text
    snapped = snap_name(re.sub(r"[^A-Za-z0-9_ ]", "", text), columns)
    return snapped if snapped in columns else ""


def extend_names(inv: Inventory, lines: list[Link], name_of: dict[int, str],
                 name_box: dict[int, tuple[int, int, int, int]]) -> dict[int, str]:
    """Names free text read in part only (the letters touching the line lost with it):
    the glyphs of the name's box with those continuing them on their row, once shapes
    and the lines are taken out, read again in one batched OCR call.  A reading that
    extends the name read (holds it, letters and digits compared) replaces it, its words
    joined as the page joins them.  A name a line runs through is read again too, the
    strokes the line's removal took from its letters put back
    (:func:`~.cut_glyphs.crossing_strokes`); where the cut reading extends no name, that
    reading replaces one it extends (holds its letters in order) or, sure and at least
    as long, is ``REREAD_LIKE`` to, with the spaces OCR found."""
    if not name_box or inv.ink is None or inv.image is None:
        return {}
    th = inv.scale.text_height
    joiner = _word_joiner(inv)
    polylines = [straighten(ln.points, th) for ln in lines]
    labels, boxes, _ = glyph_boxes(inv, polylines, free_text=True)
    ids = _word_pieces(boxes, th)
    if not ids.size:
        return {}
    bands = line_bands(labels.shape, polylines, th, inv.scale.stroke)
    b = boxes[ids].astype(float)
    cx, cy = (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2
    taken = np.zeros(len(ids), bool)
    for t in inv.texts:  # a cardinality beside the name is none of it
        if CARDINALITY.match(cardinality_text(t.text)):
            x1, y1, x2, y2 = t.bbox
            taken |= (cx >= x1) & (cx <= x2) & (cy >= y1) & (cy <= y2)
    cut: list[tuple[int, WordBox]] = []     # grown over more pieces, read as cut
    whole: list[tuple[int, WordBox]] = []   # a line runs through it, read with it put back
    for li, (x1, y1, x2, y2) in name_box.items():
        inside = np.flatnonzero((cx >= x1) & (cx <= x2) & (cy >= y1) & (cy <= y2) & ~taken)
        if not inside.size:
            continue
        group = _row_pieces([int(k) for k in inside], b, taken, th,
                            straighten(lines[li].points, th))
        gbox = group_box(b[group])
        # The pieces a line cut may leave some letters out: the box holds the name's.
        box = (min(gbox[0], x1), min(gbox[1], y1), max(gbox[2], x2), max(gbox[3], y2))
        grown = not all(x1 <= cx[g] <= x2 for g in group)
        crossed = bands.crosses(box)
        if not grown and not crossed:
            continue
        taken[group] = True
        pieces = [int(ids[g]) for g in group]
        if grown:
            cut.append((li, WordBox(gbox, pieces)))
        if crossed:
            whole.append((li, WordBox(box, pieces)))
    if not cut and not whole:
        return {}
    reads = read_words(inv, labels, boxes, [w for _, w in cut] + [w for _, w in whole], bands,
                       [False] * len(cut) + [True] * len(whole))
    out = {}
    for (li, _), (crop, ws) in zip(cut, reads):
        text = _joined(ws, crop, joiner, th)
        old, new = (re.sub(r"[^a-z0-9]", "", x.lower()) for x in (name_of[li], text))
        if old and old in new and len(new) > len(old) and re.fullmatch(r"[A-Za-z0-9_ ]+", text):
            out[li] = text
    for (li, _), (crop, ws) in zip(whole, reads[len(cut):]):
        # Read whole, a name's underscores are read with it: the spaces OCR finds are
        # the page's.
        text = _joined(ws, crop, " ", th)
        if li in out or not re.fullmatch(r"[A-Za-z0-9_ ]+", text):
            continue
        old, new = (re.sub(r"[^a-z0-9]", "", x.lower()) for x in (name_of[li], text))
        sure = min((w.confidence for w in ws), default=0.0) >= SURE_NAME
        extends = len(new) > len(old) and _in_order(old, new)
        # A letter or two may differ from the cut reading's guesses.
        amends = sure and len(new) >= len(old) \
            and SequenceMatcher(None, old, new).ratio() >= REREAD_LIKE
        if old and (extends or amends):
            out[li] = text
    return out


def _in_order(short: str, long: str) -> bool:
    """Whether the characters of ``short`` occur in ``long`` in order (the letters a cut
    reading kept, with those it lost left out)."""
    it = iter(long)
    return all(ch in it for ch in short)


def _end_label(box: tuple[int, int, int, int] | np.ndarray, tips: np.ndarray,
               th: float) -> bool:
    """Whether a group of glyphs is what a line's end carries (its cardinality or end
    mark, which OCR reads as letters) rather than a name: no wider than ``END_LABEL``
    text heights and as near as that to a line's end (``tips``, one per row).  A name
    placed near an end is told by its length."""
    x1, y1, x2, y2 = (float(v) for v in box)
    if x2 - x1 > END_LABEL * th or not len(tips):
        return False
    return bool(point_gaps(tips, (x1, y1, x2, y2)).min() <= END_LABEL * th)


def _row_pieces(seeds: list[int], b: np.ndarray, taken: np.ndarray, th: float,
                line: np.ndarray | None = None) -> list[int]:
    """The pieces ``seeds`` with the free pieces that continue them on their text row
    (boxes overlapping the row's band, a quarter text height deeper for an underscore, by
    half their height or the band's, at most half a text height apart), grown until no
    more join.  Along ``line`` a gap of up to one and a half text heights whose foot the
    line runs through is bridged: an underscore drawn on the line went with it."""
    group = list(seeds)
    grown = True
    while grown:
        grown = False
        x1, x2 = b[group, 0].min(), b[group, 2].max()
        foot = b[group, 3].max()
        y1, y2 = b[group, 1].min(), foot + 0.25 * th  # an underscore below
        for k in np.flatnonzero(~taken):
            if k in group:
                continue
            overlap = min(y2, b[k, 3]) - max(y1, b[k, 1])
            if overlap < 0.5 * min(y2 - y1, b[k, 3] - b[k, 1]):
                continue
            gap = max(b[k, 0] - x2, x1 - b[k, 2])
            if gap > 0.5 * th and (line is None or gap > 1.5 * th or dist_to_polyline(
                    np.array([(b[k, 0] + x2) / 2 if b[k, 0] > x2 else (x1 + b[k, 2]) / 2,
                              foot]), line)[0] > 0.3 * th):
                continue
            group.append(int(k))
            grown = True
    return group


def _word_pieces(boxes: np.ndarray, th: float) -> np.ndarray:
    """Labels of the glyph boxes a word may be made of: no taller than a text line, and
    up to four text heights wide (serif letters run together into one piece)."""
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    ok = (np.maximum(w, h) >= 0.2 * th) & (h <= 1.2 * th) & (w <= 4 * th)
    ok[0] = False
    return np.flatnonzero(ok)
