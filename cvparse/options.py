"""The choices a parse takes (family, stage), in a module light enough for the command
line to read without loading the parser itself (``cvparse --help`` stays fast).

``KINDS`` are ``--kind``'s values (``auto`` guesses the family from the notation);
``STAGES`` are ``--stage``'s (``nodes`` stops after perception: the inventory of shapes
and text, no connectors).  Both come from :mod:`cvparse.vocabulary`.  The names of what a
parse writes (``FORMAT_EXT``, ``OVERLAY_SUFFIX``, ``REPORT_NAME``) are here too, so that
``--help`` and ``--version`` can name them without importing :mod:`cvparse.batch`, which
loads NumPy through the image reader.
"""

from __future__ import annotations

from .vocabulary import KINDS, STAGES

__all__ = ["FORMAT_EXT", "KINDS", "OVERLAY_SUFFIX", "REPORT_NAME", "STAGES"]

FORMAT_EXT = {"json": ".json", "mermaid": ".mmd", "plantuml": ".puml", "sql": ".sql",
              "dot": ".dot", "graphml": ".graphml", "drawio": ".drawio"}
"""File extension of each output format."""
OVERLAY_SUFFIX = ".overlay.png"
"""``<stem>`` + this names an image's overlay."""
REPORT_NAME = "report.jsonl"
"""A batch's per-image report in ``--out``."""
