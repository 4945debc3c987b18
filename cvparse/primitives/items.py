"""Data model of the perception layer: scale, shapes, text items and the node inventory."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from .regions import Region

if TYPE_CHECKING:
    from .ocr import Word
    from .page import Page

T = TypeVar("T")


@dataclass(frozen=True)
class Scale:
    """How big things are drawn: every threshold downstream is a multiple of these."""

    stroke: float
    """Typical line width in pixels (median over connector and border ink)."""
    text_height: float
    """Typical height of a text line in pixels (cap height + descender room)."""


@dataclass(eq=False)
class Facts:
    """Derived facts, each computed on first use and kept: several stages read them,
    none recomputes or mutates them."""

    computed: Counter[str] = field(default_factory=Counter)
    """How often each fact was computed (once each, by design)."""
    values: dict[str, Any] = field(default_factory=dict, repr=False)

    def get(self, name: str, compute: Callable[[], T]) -> T:
        """The fact ``name``, computed by ``compute`` the first time only."""
        if name not in self.values:
            self.computed[name] += 1
            self.values[name] = compute()
        return self.values[name]


@dataclass
class Shape:
    """A closed shape found on the page: node border, class box, diamond, ..."""

    kind: str
    """One of the FORMATS.md shapes (``rect``, ``round_rect``, ``diamond``, ...)."""
    bbox: tuple[int, int, int, int]
    """Outer box ``x1, y1, x2, y2`` including the border."""
    interior: Region = field(repr=False)
    """The area inside the innermost border (holes filled), as a cropped mask."""
    outer: Region = field(repr=False)
    """The area inside the outermost border (same as ``interior`` unless double)."""
    fit: float = 1.0
    """IoU of the interior with the ideal template of ``kind`` (1 = perfect)."""
    double: bool = False
    """Drawn with two concentric borders (weak entity, multivalued attribute, ...)."""
    dashed: bool = False
    """Border drawn dashed or dotted (derived attribute)."""
    fill: tuple[int, int, int] = (255, 255, 255)
    """Colour inside the shape."""
    label: str = ""
    underlined: list[str] = field(default_factory=list)
    """Words of the label that are underlined (primary keys)."""


@dataclass
class TextItem:
    """A run of text read by OCR: a line or label, with its box in image pixels."""

    text: str
    bbox: tuple[int, int, int, int]
    confidence: float = 0.0
    underlined: bool = False


@dataclass
class Inventory:
    """Everything perception found: shapes with labels, free text, and the masks used."""

    width: int
    height: int
    scale: Scale
    background: tuple[int, int, int]
    shapes: list[Shape] = field(default_factory=list)
    texts: list[TextItem] = field(default_factory=list)
    """Free text: not inside any shape (edge labels, cardinalities, legends, icon labels)."""
    ink: np.ndarray | None = field(default=None, repr=False)
    """Boolean mask of everything drawn (strokes, text, markers)."""
    text_mask: np.ndarray | None = field(default=None, repr=False)
    """Boolean mask of the ink that belongs to text (inside shapes or free)."""
    image: np.ndarray | None = field(default=None, repr=False)
    """The RGB page itself, for assemblers that read more text (class compartments)."""
    page: Page | None = field(default=None, repr=False, compare=False)
    """The page the inventory was found on (``None`` for one put together by hand)."""
    facts: Facts = field(default_factory=Facts, repr=False, compare=False)
    """Facts derived from the inventory that several stages read (class boxes, phantom
    shapes, marker mask), each computed once."""

    def read(self, crops: list[np.ndarray], text_height: float | None = None,
             psm: int = 6) -> list[list[Word]]:
        """The words of every crop, read after perception through the page
        (:meth:`Page.read`; directly for an inventory without one)."""
        if self.page is not None:
            return self.page.read(crops, text_height, psm)
        from .ocr import read_crops

        if not crops:
            return []
        th = self.scale.text_height if text_height is None else text_height
        return read_crops(crops, th, psm)

    def to_dict(self) -> dict:
        """JSON-ready summary (what ``cvparse parse --stage nodes`` prints)."""
        return {
            "kind": "inventory", "width": self.width, "height": self.height,
            "scale": {"stroke": round(self.scale.stroke, 2),
                      "text_height": round(self.scale.text_height, 2)},
            "background": [int(v) for v in self.background],
            "shapes": [{"kind": s.kind, "bbox": [int(v) for v in s.bbox], "label": s.label,
                        "double": s.double, "dashed": s.dashed,
                        "fill": [int(v) for v in s.fill], "fit": round(float(s.fit), 3),
                        "underlined": list(s.underlined)} for s in self.shapes],
            "texts": [{"text": t.text, "bbox": [int(v) for v in t.bbox],
                       "confidence": round(float(t.confidence), 1),
                       "underlined": t.underlined} for t in self.texts],
        }
