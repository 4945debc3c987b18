"""Identifier-like node labels read with a capital I for a small L.

In sans-serif and monospace type a capital I and a small l are one upright bar, and
Tesseract often reads the bar as "I" (or "|") wherever it stands.  In an identifier (a
label word without spaces that joins its parts with hyphens, underscores, dots or digits,
as host and service names do) whose letters are otherwise all small, a bar followed by a
small letter is a small l: such words are written in one case ("lb-06", "tok-lb-5"), and
the capital of a title-case word ("Ice cream") stands in a word with no joiners.
"""

from __future__ import annotations

import re

_JOINED = re.compile(r"[-_.0-9]")
_BAR_BEFORE_SMALL = re.compile(r"[I|](?=[a-z])")


def small_ell(label: str) -> str:
    """``label`` with the bars read as "I" or "|" before a small letter turned into "l",
    in each of its identifier words whose other letters are all small."""
    words = label.split(" ")
    for k, word in enumerate(words):
        if not _JOINED.search(word) or not _BAR_BEFORE_SMALL.search(word):
            continue
        rest = _BAR_BEFORE_SMALL.sub("", word)
        if any(ch.isupper() for ch in rest):
            continue
        words[k] = _BAR_BEFORE_SMALL.sub("l", word)
    return " ".join(words)
