"""The parser's predictions on the committed test sets, computed once per session and
shared by the accuracy floors and the draw.io round trip (parsing all ~120 test images
takes about a minute)."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="session")
def test_set_predictions():
    """``predictions(family, kind)`` -> [(image, ground truth dict, predicted document)]."""
    from cvparse.pipeline import parse

    cache: dict = {}

    def predictions(family: str, kind: str) -> list:
        if (family, kind) not in cache:
            folder = ROOT / family / "test"
            rows = []
            for gt_path in sorted(folder.glob("*.json")):
                if gt_path.name == "manifest.json":
                    continue
                image = next(p for p in folder.glob(gt_path.stem + ".*") if p.suffix != ".json")
                rows.append((image, json.loads(gt_path.read_text()),
                             parse(image, kind=kind).document))
            cache[family, kind] = rows
        return cache[family, kind]

    return predictions
