"""The real-tool corpus: diagrams drawn by the tools people use, scored against their inputs.

Every image here is rendered by a real tool (Graphviz, PlantUML, mermaid-cli 11, eralchemy,
pyreverse, ``diagrams``, ...) from an input that did not come from this project's own
generators (networkx graphs, installed Python packages, diagram sources committed to public
repositories), and its ground truth is taken from that input, never from the pixels.

Each source is one module in :mod:`tools.realtools.sources` (see its docstring for the
contract); ``python -m tools.realtools build`` renders all of them into
``build/realtools/<family>/<source>/`` and ``python -m tools.realtools subset`` copies the
small CI subset into ``fixtures/<family>/realtools/<source>/``.
"""
