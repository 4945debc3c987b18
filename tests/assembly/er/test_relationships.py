"""Diamond relationships: repeated roles of an n-ary relationship, legal and spurious."""

from cvparse.assembly.er import assemble_er
from cvparse.assembly.er.relationships import drop_repeated_roles
from cvparse.model import Relationship
from cvparse.primitives.items import TextItem

from .test_assemble import _conn, _inv, _shape


def test_recursive_role_of_a_ternary_is_kept():
    # Two lines from Employee labelled manager and worker, one from Project: a legal ternary.
    ends = [("Employee", "1"), ("Employee", "N"), ("Project", "M")]
    assert drop_repeated_roles(ends, ["manager", "worker", ""]) == ends
    # Without role labels (or with one label for both) the second Employee line is no role.
    assert drop_repeated_roles(ends) == [("Employee", "1"), ("Project", "M")]
    assert drop_repeated_roles(ends, ["worker", "worker", ""]) == [("Employee", "1"),
                                                                  ("Project", "M")]
    # Three lines of one entity are no pair of roles.
    assert drop_repeated_roles([("E", "1"), ("E", "N"), ("E", "M"), ("P", "1")],
                               ["a", "b", "c", ""]) == [("E", "1"), ("E", "N"), ("P", "1")]


def test_ternary_with_a_recursive_role_assembles_with_three_ends():
    shapes = [
        _shape("rect", (100, 100, 200, 140), "Employee"),    # 0
        _shape("rect", (500, 100, 600, 140), "Project"),     # 1
        _shape("diamond", (300, 200, 400, 240), "assigns"),  # 2
    ]
    # Employee's two lines run well apart (two roles, labelled manager and worker).
    conns = [_conn(2, (300, 220), 0, (200, 130)), _conn(2, (340, 238), 0, (130, 140)),
             _conn(2, (400, 220), 1, (520, 140))]
    texts = [TextItem("1", (206, 112, 214, 126)), TextItem("N", (120, 146, 130, 160)),
             TextItem("M", (524, 146, 536, 160)),
             TextItem("manager", (240, 150, 300, 164)), TextItem("worker", (170, 196, 230, 210))]
    er = assemble_er(_inv(shapes, texts), conns)
    (rel,) = [r for r in er.relationships if isinstance(r, Relationship)]
    assert rel.name == "assigns"
    assert sorted(zip(rel.entities, rel.cardinalities)) == [
        ("Employee", "1"), ("Employee", "N"), ("Project", "M")]
