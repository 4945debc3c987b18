"""Tunables are frozen per-stage dataclasses that reach the stage that reads them."""

import dataclasses

import cv2
import numpy as np
import pytest

from cvparse.params import FamilyParams, Params
from cvparse.primitives.family import guess_kind
from cvparse.primitives.inventory import build_inventory


def test_params_are_frozen_and_default_per_stage():
    p = Params()
    assert p.family == FamilyParams()
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.family.big_symbol = 1.0  # type: ignore[misc]


def _triangle_and_boxes():
    rgb = np.full((240, 420, 3), 255, np.uint8)
    tri = np.array([[210, 40], [150, 140], [270, 140]], np.int32)
    cv2.polylines(rgb, [tri], True, (0, 0, 0), 2)
    for x in (20, 320):
        cv2.rectangle(rgb, (x, 170), (x + 80, 220), (0, 0, 0), 2)
    return build_inventory(rgb, ocr=False)


def test_the_family_guess_reads_its_params():
    inv = _triangle_and_boxes()
    assert guess_kind(inv) == "er"  # a big IS-A triangle among other shapes
    wide = FamilyParams(big_symbol=50.0)  # no triangle is that big: no IS-A
    assert guess_kind(inv, wide) == "flowchart"
