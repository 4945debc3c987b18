"""Offensive-word filter for the fixture generators' label vocabularies (tools/ only).

The blocklist (profanity, slurs, sexual, self-harm and graphic-violence terms) is stored as
SHA-256 hex digests of the lower-case words in ``blocked_words.sha256``, one per line, so the
repository never spells the words out.  Generators replace a drawn blocked word by the next
unblocked word of the same list, without touching the random generator, so every label that
never drew a blocked word (and every later draw) stays as it was.

Usage:
    python tools/wordfilter.py add WORD...      # add words to the blocklist
    python tools/wordfilter.py check TEXT...    # print the blocked words found in each text
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import re
import sys
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

BLOCKLIST = Path(__file__).resolve().with_name("blocked_words.sha256")
HEADER = ("# SHA-256 hex digests of lower-case blocked words, one per line (tools/wordfilter.py).\n"
          "# Add words with: python tools/wordfilter.py add WORD...\n")
# Words inside labels and identifiers: CamelCase / snake_case / kebab-case / digits split apart.
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")


def digest(word: str) -> str:
    """Hex SHA-256 of the stripped, lower-case word (the blocklist's line format)."""
    return hashlib.sha256(word.strip().lower().encode("utf-8")).hexdigest()


@cache
def load_digests(path: Path = BLOCKLIST) -> frozenset[str]:
    """The set of digests in a blocklist file (blank and '#' lines ignored); read once."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(s for s in (ln.strip().lower() for ln in lines) if s and not s.startswith("#"))


def is_blocked(word: str, path: Path = BLOCKLIST) -> bool:
    """True if the single word (any case) is on the blocklist."""
    return digest(word) in load_digests(path)


def words_of(text: str) -> list[str]:
    """The words of a label or identifier: whole alphabetic runs and their CamelCase parts."""
    out = []
    for run in re.findall(r"[A-Za-z]+", text):
        out.append(run)
        parts = _WORD.findall(run)
        if len(parts) > 1:
            out.extend(parts)
    return out


def blocked_words(text: str, path: Path = BLOCKLIST) -> list[str]:
    """Every word of ``text`` (see ``words_of``) that is blocked, in order of appearance."""
    return [w for w in words_of(text) if is_blocked(w, path)]


def replacement(word: str, pool: Sequence[str], taken: Iterable[str] = (),
                path: Path = BLOCKLIST) -> str:
    """``word`` itself if allowed, else the next word after it in ``pool`` (cyclic) that is
    neither blocked nor in ``taken``; deterministic and independent of any RNG."""
    if not blocked_words(word, path):
        return word
    avoid = set(taken)
    start = pool.index(word) if word in pool else -1
    for k in range(1, len(pool) + 1):
        cand = pool[(start + k) % len(pool)]
        if cand not in avoid and not blocked_words(cand, path):
            return cand
    raise ValueError(f"no allowed replacement in a pool of {len(pool)} words")


def clean_sample(drawn: Sequence[str], pool: Sequence[str],
                 path: Path = BLOCKLIST) -> list[str]:
    """A drawn sample with each blocked word replaced (see ``replacement``), keeping the
    words distinct as ``random.sample`` drew them."""
    out = list(drawn)
    for i, w in enumerate(out):
        out[i] = replacement(w, pool, out[:i] + out[i + 1:], path)
    return out


def check_vocabulary(texts: Iterable[str], where: str, path: Path = BLOCKLIST) -> None:
    """Raise ValueError naming ``where`` if any text of a fixed vocabulary has a blocked word
    (fixed vocabularies are fixed by editing them, not by replacement at draw time)."""
    bad = sorted({t for t in texts if blocked_words(t, path)})
    if bad:
        raise ValueError(f"{where}: {len(bad)} vocabulary entries contain blocked words")


def vocabulary_strings(obj) -> list[str]:
    """Every string nested in a vocabulary (dict keys and values, lists, tuples, sets,
    dataclasses)."""
    if isinstance(obj, str):
        return [obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return vocabulary_strings(dataclasses.asdict(obj))
    if isinstance(obj, dict):
        return [s for k, v in obj.items() for s in vocabulary_strings(k) + vocabulary_strings(v)]
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [s for v in obj for s in vocabulary_strings(v)]
    return []


def add_words(words: Iterable[str], path: Path = BLOCKLIST) -> int:
    """Add words' digests to the blocklist file (kept sorted, unique); returns how many were new."""
    old = load_digests(path) if path.exists() else frozenset()
    new = {digest(w) for w in words if w.strip()} - old
    path.write_text(HEADER + "".join(d + "\n" for d in sorted(old | new)), encoding="utf-8")
    load_digests.cache_clear()
    return len(new)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("add", help="add words to the blocklist").add_argument("words", nargs="+")
    sub.add_parser("check", help="list blocked words in texts").add_argument("texts", nargs="+")
    args = ap.parse_args(argv)
    if args.cmd == "add":
        n = add_words(args.words)
        print(f"{n} new, {len(load_digests())} blocked words in {BLOCKLIST.name}")
        return 0
    found = False
    for text in args.texts:
        bad = blocked_words(text)
        found |= bool(bad)
        print(f"{text!r}: {', '.join(bad) if bad else 'ok'}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
