"""What the connector stage traces lines in, per family: found by perception, before any
line is traced.

Most pages trace their lines in the page's ink with the shapes and text cleared.  Two
families draw boxes whose ink is no line, and perception finds them first: UML class
boxes, cleared whole and traced in the strong ink (drop shadows left out,
:func:`~cvparse.primitives.classboxes.dark_ink`), and ER tables, cleared to their
outline and traced in the ink without the shadows they cast
(:mod:`cvparse.primitives.tables`); flowcharts are traced in the ink without the
shadows their nodes cast.  On every page the shapes that are closed areas
but no nodes are found too (:mod:`cvparse.primitives.phantoms`).  The pipeline hands
:func:`connector_inputs` to :func:`cvparse.connectors.stage.build`, so that no assembler
runs before the lines.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..arrays import colour_distance

from .classboxes import dark_ink, uml_boxes
from .items import Inventory
from .phantoms import phantom_shapes, squeezed_between
from .tables import shadowless_ink, table_boxes

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class ConnectorInputs:
    """The ink lines are traced in and the boxes cleared from it (page pixels)."""

    ink: np.ndarray | None = None
    """Boolean ink to trace instead of the inventory's; ``None``: the inventory's."""
    clear: tuple[Box, ...] = ()
    """Boxes ``x1, y1, x2, y2`` whose ink is no line (class boxes, table outlines)."""
    phantoms: frozenset[int] = frozenset()
    """Shapes that are closed areas but no nodes, never attached to
    (:func:`~cvparse.primitives.phantoms.phantom_shapes`, the inventory's fact)."""
    close_nodes: bool = False
    """The page lays its nodes out as a flowchart does: steps stacked a head's length
    apart, curves into one node merging just before it (the connector stage keeps
    such short lines and short merges)."""


def connector_inputs(inv: Inventory, kind: str) -> ConnectorInputs:
    """The connector stage's inputs for a page read as ``kind``.

    Parameters
    ----------
    inv : Inventory
        The page's shapes and text.
    kind : str
        The family the page is assembled as (``uml``, ``er``, ...).

    Returns
    -------
    ConnectorInputs
        For ``uml``, the strong ink and every class box; for ``er`` with tables (two
        rows or more of stacked cells), the ink without their drop shadows and each
        table's outline, a stroke and a pixel inside it; for ``flowchart``, the ink
        without the drop shadows of its shapes where they cast any, and
        ``close_nodes``; otherwise the inventory's ink and nothing more to clear.  For
        every family, the phantom shapes (for ``uml`` also the areas squeezed between
        two class boxes, see :func:`~cvparse.primitives.phantoms.squeezed_between`).

    Examples
    --------
    >>> import cv2, numpy as np
    >>> from cvparse.primitives.inventory import build_inventory
    >>> rgb = np.full((100, 200, 3), 255, np.uint8)
    >>> _ = cv2.rectangle(rgb, (20, 20), (120, 80), (0, 0, 0), 2)
    >>> connector_inputs(build_inventory(rgb, ocr=False), "topology")
    ConnectorInputs(ink=None, clear=(), phantoms=frozenset(), close_nodes=False)
    """
    phantoms = frozenset(phantom_shapes(inv))
    if kind == "uml":  # class boxes are cleared whole, shadows left out of the ink
        boxes = tuple(b.bbox for b in uml_boxes(inv))
        # an area closed off between two class boxes is made of their lines
        return ConnectorInputs(dark_ink(inv), boxes,
                               phantoms | squeezed_between(inv, list(boxes)))
    if kind == "er" and (tables := table_boxes(inv)):
        # Drop shadows behind tables are no lines, nor are the tables' own borders.  The
        # outlines go in a stroke and a pixel, which the margin cleared round every box
        # gives back: a line that passes close by a table's corner keeps its dashes.
        k = int(round(inv.scale.stroke)) + 1
        return ConnectorInputs(shadowless_ink(inv, tables),
                               tuple((x1 + k, y1 + k, x2 - k, y2 - k)
                                     for x1, y1, x2, y2 in tables), phantoms)
    if kind == "flowchart" and inv.shapes:
        # Drop shadows behind a flowchart's nodes are no lines either (older PlantUML
        # and diagram editors cast them); the nodes' own borders are cleared anyway.
        # Only labelled shapes count: an empty one may be an area closed off by lines
        # (a phantom, or a pair of curves), whose sides are lines.
        ink = shadowless_ink(inv, [_box(s.bbox) for k, s in enumerate(inv.shapes)
                                   if k not in phantoms and s.label.strip()], cast=True)
        # Where the nodes cast shadows, the wide median's paper is darkened round them.
        shaded = ink is not None and inv.ink is not None and bool((inv.ink & ~ink).any())
        bare = bare_paper(inv) if shaded else None
        if ink is not None and bare is not None and (ink & bare).any():
            ink = ink & ~bare
        return ConnectorInputs(None if ink is inv.ink else ink, (), phantoms, True)
    return ConnectorInputs(phantoms=phantoms, close_nodes=kind == "flowchart")


def bare_paper(inv: Inventory) -> np.ndarray | None:
    """Pixels of the page's own colour that the fine ink holds no ink either: paper the
    wide median took for ink where drop shadows made the paper round it darker (a head
    between two shadowed boxes swells into a blob).  Looked at on shadowed pages only:
    elsewhere the wide ink's hold on the paper between two converging curves keeps
    them one line to their node.  Page-coloured
    letters on a strong fill stay (the fine ink, against the fill, holds them)."""
    page = inv.page
    if page is None or inv.image is None:
        return None
    near = colour_distance(inv.image, page.background) <= PAPER_MATCH
    return near & ~page.fine_ink


PAPER_MATCH = 12.0
"""A pixel this close to the page colour (RGB distance) is the page's colour."""


def _box(bbox) -> Box:
    x1, y1, x2, y2 = (int(v) for v in bbox)
    return x1, y1, x2, y2
