"""Node-link graphs: flowcharts and topology diagrams, typed from a legend.

:func:`assemble_graph` (:mod:`.assemble`) builds flowcharts and topology graphs;
:mod:`.legend` reads a legend's swatches.
"""

from .assemble import assemble_graph

__all__ = ["assemble_graph"]
