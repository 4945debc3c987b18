"""cvparse: a classical (non-neural) diagram parser with the benchmarks' own metrics.

``cvparse.parse(path_or_array, kind="auto")`` returns a :class:`ParseResult` whose
``document`` is one of the FORMATS.md documents (:mod:`cvparse.model`).
"""

from .model import (DocumentError, Edge, Entity, ERSchema, Graph, IsA, Node, Relationship,
                    UMLClass, UMLModel, UMLRelation, document_from_dict, document_from_json)

__version__ = "0.1.0"


def parse(source, kind: str = "auto", stage: str = "all"):
    """Parse one diagram image (path or RGB array); see :func:`cvparse.pipeline.parse`."""
    from .pipeline import parse as _parse

    return _parse(source, kind=kind, stage=stage)


__all__ = ["parse", "DocumentError", "Edge", "Entity", "ERSchema", "Graph", "IsA", "Node",
           "Relationship", "UMLClass", "UMLModel", "UMLRelation", "document_from_dict",
           "document_from_json", "__version__"]
