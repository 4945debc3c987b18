"""Assemblers: turn the inventory and connectors into each family's document.

Once lines are traced, :func:`graph_kind` settles flowchart or topology (the first guess
is :func:`cvparse.primitives.family.guess_kind`); :func:`assemble` runs the family's
assembler (:func:`assemble_er`, :func:`assemble_uml` or :func:`assemble_graph`).  The
names below load on first use.
"""

from .._lazy import lazy_exports

_WHERE = {"assemble": "kind", "graph_kind": "kind", "assemble_er": "er",
          "assemble_uml": "uml", "assemble_graph": "graph"}
__all__ = list(_WHERE)
__getattr__ = lazy_exports(__name__, _WHERE)
