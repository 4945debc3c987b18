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
