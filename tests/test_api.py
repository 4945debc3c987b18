"""The public API: names importable from ``cvparse``, a missing file as FileNotFoundError,
py.typed shipped, and the README's Python example on an image of every family."""

import subprocess
import sys
from pathlib import Path

import pytest

import cvparse

ROOT = Path(__file__).resolve().parents[1]


def test_result_and_error_types_are_exported():
    from cvparse.connectors.lines import Connector
    from cvparse.image import ImageError
    from cvparse.pipeline import ParseResult
    from cvparse.primitives.items import Inventory, Scale

    assert (cvparse.ParseResult, cvparse.ImageError, cvparse.Inventory, cvparse.Scale,
            cvparse.Connector) == (ParseResult, ImageError, Inventory, Scale, Connector)
    assert set(cvparse.__all__) <= set(dir(cvparse)) | set(cvparse._LAZY)
    with pytest.raises(AttributeError):
        cvparse.nothing_here  # noqa: B018


def test_import_cvparse_stays_light():
    code = ("import sys, cvparse; print([m for m in ('numpy', 'cv2', 'cvparse.pipeline') "
            "if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_missing_file_is_a_file_not_found_error_with_its_path(tmp_path):
    missing = tmp_path / "nope.png"
    with pytest.raises(FileNotFoundError) as info:
        cvparse.parse(missing)
    err = info.value
    assert isinstance(err, cvparse.ImageError) and isinstance(err, ValueError)
    assert err.filename == str(missing) and str(err) == "no such file"


def test_py_typed_ships():
    import tomllib

    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert (ROOT / "cvparse" / "py.typed").is_file()
    assert "py.typed" in cfg["package-data"]["cvparse"]


@pytest.mark.parametrize("family", ["flowchart", "topology", "er", "uml"])
def test_readme_python_example_works_for_every_family(family):
    """The README's example, run as written, on the first test image of each family."""
    readme = (ROOT / "README.md").read_text()
    block = readme.split("From Python:\n\n```python\n", 1)[1].split("```", 1)[0]
    image = sorted(p for p in (ROOT / "fixtures" / family / "test").iterdir()
                   if p.suffix in (".png", ".jpg"))[0]
    scope: dict = {}
    exec(block.replace('"diagram.png"', repr(str(image))), scope)  # noqa: S102
    result = scope["result"]
    assert result.document is not None and result.overlay().shape[2] == 3


def test_broken_link_is_missing_too(tmp_path):
    link = tmp_path / "gone.png"
    link.symlink_to(tmp_path / "never-there.png")
    with pytest.raises(FileNotFoundError) as info:
        cvparse.parse(link)
    assert info.value.filename == str(link) and "broken symbolic link" in str(info.value)
    import pickle

    again = pickle.loads(pickle.dumps(info.value))
    assert (type(again), again.filename, str(again)) == (type(info.value), str(link),
                                                        str(info.value))
