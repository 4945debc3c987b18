"""Limits of the raw-text readers: no RecursionError, no quadratic search, no unbounded read."""

from __future__ import annotations

import importlib
import time

import pytest

from cvparse.metrics import TASKS
from cvparse.metrics._extract import (MAX_DEPTH, MAX_TEXT_CHARS, TooComplex, find_json, loads,
                                      nesting_depth)
from cvparse.metrics.mermaid import read_answer


def test_nesting_depth_counts_without_recursion():
    assert nesting_depth(1) == 0 and nesting_depth([]) == 1
    assert nesting_depth({"a": [1, {"b": []}]}) == 4
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert nesting_depth(deep) == 100_001


def test_loads_refuses_deep_json_with_its_own_error():
    with pytest.raises(TooComplex, match="deeper than"):
        loads("[" * 100_000 + "]" * 100_000)
    with pytest.raises(TooComplex, match=f"{MAX_DEPTH + 1} levels deep"):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None


def test_find_json_still_finds_objects_in_prose():
    assert find_json('Sure: {"a": {"b": 1} oops, then {"c": 2}') == {"b": 1}
    assert find_json("```json\n{\"x\": [1, 2]}\n```") == {"x": [1, 2]}
    assert find_json("no json { here } at all") is None


@pytest.mark.parametrize("text", [
    '{"a":[' * 200_000,                              # deep, never closed
    ('{"a":[' + "0," * 4_900) * 100,                 # every try scans to the end
    "{" * 990_000, '{"' * 495_000,                   # every try fails at once
    "[" * 990_000,
], ids=["deep", "long-tries", "braces", "brace-quotes", "brackets"])
def test_find_json_on_hostile_text_is_quick(text):
    t0 = time.process_time()  # CPU time: the machine may be shared
    assert find_json(text) is None
    assert time.process_time() - t0 < 2.0


def test_text_over_the_limit_is_not_read():
    big = "graph TD\n" + "A --> B\n" * (MAX_TEXT_CHARS // 8)
    t0 = time.process_time()
    chart, found = read_answer(big)
    assert not found and not chart.nodes and time.process_time() - t0 < 0.5
    assert find_json('{"a": 1}' + " " * MAX_TEXT_CHARS) is None


@pytest.mark.parametrize("task", TASKS)
def test_task_loaders_never_raise_on_hostile_text(task):
    mod = importlib.import_module(f"cvparse.metrics.{task}")
    for text in ("[" * 100_000, '{"a":' * 100_000, "x" * (MAX_TEXT_CHARS + 1)):
        _, ok = mod.load(text)
        assert ok in (True, False)
