"""Free-text checks in the inventory: symbols read for capitals, debris rejected."""

from cvparse.primitives.glyphs import LETTER_SYMBOLS
from cvparse.primitives.inventory import _plausible_word


def test_symbol_read_for_a_capital_is_put_back():
    assert not _plausible_word("Internet ©")
    assert "Internet ©".translate(LETTER_SYMBOLS) == "Internet C"
    assert _plausible_word("Internet ©".translate(LETTER_SYMBOLS))


def test_debris_stays_rejected():
    # Line ends and junctions read as marks around a letter, or a mark inside a word.
    for text in ("|I", "~-", "i?", ">=", "=rminal Edge", "a=b cd"):
        assert not _plausible_word(text.translate(LETTER_SYMBOLS))
