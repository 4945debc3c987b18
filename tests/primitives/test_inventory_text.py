"""Free-text checks in the inventory: symbols read for capitals, debris rejected."""

from cvparse.primitives.glyphs import LETTER_SYMBOLS
import numpy as np

from cvparse.primitives.freetext import WordBox
from cvparse.primitives.inventory import _plausible_word, _without_end_dashes, free_texts
from cvparse.primitives.items import Scale
from cvparse.primitives.ocr import Word


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


def _reading(boxes_texts_confs, th=14.0):
    """Free words at ``boxes`` read as ``texts`` with confidences ``confs``, through
    :func:`free_texts`, on a blank page: the texts kept."""
    words, crops, read = [], [], []
    for box, text, conf in boxes_texts_confs:
        x1, y1, x2, y2 = box
        words.append(WordBox(bbox=box, labels=[]))
        crops.append(np.full((y2 - y1 + 8, x2 - x1 + 8), 255, np.uint8))
        read.append([Word(text, (4, 4, x2 - x1 + 4, y2 - y1 + 4), conf, 0)])
    ink = np.zeros((200, 400), bool)
    out = free_texts(words, crops, read, [10.0] * len(words), 10.0,
                     Scale(stroke=2.0, text_height=th), ink, np.zeros_like(ink))
    return sorted(t.text for t in out)


def test_a_doubtful_word_beside_a_sure_one_on_its_line_is_kept():
    # "api" read at 48 after a sure "quitted" a word space away: the label's second word
    assert _reading([((20, 50, 80, 66), "quitted", 90), ((88, 53, 112, 66), "api", 48)]) == [
        "api", "quitted"]
    # alone, far off, on another line, or no whole word, it is debris as before
    assert _reading([((88, 53, 112, 66), "api", 48)]) == []
    assert _reading([((20, 50, 80, 66), "quitted", 90), ((140, 53, 164, 66), "api", 48)]) == [
        "quitted"]
    assert _reading([((20, 50, 80, 66), "quitted", 90), ((88, 80, 112, 94), "api", 48)]) == [
        "quitted"]
    assert _reading([((20, 50, 80, 66), "quitted", 90), ((88, 53, 100, 66), "ii", 48)]) == [
        "quitted"]
