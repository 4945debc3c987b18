"""Exporters: documents and parse results to files people and tools read.

:func:`export` writes a document in one of :data:`FORMATS` (each family takes those of
:data:`FAMILIES`); :func:`read_drawio` reads a draw.io file back into a document and
:func:`draw_overlay` draws what a parse detected over the page.  The names below load on
first use.
"""

from .._lazy import lazy_exports

_WHERE = {"export": "formats", "FORMATS": "formats", "FAMILIES": "formats",
          "refusal": "formats", "read_drawio": "drawio_read", "DrawioError": "drawio_read",
          "draw_overlay": "overlay"}
__all__ = list(_WHERE)
__getattr__ = lazy_exports(__name__, _WHERE)
