"""The choices a parse takes (family, stage), in a module light enough for the command
line to read without loading the parser itself (``cvparse --help`` stays fast).

``KINDS`` are ``--kind``'s values (``auto`` guesses the family from the notation);
``STAGES`` are ``--stage``'s (``nodes`` stops after perception: the inventory of shapes
and text, no connectors).  Both come from :mod:`cvparse.vocabulary`.
"""

from __future__ import annotations

from .vocabulary import KINDS, STAGES

__all__ = ["KINDS", "STAGES"]
