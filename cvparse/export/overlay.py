"""Draw what was detected on top of the image, so a person can see what the parser found."""

from __future__ import annotations

import cv2
import numpy as np

from ..connectors.lines import Connector
from ..primitives.items import Inventory

KIND_COLOURS = {
    "rect": (31, 119, 180), "round_rect": (44, 160, 44), "stadium": (23, 190, 207),
    "diamond": (214, 39, 40), "ellipse": (148, 103, 189), "circle": (140, 86, 75),
    "triangle": (227, 119, 194), "hexagon": (188, 189, 34), "parallelogram": (255, 127, 14),
}
EDGE_PALETTE = [(230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180),
                (70, 240, 240), (240, 50, 230), (128, 128, 0), (0, 128, 128), (170, 110, 40)]


def draw_overlay(rgb: np.ndarray, inv: Inventory, connectors: list[Connector] | None = None
                 ) -> np.ndarray:
    """RGB image: shapes boxed in a colour per kind with kind and label, connectors traced
    in a colour each with a dot at a detected arrowhead, free text boxed in grey.

    Parameters
    ----------
    rgb : ndarray
        The page, ``H x W x 3`` uint8.
    inv : Inventory
        What perception found on it.
    connectors : list of Connector, optional
        The traced lines.

    Returns
    -------
    ndarray
        A faded copy of the page with the detections drawn over it.
    """
    out = (rgb.astype(np.float32) * 0.45 + 255 * 0.55).astype(np.uint8)
    th = max(1, int(round(inv.scale.stroke)))
    font_scale = max(0.35, inv.scale.text_height / 30)
    for s in inv.shapes:
        colour = KIND_COLOURS.get(s.kind, (90, 90, 90))
        contour = s.outer.contour.reshape(-1, 1, 2).astype(np.int32)
        cv2.polylines(out, [contour], True, colour, th + (1 if s.double else 0))
        if s.double:
            inner = s.interior.contour.reshape(-1, 1, 2).astype(np.int32)
            cv2.polylines(out, [inner], True, colour, th)
        tag = s.kind + ("*2" if s.double else "") + (" dashed" if s.dashed else "")
        x1, y1, x2, y2 = s.bbox
        cv2.putText(out, tag, (x1, max(10, y1 - 3)), cv2.FONT_HERSHEY_SIMPLEX, font_scale * 0.8,
                    colour, 1, cv2.LINE_AA)
        cv2.putText(out, s.label[:40], (x1 + 2, y2 - 4), cv2.FONT_HERSHEY_SIMPLEX, font_scale,
                    (0, 0, 0), 1, cv2.LINE_AA)
    for t in inv.texts:
        x1, y1, x2, y2 = t.bbox
        cv2.rectangle(out, (x1, y1), (x2, y2), (128, 128, 128), 1)
        cv2.putText(out, t.text[:30], (x1, max(10, y1 - 2)), cv2.FONT_HERSHEY_SIMPLEX,
                    font_scale * 0.8, (90, 90, 90), 1, cv2.LINE_AA)
    for i, c in enumerate(connectors or []):
        colour = EDGE_PALETTE[i % len(EDGE_PALETTE)]
        pts = c.points.round().astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], False, colour, th + 1, cv2.LINE_AA)
        for end in c.ends:
            p = tuple(int(round(v)) for v in end.point)
            if end.marker != "none":
                cv2.circle(out, p, 3 * th + 2, colour, -1)
            elif end.node is None:
                cv2.drawMarker(out, p, colour, cv2.MARKER_TILTED_CROSS, 6 * th + 4, th)
    return out
