"""The page: the image and what every stage reads of it, computed once per parse.

A parse builds one :class:`Page` from the RGB image (:func:`make_page`): the paper colour,
the paper map, the ink masks and the scale everything downstream is measured in.  Facts
derived from it that several stages need (the strong ink, the solid arrowheads, and
through the inventory the class boxes, phantom shapes and marker mask) are computed on
first use and kept (:class:`~cvparse.primitives.items.Facts`), so that no stage
recomputes what another has.  OCR that a stage runs after perception goes through
:meth:`Page.read`, which keeps its count and time."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .halos import solid_blobs
from .items import Facts, Scale
from .ocr import Word, read_crops
from .paper import background_colour, line_ink, strong_ink

Reader = Callable[[list[np.ndarray], float, int], list[list[Word]]]
"""Reads crops (list, text height in pixels, Tesseract page mode) into words per crop."""


@dataclass(eq=False)
class Page:
    """One diagram image and its perception basics (pixels, unless said otherwise)."""

    image: np.ndarray = field(repr=False)
    """The RGB page, ``H x W x 3`` uint8."""
    background: tuple[int, int, int]
    """The paper colour (RGB) of the page's border."""
    paper: np.ndarray = field(repr=False)
    """The paper colour under every pixel (a median wide enough to erase lines and text)."""
    ink: np.ndarray = field(repr=False)
    """Boolean mask of everything drawn (strokes, text, markers)."""
    fine_ink: np.ndarray = field(repr=False)
    """Boolean ink against a finer paper map: follows the corners of filled shapes."""
    scale: Scale
    """Line width and text height, the units every threshold downstream is scaled to."""
    ocr: Reader = field(default=read_crops, repr=False)
    """What reads text crops (Tesseract, batched); a stand-in in tests."""
    facts: Facts = field(default_factory=Facts, repr=False)
    """Facts derived from the page alone (the strong ink), each computed once."""
    reads: list[tuple[int, float]] = field(default_factory=list, repr=False)
    """Every :meth:`read`: how many crops, and the seconds it took."""

    @property
    def height(self) -> int:
        return int(self.image.shape[0])

    @property
    def width(self) -> int:
        return int(self.image.shape[1])

    @property
    def strong_ink(self) -> np.ndarray:
        """The ink drawn in a strong colour (drop shadows, light tints and halos left out;
        :func:`cvparse.primitives.paper.strong_ink`)."""
        return self.facts.get("strong_ink",
                              lambda: strong_ink(self.image, self.ink, self.background))

    @property
    def line_ink(self) -> np.ndarray:
        """The strong ink with the thin lines drawn in a light colour put back
        (:func:`cvparse.primitives.paper.line_ink`): what class boxes and UML lines are
        found in."""
        return self.facts.get("line_ink", lambda: line_ink(
            self.image, self.ink, self.background, strong=self.strong_ink))

    @property
    def solid_blobs(self) -> np.ndarray:
        """The filled arrowheads of the ink: solid triangular blobs no larger than a head
        (:func:`cvparse.primitives.halos.solid_blobs`), read-only.  Perception closes the
        boxes a haloed head cut open with them, the connector stage bridges the heads a
        halo set apart and lets lines claim them."""
        def find() -> np.ndarray:
            blobs = solid_blobs(self.ink, self.scale)
            blobs.flags.writeable = False
            return blobs

        return self.facts.get("solid_blobs", find)

    def read(self, crops: list[np.ndarray], text_height: float | None = None,
             psm: int = 6) -> list[list[Word]]:
        """The words of every crop, read in one OCR call after perception.

        Parameters
        ----------
        crops : list of ndarray
            Grey or RGB crops of text, in page pixels.
        text_height : float, optional
            The text height the crops are drawn at (pixels); the page's by default.
        psm : int
            Tesseract's page segmentation mode (6: a block of text).

        Returns
        -------
        list of list of Word
            One list of words per crop, in the crop's coordinates.
        """
        if not crops:
            return []
        t0 = time.perf_counter()
        th = self.scale.text_height if text_height is None else text_height
        words = self.ocr(crops, th, psm)
        self.reads.append((len(crops), time.perf_counter() - t0))
        return words


def make_page(rgb: np.ndarray) -> Page:
    """The page of an RGB image: paper colour, paper map, ink masks and scale.

    Parameters
    ----------
    rgb : ndarray
        ``H x W x 3`` uint8 image (:func:`cvparse.image.load_image`).

    Returns
    -------
    Page
        The page every stage of a parse reads.

    Examples
    --------
    >>> import numpy as np
    >>> rgb = np.full((60, 80, 3), 255, np.uint8)
    >>> rgb[30:32, 10:70] = 0  # a line two pixels thick
    >>> page = make_page(rgb)
    >>> page.background, page.width, page.height
    ((255, 255, 255), 80, 60)
    >>> bool(page.ink[30, 40]), bool(page.ink[10, 40])
    (True, False)
    """
    from .inventory import page_ink

    background = background_colour(rgb)
    paper, ink, fine, scale = page_ink(rgb, background)
    return Page(image=rgb, background=background, paper=paper, ink=ink, fine_ink=fine,
                scale=scale)
