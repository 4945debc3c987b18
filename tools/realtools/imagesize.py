"""The corpus's image caps: at most ``MAX_SIDE`` pixels on the long side, ``MAX_BYTES`` a file.

Graphviz sources cap the drawing with a ``size`` attribute (it scales down, never up);
other renderers' pages are checked after rendering, and a PNG over the byte cap is stored
with a 256-colour palette (lossless for these few-colour drawings in all but the
anti-aliasing) before it is refused.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

MAX_SIDE = 4000
MAX_BYTES = 300_000


def graph_size_attr(dpi: float) -> str:
    """A Graphviz graph attribute statement that keeps the page under ``MAX_SIDE`` pixels
    at ``dpi`` dots per inch."""
    inches = (MAX_SIDE - 40) / dpi
    return f'    graph [size="{inches:.1f},{inches:.1f}"];\n'


def fits(png: Path) -> bool:
    """Whether ``png`` is within the caps, palette-compressing it first when only its bytes
    are over."""
    with Image.open(png) as im:
        if max(im.size) > MAX_SIDE:
            return False
        if png.stat().st_size <= MAX_BYTES:
            return True
        small = im.convert("RGB").quantize(256)
    small.save(png, optimize=True)
    return png.stat().st_size <= MAX_BYTES
