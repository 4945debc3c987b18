"""The whole parse as one call: image -> page -> primitives (shapes, text, the family
guess) -> connectors -> assembly (the family's document)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .assembly.kind import assemble, graph_kind
from .connectors.lines import Connector
from .connectors.stage import build as build_connectors
from .image import load_image
from .model import Document
from .params import Params
from .vocabulary import KINDS, STAGES, Kind, Stage
from .primitives.items import Inventory
from .primitives.clusters import release_clusters
from .primitives.family import guess_kind
from .primitives.inventory import build_inventory
from .primitives.lineink import connector_inputs
from .primitives.page import Page, make_page
from .primitives.rulings import erase_rulings
from .primitives.swatches import legend_shapes



@dataclass
class ParseResult:
    """A parsed diagram: the document plus the primitives it was built from.

    ``document`` is None when parsing stopped at the ``nodes`` stage.
    """

    document: Document | None
    image: np.ndarray = field(repr=False)
    inventory: Inventory = field(repr=False)
    page: Page | None = field(default=None, repr=False)
    """The page every stage read (its derived facts and late OCR reads)."""
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
        """The document in an export format, as file text ending in a newline.

        Parameters
        ----------
        fmt : str
            ``json``, ``mermaid``, ``plantuml``, ``sql``, ``dot``, ``graphml`` or
            ``drawio``; ``ValueError`` if it does not fit the diagram family
            (:data:`cvparse.export.formats.FAMILIES`).

        Returns
        -------
        str
            The file's text.
        """
        if fmt == "json":
            return self.to_json() + "\n"
        if self.document is None:
            raise ValueError("only json output exists for the nodes stage")
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


def parse(source: str | Path | np.ndarray, kind: Kind = "auto", stage: Stage = "all", *,
          params: Params | None = None) -> ParseResult:
    """Parse one diagram image into its document.

    Parameters
    ----------
    source : str, Path or ndarray
        An image file, or an ``H x W x 3`` uint8 RGB array.
    kind : {"auto", "flowchart", "topology", "er", "uml"}
        The family to read the diagram as; ``auto`` guesses it from the notation.
    stage : {"all", "nodes"}
        ``nodes`` stops after perception: the inventory of shapes and text only.
    params : Params, optional
        Every stage's tunables (:mod:`cvparse.params`; the measured defaults if omitted).

    Returns
    -------
    ParseResult
        The document (``None`` at the ``nodes`` stage), the page, inventory and
        connectors it was built from, and the seconds each stage took.

    Raises
    ------
    ValueError
        For an unknown ``kind`` or ``stage``; :class:`~cvparse.image.ImageError` (a
        ``ValueError``) for a source that is no usable image.

    Examples
    --------
    >>> import cv2, numpy as np
    >>> rgb = np.full((100, 260, 3), 255, np.uint8)
    >>> for x in (10, 170):
    ...     _ = cv2.rectangle(rgb, (x, 30), (x + 80, 70), (0, 0, 0), 2)
    >>> _ = cv2.line(rgb, (91, 50), (169, 50), (0, 0, 0), 2)
    >>> r = parse(rgb, kind="flowchart")
    >>> len(r.document.nodes), len(r.document.edges)
    (2, 1)
    >>> parse(rgb, stage="nodes").document is None
    True
    """
    import time

    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}; expected one of {', '.join(STAGES)}")
    t: dict[str, float] = {}
    t0 = time.perf_counter()
    rgb = erase_rulings(load_image(source))
    t["load"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    page = make_page(rgb)
    inv = build_inventory(page)
    t["nodes"] = time.perf_counter() - t0
    auto = kind == "auto"
    if stage == "nodes":
        return ParseResult(document=None, image=rgb, inventory=inv, page=page, timings=t)
    t0 = time.perf_counter()
    params = params or Params()
    guessed = guess_kind(inv, params.family)
    if kind == "auto":
        kind = guessed
    if kind == "topology":  # a cluster's box is no node: its words are free text
        inv = release_clusters(inv, keep=legend_shapes(inv))
    inputs = connector_inputs(inv, kind)
    connectors = build_connectors(inv, ink=inputs.ink, clear=inputs.clear,
                                  phantoms=inputs.phantoms, close_nodes=inputs.close_nodes)
    if guessed == "flowchart":
        guessed = graph_kind(inv, connectors, params.family)
        if kind == "flowchart" and auto:
            kind = guessed
    t["trace"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    doc = assemble(kind, inv, connectors, params=params)
    t["assemble"] = time.perf_counter() - t0
    return ParseResult(document=doc, image=rgb, inventory=inv, page=page,
                       connectors=connectors, timings=t, kind=kind, guessed_kind=guessed)
