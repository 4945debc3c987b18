"""The examples in the entry points' docstrings run and print what they show."""

import doctest
import importlib

import pytest

MODULES = ["cvparse.boxes", "cvparse.image", "cvparse.model", "cvparse.export.formats",
           "cvparse.primitives.paper", "cvparse.primitives.scale", "cvparse.primitives.page",
           "cvparse.primitives.inventory", "cvparse.primitives.family",
           "cvparse.connectors.stage", "cvparse.pipeline"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
