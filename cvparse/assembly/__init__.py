"""Assemblers: turn the inventory and connectors into each family's document.

:func:`guess_kind` (and, once lines are traced, :func:`graph_kind`) picks the family;
:func:`assemble` runs its assembler (:func:`assemble_er`, :func:`assemble_uml` or
:func:`assemble_graph`).  The names below load on first use.
"""

from .._lazy import lazy_exports

_WHERE = {"assemble": "kind", "guess_kind": "kind", "graph_kind": "kind",
          "assemble_er": "er", "assemble_uml": "uml", "assemble_graph": "graph"}
__all__ = list(_WHERE)
__getattr__ = lazy_exports(__name__, _WHERE)
