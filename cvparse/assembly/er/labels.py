"""Text as the ER assembly reads it: identifiers cleaned of OCR spacing, free words that
are cardinalities, and names made unique."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Set as AbstractSet


CARDINALITY = re.compile(r"^(\d+|[NnMm*]|\d+\.\.(\d+|[NnMm*])|\{\d+,\s?(\d+|[NnMm*])\})$")
"""Free text that reads as a cardinality: ``1``, ``N``, ``M``, ``*``, ``0..1``, ``1..N``."""


RANGE = re.compile(r"^(\d+\.\.(\d+|[NnMm*])|\{\d+,\s?(\d+|[NnMm*])\})$")
"""A cardinality written as a range (``0..N``, ``{0,1}``): text only, never what OCR makes
of an end mark (a bar reads as ``1``, a circle as ``0``, a foot as a letter)."""


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


def cardinality_text(text: str) -> str:
    """A free word as a cardinality: stray dots and quotes OCR adds around it dropped."""
    return text.strip().strip(".,'`:;")


def unique_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name#2``, ``name#3``, ... if it is taken already."""
    if name not in taken:
        return name
    k = 2
    while f"{name}#{k}" in taken:
        k += 1
    return f"{name}#{k}"


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance between ``a`` and ``b`` (insertions, deletions, substitutions)."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def snap_name(name: str, vocabulary: AbstractSet[str]) -> str:
    """``name`` as read, or the one word of ``vocabulary`` (names the page itself writes
    elsewhere, e.g. its columns) it is a garbled reading of: within one edit per five
    letters of that word (a letter a line ran through read as ``_`` or lost) and no
    other word that close, and the name at least five characters long (a short word is too
    easily near another).  A name the page writes (in any case) is kept as it is."""
    low = name.lower()
    if len(name) < 5 or low in {w.lower() for w in vocabulary}:
        return name
    close = []
    for w in vocabulary:
        if abs(len(w) - len(name)) > len(w) // 5:
            continue
        if edit_distance(low, w.lower()) <= len(w) // 5:
            close.append(w)
    return close[0] if len(close) == 1 else name


def snap_header(name: str, others: list[str]) -> str:
    """A table's name with each of its words (``_`` or space separated) replaced by the
    one word of the page (``others``: the other tables' names, every table's columns)
    that it is a garbled reading of (:func:`snap_name`) and that the page writes more
    often than it: of two close readings the one read more often is the surer (a
    word read once may be the misread one).  A word that only adds to or drops letters
    at one end of the other (``orders`` beside ``order_id``) is another word, kept."""
    seen = Counter(w.lower() for x in others + [name] for w in re.split(r"[_\s]+", x) if w)
    pool = {w for x in others for w in re.split(r"[_\s]+", x) if w}
    parts = re.split(r"([_\s]+)", name)
    for i in range(0, len(parts), 2):
        w = parts[i]
        if not w:
            continue
        s = snap_name(w, pool)
        low, slow = w.lower(), s.lower()
        if s != w and seen[slow] > seen[low] and not (
                low.startswith(slow) or slow.startswith(low)
                or low.endswith(slow) or slow.endswith(low)):
            parts[i] = s
    return "".join(parts)
