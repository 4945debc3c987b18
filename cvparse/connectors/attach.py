"""Attach connector ends to the shapes they touch (or point at, across a small gap)."""

from __future__ import annotations

import cv2
import numpy as np

from ..primitives.elements import Inventory
from .elements import Connector


def shape_label_map(inv: Inventory, grow: int) -> np.ndarray:
    """Image of shape indices + 1 (0 = none), each shape's outer area grown by ``grow``."""
    labels = np.zeros((inv.height, inv.width), np.int32)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1))
    order = sorted(range(len(inv.shapes)), key=lambda i: -inv.shapes[i].outer.area)
    for i in order:
        r = inv.shapes[i].outer
        x1, y1, x2, y2 = r.bbox
        m = cv2.dilate(np.pad(r.filled, grow).astype(np.uint8), kernel).astype(bool)
        gx, gy = x1 - grow, y1 - grow
        cx1, cy1 = max(0, gx), max(0, gy)
        cx2, cy2 = min(inv.width, x2 + grow), min(inv.height, y2 + grow)
        sub = m[cy1 - gy:cy2 - gy, cx1 - gx:cx2 - gx]
        labels[cy1:cy2, cx1:cx2][sub] = i + 1
    return labels


def attach_ends(inv: Inventory, connectors: list[Connector]) -> None:
    """Set ``node`` on every connector end that touches or points at a shape nearby."""
    stroke = inv.scale.stroke
    grow = int(round(2.5 * stroke)) + 4
    labels = shape_label_map(inv, grow)
    reach = max(2.0 * inv.scale.text_height, 8 * stroke)
    h, w = labels.shape
    for conn in connectors:
        for end in conn.ends:
            x, y = end.point
            dx, dy = end.direction
            hit = 0
            steps = int(reach) + 1
            for t in range(steps):
                px, py = int(round(x + dx * t)), int(round(y + dy * t))
                if not (0 <= px < w and 0 <= py < h):
                    break
                if labels[py, px]:
                    hit = int(labels[py, px])
                    break
            end.node = hit - 1 if hit else None
