"""Realistic node and edge labels for generated diagrams: dictionary words and host names.

Words come from Debian's ``wamerican`` list (lower-case alphabetic entries, blocked words
swapped out by ``tools/wordfilter.py``); host-like names are built from roles, sites and
numbers the way network inventories name machines.  Every function draws from the caller's
``random.Random``, so a label set is fixed by its seed.
"""

from __future__ import annotations

import random
import re
import sys
from functools import cache
from pathlib import Path

WORDS_FILE = Path("/usr/share/dict/words")  # Debian package wamerican
TOOLS = Path(__file__).resolve().parents[1]

ROLES = ("web", "app", "db", "cache", "lb", "fw", "core", "edge", "dns", "mail", "proxy",
         "vpn", "nas", "ap", "sw", "rtr", "api", "auth", "log", "mon", "queue", "backup")
SITES = ("ams", "fra", "lon", "nyc", "sfo", "sin", "tok", "par", "syd", "dub", "chi", "mad")


@cache
def words(max_len: int = 12) -> tuple[str, ...]:
    """The allowed lower-case alphabetic words of the wamerican list, at most ``max_len``
    letters long (in the list's order)."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    import wordfilter  # tools/wordfilter.py

    found = [w for w in WORDS_FILE.read_text(encoding="utf-8").split()
             if re.fullmatch(r"[a-z]+", w) and len(w) <= max_len]
    return tuple(w for w in found if not wordfilter.blocked_words(w))


def word_label(rng: random.Random, max_words: int = 2, title: bool = False) -> str:
    """One to ``max_words`` dictionary words, optionally Title Cased."""
    pool = words()
    text = " ".join(rng.choice(pool) for _ in range(rng.randint(1, max_words)))
    return text.title() if title else text


def host_label(rng: random.Random) -> str:
    """A host-like name: ``web-03``, ``fra-db-2``, ``sw-core-12`` or an IPv4 address."""
    kind = rng.randrange(4)
    role = rng.choice(ROLES)
    if kind == 0:
        return f"{role}-{rng.randint(1, 20):02d}"
    if kind == 1:
        return f"{rng.choice(SITES)}-{role}-{rng.randint(1, 9)}"
    if kind == 2:
        return f"{role}-{rng.choice(ROLES)}-{rng.randint(1, 30)}"
    return f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


def unique_labels(rng: random.Random, n: int, make) -> list[str]:
    """``n`` distinct labels from ``make(rng)`` (repeats redrawn)."""
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        text = make(rng)
        if text.lower() not in seen:
            seen.add(text.lower())
            out.append(text)
    return out
