"""Data model of the perception layer: scale, shapes, text items and the node inventory."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .regions import Region


@dataclass(frozen=True)
class Scale:
    """How big things are drawn: every threshold downstream is a multiple of these."""

    stroke: float
    """Typical line width in pixels (median over connector and border ink)."""
    text_height: float
    """Typical height of a text line in pixels (cap height + descender room)."""


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
