"""Text safe to print as one terminal line, whatever a file name holds.

File names may contain newlines (which would split a ``cvparse: error:`` line in two),
terminal escape sequences (which would reach the terminal raw and could rewrite what it
shows), bidirectional overrides, and bytes that are not UTF-8.  Each such character is
shown as a Python-style escape (``\\n``, ``\\x1b``, ``\\u202e``, ``\\udcff``) instead.
"""

from __future__ import annotations

import unicodedata

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch, f"\\x{code:02x}")
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _unsafe(ch: str) -> bool:
    return (unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in _BIDI)


def printable(text: object) -> str:
    """``str(text)`` with control, separator, surrogate and bidi characters escaped."""
    s = str(text)
    if s.isprintable() and not any(ch in _BIDI for ch in s):
        return s
    return "".join(_escape(ch) if _unsafe(ch) else ch for ch in s)
