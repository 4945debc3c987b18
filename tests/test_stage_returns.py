"""benchmarks.stage_returns: what counts as going back to a stage already left."""

import sys
import types

import numpy as np
import pytest

from benchmarks.stage_returns import Tracer
from cvparse.primitives.items import Facts

PERCEPTION = '''
from dataclasses import dataclass

@dataclass
class Box:
    x: int

def fact(facts):
    return facts.get("x", lambda: 0)

def work(n):
    return np.zeros(n)
'''

ASSEMBLY = '''
def assemble(facts):
    fact(facts)
    work(3)
    Box(1)
'''


@pytest.fixture
def modules(monkeypatch):
    """Make modules of source text under ``cvparse.*`` names (the tracer reads the names;
    dataclasses look the module up in ``sys.modules``)."""
    def make(src: str, name: str, **names) -> dict:
        mod = types.ModuleType(name)
        mod.__dict__.update(np=np, **names)
        monkeypatch.setitem(sys.modules, name, mod)
        exec(compile(src, name, "exec"), mod.__dict__)  # noqa: S102 - the tests' own code
        return mod.__dict__

    return make


def test_pixel_work_counts_a_fact_read_and_a_data_object_do_not(modules):
    low = modules(PERCEPTION, "cvparse.primitives.fake")
    high = modules(ASSEMBLY, "cvparse.assembly.fake", fact=low["fact"], work=low["work"],
                   Box=low["Box"])
    facts = Facts()
    facts.values["x"] = 1  # computed by perception already
    tracer = Tracer()
    sys.setprofile(tracer)
    try:
        high["assemble"](facts)
    finally:
        sys.setprofile(None)
    caller = "cvparse.assembly.fake.assemble"
    assert set(tracer.returns) == {(caller, "cvparse.primitives.fake.work")}
    assert set(tracer.reads) == {(caller, "cvparse.primitives.fake.fact")}


def test_a_fact_first_computed_by_a_later_stage_counts(modules):
    low = modules(PERCEPTION, "cvparse.primitives.fake")
    high = modules(ASSEMBLY, "cvparse.assembly.fake", fact=low["fact"], work=low["work"],
                   Box=low["Box"])
    tracer = Tracer()
    sys.setprofile(tracer)
    try:
        high["assemble"](Facts())
    finally:
        sys.setprofile(None)
    assert ("cvparse.assembly.fake.assemble", "cvparse.primitives.fake.fact") in tracer.returns
