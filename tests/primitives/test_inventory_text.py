"""Free-text checks in the inventory: symbols read for capitals, debris rejected."""

from cvparse.primitives.glyphs import LETTER_SYMBOLS
from cvparse.primitives.inventory import _plausible_word, _without_end_dashes


def test_symbol_read_for_a_capital_is_put_back():
    assert not _plausible_word("Internet ©")
    assert "Internet ©".translate(LETTER_SYMBOLS) == "Internet C"
    assert _plausible_word("Internet ©".translate(LETTER_SYMBOLS))


def test_debris_stays_rejected():
    # Line ends and junctions read as marks around a letter, or a mark inside a word.
    for text in ("|I", "~-", "i?", ">=", "=rminal Edge", "a=b cd"):
        assert not _plausible_word(text.translate(LETTER_SYMBOLS))


def test_long_dash_at_a_word_end_is_a_line_stub():
    # a dashed line's first dash beside the last letter reads as a long dash
    assert _without_end_dashes("Core Node\u2014") == "Core Node"
    assert _without_end_dashes("\u2013Server") == "Server"
    assert _without_end_dashes("A\u2014B") == "A\u2014B"  # inside a word: left alone
    assert _without_end_dashes("1\u2014") == "1\u2014"  # too little left to be a word
    assert not _plausible_word("Core Node\u2014")
