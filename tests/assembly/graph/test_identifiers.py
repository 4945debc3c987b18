"""Identifier-like node labels: a bar read as "I" or "|" before a small letter is a small
l when the word's other letters are all small (:mod:`cvparse.assembly.graph.identifiers`)."""

from cvparse.assembly.graph.identifiers import small_ell


def test_a_bar_in_a_small_identifier_is_an_ell():
    assert small_ell("Ib-06") == "lb-06"
    assert small_ell("tok-Ib-5") == "tok-lb-5"
    assert small_ell("web-|b-30") == "web-lb-30"
    assert small_ell("edge Ib-mail-21") == "edge lb-mail-21"


def test_capitals_of_words_and_mixed_identifiers_stay():
    assert small_ell("Ice cream") == "Ice cream"  # a title-case word, no joiners
    assert small_ell("IoT-hub") == "IoT-hub"  # a capital after the bar
    assert small_ell("Api-Ib-2") == "Api-Ib-2"  # another capital in the word
    assert small_ell("IP-10") == "IP-10"
