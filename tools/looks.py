"""The looks a style split is drawn in, chosen on a generator's command line."""

from __future__ import annotations

from collections.abc import Iterable


def parse_looks(text: str | None, known: Iterable[str]) -> list[str]:
    """Comma-separated look names ("all" = every known look); unknown names raise ValueError."""
    known = list(known)
    if not text:
        return []
    names = known if text == "all" else [t.strip() for t in text.split(",") if t.strip()]
    bad = [n for n in names if n not in known]
    if bad:
        raise ValueError(f"unknown looks {bad}; known: {', '.join(known)}")
    return names
