"""Perception: the page's paper and ink, its scale, closed shapes and the text OCR reads.

:func:`build_inventory` turns an RGB page into an :class:`Inventory` of :class:`Shape` and
:class:`TextItem` objects measured in the page's :class:`Scale`; the other modules are its
steps.  The names below load on first use.
"""

from .._lazy import lazy_exports

_WHERE = {"build_inventory": "inventory", "page_ink": "inventory", "Inventory": "elements",
          "Scale": "elements", "Shape": "elements", "TextItem": "elements",
          "Region": "regions", "estimate_scale": "scale", "strong_ink": "paper",
          "read_crops": "ocr", "Word": "ocr"}
__all__ = list(_WHERE)
__getattr__ = lazy_exports(__name__, _WHERE)
