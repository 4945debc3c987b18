"""Find structured content inside raw model text (JSON in prose or in code fences), within
limits that keep hostile or runaway answers from taking unbounded time or memory.

Limits: text longer than ``MAX_TEXT_CHARS`` is not searched (a VLM's answer is a few
kilobytes; the Mermaid and JSON readers are near-linear, so this bounds them to about a
second), JSON nested deeper than ``MAX_DEPTH`` is refused (Python's own decoder stops
near 1000 levels with ``RecursionError``, and the task readers walk what they get), and
the search for a JSON object in prose stops after ``MAX_SCAN_CHARS`` characters of
failed tries (each ``{"`` is tried as a start, a try may scan to the end of the text and
Python's decode error counts the lines before where it failed, so an unbounded search is
quadratic: 18 s and 77 s on two crafted 1 MB answers).
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_TEXT_CHARS = 1_000_000
"""Longest raw answer read (characters)."""
MAX_DEPTH = 64
"""Deepest JSON nesting accepted (documents of every task need fewer than 10 levels)."""
MAX_SCAN_CHARS = 4_000_000
"""Work the failed tries of a JSON object in prose may do in all (well under a second): a
try counts the characters it scanned (at least ``_MIN_TRY_CHARS``) plus a
``_LINE_COUNT_SHARE`` of those before the failure (the error's line count)."""
_MIN_TRY_CHARS = 64
_LINE_COUNT_SHARE = 32
_OBJECT_START = re.compile(r'\{\s*["}]')

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)


class TooComplex(ValueError):
    """Input over one of this module's limits; the message names the limit."""


def nesting_depth(obj: Any) -> int:
    """Levels of lists and dicts in ``obj`` (a scalar is 0), counted without recursion."""
    deepest = 0
    stack = [(obj, 1)]
    while stack:
        o, d = stack.pop()
        if isinstance(o, dict):
            o = list(o.values())
        elif not isinstance(o, (list, tuple)):
            continue
        deepest = max(deepest, d)
        stack.extend((v, d + 1) for v in o if isinstance(v, (dict, list, tuple)))
    return deepest


def check_depth(obj: Any) -> Any:
    """``obj`` itself, or :class:`TooComplex` when it is nested deeper than ``MAX_DEPTH``."""
    depth = nesting_depth(obj)
    if depth > MAX_DEPTH:
        raise TooComplex(f"JSON nested {depth} levels deep (limit {MAX_DEPTH})")
    return obj


def check_text(text: str) -> str:
    """``text`` itself, or :class:`TooComplex` when it is longer than ``MAX_TEXT_CHARS``."""
    if len(text) > MAX_TEXT_CHARS:
        raise TooComplex(f"raw text of {len(text):,} characters (limit {MAX_TEXT_CHARS:,})")
    return text


def loads(text: str) -> Any:
    """``json.loads`` within ``MAX_DEPTH``: ``json.JSONDecodeError`` for invalid JSON,
    :class:`TooComplex` for JSON nested too deeply (never ``RecursionError``)."""
    try:
        obj = json.loads(text)
    except RecursionError:
        raise TooComplex(f"JSON nested deeper than Python's decoder reads "
                         f"(limit {MAX_DEPTH})") from None
    return check_depth(obj)


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """Return ``(language, body)`` for every ``` fenced block, in order."""
    return [(m.group(1).lower(), m.group(2)) for m in _FENCE.finditer(text)]


def find_json(text: str) -> Any | None:
    """Return the first JSON object found in ``text`` (whole text, fences, then prose);
    None when there is none, or the text or the JSON is over a limit."""
    if len(text) > MAX_TEXT_CHARS:
        return None
    candidates = [text] + [body for _, body in fenced_blocks(text)]
    for cand in candidates:
        try:
            return loads(cand)
        except (json.JSONDecodeError, TypeError, TooComplex):
            pass
    decoder = json.JSONDecoder()
    scanned = 0
    for m in _OBJECT_START.finditer(text):
        if scanned > MAX_SCAN_CHARS:
            break
        try:
            obj, end = decoder.raw_decode(text, m.start())
        except json.JSONDecodeError as exc:
            scanned += max(_MIN_TRY_CHARS, exc.pos - m.start()) + exc.pos // _LINE_COUNT_SHARE
            continue
        except RecursionError:
            scanned += max(_MIN_TRY_CHARS, len(text) - m.start())
            continue
        if isinstance(obj, dict) and nesting_depth(obj) <= MAX_DEPTH:
            return obj
        scanned += max(_MIN_TRY_CHARS, end - m.start())
    return None
