"""Lines between shapes: traced from the ink, mended, their ends read and attached.

:func:`build` runs the stage: :func:`connector_mask` keeps the ink that can be a line,
:func:`trace_connectors` turns it into :class:`Connector` polylines, :func:`classify_ends`
reads each :class:`End`'s marker and :func:`attach_ends` docks the ends to shapes.  The
names below load on first use.
"""

from .._lazy import lazy_exports

_WHERE = {"build": "stage", "Connector": "lines", "End": "lines", "connector_mask": "trace",
          "marker_mask": "trace", "trace_connectors": "trace", "classify_ends": "markers",
          "attach_ends": "attach", "phantom_shapes": "attach",
          "polyline_direction": "polylines"}
__all__ = list(_WHERE)
__getattr__ = lazy_exports(__name__, _WHERE)
