"""Sentence BLEU-4 (Papineni et al. 2002) with add-epsilon smoothing, written without nltk.

The ERUnderstand paper scores BLEU with NLTK over deterministically sorted JSON; this module
is the same formula so cvparse needs no nltk.  Smoothing follows Chen & Cherry (2014)
"method 1" (NLTK ``SmoothingFunction().method1``): an n-gram order with zero matches gets
``epsilon / total`` instead of 0, so short or partial outputs do not collapse to exactly 0.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_TOKEN = re.compile(r"[A-Za-z0-9]+|[^\sA-Za-z0-9]")


def tokenize(text: str) -> list[str]:
    """Split text into word runs and single punctuation marks (JSON braces, quotes, colons)."""
    return _TOKEN.findall(text)


def _ngrams(tokens: Sequence[str], n: int) -> Counter:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def bleu(reference: Sequence[str], hypothesis: Sequence[str], max_n: int = 4,
         epsilon: float = 0.1) -> float:
    """BLEU of one hypothesis token list against one reference, in [0, 1].

    Uniform weights over 1..``max_n``-grams, clipped counts, brevity penalty
    ``exp(1 - r/c)`` when the hypothesis is shorter.  An empty hypothesis scores 0; an
    n-gram order the hypothesis is too short to have is smoothed like a zero match.
    """
    if not hypothesis or not reference:
        return 0.0
    log_sum = 0.0
    for n in range(1, max_n + 1):
        hyp = _ngrams(hypothesis, n)
        ref = _ngrams(reference, n)
        total = max(sum(hyp.values()), 1)
        matched = sum(min(c, ref[g]) for g, c in hyp.items())
        if n == 1 and matched == 0:
            return 0.0
        precision = matched / total if matched else epsilon / total
        log_sum += math.log(precision) / max_n
    c, r = len(hypothesis), len(reference)
    brevity = 1.0 if c > r else math.exp(1.0 - r / c)
    return brevity * math.exp(log_sum)
