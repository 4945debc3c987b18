"""ER diagrams: Chen shapes, tables and crow's feet to an ER schema.

:func:`assemble_er` (:mod:`.assemble`) runs the steps; the modules beside it read tables
(:mod:`.tables`, :mod:`.rows`), attributes, relationships, IS-A, cardinalities and the
lines between them.
"""

from .assemble import assemble_er

__all__ = ["assemble_er"]
