"""Keeping a rendered image: its id, the size caps, and the record of what was refused."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image

from tools.realtools.corpus import BuildResult, write_item
from tools.realtools.imagesize import fits


def next_stem(result: BuildResult, prefix: str, offset: int = 0) -> str:
    """The id of the image after those kept and refused so far (``offset`` further on, for
    a batch rendered in one call)."""
    return f"{prefix}_{len(result.ids) + len(result.skipped) + offset:04d}"


def keep(result: BuildResult, out_dir: Path, stem: str, png: Path | None, gt: dict) -> None:
    """Write the image and its truth, or record why not: the renderer drew an error page
    (``png`` is None) or the image is over the caps of :mod:`tools.realtools.imagesize`."""
    if png is None or not fits(png):
        reason = "the renderer drew an error page" if png is None else "image over the size cap"
        result.skipped.append({"id": stem, "reason": reason})
        return
    write_item(out_dir, stem, png, gt)
    result.ids.append(stem)


def keep_read(result: BuildResult, out_dir: Path, stems: list[str],
              pngs: Sequence[Path | None], items: list[tuple[str, dict]],
              document: Callable[[str, int, int], dict]) -> None:
    """Keep each image drawn from a text whose ground truth a reader makes from the text and
    the drawn size (``document(text, width, height)``), merged under the item's own keys."""
    for stem, png, (text, gt) in zip(stems, pngs, items):
        if png is not None:
            with Image.open(png) as im:
                gt = document(text, *im.size) | gt
        keep(result, out_dir, stem, png, gt)
