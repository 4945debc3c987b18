"""The choices a parse takes (family, stage), in a module light enough for the command
line to read without loading the parser itself (``cvparse --help`` stays fast)."""

from __future__ import annotations

from .model import DOC_KINDS

KINDS = ("auto",) + DOC_KINDS
"""``--kind``: ``auto`` guesses the family from the notation."""
STAGES = ("all", "nodes")
"""``nodes`` stops after perception: the inventory of shapes and text, no connectors."""
