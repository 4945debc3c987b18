"""The whole parse: image -> primitives -> connectors -> document, as one call."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .assembly.kind import assemble, graph_kind, guess_kind
from .assembly.uml_classes import dark_ink, uml_boxes
from .connectors.attach import attach_ends
from .connectors.elements import Connector
from .connectors.markers import classify_ends
from .connectors.trace import connector_mask, marker_mask, trace_connectors
from .image import load_image
from .model import Document
from .options import KINDS, STAGES
from .primitives.elements import Inventory
from .primitives.inventory import build_inventory
from .primitives.rulings import erase_rulings



@dataclass
class ParseResult:
    """A parsed diagram: the document plus the primitives it was built from.

    ``document`` is None when parsing stopped at the ``nodes`` stage.
    """

    document: Document | None
    image: np.ndarray = field(repr=False)
    inventory: Inventory = field(repr=False)
    connectors: list[Connector] = field(default_factory=list, repr=False)
    timings: dict[str, float] = field(default_factory=dict)
    kind: str = ""
    """The family the document was assembled as (given, or guessed with ``auto``)."""
    guessed_kind: str = ""
    """What ``auto`` picks for this image, also when a family was given (a check)."""

    def to_json(self, indent: int | None = 2) -> str:
        """The document as FORMATS.md JSON (the inventory JSON at the ``nodes`` stage)."""
        if self.document is None:
            import json

            return json.dumps(self.inventory.to_dict(), indent=indent, ensure_ascii=False)
        return self.document.to_json(indent=indent)

    def to_format(self, fmt: str) -> str:
        """The document in an export format (json, mermaid, plantuml, sql, dot, graphml,
        drawio), as file text ending in a newline; ``ValueError`` if the format does not
        fit the diagram family (:data:`cvparse.export.formats.FAMILIES`)."""
        if self.document is None and fmt != "json":
            raise ValueError("only json output exists for the nodes stage")
        if fmt == "json":
            return self.to_json() + "\n"
        from .export import formats

        return formats.export(self.document, fmt)

    def to_mermaid(self) -> str:
        return self.to_format("mermaid")

    def to_plantuml(self) -> str:
        return self.to_format("plantuml")

    def overlay(self) -> np.ndarray:
        """RGB image of what was detected drawn over the page."""
        from .export.overlay import draw_overlay

        return draw_overlay(self.image, self.inventory, self.connectors)


def parse(source: str | Path | np.ndarray, kind: str = "auto", stage: str = "all"
          ) -> ParseResult:
    """Parse one diagram image (path or array) into its document (or, with
    ``stage="nodes"``, only the inventory of shapes and text)."""
    import time

    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}; expected one of {', '.join(STAGES)}")
    t = {}
    t0 = time.perf_counter()
    rgb = erase_rulings(load_image(source))
    t["load"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    inv = build_inventory(rgb)
    inv.image = rgb
    t["nodes"] = time.perf_counter() - t0
    auto = kind == "auto"
    if stage == "nodes":
        return ParseResult(document=None, image=rgb, inventory=inv, timings=t)
    t0 = time.perf_counter()
    guessed = guess_kind(inv)
    if kind == "auto":
        kind = guessed
    if kind == "uml":
        dark = dark_ink(inv)
        mask = connector_mask(inv, dark, [b.bbox for b in uml_boxes(inv, dark)])
    else:
        mask = connector_mask(inv)
    connectors = trace_connectors(inv, mask)
    classify_ends(connectors, marker_mask(inv), inv.scale.stroke,
                  text_height=inv.scale.text_height)
    attach_ends(inv, connectors)
    if guessed == "flowchart":
        guessed = graph_kind(inv, connectors)
        if kind == "flowchart" and auto:
            kind = guessed
    t["trace"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    doc = assemble(kind, inv, connectors)
    t["assemble"] = time.perf_counter() - t0
    return ParseResult(document=doc, image=rgb, inventory=inv, connectors=connectors,
                       timings=t, kind=kind, guessed_kind=guessed)
