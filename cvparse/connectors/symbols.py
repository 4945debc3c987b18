"""Learned end-marker classifier: a tiny ONNX network that names the symbol at a line end.

Geometry (:mod:`cvparse.connectors.markers`) reads every end first; a crop of the end,
normalised so that the line comes in from the left and one text height spans a fixed
number of pixels, is also given to this classifier, whose answer counts where geometry is
unsure or the classifier is sure (``markers.decide``).  Runs with onnxruntime only; the
model is optional (without it geometry decides alone).
Trained by ``tools/train_symbols.py``; see ``models/symbols.md``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

CLASSES = ("none", "arrow", "open_arrow", "triangle", "diamond", "filled_diamond")
"""Output classes, in the network's order (the :class:`~.lines.End` marker names)."""

CROP = 32
"""Side of the square crop fed to the network, pixels."""
BEHIND = 1.9
"""Text heights of line shown behind the tip (the marker and the line leading to it)."""
AHEAD = 0.6
"""Text heights shown beyond the tip (the border the line ends on)."""
ACROSS = 1.25
"""Half the crop's height, in text heights."""

MODEL_NAME = "symbols.onnx"


@dataclass(frozen=True)
class EndView:
    """Where to look: the tip of a line end, the unit vector pointing out of the line
    there, and the page's text height (the crop's unit of length)."""

    tip: tuple[float, float]
    direction: tuple[float, float]
    unit: float


def advance_to_tip(mask: np.ndarray, point: tuple[float, float],
                   direction: tuple[float, float], reach: float, gap: float = 1.0,
                   across: int = 0) -> tuple[float, float]:
    """Walk from ``point`` along ``direction`` while there is ink, at most ``reach`` pixels,
    jumping blank runs of up to ``gap`` pixels (the space between the last dash or dot of a
    line and its head): the tip of whatever is drawn at the end of the line.

    Where that walk gets nowhere (a line traced up to the end of its last dash but one,
    the next dash and its head a little off the traced heading), the first ink met across
    the gap up to ``across`` pixels to either side of the path is taken, if it begins
    there after blank (a dash, not a border running alongside), and the walk goes on from
    it."""
    tip = _walk(mask, point, direction, reach, gap, 0)
    if across <= 0 or np.hypot(tip[0] - point[0], tip[1] - point[1]) > across + 1:
        return tip
    return _walk(mask, point, direction, reach, gap, across)


def _walk(mask: np.ndarray, point: tuple[float, float], direction: tuple[float, float],
          reach: float, gap: float, across: int) -> tuple[float, float]:
    """``advance_to_tip``'s walk, moving over to ink beside the path at most once."""
    h, w = mask.shape
    dx, dy = direction
    ox, oy = point
    last = point
    blank = 0
    sides = sorted(range(-across, across + 1), key=abs)[1:]
    for t in range(1, int(reach) + 1):
        x, y = int(round(ox + dx * t)), int(round(oy + dy * t))
        if not (0 <= x < w and 0 <= y < h):
            break
        if not mask[y, x] and blank >= 1 and sides:
            for k in sides:  # the nearest side first
                path = [(int(round(ox + dx * (t - b) - dy * k)),
                         int(round(oy + dy * (t - b) + dx * k))) for b in (0, 1, 2)]
                if not all(0 <= px < w and 0 <= py < h for px, py in path):
                    continue
                (hx, hy), behind = path[0], path[1:]
                if mask[hy, hx] and not any(mask[py, px] for px, py in behind):
                    ox, oy, x, y = ox - dy * k, oy + dx * k, hx, hy
                    sides = []
                    break
        if mask[y, x]:
            last, blank = (float(ox + dx * t), float(oy + dy * t)), 0
        else:
            blank += 1
            if blank > gap:
                break
    return last


def heading(points: np.ndarray, back: float) -> tuple[float, float] | None:
    """Unit vector from the polyline point ``back`` pixels (along the line) before its last
    point to the last point: the line's heading at its end, steadier than the last step."""
    if len(points) < 2:
        return None
    seg = np.linalg.norm(np.diff(points[::-1], axis=0), axis=1)
    k = int(np.searchsorted(np.cumsum(seg), back))
    v = points[-1] - points[::-1][min(k + 1, len(points) - 1)]
    n = float(np.hypot(v[0], v[1]))
    return (float(v[0] / n), float(v[1] / n)) if n > 0 else None


def end_crop(mask: np.ndarray, view: EndView) -> np.ndarray:
    """``CROP x CROP`` float32 image (1 = ink) of one line end, rotated so that the line
    comes in from the left with the tip at ``BEHIND`` text heights, scaled by text height."""
    span = (BEHIND + AHEAD) * view.unit
    s = CROP / span  # crop pixels per page pixel
    tx, ty = view.tip
    dx, dy = view.direction
    n = float(np.hypot(dx, dy)) or 1.0
    dx, dy = dx / n, dy / n
    # cut a patch around the tip first: blurring and warping stay local
    r = int(np.ceil(span * 1.3)) + 2
    h, w = mask.shape
    x0, y0 = max(0, int(tx) - r), max(0, int(ty) - r)
    x1, y1 = min(w, int(tx) + r + 1), min(h, int(ty) + r + 1)
    patch = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
    ox, oy = int(tx) - r, int(ty) - r
    if x1 > x0 and y1 > y0:
        patch[y0 - oy:y1 - oy, x0 - ox:x1 - ox] = mask[y0:y1, x0:x1]
    if s < 0.8:  # shrinking: low-pass first so thin lines do not alias away
        patch = cv2.GaussianBlur(patch, (0, 0), 0.45 / s)
    px, py = tx - ox, ty - oy
    m = np.array([[s * dx, s * dy, -s * (dx * px + dy * py) + s * BEHIND * view.unit],
                  [-s * dy, s * dx, -s * (-dy * px + dx * py) + CROP / 2]], np.float32)
    out = cv2.warpAffine(patch, m, (CROP, CROP), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    peak = float(out.max())
    return out / peak if peak > 0 else out


def model_path() -> Path | None:
    """The model file: inside the package (installed) or in the repository's ``models/``."""
    here = Path(__file__).resolve()
    for cand in (here.parent.parent / "models" / MODEL_NAME,
                 here.parent.parent.parent / "models" / MODEL_NAME):
        if cand.is_file():
            return cand
    return None


@lru_cache(maxsize=4)
def _session(path: str):
    """One single-threaded onnxruntime session per model file and process."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.enable_cpu_mem_arena = False  # the arena kept ~40 MB for the process's life
    return ort.InferenceSession(path, sess_options=opts, providers=["CPUExecutionProvider"])


def available() -> bool:
    """True if the model file and onnxruntime are there."""
    if model_path() is None:
        return False
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


def classify_crops(crops: np.ndarray, path: Path | None = None) -> np.ndarray | None:
    """Class probabilities (``N x len(CLASSES)``) for ``N x CROP x CROP`` crops, in one run;
    ``None`` when no model is available."""
    path = path or model_path()
    if path is None or len(crops) == 0:
        return None if path is None else np.zeros((0, len(CLASSES)), np.float32)
    try:
        sess = _session(str(path))
    except ImportError:
        return None
    x = np.ascontiguousarray(crops, np.float32).reshape(-1, 1, CROP, CROP)
    logits = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    z = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def classify_views(mask: np.ndarray, views: list[EndView]) -> np.ndarray | None:
    """Class probabilities for several ends of one page, batched in one network run;
    ``None``, with a warning (shown once per place by Python's default filter), when the
    model cannot be loaded: a broken install should not pass for a working one."""
    if not views:
        return np.zeros((0, len(CLASSES)), np.float32)
    if not available():
        warnings.warn(
            f"cvparse: the end-marker model ({MODEL_NAME}) or onnxruntime is missing; "
            "arrowheads are read by geometry alone, which misses more of them",
            RuntimeWarning, stacklevel=2)
        return None
    return classify_crops(np.stack([end_crop(mask, v) for v in views]))
