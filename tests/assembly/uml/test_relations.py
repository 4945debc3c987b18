"""UML relation type and direction come from the end markers and line style only."""

import pytest

from cvparse.assembly.uml.assemble import _relation
from cvparse.assembly.uml.classes import _identifier


@pytest.mark.parametrize("style, markers, expected", [
    ("solid", ("none", "triangle"), ("inheritance", 0, True)),
    ("solid", ("triangle", "none"), ("inheritance", 1, True)),
    ("dashed", ("none", "triangle"), ("realization", 0, True)),
    ("solid", ("filled_diamond", "none"), ("composition", 0, True)),
    ("solid", ("none", "diamond"), ("aggregation", 1, True)),
    ("dashed", ("none", "open_arrow"), ("dependency", 0, True)),
    ("dashed", ("arrow", "none"), ("dependency", 1, True)),
    ("solid", ("none", "open_arrow"), ("association", 0, True)),
    ("solid", ("none", "none"), ("association", 0, False)),
])
def test_convention_table(style, markers, expected):
    # (type, index of the source end, directed)
    assert _relation(style, markers) == expected


@pytest.mark.parametrize("raw, name", [("C°Employee", "Employee"), ("{-UserService", "UserService"),
                                       ("BankAccount", "BankAccount"), ("X", "X"),
                                       ("rich.padding.Padding", "rich.padding.Padding"),
                                       ("httpx._types.Stream", "httpx._types.Stream"),
                                       ("C.Employee", "Employee"), ("Employee.", "Employee")])
def test_class_name_is_one_identifier(raw, name):
    assert _identifier(raw) == name
