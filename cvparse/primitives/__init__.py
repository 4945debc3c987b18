"""Perception: the page's paper and ink, its scale, closed shapes and the text OCR reads.

:func:`make_page` measures an RGB image's paper, ink and :class:`Scale` into a
:class:`Page`; :func:`build_inventory` finds its :class:`Inventory` of :class:`Shape` and
:class:`TextItem` objects, and :func:`guess_kind` the family its notation belongs to; the
other modules are their steps.  The names below load on first use.
"""

from .._lazy import lazy_exports

_WHERE = {"build_inventory": "inventory", "page_ink": "inventory", "Inventory": "items",
          "Scale": "items", "Shape": "items", "TextItem": "items",
          "Region": "regions", "estimate_scale": "scale", "strong_ink": "paper",
          "read_crops": "ocr", "Word": "ocr", "Page": "page", "make_page": "page",
          "Facts": "items", "class_boxes": "classboxes", "uml_boxes": "classboxes",
          "guess_kind": "family"}
__all__ = list(_WHERE)
__getattr__ = lazy_exports(__name__, _WHERE)
