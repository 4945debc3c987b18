"""The whole parse: image -> primitives -> connectors -> document, as one call."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .assembly.kind import assemble, guess_kind
from .assembly.uml import class_boxes
from .connectors.attach import attach_ends
from .connectors.elements import Connector
from .connectors.markers import classify_ends
from .connectors.trace import connector_mask, marker_mask, trace_connectors
from .image import load_image
from .model import Document
from .primitives.elements import Inventory
from .primitives.inventory import build_inventory
from .primitives.paper import strong_ink

KINDS = ("auto", "flowchart", "topology", "er", "uml")


@dataclass
class ParseResult:
    """A parsed diagram: the document plus the primitives it was built from."""

    document: Document
    image: np.ndarray = field(repr=False)
    inventory: Inventory = field(repr=False)
    connectors: list[Connector] = field(default_factory=list, repr=False)
    timings: dict[str, float] = field(default_factory=dict)

    def to_json(self, indent: int | None = 2) -> str:
        return self.document.to_json(indent=indent)


def parse(source: str | Path | np.ndarray, kind: str = "auto") -> ParseResult:
    """Parse one diagram image (path or array) into its document."""
    import time

    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    t = {}
    t0 = time.perf_counter()
    rgb = load_image(source)
    t["load"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    inv = build_inventory(rgb)
    inv.image = rgb
    t["nodes"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    if kind == "auto":
        kind = guess_kind(inv)
    if kind == "uml":
        dark = strong_ink(rgb, inv.ink, inv.background)
        mask = connector_mask(inv, dark, [b.bbox for b in class_boxes(inv, dark)])
    else:
        mask = connector_mask(inv)
    connectors = trace_connectors(inv, mask)
    classify_ends(connectors, marker_mask(inv), inv.scale.stroke)
    attach_ends(inv, connectors)
    t["trace"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    doc = assemble(kind, inv, connectors)
    t["assemble"] = time.perf_counter() - t0
    return ParseResult(document=doc, image=rgb, inventory=inv, connectors=connectors,
                       timings=t)
