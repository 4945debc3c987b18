"""UML class diagrams: class boxes read, relations typed by their end markers.

:func:`assemble_uml` (:mod:`.assemble`) builds the model; :mod:`.classes` reads the
boxes' names, attributes and methods.
"""

from .assemble import assemble_uml

__all__ = ["assemble_uml"]
