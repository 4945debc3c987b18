"""Foreground/background separation that survives coloured backgrounds and filled shapes.

"Paper" is every large flat area: the page background and the fills inside shapes.  A wide
median filter removes thin things (lines, text, small markers) and leaves the paper colour
under every pixel; ink is whatever differs from its local paper colour by more than the
image's own noise allows, plus the edges between two paper colours (a fill without an
outline still separates its inside from the page).
"""

from __future__ import annotations

import cv2
import numpy as np

from ..arrays import colour_distance, row_bands


def background_colour(rgb: np.ndarray) -> tuple[int, int, int]:
    """Most common colour of the image border (quantised to absorb JPEG noise).

    Parameters
    ----------
    rgb : ndarray
        ``H x W x 3`` uint8 image.

    Returns
    -------
    tuple of int
        The paper colour, RGB 0-255.

    Examples
    --------
    >>> import numpy as np
    >>> rgb = np.full((50, 50, 3), (250, 248, 240), np.uint8)
    >>> background_colour(rgb)
    (250, 248, 240)
    """
    h, w = rgb.shape[:2]
    m = max(1, min(h, w) // 50)
    border = np.concatenate([rgb[:m].reshape(-1, 3), rgb[-m:].reshape(-1, 3),
                             rgb[:, :m].reshape(-1, 3), rgb[:, -m:].reshape(-1, 3)])
    q = (border // 8).astype(np.int32)
    keys = q[:, 0] * 1024 + q[:, 1] * 32 + q[:, 2]
    top = np.bincount(keys).argmax()
    sel = border[keys == top]
    return tuple(int(v) for v in np.median(sel, axis=0))


def paper_map(rgb: np.ndarray, kernel: int, gray: bool | None = None) -> np.ndarray:
    """The paper colour under every pixel: a median wide enough to erase lines and text.

    The median runs per channel, so a gray page (three equal channels, common for
    diagrams) is filtered once and copied: the same result at a third of the cost.
    ``gray`` is ``is_gray(rgb)`` when the caller knows it already (saves a pass).
    """
    k = max(3, int(kernel) | 1)
    if is_gray(rgb) if gray is None else gray:
        gray = median_filter(np.ascontiguousarray(rgb[..., 0]), k)
        return cv2.merge([gray, gray, gray])
    channels = [np.ascontiguousarray(rgb[..., c]) for c in range(3)]
    plans = [_majority_values(c, k) for c in channels]
    if not all(values for values, _ in plans):
        return cv2.medianBlur(rgb, k)  # all channels in one pass: cheaper than one by one
    return cv2.merge([_settled_median(c, k, *plan) for c, plan in zip(channels, plans)])


MIN_FLAT_SHARE = 0.85
"""Share of a page that its commonest values must cover for the majority shortcut to pay:
a noisy page (JPEG, scan) has few windows with one exact value in the majority."""
MAJORITY_SHARE = 0.03
"""Values covering less of the page than this are not tried as a window's majority."""
MAJORITY_TRIES = 4
"""At most this many of the page's commonest values are tried."""
MAX_UNSETTLED = 0.35
"""Past this share of tiles left to filter, one filter over the whole page is cheaper (a
tile is filtered with its margin, about twice its own area)."""


def median_filter(channel: np.ndarray, k: int) -> np.ndarray:
    """``cv2.medianBlur(channel, k)`` of one uint8 channel, the same values, computed fast
    on pages that are mostly paper.

    A value filling more than half of a window is that window's median.  Box sums of the
    page's commonest values (the paper, large fills) settle most pixels of a diagram; the
    median filter only runs on the tiles left, each with a margin of the page
    (edge-replicated like ``medianBlur``'s own border), so every value is exact.
    """
    return _settled_median(channel, k, *_majority_values(channel, k))


def _settled_median(channel: np.ndarray, k: int, values: list[int], hist: np.ndarray
                    ) -> np.ndarray:
    """``median_filter`` given the values to try and the channel's histogram."""
    h, w = channel.shape
    r = k // 2
    if not values:
        return cv2.medianBlur(channel, k)
    need = k * k // 2 + 1
    out = np.empty_like(channel)
    settled = np.zeros((h, w), bool)
    tile = int(np.clip(2 * k, 16, 64))
    th, tw = -(-h // tile), -(-w // tile)
    grid = np.ones((th * tile, tw * tile), bool)
    left = float(hist[values].sum()) / (h * w)
    open_share = 1.0
    for value in values:
        same = cv2.compare(channel, value, cv2.CMP_EQ)  # 255 where equal
        count = cv2.boxFilter(same, cv2.CV_32S, (k, k), normalize=False,
                              borderType=cv2.BORDER_REPLICATE)
        major = count >= 255 * need
        np.copyto(out, np.uint8(value), where=major)
        settled |= major
        grid[:h, :w] = settled
        open_tiles = ~grid.reshape(th, tile, tw, tile).all(axis=(1, 3))
        open_share = float(open_tiles.mean())
        left -= hist[value] / (h * w)
        if open_share > MAX_UNSETTLED + left:  # the values left cannot settle enough
            break
    if open_share > MAX_UNSETTLED:  # noisy paper (JPEG): no shortcut here
        return cv2.medianBlur(channel, k)
    padded = cv2.copyMakeBorder(channel, r, r, r, r, cv2.BORDER_REPLICATE)
    for ty in np.flatnonzero(open_tiles.any(axis=1)):
        row = np.concatenate([[False], open_tiles[ty], [False]])
        edges = np.flatnonzero(row[1:] != row[:-1])  # starts and ends of runs of tiles
        y0, y1 = ty * tile, min(h, (ty + 1) * tile)
        for a, b in zip(edges[::2], edges[1::2]):
            x0, x1 = a * tile, min(w, b * tile)
            part = cv2.medianBlur(padded[y0:y1 + 2 * r, x0:x1 + 2 * r], k)
            out[y0:y1, x0:x1] = part[r:r + y1 - y0, r:r + x1 - x0]
    return out


def _majority_values(channel: np.ndarray, k: int) -> tuple[list[int], np.ndarray]:
    """The values of a uint8 channel worth trying as the majority of its ``k`` x ``k``
    windows (commonest first; none when the shortcut of ``median_filter`` would not pay:
    small kernel or page, noisy page), and the channel's histogram."""
    h, w = channel.shape
    if k <= 5 or h <= k or w <= k:
        return [], np.zeros(256, np.int64)
    hist = _histogram(channel)
    need = max(k * k // 2 + 1, MAJORITY_SHARE * h * w)
    values = [int(v) for v in np.argsort(-hist, kind="stable")[:MAJORITY_TRIES]
              if hist[v] >= need]
    return (values if hist[values].sum() >= MIN_FLAT_SHARE * h * w else []), hist


def _histogram(channel: np.ndarray) -> np.ndarray:
    """Counts of the 256 values of a uint8 channel (int64), as ``np.bincount`` gives them.

    OpenCV counts twice as fast in float32, exact while every count stays below 2**24.
    """
    if channel.size < 2 ** 24:
        return cv2.calcHist([channel], [0], None, [256], [0, 256]).ravel().astype(np.int64)
    return np.bincount(channel.ravel(), minlength=256)


def is_gray(rgb: np.ndarray) -> bool:
    """Whether a colour image has three identical channels."""
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        return False
    if rgb.dtype == np.uint8 and rgb.flags.c_contiguous and rgb.size:
        # Exact: OpenCV's 8-bit luma of (v, v, v) is v (its fixed-point weights sum to
        # one), so the page equals its own luma repeated three times iff it is gray.  A
        # third of the time of comparing the channel views.
        luma = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        return cv2.norm(cv2.cvtColor(luma, cv2.COLOR_GRAY2RGB), rgb, cv2.NORM_INF) == 0
    return bool(np.array_equal(rgb[..., 0], rgb[..., 1])
                and np.array_equal(rgb[..., 1], rgb[..., 2]))


def noise_level(dist: np.ndarray) -> float:
    """Robust noise estimate (pixels of a flat area differ from their median by this much)."""
    n = dist.size
    zeros = n - np.count_nonzero(dist)
    if n and zeros >= int(0.6 * (n - 1)) + 2 and np.count_nonzero(dist < 1e-6) == zeros:
        # Over 60 % of the pixels equal their paper (a clean render) and none is below
        # or just above 0: the percentile is 0, the pixels kept all 0, their median and
        # spread 0.
        return 1.0
    small = dist[dist < np.percentile(dist, 60) + 1e-6]
    if small.size == 0:
        return 1.0
    return float(max(1.0, np.median(small) * 1.4826 + np.std(small)))


def ink_mask(rgb: np.ndarray, paper: np.ndarray, min_contrast: float = 24.0,
             gray: bool | None = None, background: tuple[int, int, int] | None = None,
             fills: np.ndarray | None = None) -> np.ndarray:
    """Boolean mask of ink: pixels unlike their paper, plus borders between paper colours.

    The threshold is the larger of the image's noise floor and a fraction of the contrast of
    the darkest strokes, so faint lines on dark backgrounds still count and JPEG ringing
    around text does not flood the page.  ``gray``, when the caller knows it, says whether
    ``rgb`` and ``paper`` both have three equal channels (``paper_map`` of a gray page has).
    With the page ``background`` and ``fills`` (a paper map wide enough to hold shape fills
    but no glyphs), page-coloured pixels over a light tint are not ink (``page_coloured``).
    """
    if gray is None:
        gray = is_gray(rgb) and is_gray(paper)
    if gray:  # one channel holds it all: the same distances (see ``_gray_distance``)
        dist = _gray_distance(rgb[..., 0], paper[..., 0])
    else:
        dist = colour_distance(rgb, paper)
    noise = noise_level(dist)
    clear = dist[dist > 4 * noise]
    strong = np.percentile(clear, 90) if clear.size else 0.0
    thr = max(4.0 * noise, min(min_contrast, 0.35 * strong) if strong else min_contrast)
    ink = dist > thr
    step = np.zeros(ink.shape, dtype=bool)
    flat = np.ascontiguousarray(paper[..., 0]) if gray else paper  # all steps alike
    step[:, 1:] |= _max_channel_step(flat[:, 1:], flat[:, :-1]) > thr
    step[1:] |= _max_channel_step(flat[1:], flat[:-1]) > thr
    if background is not None and fills is not None:
        both = ink | step
        return both & ~page_coloured(rgb, paper, fills, both, background, thr)
    return ink | step


TINT_CONTRAST = 3.0
"""A fill within this many ink thresholds of the page colour is a light tint: nothing
drawn on it in the page colour would be legible as ink."""

FILL_SHARE = 0.0005
"""A colour of the wide paper map covering this share of the page (or 64 pixels) is a
shape fill."""


def page_coloured(rgb: np.ndarray, paper: np.ndarray, fills: np.ndarray, ink: np.ndarray,
                  background: tuple[int, int, int], thr: float) -> np.ndarray:
    """Pixels of ``ink`` that have the page's own colour while their ``paper`` is not the
    page's and they lie on a light tint that fills shapes: their ``paper`` is such a tint
    (a colour covering an area of the wider ``fills`` map), or ``fills`` is one there.

    Near the edge of a tinted fill the median's paper colour is the fill even where the
    page shows through, e.g. the gap between the two borders of a double shape (the fill
    stops at the inner border); those pixels are paper, not ink.  Page-coloured text on
    a strong fill (white on dark) stays ink, and so does the page-side edge of a fill
    drawn without an outline (its paper is the page's).  The counters of a glyph, whose
    narrow median mixes ink and page, stay ink: that mix fills no shape, and the wide
    median there is the page's.
    """
    out = np.zeros(ink.shape, bool)
    bg = np.asarray(background, np.float32)
    # Half the ink threshold: a faint border pixel, part way to the page colour, stays.
    # Only the ink's pixels are measured (a few percent of a page), found by their flat
    # indices: the same pixels, in the same order, as ``np.nonzero`` of the mask.
    ys, xs = np.divmod(np.flatnonzero(ink), ink.shape[1])
    near = colour_distance(rgb[ys, xs][None], background)[0] <= 0.5 * thr
    ys, xs = ys[near], xs[near]
    own = paper[ys, xs].astype(np.float32)
    off_page = np.linalg.norm(own - bg, axis=1)
    wide = np.linalg.norm(fills[ys, xs].astype(np.float32) - bg, axis=1)
    on_wide_tint = (wide > thr) & (wide <= TINT_CONTRAST * thr)
    # a paper colour half a threshold from a tint is at most this far from the page
    maybe = (off_page > thr) & ((off_page <= (TINT_CONTRAST + 0.5) * thr) | on_wide_tint)
    ys, xs, own, on_wide_tint = ys[maybe], xs[maybe], own[maybe], on_wide_tint[maybe]
    if not ys.size:
        return out  # the usual page: no tint to look for
    palette = _tint_palette(fills, bg, thr)
    if not len(palette):
        return out
    gap = np.linalg.norm(own[:, None, :] - palette[None, :, :], axis=2).min(axis=1)
    hit = (gap <= 0.5 * thr) | on_wide_tint
    out[ys[hit], xs[hit]] = True
    return out


def _tint_palette(fills: np.ndarray, bg: np.ndarray, thr: float) -> np.ndarray:
    """The light tints (``TINT_CONTRAST``) that cover an area of a paper map, K x 3."""
    n = fills.shape[0] * fills.shape[1]
    if is_gray(fills):  # one channel holds the counts: 64 bins, not 64 ** 3
        counts = _quantised_counts(fills, gray=True)
        big = np.nonzero(counts >= max(64, FILL_SHARE * n))[0]
        colours = np.stack([big, big, big], axis=1).astype(np.float32)
    else:
        counts = _quantised_counts(fills)
        big = np.nonzero(counts >= max(64, FILL_SHARE * n))[0]
        colours = np.stack([big // 4096, big // 64 % 64, big % 64], axis=1).astype(np.float32)
    colours = colours * 4 + 1.5
    d = np.linalg.norm(colours - bg, axis=1)
    return colours[(d > thr) & (d <= TINT_CONTRAST * thr)]


def _quantised_counts(image: np.ndarray, gray: bool = False) -> np.ndarray:
    """How many pixels of a uint8 RGB image fall in each colour bin of 4 levels a channel:
    ``64 ** 3`` counts indexed ``r * 4096 + g * 64 + b`` of the quantised channels (with
    ``gray``, 64 counts of the first channel).  Counted in row bands, so the bin keys of
    the page are never all held at once (as 64-bit integers, which ``np.bincount``
    takes)."""
    h, w = image.shape[:2]
    counts = np.zeros(64 if gray else 64 ** 3, np.int64)
    for band in row_bands(h, w):
        if gray:
            keys = (image[band, :, 0] // 4).ravel()
        else:
            q = (image[band].reshape(-1, 3) // 4).astype(np.int32)
            keys = q[:, 0] * 4096 + q[:, 1] * 64 + q[:, 2]
        counts += np.bincount(keys, minlength=counts.size)
    return counts


_GRAY_DISTANCE = np.sqrt((3 * np.arange(256) ** 2).astype(np.float32))
"""Colour distance of two gray pixels by their difference: the square root of three equal
squares, all exact in float32, as ``_uint8_distance`` computes it."""


def _gray_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``colour_distance`` of two gray images given by one channel each, bit-identical."""
    if a.dtype != np.uint8 or b.dtype != np.uint8:
        a3, b3 = (np.repeat(x[..., None], 3, axis=-1) for x in (a, b))
        return colour_distance(a3, b3)
    diff = cv2.absdiff(np.ascontiguousarray(a), np.ascontiguousarray(b))
    return cv2.LUT(diff, _GRAY_DISTANCE)  # a float32 table: the same values, faster than numpy


def _max_channel_step(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Largest per-channel absolute difference of two equally shaped colour images (of
    two single-channel images: their absolute difference)."""
    if a.dtype == np.uint8 and b.dtype == np.uint8:
        d = cv2.absdiff(a, b)  # OpenCV takes the shifted views as they are, rows apart
    else:
        d = np.abs(a.astype(np.int16) - b.astype(np.int16))
    if d.ndim == 2:
        return d
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])


def strong_ink(rgb: np.ndarray, ink: np.ndarray, background: tuple[int, int, int]
               ) -> np.ndarray:
    """Ink drawn in a strong colour: drop shadows, light tints and halos left out.

    Keeps pixels whose contrast with the background is at least half that of the
    strongest ink on the page.

    Parameters
    ----------
    rgb : ndarray
        ``H x W x 3`` uint8 image.
    ink : ndarray
        Boolean mask of everything drawn.
    background : tuple of int
        The paper colour, RGB.

    Returns
    -------
    ndarray
        The part of ``ink`` drawn strongly (``ink`` itself when it is empty).
    """
    dist = colour_distance(rgb, background)
    values = dist[ink]
    if values.size == 0:
        return ink
    return ink & (dist > 0.5 * float(np.percentile(values, 95)))


PAGE_LIKE = 12.0
"""A pixel within this colour distance of the page colour looks like the page: a light
line's anti-aliased pixels differ from it by more."""

THIN_FRINGE = 0.75
"""A thin piece of weak ink beside at least this many strong pixels per pixel of its own is
the anti-aliased fringe of a strong stroke, not a stroke of its own."""


def line_ink(rgb: np.ndarray, ink: np.ndarray, background: tuple[int, int, int],
             strong: np.ndarray | None = None) -> np.ndarray:
    """:func:`strong_ink` plus the thin lines drawn in a light colour.

    A one-pixel line drawn in grey and anti-aliased across two pixel rows has about half
    the contrast of the page's text, which :func:`strong_ink` leaves out with the shadows
    and tints it is meant to drop.  Those are areas, at least three pixels across where
    they stand alone, and a shadow joins the border that casts it into such an area; a
    line is thinner.  Weak ink that an opening with a 3 x 3 square removes is kept, unless
    it runs along strong ink (the fringe of a strong stroke, beside a strong pixel for
    each of its own); a light slanted line with a strong pixel here and there is kept.
    """
    strong = strong_ink(rgb, ink, background) if strong is None else strong
    # a pixel of the page's own colour is no light line, though the ink may hold it (the
    # step of a wide paper map between a box fill and the page, a pixel off the border)
    weak = ink & ~strong & (colour_distance(rgb, background) > PAGE_LIKE)
    if not weak.any():
        return strong
    square = np.ones((3, 3), np.uint8)
    thin = weak & ~cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, square).astype(bool)
    n, labels = cv2.connectedComponents(thin.astype(np.uint8), connectivity=8)
    if n <= 1:
        return strong
    # each strong pixel counted for the thin piece beside it (one, where several are)
    beside = cv2.dilate(labels.astype(np.float32), square).astype(np.int64)
    size = np.bincount(labels.ravel(), minlength=n)
    touched = np.bincount(beside[strong], minlength=n)
    keep = touched < THIN_FRINGE * size
    keep[0] = False
    return strong | keep[labels]


OUTLINE_FILLS = 8
"""At most this many fill colours, the commonest, have their outlines closed."""


def fill_palette(fills: np.ndarray, background: tuple[int, int, int], min_step: float
                 ) -> np.ndarray:
    """The colours (K x 3, commonest first) that cover an area of a wide paper map and lie
    more than ``min_step`` from the page colour: the fills of shapes."""
    n = fills.shape[0] * fills.shape[1]
    counts = _quantised_counts(fills)
    big = np.nonzero(counts >= max(64, FILL_SHARE * n))[0]
    big = big[np.argsort(-counts[big], kind="stable")]
    colours = np.stack([big // 4096, big // 64 % 64, big % 64], axis=1).astype(np.float32)
    colours = colours * 4 + 1.5
    d = np.linalg.norm(colours - np.asarray(background, np.float32), axis=1)
    return colours[d > min_step][:OUTLINE_FILLS]


OUTLINE_SHARE = 0.25
"""A pixel this share of a fill's step from the page away from the fill's colour is no
longer the fill."""


BORDERED_SHARE = 0.6
"""Share of the ring round a fill that must be nearer its colour than the page's or
beyond (its border) for the fill to be a box, not a label's plate on the page."""


def fill_outlines(rgb: np.ndarray, fills: np.ndarray, background: tuple[int, int, int],
                  min_step: float, ink: np.ndarray, reach: int = 2,
                  min_height: float = 0.0) -> np.ndarray:
    """The ring round each fill that ``ink`` leaves open: the pixels just past where its
    colour stops, grown up to ``reach`` pixels on through pixels that are neither the
    fill's colour nor the page's (its border, antialiasing and all).

    A pale border on a pale fill (a light theme) may differ from the fill by less than
    the ink threshold although a person sees the box at once: the fill itself, unlike
    the page, marks the inside, and the ring round it closes the box where the border
    alone is too faint or a dark line meeting it pulls the median off.  Every step is
    measured from the fill's own colour and the page's, wherever they lie on the hue and
    lightness scale.  Only a fill whose paper joins the page's through ``ink`` (a box
    left open) is ringed, or one whose paper runs on into a much larger area (a box
    left open inside a group frame, whose own closed inside then swallows it), if at
    least ``min_height`` high and wide; a box ``ink`` closes already stays as it is.
    """
    out = np.zeros(rgb.shape[:2], bool)
    bg = np.asarray(background, np.float32)
    kernel = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    palette = fill_palette(fills, background, min_step)
    if not len(palette):
        return out
    free_n, free, free_stats, _ = cv2.connectedComponentsWithStats(
        (~ink).view(np.uint8), connectivity=4)
    open_paper = _open_paper(ink, free, free_n)
    free_area = free_stats[:, cv2.CC_STAT_AREA].astype(np.int64)
    del free_stats
    page = colour_distance(rgb, background)
    for colour in palette:
        step = float(np.linalg.norm(colour - bg))
        own = (colour_distance(rgb, colour) < OUTLINE_SHARE * step).view(np.uint8)
        if not own.any():
            continue
        # the fill's own noise (JPEG) leaves specks off its colour: no ring round those
        own = cv2.morphologyEx(own, cv2.MORPH_CLOSE, kernel)
        k, parts, stats, _ = cv2.connectedComponentsWithStats(own, connectivity=4)
        del own
        # open: most of its paper joins the page's (a halo pixel past a closed border
        # may match the fill's colour too, on the page's side)
        opened = _label_counts(parts, open_paper, k)
        area = stats[:, cv2.CC_STAT_AREA]
        spilled = _spilled_counts(parts, free, free_area,
                                  stats[:, cv2.CC_STAT_WIDTH] * stats[:, cv2.CC_STAT_HEIGHT], k)
        leaky = np.nonzero((2 * opened[:k] > area) | (2 * spilled > area))[0]
        leaky = leaky[leaky > 0]
        # a box holds a line of text with a margin: a label's plate is lower
        leaky = leaky[(stats[leaky, cv2.CC_STAT_HEIGHT] >= min_height)
                      & (stats[leaky, cv2.CC_STAT_WIDTH] >= min_height)]
        if not leaky.size:
            continue
        own = _labelled(parts, leaky, k)
        ring = cv2.dilate(own, kernel) > own
        # a box has a border, however faint: the ring is mostly off the page's colour;
        # a label's plate, set straight on the page, is ringed by the page itself
        drawn = ring & (page >= 0.5 * step)
        counts, inked = _ring_counts(parts, ring, drawn, kernel, k)
        bordered = [i for i in leaky if inked[i] >= BORDERED_SHARE * max(1, counts[i])]
        if not bordered:
            continue
        own = _labelled(parts, np.asarray(bordered), k)
        del parts
        ring = cv2.dilate(own, kernel) > own
        between = ~own.view(bool) & (page >= OUTLINE_SHARE * step)
        for _ in range(reach - 1):
            ring |= (cv2.dilate(ring.view(np.uint8), kernel).view(bool) & between)
        out |= ring
    return out


SPILL_RATIO = 1.5
"""A fill whose paper area (off ink, 4-connected) is this many times the area of the
fill's bounding box runs on past its border: its box is open.  A closed box's paper lies
inside that box, however much of it JPEG noise or letter halos keep off the fill's
colour."""


def _spilled_counts(parts: np.ndarray, free: np.ndarray, free_area: np.ndarray,
                    area: np.ndarray, n: int) -> np.ndarray:
    """For each label of ``parts`` (bounding boxes of ``area`` pixels): how many of its
    pixels lie in a component of ``free`` (areas ``free_area``) over ``SPILL_RATIO``
    times that area, counted band by band."""
    counts = np.zeros(n, np.int64)
    limit = SPILL_RATIO * area.astype(np.float64)
    for band in row_bands(*parts.shape):
        p, f = parts[band], free[band]
        m = (p > 0) & (f > 0)
        pm = p[m]
        big = free_area[f[m]] > limit[pm]
        counts += np.bincount(pm[big], minlength=n)[:n]
    return counts


def _open_paper(ink: np.ndarray, labels: np.ndarray | None = None, n: int = 0
                ) -> np.ndarray:
    """The pixels off ``ink`` that join the image border through pixels off ``ink``
    (4-connected): the page's paper and every fill left open to it.  ``labels`` (``n``
    labels) is the caller's component map of the pixels off ``ink``, if it has one."""
    if labels is None:
        n, labels = cv2.connectedComponents((~ink).view(np.uint8), connectivity=4)
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    table = np.zeros(n, bool)
    table[edge[edge > 0]] = True
    return _labelled(labels, table).view(bool)


def _labelled(labels: np.ndarray, which: np.ndarray, n: int | None = None) -> np.ndarray:
    """uint8 mask (0/1) of the pixels of a label map whose label is one of ``which`` (a
    boolean table by label, or ``n`` labels' indices), looked up band by band so that no
    page-sized index array is made."""
    if n is not None:
        table = np.zeros(n, bool)
        table[which] = True
        which = table
    lut = which.view(np.uint8)
    out = np.empty(labels.shape, np.uint8)
    for band in row_bands(*labels.shape):
        np.take(lut, labels[band], out=out[band])
    return out


def _label_counts(labels: np.ndarray, mask: np.ndarray, n: int) -> np.ndarray:
    """``np.bincount(labels[mask], minlength=n)``, counted band by band."""
    counts = np.zeros(n, np.int64)
    for band in row_bands(*labels.shape):
        counts += np.bincount(labels[band][mask[band]], minlength=n)[:n]
    return counts


def _ring_counts(parts: np.ndarray, ring: np.ndarray, drawn: np.ndarray,
                 kernel: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """For each label of ``parts``: how many pixels of ``ring`` and of ``drawn`` (a part
    of the ring) lie beside it, each pixel counted for the largest label among its
    ``kernel`` neighbours.  The neighbours' labels are taken band by band with a row of
    the bands next to it (the kernel reaches one row), the same as over the whole map."""
    h = parts.shape[0]
    counts = np.zeros(n, np.int64)
    inked = np.zeros(n, np.int64)
    for band in row_bands(*parts.shape):
        y0, y1 = max(0, band.start - 1), min(h, band.stop + 1)
        near = cv2.dilate(parts[y0:y1].astype(np.float32), kernel)
        near = near[band.start - y0:band.stop - y0]
        counts += np.bincount(near[ring[band]].astype(np.int64), minlength=n)[:n]
        inked += np.bincount(near[drawn[band]].astype(np.int64), minlength=n)[:n]
    return counts, inked
