"""A drawn page with one horizontal relationship line traced, for the ER recovery tests."""

import numpy as np

from cvparse.connectors.lines import Connector, End
from cvparse.primitives.items import Inventory, Scale


def line_page(rgb: np.ndarray, x1: float, x2: float, y: float, texts=()):
    """The inventory of a black-on-white ``rgb`` page (stroke 2, text height 16, free
    ``texts`` as read) and the connector of its line from ``(x1, y)`` to ``(x2, y)``."""
    h, w = rgb.shape[:2]
    ink = rgb.min(axis=2) < 128
    inv = Inventory(width=w, height=h, scale=Scale(stroke=2, text_height=16),
                    background=(255, 255, 255), ink=ink, text_mask=np.zeros_like(ink),
                    image=rgb, texts=list(texts))
    conn = Connector(points=np.array([[x1, y], [x2, y]]),
                     ends=(End((x1, y), (-1.0, 0.0)), End((x2, y), (1.0, 0.0))))
    return inv, conn
