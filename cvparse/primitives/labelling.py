"""Connected-component labelling of masks, with 16-bit labels wherever they fit."""

from __future__ import annotations

import cv2
import numpy as np


def components(mask: np.ndarray, connectivity: int = 8
               ) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats`` of a uint8 mask, the same results (int32 labels).

    OpenCV labels a sparse mask (ink) two to three times as fast with 16-bit labels.  They
    are tried first; OpenCV refuses them once more than 65,535 labels (provisional ones
    included) would be needed, and the 32-bit call is made then.
    """
    try:
        n, labels, stats, centroids = cv2.connectedComponentsWithStats(
            mask, connectivity=connectivity, ltype=cv2.CV_16U)
    except cv2.error:
        return cv2.connectedComponentsWithStats(mask, connectivity=connectivity)
    return n, labels.astype(np.int32), stats, centroids
