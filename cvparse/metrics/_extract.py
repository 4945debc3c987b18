"""Find structured content inside raw model text (JSON in prose or in code fences)."""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """Return ``(language, body)`` for every ``` fenced block, in order."""
    return [(m.group(1).lower(), m.group(2)) for m in _FENCE.finditer(text)]


def find_json(text: str) -> Any | None:
    """Return the first JSON object found in ``text`` (whole text, fences, then prose)."""
    candidates = [text] + [body for _, body in fenced_blocks(text)]
    for cand in candidates:
        try:
            return json.loads(cand)
        except (json.JSONDecodeError, TypeError):
            pass
    decoder = json.JSONDecoder()
    for m in re.finditer(r"[{\[]", text):
        try:
            obj, _ = decoder.raw_decode(text, m.start())
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            return obj
    return None
