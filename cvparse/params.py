"""Tunables of a parse, per stage, as frozen dataclasses: ``parse(..., params=Params())``.

Each field is a threshold the stage would otherwise hold as a module constant, in the
page's own units (text heights, strokes) or as a share, so that one value serves pages
of every size.  The defaults are the values the benchmarks were measured with; a
changed copy (``dataclasses.replace``) is for people who tune.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FamilyParams:
    """The family guess from the shapes (:func:`cvparse.primitives.family.guess_kind`) and
    flowchart-or-topology once lines are traced (:func:`cvparse.assembly.kind.graph_kind`).
    """

    big_symbol: float = 3.0
    """An ER diamond or IS-A triangle is at least this many text heights wide (UML end
    markers, which are closed shapes too, are about one)."""
    name_width: float = 2.0
    """A box narrower than this many text heights is a class only with both member
    compartments drawn (a frame around one letter, cut once by the letter's stroke, is
    not)."""
    table_rows: int = 4
    """A box cut into this many compartments or more is a table (UML classes have <= 3)."""
    curved_share: float = 0.2
    """Flowchart: at least this share of the connectors are splines."""
    square_share: float = 0.2
    """Topology: at least this share of the connectors bend at right angles (orthogonal
    routing) while most are straight."""
    straight_share: float = 0.7
    """Topology: at least this share of the connectors are straight segments end to end,"""
    diagonal_share: float = 0.3
    """... and this share run at angles an orthogonal router would not draw, or"""
    one_way: float = 0.85
    """... fewer than this share of the arrows run the same way (a layered flowchart)."""


@dataclass(frozen=True)
class GraphParams:
    """Flowchart and topology assembly (:func:`cvparse.assembly.graph.assemble_graph`)."""

    plate_text_contrast: float = 60.0
    """A pixel inside an edge label's plate is its text where its colour lies further
    than this from the plate's fill, as a Euclidean RGB distance (0 to 441).  A colour
    difference, not a length: no stroke or text-height unit applies.  The text is what
    tells a label's plate, which hugs it, from a node (``assemble._hugs_text``)."""


@dataclass(frozen=True)
class Params:
    """Every stage's tunables."""

    family: FamilyParams = field(default_factory=FamilyParams)
    graph: GraphParams = field(default_factory=GraphParams)
