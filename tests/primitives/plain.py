"""Plain reference formulas of the paper and ink steps, for the tests that check the
fast paths give exactly the same values."""

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
