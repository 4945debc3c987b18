"""Names printed as one safe terminal line."""

from cvparse.display import printable


def test_plain_and_unicode_text_is_unchanged():
    assert printable("scans/Übersicht 中文.png") == "scans/Übersicht 中文.png"


def test_newlines_escapes_bidi_and_undecodable_bytes_are_escaped():
    name = "a\nb\x1b[2Jc\u202etxt.png\udcff\u2028\x7f"
    out = printable(name)
    assert out == "a\\nb\\x1b[2Jc\\u202etxt.png\\udcff\\u2028\\x7f"
    assert out.isprintable()
