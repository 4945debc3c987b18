"""docs/formats.md states what the code does: its format x family table is FAMILIES, its
extensions are the ones cvparse writes, and the README links it (not a file outside the
repository)."""

import re
from pathlib import Path

from cvparse.batch import FORMAT_EXT
from cvparse.export.formats import FAMILIES, FORMATS
from cvparse.model import DOC_KINDS

ROOT = Path(__file__).resolve().parents[1]


def _table(text: str, first: str) -> list[list[str]]:
    lines = [ln for ln in text.splitlines() if ln.startswith("|")]
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"| {first} |"))
    rows = []
    for ln in lines[start + 2:]:
        cells = [c.strip() for c in ln.strip("|").split("|")]
        if cells[0] not in FORMATS:
            break
        rows.append(cells)
    return rows


def test_format_table_is_the_code_table():
    rows = _table((ROOT / "docs" / "formats.md").read_text(), "format")
    assert [r[0] for r in rows] == list(FORMATS)
    for fmt, ext, *cells in rows:
        assert ext == f"`{FORMAT_EXT[fmt]}`"
        assert {k for k, c in zip(DOC_KINDS, cells) if c == "yes"} == set(FAMILIES[fmt])
        assert all(c in ("yes", "-") for c in cells)


def test_readme_links_only_files_of_the_repository():
    readme = (ROOT / "README.md").read_text()
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        if "://" not in target:
            assert (ROOT / target).exists(), target
    assert "../shared" not in readme


def test_readme_format_table_is_the_code_table():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Formats\n", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in section.splitlines()
            if ln.startswith("| ") and ln.rstrip().endswith(("| yes |", "| - |"))]
    assert [r[1].strip("`") for r in rows] == list(FORMATS)
    for _, fmt, ext, *cells in rows:
        fmt = fmt.strip("`")
        assert ext == f"`{FORMAT_EXT[fmt]}`"
        assert {k for k, c in zip(DOC_KINDS, cells) if c == "yes"} == set(FAMILIES[fmt])


def test_readme_exit_codes_are_the_commands():
    """The README's exit-status paragraph names each status cvparse returns, with the
    meaning ``cvparse parse --help`` gives it."""
    from cvparse.cli import EXIT_CODES, FAILED, INTERRUPTED, OK, USAGE

    text = " ".join((ROOT / "README.md").read_text().split())
    para = text.split("Exit status: ", 1)[1].split(". ", 1)[0]
    for code, meaning in ((OK, "success"), (FAILED, "any failure"), (USAGE, "usage error"),
                          (INTERRUPTED, "interrupted")):
        assert f"`{code}` {meaning}" in para, (code, para)
        assert f"{code} {meaning}" in EXIT_CODES
    assert sorted(int(c) for c in re.findall(r"`(\d+)`", para)) == sorted(
        (OK, FAILED, USAGE, INTERRUPTED))
