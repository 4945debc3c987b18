"""The closed word lists of cvparse's data, as ``Literal`` types and their tuples.

Every layer names families, stages, shapes, line styles and end markers with these words;
the tuples are what code iterates or validates against, the types what a checker holds
annotations to.  Nothing here depends on the rest of the package.
"""

from __future__ import annotations

from typing import Literal, get_args

Family = Literal["flowchart", "topology", "er", "uml"]
"""A document family (docs/formats.md ``kind``)."""
Kind = Literal["auto", "flowchart", "topology", "er", "uml"]
"""What a parse is asked for: a family, or ``auto`` to guess it from the notation."""
Stage = Literal["all", "nodes"]
"""How far a parse goes: ``nodes`` stops after perception (the inventory)."""
NodeShape = Literal["rect", "round_rect", "stadium", "diamond", "ellipse", "circle",
                    "hexagon", "parallelogram", "cylinder", "triangle", "icon", "text",
                    "other"]
"""The shape of a node (and of a closed shape perception found)."""
LineStyle = Literal["solid", "dashed", "dotted", "bold"]
"""How a connector is drawn."""
Marker = Literal["none", "arrow", "open_arrow", "triangle", "diamond", "filled_diamond"]
"""What is drawn at a connector's end: ``arrow`` filled, ``triangle`` hollow, ..."""

FAMILIES: tuple[Family, ...] = get_args(Family)
KINDS: tuple[Kind, ...] = get_args(Kind)
STAGES: tuple[Stage, ...] = get_args(Stage)
NODE_SHAPES: tuple[NodeShape, ...] = get_args(NodeShape)
LINE_STYLES: tuple[LineStyle, ...] = get_args(LineStyle)
MARKERS: tuple[Marker, ...] = get_args(Marker)
