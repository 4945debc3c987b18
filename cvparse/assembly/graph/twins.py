"""Two lines drawn side by side, one each way, that the tracer took for one line.

Layout tools route a link and its reverse between the same two nodes as two parallel
lines a pixel or two apart (Graphviz puts them next to each other; Mermaid and FlowLearn
draw two close curves).  Where the gap between them is thinner than the ink threshold,
the two lines are one stroke in the page's ink, and the traced connector carries both
arrowheads, one at each node.  One line with a head at each end is drawn in one tone
across its width; two lines leave a lighter seam down the middle.  The seam is read in
the picture, across the line, along its middle stretch.
"""

from __future__ import annotations

import cv2
import numpy as np

from ...arrays import colour_distance
from ...connectors.lines import Connector
from ...connectors.polylines import polyline_length

SEAM_DEPTH = 0.75
"""Across two lines side by side, the seam between them is at most this share as dark
(as far from the paper colour) as the fainter of the two lines."""
SEAM_SHARE = 0.6
"""Share of the cuts across a line's middle stretch that show a seam for it to be two
lines."""
MIDDLE = (0.25, 0.75)
"""The stretch of a line (shares of its length) read across: its ends run into the heads
and the nodes."""


def _cut(dark: np.ndarray, point: np.ndarray, normal: np.ndarray, half: float
         ) -> np.ndarray:
    """The darkness sampled across the line at ``point``, every half pixel from ``-half``
    to ``half`` along ``normal`` (bilinear)."""
    t = np.arange(-half, half + 0.25, 0.5, dtype=np.float32)
    xs = (point[0] + t * normal[0]).astype(np.float32)[None, :]
    ys = (point[1] + t * normal[1]).astype(np.float32)[None, :]
    return cv2.remap(dark, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)[0]


def _has_seam(profile: np.ndarray) -> bool:
    """True if ``profile`` (darkness across a line) has two dark ridges with a lighter
    seam between them, ``SEAM_DEPTH`` as dark as the fainter ridge at most.  The ridges
    are looked for where the profile is at least half its peak."""
    peak = float(profile.max())
    if peak <= 0:
        return False
    idx = np.flatnonzero(profile >= 0.5 * peak)
    left, right = int(idx[0]), int(idx[-1])
    if right - left < 2:
        return False
    m = left + int(np.argmin(profile[left:right + 1]))
    if m in (left, right):
        return False
    ridge = min(float(profile[left:m].max()), float(profile[m + 1:right + 1].max()))
    return float(profile[m]) <= SEAM_DEPTH * ridge


def is_twin(conn: Connector, image: np.ndarray, paper: tuple[int, int, int],
            stroke: float, dark: np.ndarray | None = None) -> bool:
    """True if connector ``conn`` is two lines drawn side by side: along the middle of
    its length (``MIDDLE``), most cuts across it (``SEAM_SHARE``) show a seam.

    ``dark`` is the page's darkness (distance from ``paper``), computed when not given.
    """
    pts = np.asarray(conn.points, np.float64)
    if len(pts) < 5 or conn.width < 1.5 * stroke:
        return False
    if dark is None:
        dark = colour_distance(image, paper)
    seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    arc = np.concatenate([[0.0], np.cumsum(seg)])
    length = float(arc[-1])
    half = conn.width + 2.0
    span = max(2.0, 2 * stroke)
    seams = cuts = 0
    for s in np.arange(MIDDLE[0] * length, MIDDLE[1] * length, max(1.0, stroke)):
        a, b = np.searchsorted(arc, [s - span, s + span])
        a, b = max(0, a - 1), min(len(pts) - 1, b)
        tangent = pts[b] - pts[a]
        n = float(np.hypot(*tangent))
        if n == 0:
            continue
        normal = np.array([-tangent[1], tangent[0]]) / n
        k = int(np.clip(np.searchsorted(arc, s), 0, len(pts) - 1))
        cuts += 1
        seams += _has_seam(_cut(dark, pts[k], normal, half))
    return cuts > 0 and seams >= SEAM_SHARE * cuts


def twin_lines(connectors: list[Connector], image: np.ndarray | None,
               paper: tuple[int, int, int], stroke: float) -> set[int]:
    """Indices of the connectors with a head at both ends that are two lines side by side
    (:func:`is_twin`)."""
    if image is None:
        return set()
    dark: np.ndarray | None = None
    out = set()
    for i, c in enumerate(connectors):
        if any(e.marker == "none" for e in c.ends) or polyline_length(c.points) <= 0:
            continue
        if dark is None:
            dark = colour_distance(image, paper)
        if is_twin(c, image, paper, stroke, dark):
            out.add(i)
    return out
