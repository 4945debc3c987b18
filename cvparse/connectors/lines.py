"""Data model of the connector layer: traced connectors with their two ends."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..vocabulary import LineStyle, Marker


@dataclass
class End:
    """One end of a connector: where it stops, which way it points, what is drawn there."""

    point: tuple[float, float]
    """``x, y`` of the last skeleton pixel."""
    direction: tuple[float, float]
    """Unit vector pointing out of the connector at this end."""
    node: int | None = None
    """Index of the attached shape in the inventory, or ``None`` if it touches none."""
    marker: Marker = "none"
    """``none``, ``arrow`` (filled), ``open_arrow``, ``triangle`` (hollow), ``diamond``
    (hollow), ``filled_diamond``."""
    on_connector: int | None = None
    """Index of another connector this end lands on (T-junction), if any."""


@dataclass
class Connector:
    """A traced line from one end to the other, through bends and crossings."""

    points: np.ndarray = field(repr=False)
    """``N x 2`` polyline, ``x, y`` image coordinates, from ``ends[0]`` to ``ends[1]``."""
    ends: tuple[End, End]
    style: LineStyle = "solid"
    """``solid``, ``dashed``, ``dotted`` or ``bold``."""
    width: float = 1.0
    """Median line width in pixels."""
    colour: tuple[int, int, int] = (0, 0, 0)

    @property
    def length(self) -> float:
        if len(self.points) < 2:
            return 0.0
        return float(np.linalg.norm(np.diff(self.points, axis=0), axis=1).sum())


def own_ends(connectors: list[Connector]) -> list[Connector]:
    """Copies of ``connectors`` with ends of their own (the points are shared): what a
    stage that reads markers again changes, leaving the caller's connectors as they were.
    """
    return [replace(c, ends=(replace(c.ends[0]), replace(c.ends[1]))) for c in connectors]
