"""Icon labels read again with the lines that run into them taken out.

A free label is read from the glyphs left when connector strokes are cut out of the ink
outside shapes; a line that starts or ends on a letter takes that letter's strokes with
it, so the label loses letters ("PUSH UTTON", "Dri Chip").  Under an icon, where lines
start and end right at the label, that is common.  Here each icon label's box, widened
by two text heights on both sides, is read once more as a box of its own: lines crossing it
are found outside the box, followed in and erased with the letter strokes across them
drawn back, and ink of another colour than the label's own blanked first (perception's
:func:`~cvparse.primitives.rereads.read_widened`).

The new reading replaces the old one only where it keeps every letter of the old one, in
order, and adds some: letters lost to a line are the failure mended here, and a reading
that drops or changes a letter is no better evidence than the first.
"""

from __future__ import annotations


from ...primitives.items import Inventory
from ...primitives.rereads import read_widened

MIN_ADDED = 1
"""A new reading must add at least this many letters or digits (not counting repeats,
see :func:`added_letters`)."""


def _letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def added_letters(old: str, new: str) -> int | None:
    """How many letters or digits ``new`` adds to ``old`` (case ignored), or None where
    ``new`` does not hold every one of ``old`` in order.  An added letter next to the
    same letter does not count: Tesseract reads a lone capital, or one of a pair, twice
    ("C" as "Cc", "center" as "ccenter") far more often than a line takes one of two."""
    a, b = _letters(old), _letters(new)
    matched = set()
    k = 0
    for i, ch in enumerate(b):
        if k < len(a) and ch == a[k]:
            matched.add(i)
            k += 1
    if k < len(a):
        return None
    return sum(1 for i, ch in enumerate(b) if i not in matched
               and not ((i > 0 and b[i - 1] == ch) or (i + 1 < len(b) and b[i + 1] == ch)))


def _lone(text: str) -> list[str]:
    return [w.lower() for w in text.split() if len(w) == 1 and w.isalnum()]


def adds_letters(old: str, new: str) -> bool:
    """``new`` holds every letter or digit of ``old`` in order and adds at least
    ``MIN_ADDED`` (see :func:`added_letters`), and every word of one letter or digit of
    ``old`` (a suffix such as "C" or "7") is a word of its own in ``new`` too: Tesseract
    reads a lone capital as two letters ("Cc", "Ce") more often than a line cuts a word
    down to one."""
    n = added_letters(old, new)
    if n is None or n < MIN_ADDED:
        return False
    lone = _lone(new)
    for w in _lone(old):
        if w not in lone:
            return False
        lone.remove(w)
    return True


def _clean(text: str) -> str:
    """The words of a reading that hold a letter or digit (line residue reads as marks)."""
    return " ".join(w for w in text.split() if any(ch.isalnum() for ch in w))


def _in_order(old: str, new: str) -> bool:
    """Every letter or digit of ``old`` occurs in ``new`` in the same order."""
    it = iter(_letters(new))
    return all(ch in it for ch in _letters(old))


def kept_words(old: str, new: str) -> str:
    """``new`` without the words that the letters of ``old`` can do without: each word,
    left to right, is dropped when ``old`` still reads in order from the rest.  A word
    read in the widened box that the first reading needs no letter of is as likely what
    is left of a line, or a neighbour's text, as a word a line took away."""
    words = new.split()
    k = 0
    while k < len(words):
        rest = words[:k] + words[k + 1:]
        if _in_order(old, " ".join(rest)):
            words = rest
        else:
            k += 1
    return " ".join(words)


def reread_labels(inv: Inventory, labels: list[tuple[str, list[int]]]
                  ) -> list[tuple[str, list[int]]]:
    """``labels`` (text, box) with each text replaced by a fuller reading of its widened
    box where :func:`adds_letters` holds; unchanged without the page image or ink."""
    if not labels or inv.image is None or inv.ink is None:
        return labels
    read = read_widened(inv, [box for _, box in labels])
    out = []
    for (text, box), new in zip(labels, read):
        new = kept_words(text, _clean(new))
        out.append((new, box) if adds_letters(text, new) else (text, box))
    return out
