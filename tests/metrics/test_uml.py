"""Tests for the UML prior-bias metrics (EM, RelAcc, conflict gap, relation F1)."""

import pytest

from cvparse.metrics import uml


def doc(classes, relations, condition=None):
    d = {"kind": "uml", "classes": [{"name": c, "attributes": [], "methods": []} for c in classes],
         "relations": [{"type": t, "source": s, "target": g} for t, s, g in relations]}
    if condition:
        d.update(condition=condition, subset=condition, scale=1.0)
    return d


GT = doc(["Dog", "Animal", "Kennel"],
         [("inheritance", "Dog", "Animal"), ("aggregation", "Kennel", "Dog")],
         condition="prior-conform")


def rep(d):
    r, ok = uml.load(d)
    assert ok
    return r


def test_identity_scores_one():
    s = uml.score(rep(GT), rep(GT))
    assert s["em"] == s["relacc"] == s["relation_f1"] == s["class_recall_exact"] == 1.0
    assert s["condition"] == "prior-conform"


def test_empty_prediction_scores_zero():
    empty, ok = uml.load("")
    assert not ok
    s = uml.score(rep(GT), empty)
    assert s["em"] == 0.0 and s["relation_f1"] == 0.0 and s["class_recall_exact"] == 0.0
    # no predicted relation between the queried classes: every answer is Unknown (wrong)
    assert s["relacc"] == 0.0


def test_queries_are_true_relation_and_its_reverse():
    qs = dict(uml.queries(rep(GT)))
    assert qs == {("inheritance", "dog", "animal"): True,
                  ("inheritance", "animal", "dog"): False,
                  ("aggregation", "kennel", "dog"): True,
                  ("aggregation", "dog", "kennel"): False}


def test_flipped_relation_gets_no_relacc_credit():
    flipped = doc(["Dog", "Animal", "Kennel"],
                  [("inheritance", "Animal", "Dog"), ("aggregation", "Kennel", "Dog")])
    s = uml.score(rep(GT), rep(flipped))
    # inheritance queries: both wrong; aggregation queries: both right
    assert s["queries"] == 4 and s["queries_correct"] == 2
    assert s["relacc"] == 0.5
    assert s["relation_f1"] == 0.5
    assert s["em"] == 1.0


def test_wrong_type_answers_false_and_missing_pair_is_unknown():
    pred = doc(["Dog", "Animal", "Kennel"], [("realization", "Dog", "Animal")])
    s = uml.score(rep(GT), rep(pred))
    # inheritance: (Dog, Animal) answered False (wrong), reversed answered False (right);
    # aggregation: Kennel-Dog not related at all, both Unknown (wrong)
    assert s["queries_correct"] == 1 and s["relacc"] == 0.25


def test_em_is_set_equality_after_normalisation():
    pred = doc(["dog", "ANIMAL ", "Kennel"], [])
    s = uml.score(rep(GT), rep(pred))
    assert s["em"] == 1.0
    assert s["class_recall_exact"] == pytest.approx(1 / 3)
    s = uml.score(rep(GT), rep(doc(["Dog", "Animal"], [])))
    assert s["em"] == 0.0


def test_relation_f1_is_typed_directed_multiset():
    gt = rep(doc(["A", "B"], [("dependency", "A", "B"), ("dependency", "A", "B")]))
    one = rep(doc(["A", "B"], [("dependency", "a", "b")]))
    s = uml.score(gt, one)
    assert (s["relation_p"], s["relation_r"]) == (1.0, 0.5)
    wrong_type = rep(doc(["A", "B"], [("association", "A", "B")]))
    assert uml.score(gt, wrong_type)["relation_f1"] == 0.0
    reversed_dep = rep(doc(["A", "B"], [("dependency", "B", "A")]))
    assert uml.score(gt, reversed_dep)["relation_f1"] == 0.0

def test_undirected_relation_matches_either_way_and_gives_no_query():
    plain = {"kind": "uml", "classes": [{"name": "A"}, {"name": "B"}],
             "relations": [{"type": "association", "source": "A", "target": "B",
                            "directed": False}]}
    assert uml.queries(rep(plain)) == []
    s = uml.score(rep(plain), rep(doc(["A", "B"], [("association", "B", "A")])))
    assert s["relation_f1"] == 1.0 and s["relacc"] is None
    # a directed (navigable) association keeps its direction
    arrow = rep(doc(["A", "B"], [("association", "A", "B")]))
    assert uml.score(arrow, rep(doc(["A", "B"], [("association", "B", "A")])))[
        "relation_f1"] == 0.0
    assert len(uml.queries(arrow)) == 2


def test_gap_between_conform_and_reverse_conditions():
    def image(condition, pred_relations):
        gt = doc(["Dog", "Animal"], [("inheritance", "Dog", "Animal")] if condition ==
                 "prior-conform" else [("inheritance", "Animal", "Dog")], condition)
        return uml.score(rep(gt), rep(doc(["Dog", "Animal"], pred_relations)))

    prior = [("inheritance", "Dog", "Animal")]  # a model that always answers the prior
    per_image = [image("prior-conform", prior), image("prior-conform", prior),
                 image("2-reverse", prior), image("2-reverse", [("inheritance", "Animal", "Dog")]),
                 image("3-reverse", prior)]
    summary = uml.summarize(per_image)
    assert summary["relacc_by_condition"] == {"prior-conform": 1.0, "2-reverse": 0.5,
                                              "3-reverse": 0.0}
    assert summary["gap"] == pytest.approx(50.0)
    assert summary["gap_3_reverse"] == pytest.approx(100.0)
    assert "gap_3_mixed" not in summary
    assert summary["relacc"] == pytest.approx(0.6)
    # without a prior-conform image there is no gap
    assert "gap" not in uml.summarize(per_image[2:])


def test_plantuml_text_and_tolerant_json():
    text = ("```plantuml\n@startuml\nclass Dog\nclass Animal\nAnimal <|-- Dog\n"
            "Kennel o-- \"*\" Dog : houses\nCar *-- Wheel\nWheel ..> Rubber\nDog -- Owner\n"
            "@enduml\n```")
    r = rep(text)
    assert set(r.relations) == {("inheritance", "Dog", "Animal", True),
                                ("aggregation", "Kennel", "Dog", True),
                                ("composition", "Car", "Wheel", True),
                                ("dependency", "Wheel", "Rubber", True),
                                ("association", "Dog", "Owner", False)}
    r = rep('Answer: {"classes": ["Dog", "Animal"], '
            '"relations": [["Dog", "extends", "Animal"], {"type": "Generalization", '
            '"from": "Cat", "to": "Animal"}]}')
    assert [r[:3] for r in r.relations] == [("inheritance", "Dog", "Animal"),
                                            ("inheritance", "Cat", "Animal")]
    assert r.classes == ("Dog", "Animal")


@pytest.mark.parametrize("bad", ["I cannot tell.", {"kind": "topology", "nodes": [], "edges": []},
                                 {"foo": 1}, None])
def test_unreadable_inputs_are_invalid(bad):
    r, ok = uml.load(bad)
    assert not ok and r.classes == () and r.relations == ()


def test_class_f1_and_link_f1_on_a_page_of_many_classes():
    gt, _ = uml.load({"classes": ["Animal", "Dog", "Cat", "Owner"],
                      "relations": [{"type": "inheritance", "source": "Dog", "target": "Animal"},
                                    {"type": "inheritance", "source": "Cat", "target": "Animal"},
                                    {"type": "association", "source": "Owner", "target": "Dog"}]})
    pred, _ = uml.load({"classes": ["animal", "Dog", "Cat", "Bird"],
                        "relations": [{"type": "association", "source": "Animal",
                                       "target": "Dog"},
                                       {"type": "inheritance", "source": "Cat",
                                        "target": "Animal"}]})
    s = uml.score(gt, pred)
    assert s["em"] == 0.0
    assert s["class_f1"] == pytest.approx(0.75)          # 3 of 4 each way
    assert s["link_f1"] == pytest.approx(2 * 1 * (2 / 3) / (1 + 2 / 3))  # 2 pairs of 3
    assert s["relation_f1"] == pytest.approx(2 * 0.5 * (1 / 3) / (0.5 + 1 / 3))
