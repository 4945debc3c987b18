"""Tests of the nltk-free sentence BLEU (cvparse.metrics.bleu)."""

from __future__ import annotations

import math

import pytest

from cvparse.metrics.bleu import bleu, tokenize


def test_identity_is_one_and_empty_is_zero():
    toks = tokenize('{"entities": [{"name": "customer", "weak": false}]}')
    assert bleu(toks, toks) == pytest.approx(1.0)
    assert bleu(toks, []) == 0.0
    assert bleu([], toks) == 0.0


def test_no_shared_unigram_is_zero():
    assert bleu("a b c d".split(), "w x y z".split()) == 0.0


def test_brevity_penalty_on_a_correct_prefix():
    ref, hyp = "a b c d e f".split(), "a b c d".split()
    assert bleu(ref, hyp) == pytest.approx(math.exp(1 - 6 / 4))


def test_missing_fourgram_is_smoothed_with_epsilon():
    ref, hyp = "a b c d".split(), "a b c x".split()
    expected = (3 / 4 * 2 / 3 * 1 / 2 * 0.1) ** 0.25
    assert bleu(ref, hyp) == pytest.approx(expected)


def test_tokenize_splits_words_and_punctuation():
    assert tokenize('{"a b": [1, "x"]}') == ["{", '"', "a", "b", '"', ":", "[", "1", ",",
                                              '"', "x", '"', "]", "}"]
