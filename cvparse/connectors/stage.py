"""The connector stage as one call: the lines of a page, traced, their ends read and
docked to shapes; and the reading of ends that a later repair cuts."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from ..primitives.items import Inventory
from .attach import attach_ends
from .lines import Connector, own_ends
from .markers import classify_ends
from .trace import connector_mask, marker_mask, trace_connectors


def build(inv: Inventory, *, ink: np.ndarray | None = None,
          clear: Sequence[tuple[int, int, int, int]] = (),
          phantoms: Collection[int] | None = None, close_nodes: bool = False
          ) -> list[Connector]:
    """Every connector of the page: traced from the ink that is no shape or text, each
    end's marker read and each end attached to the shape it touches or points at.

    Parameters
    ----------
    inv : Inventory
        The page's shapes and text (:func:`~cvparse.primitives.inventory.build_inventory`).
    ink : ndarray, optional
        Boolean ink to trace instead of the inventory's (a UML page's strong ink, which
        leaves drop shadows out).
    clear : sequence of (x1, y1, x2, y2)
        Further boxes, in pixels, whose ink is no line (class boxes found from their
        border lines).
    phantoms : collection of int, optional
        Shapes that are no nodes, never attached to (the inventory's
        :func:`~cvparse.primitives.phantoms.phantom_shapes` by default).
    close_nodes : bool
        A flowchart's layout: nodes a head's length apart, curves merging just before
        their node (see :func:`~.trace.trace_connectors`, :func:`~.attach.attach_ends`).

    Returns
    -------
    list of Connector
        Polylines in page pixels, each with its two ends' markers and attached nodes
        (shape indices of ``inv``).

    Examples
    --------
    >>> import cv2, numpy as np
    >>> from cvparse.primitives.inventory import build_inventory
    >>> rgb = np.full((100, 260, 3), 255, np.uint8)
    >>> for x in (10, 170):
    ...     _ = cv2.rectangle(rgb, (x, 30), (x + 80, 70), (0, 0, 0), 2)
    >>> _ = cv2.line(rgb, (91, 50), (169, 50), (0, 0, 0), 2)
    >>> lines = build(build_inventory(rgb, ocr=False))
    >>> [sorted(e.node for e in c.ends) for c in lines]
    [[0, 1]]
    """
    connectors = trace_connectors(inv, connector_mask(inv, ink, clear, phantoms),
                                  phantoms=phantoms, close_nodes=close_nodes)
    classify_ends(connectors, marker_mask(inv), inv.scale.stroke,
                  text_height=inv.scale.text_height)
    attach_ends(inv, connectors, None if phantoms is None else set(phantoms), close_nodes)
    return connectors


def read_cut_ends(connectors: list[Connector], cut: list[list[bool]], inv: Inventory
                  ) -> list[Connector]:
    """``connectors`` with the marker read again at every end a later repair made
    (``cut``: a flag per end, e.g. where a line traced on through an icon was split):
    such an end may carry an arrowhead where it meets the icon, as the ends of the traced
    line do.  New connectors with ends of their own; ``connectors`` themselves are left
    as they were (returned as they are where no end was cut)."""
    if not any(any(flags) for flags in cut):
        return connectors
    copies = own_ends(connectors)
    classify_ends(copies, marker_mask(inv), inv.scale.stroke,
                  text_height=inv.scale.text_height)
    out = own_ends(connectors)
    for c, copy, flags in zip(out, copies, cut):
        for k in (0, 1):
            if flags[k]:
                c.ends[k].marker = copy.ends[k].marker
    return out
