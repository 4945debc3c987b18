"""The wheel ships every subpackage and the symbol model (pyproject lists packages by hand)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_subpackage_is_listed():
    found = {".".join(p.relative_to(ROOT).parent.parts) for p in (ROOT / "cvparse").rglob("*.py")}
    assert found <= set(_config()["packages"])


def test_models_folder_ships_as_package_data():
    cfg = _config()
    assert cfg["package-dir"]["cvparse.models"] == "models"
    patterns = cfg["package-data"]["cvparse.models"]
    onnx = sorted((ROOT / "models").glob("*.onnx"))
    assert onnx and all(any(p.match(pat) for pat in patterns) for p in onnx)
