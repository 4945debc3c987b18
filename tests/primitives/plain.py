"""Plain reference formulas of the paper and ink steps and of the arrowhead-side search,
for the tests that check the fast paths give exactly the same values."""

import numpy as np


def plain_distance(rgb, ref):
    d = rgb.astype(np.float32) - np.asarray(ref, dtype=np.float32)
    return np.sqrt((d * d).sum(axis=-1))


def plain_noise(dist):
    small = dist[dist < np.percentile(dist, 60) + 1e-6]
    if small.size == 0:
        return 1.0
    return float(max(1.0, np.median(small) * 1.4826 + np.std(small)))


def plain_ink_mask(rgb, paper, min_contrast=24.0):
    dist = plain_distance(rgb, paper)
    noise = plain_noise(dist)
    clear = dist[dist > 4 * noise]
    strong = np.percentile(clear, 90) if clear.size else 0.0
    thr = max(4.0 * noise, min(min_contrast, 0.35 * strong) if strong else min_contrast)
    p = paper.astype(np.int16)
    step = np.zeros(dist.shape, bool)
    step[:, 1:] |= np.abs(p[:, 1:] - p[:, :-1]).max(axis=-1) > thr
    step[1:] |= np.abs(p[1:] - p[:-1]).max(axis=-1) > thr
    return (dist > thr) | step


def plain_head_sides(near, tip, back, scale):
    """The arrowhead-side search of one line end, one ray at a time."""
    h, w = near.shape
    bx, by = float(back[0]), float(back[1])
    norm = max(1e-6, float(np.hypot(bx, by)))
    bx, by = bx / norm, by / norm
    reach = int(round(1.2 * scale.text_height))
    least = max(4, int(round(0.4 * scale.text_height)))
    k = np.arange(1, reach + 1)
    found = []
    for sign in (1, -1):
        best = (0, 0, None)
        for deg in range(15, 65, 5):
            a = np.deg2rad(sign * deg)
            dx, dy = bx * np.cos(a) - by * np.sin(a), bx * np.sin(a) + by * np.cos(a)
            px = np.round(tip[0] + k * dx).astype(int)
            py = np.round(tip[1] + k * dy).astype(int)
            inside = (px >= 0) & (px < w) & (py >= 0) & (py < h)
            hit = np.zeros(len(k), bool)
            hit[inside] = near[py[inside], px[inside]]
            run = int(np.argmin(hit)) if not hit.all() else len(k)
            if run >= least and run > best[0]:
                best = (run, deg, (int(px[run - 1]), int(py[run - 1])))
        found.append(best)
    (r1, d1, e1), (r2, d2, e2) = found
    if e1 is None or e2 is None or abs(d1 - d2) > 15 or min(r1, r2) < 0.5 * max(r1, r2):
        return []
    return [e1, e2]
