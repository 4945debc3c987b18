"""Precision, recall and F1 from match counts, shared by the graph-like scorers."""

from __future__ import annotations

from collections import Counter


def prf(tp: int, n_pred: int, n_gt: int) -> tuple[float, float, float]:
    """Precision, recall, F1 from counts; two empty sides agree perfectly (1, 1, 1)."""
    if n_pred == 0 and n_gt == 0:
        return 1.0, 1.0, 1.0
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gt if n_gt else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def multiset_tp(gt: list, pred: list) -> int:
    """Matches between two multisets, each item used once."""
    return sum((Counter(gt) & Counter(pred)).values())
