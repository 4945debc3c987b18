"""Tests of the ERUnderstand metric (cvparse.metrics.er) on hand-built ER documents."""

from __future__ import annotations

import json
import math

import pytest

from cvparse.metrics import er
from cvparse.model import Entity, ERSchema, IsA, Relationship


def rel(name, ents, cards=None, weak=False, attributes=()):
    return Relationship(name=name, entities=list(ents),
                        cardinalities=list(cards) if cards else [""] * len(ents),
                        weak=weak, attributes=list(attributes))


def schema(entities, relationships=()):
    return ERSchema(entities={e.name: e for e in entities}, relationships=list(relationships))


def full_schema() -> ERSchema:
    """Every construct of the paper: weak entity + identifying relationship, IS-A, composite,
    multivalued, derived, n-ary, recursive, relationship attribute."""
    return schema(
        [
            Entity("Customer", ["customer_id", "name", "address", "phone", "age"],
                   primary_keys=["customer_id"], multivalued=["phone"], derived=["age"],
                   composite={"address": ["street", "city", "zip"]}),
            Entity("Order", ["order_id", "date"], primary_keys=["order_id"]),
            Entity("Order_Line", ["line_no", "qty"], primary_keys=["line_no"], weak=True),
            Entity("Product", ["product_id"], primary_keys=["product_id"]),
            Entity("Supplier", ["supplier_id"], primary_keys=["supplier_id"]),
            Entity("Employee", ["emp_id"], primary_keys=["emp_id"]),
            Entity("Account", ["acc_no"], primary_keys=["acc_no"]),
            Entity("Savings", ["rate"]),
            Entity("Checking", ["overdraft"]),
        ],
        [
            rel("places", ["Customer", "Order"], ["1", "N"]),
            rel("contains", ["Order", "Order_Line"], ["1", "N"], weak=True),
            rel("supplies", ["Supplier", "Product", "Order"], ["M", "N", "1"],
                attributes=["price"]),
            rel("supervises", ["Employee", "Employee"], ["1", "N"]),
            IsA("Account", ["Savings", "Checking"]),
        ],
    )


def ten_relationships() -> ERSchema:
    """10 ground-truth relationships, the last one ternary."""
    names = [f"E{k}" for k in range(10)]
    rels = [rel(f"r{k}", [names[k], names[k + 1]], ["1", "N"]) for k in range(9)]
    rels.append(rel("joins", ["E0", "E5", "E9"], ["1", "N", "M"]))
    return schema([Entity(n) for n in names], rels)


# --- the paper's worked example ---------------------------------------------------------

def test_worked_example_gives_0_778():
    gt = ten_relationships()
    pred_rels = []
    for r in gt.relationships:
        if r.name == "r3":            # one missed relationship
            continue
        if r.name == "r5":            # one wrong cardinality
            r = rel("r5", r.entities, ["N", "N"])
        if r.name == "joins":         # the ternary collapsed to a binary (misconnected)
            r = rel("joins", ["E0", "E5"], ["1", "N"])
        pred_rels.append(r)
    pred_rels.append(rel("owns", ["E2", "E7"], ["1", "1"]))   # one extra relationship
    pred = schema([Entity(f"E{k}") for k in range(10)], pred_rels)

    out = er.score(gt, pred)

    assert (out["rel_missed"], out["rel_extra"], out["rel_misconnected"],
            out["rel_cardinality"], out["rel_nary"]) == (1, 1, 1, 1, 1)
    tp, fp, fn = 10 - 1 - 1 - 1, 1 + (1 + 1 + 1) / 2, 1 + 1 / 2
    assert out["relationships_f1"] == pytest.approx(2 * tp / (2 * tp + fp + fn))
    assert round(out["relationships_f1"], 3) == 0.778


# --- identity, empty, order ---------------------------------------------------------------

def test_identity_full_schema_scores_perfectly_in_every_category():
    out = er.score(full_schema(), full_schema())
    for key in er.SUMMARY_KEYS:
        assert not math.isnan(out[key]), key
    for c in er.MAIN_CATEGORIES + er.EXTRA_CATEGORIES:
        assert out[f"{c}_f1"] == 1.0, c
    assert out["macro_f1"] == 1.0
    assert out["bleu"] == pytest.approx(1.0)
    assert out["ged"] == 0.0


def test_order_of_entities_participants_and_lists_does_not_matter():
    gt = full_schema()
    shuffled = ERSchema(
        entities={n: Entity(n, list(reversed(e.attributes)), e.primary_keys,
                            e.multivalued, e.derived, e.composite, e.weak)
                  for n, e in reversed(gt.entities.items())},
        relationships=[IsA("Account", ["Checking", "Savings"])] + [
            rel(r.name, list(reversed(r.entities)), list(reversed(r.cardinalities)),
                r.weak, r.attributes) for r in reversed(gt.plain_relationships)])
    out = er.score(gt, shuffled)
    assert out["macro_f1"] == 1.0 and out["nary_f1"] == 1.0 and out["isa_f1"] == 1.0
    assert out["bleu"] == pytest.approx(1.0)
    assert out["ged"] == 0.0


def test_empty_prediction_scores_zero():
    out = er.score(full_schema(), ERSchema())
    assert out["macro_f1"] == 0.0
    for c in er.MAIN_CATEGORIES + er.EXTRA_CATEGORIES:
        assert out[f"{c}_f1"] == 0.0, c
    assert out["bleu"] == 0.0
    assert out["ged"] == 1.0


# --- normalisation ----------------------------------------------------------------------

@pytest.mark.parametrize("a, b", [
    ("Customer_ID", "customerid"), ("CUSTOMER-ID", "customer.id"),
    ("  Order   Line ", "order line"),
    ("St., Louis", "st louis"),
])
def test_label_normalisation_equivalences(a, b):
    assert er.normalize_label(a) == er.normalize_label(b)


def test_label_normalisation_keeps_distinct_words_distinct():
    assert er.normalize_label("student_id") != er.normalize_label("students_identifier")
    assert er.normalize_label("order line") != er.normalize_label("orderline")


@pytest.mark.parametrize("card", ["M", "N", "many", "Many", "*", " n "])
def test_many_cardinalities_are_equivalent(card):
    assert er.normalize_cardinality(card) == er.normalize_cardinality("N")


def test_cardinality_ranges_and_distinct_values():
    assert er.normalize_cardinality("0..*") == er.normalize_cardinality("0..N")
    assert er.normalize_cardinality("1") != er.normalize_cardinality("N")
    assert er.normalize_cardinality("0..1") != er.normalize_cardinality("1")


def test_normalised_labels_and_many_cardinalities_score_as_identity():
    gt = schema([Entity("Customer", ["customer_id", "full name"], ["customer_id"]),
                 Entity("Order", ["order_id"], ["order_id"])],
                [rel("places", ["Customer", "Order"], ["1", "N"])])
    pred = schema([Entity("CUSTOMER", ["Customer-ID", "Full  Name"], ["customer.id"]),
                   Entity("order", ["ORDER_ID"], ["order_id"])],
                  [rel("Places", ["order", "customer"], ["*", "1"])])
    out = er.score(gt, pred)
    assert out["macro_f1"] == 1.0 and out["rel_cardinality"] == 0


def test_wrong_cardinality_costs_half_a_false_positive():
    gt = schema([Entity("A"), Entity("B")], [rel("r", ["A", "B"], ["1", "N"])])
    pred = schema([Entity("A"), Entity("B")], [rel("r", ["A", "B"], ["1", "1"])])
    out = er.score(gt, pred)
    assert out["rel_cardinality"] == 1
    assert out["relationships_f1"] == pytest.approx(2 / (2 + 0.5))


# --- matching and partial credit -----------------------------------------------------------

def test_attribute_on_wrong_entity_is_half_an_error():
    gt = schema([Entity("A", ["x", "y"]), Entity("B", ["z"])])
    pred = schema([Entity("A", ["x"]), Entity("B", ["z", "y"])])
    out = er.score(gt, pred)
    tp, fp, fn = 2, 0.5, 0.5
    assert out["attributes_f1"] == pytest.approx(2 * tp / (2 * tp + fp + fn))


def test_misconnected_binary_and_renamed_relationship_get_partial_credit():
    ents = [Entity(n) for n in "ABCD"]
    gt = schema(ents, [rel("r", ["A", "B"]), rel("s", ["C", "D"]), rel("t", ["A", "C"])])
    pred = schema(ents, [rel("r", ["A", "D"]), rel("ess", ["C", "D"]), rel("t", ["A", "C"])])
    out = er.score(gt, pred)
    assert (out["rel_misconnected"], out["rel_missed"], out["rel_extra"]) == (2, 0, 0)
    assert out["rel_nary"] == 0
    tp, fp, fn = 3 - 2, 2 / 2, 2 / 2
    assert out["relationships_f1"] == pytest.approx(2 * tp / (2 * tp + fp + fn))


def test_recursive_relationship_must_keep_both_ends():
    gt = schema([Entity("Employee")], [rel("supervises", ["Employee", "Employee"], ["1", "N"])])
    pred = schema([Entity("Employee")], [rel("supervises", ["Employee"], ["1"])])
    out = er.score(gt, pred)
    assert out["rel_misconnected"] == 1 and out["relationships_f1"] < 1.0


def test_weak_flags_and_isa_direction():
    gt = full_schema()
    pred = full_schema()
    pred.entities["Order_Line"].weak = False
    pred.relationships[-1] = IsA("Savings", ["Account", "Checking"])   # hierarchy reversed
    out = er.score(gt, pred)
    assert out["weak_entities_f1"] == 0.0
    assert out["weak_relationships_f1"] == 1.0
    assert out["isa_f1"] == 0.0
    pred.relationships[-1] = IsA("Account", ["Savings"])               # one subclass missed
    assert er.score(gt, pred)["isa_f1"] == pytest.approx(2 / 3)


# --- absent categories --------------------------------------------------------------------

def test_category_absent_from_both_is_nan_and_left_out_of_macro():
    gt = schema([Entity("A", ["a1", "a2"], ["a1"]), Entity("B", ["b1"], ["b1"])],
                [rel("r", ["A", "B"], ["1", "N"])])
    pred = schema([Entity("A", ["a1"], ["a1"]), Entity("B", ["b1"], ["b1"])],
                  [rel("r", ["A", "B"], ["1", "N"])])
    out = er.score(gt, pred)
    for c in ("weak_entities", "weak_relationships", "multivalued", "derived", "composite",
              "nary", "isa"):
        assert math.isnan(out[f"{c}_f1"]), c
    applicable = [out[f"{c}_f1"] for c in ("entities", "relationships", "attributes",
                                           "primary_keys")]
    assert out["attributes_f1"] < 1.0
    assert out["macro_f1"] == pytest.approx(sum(applicable) / 4)


def test_category_present_only_in_prediction_counts_as_zero():
    gt = schema([Entity("A", ["a1"], ["a1"])])
    pred = schema([Entity("A", ["a1"], ["a1"], weak=True)])
    out = er.score(gt, pred)
    assert out["weak_entities_f1"] == 0.0
    assert out["macro_f1"] == pytest.approx((1.0 + 1.0 + 1.0 + 0.0) / 4)


def test_summarize_averages_over_images_where_a_value_applies():
    a = {**dict.fromkeys(er.SUMMARY_KEYS, 1.0), "weak_entities_f1": math.nan}
    b = {**dict.fromkeys(er.SUMMARY_KEYS, 0.5)}
    summary = er.summarize([a, b])
    assert set(er.SUMMARY_KEYS) <= set(summary)
    assert summary["weak_entities_f1"] == 0.5
    assert summary["macro_f1"] == 0.75
    assert all(math.isnan(v) for v in er.summarize([]).values())


# --- load -------------------------------------------------------------------------------

def test_load_canonical_document_round_trips():
    doc = full_schema().to_dict()
    loaded, valid = er.load(doc)
    assert valid and loaded.to_dict() == doc
    loaded, valid = er.load(json.dumps(doc))
    assert valid and loaded.to_dict() == doc


def test_load_vlm_prose_with_loose_shapes():
    answer = """Sure! Here is the schema:
```json
{"entities": [
   {"name": "Customer", "attributes": [{"name": "customer_id", "primary_key": true},
                                       {"name": "phone", "type": "multivalued"}, "name"]},
   {"name": "Order", "attributes": ["order_id"], "primary_key": "order_id"},
   {"name": "order-line", "type": "weak entity", "attributes": ["line_no"]}],
 "relationships": [
   {"name": "places", "participants": [{"entity": "Customer", "cardinality": "1"},
                                        {"entity": "Order", "cardinality": "many"}]},
   {"name": "contains", "entities": ["Order", "order-line"], "identifying": true},
   {"superclass": "Customer", "subclasses": ["VIP"]}]}
```
Let me know if you need more."""
    pred, valid = er.load(answer)
    assert valid
    cust = pred.entities["Customer"]
    assert cust.primary_keys == ["customer_id"] and cust.multivalued == ["phone"]
    assert pred.entities["Order"].primary_keys == ["order_id"]
    assert pred.entities["order-line"].weak
    places, contains, isa = pred.relationships
    assert places.cardinalities == ["1", "many"]
    assert contains.weak and contains.cardinalities == ["", ""]
    assert isinstance(isa, IsA) and isa.subclasses == ["VIP"]

    gt = schema([Entity("Customer", ["customer_id", "phone", "name"], ["customer_id"],
                        multivalued=["phone"]),
                 Entity("Order", ["order_id"], ["order_id"]),
                 Entity("Order_Line", ["line_no"], weak=True)],
                [rel("places", ["Customer", "Order"], ["1", "N"]),
                 rel("contains", ["Order", "Order_Line"], weak=True),
                 IsA("Customer", ["VIP"])])
    out = er.score(gt, pred)
    assert out["macro_f1"] == 1.0 and out["multivalued_f1"] == 1.0 and out["isa_f1"] == 1.0


def test_load_cardinality_ratio_string_and_entity_dict():
    doc = {"entities": {"A": ["a1"], "B": {"attributes": ["b1"]}},
           "relationships": [{"name": "r", "entities": ["A", "B"], "cardinality": "1:N"}]}
    pred, valid = er.load(doc)
    assert valid and pred.entities["A"].attributes == ["a1"]
    assert pred.relationships[0].cardinalities == ["1", "N"]


@pytest.mark.parametrize("doc", [
    "I cannot read this diagram.",
    '```json\n{"entities": [\n```',
    {"kind": "flowchart", "nodes": [], "edges": []},
    [1, 2, 3],
    None,
])
def test_load_without_er_structure_is_invalid(doc):
    pred, valid = er.load(doc)
    assert not valid
    assert pred.entities == {} and pred.relationships == []


def test_load_explicitly_empty_schema_is_valid():
    pred, valid = er.load('{"entities": {}, "relationships": []}')
    assert valid and pred.entities == {}


# --- secondary metrics --------------------------------------------------------------------

def test_bleu_and_ged_move_with_errors():
    gt = full_schema()
    pred = full_schema()
    del pred.entities["Checking"]
    pred.relationships = pred.relationships[:-1]
    out = er.score(gt, pred)
    assert 0.0 < out["bleu"] < 1.0
    assert 0.0 < out["ged"] < 1.0


def test_ged_counts_one_missing_attribute_exactly():
    gt = schema([Entity("A", ["a1", "a2"])])
    pred = schema([Entity("A", ["a1"])])
    size = er.schema_graph(er.normalize_schema(gt))
    out = er.score(gt, pred)
    # deleting the attribute node and its edge: 2 edits out of the ground truth's size
    assert out["ged"] == pytest.approx(2 / (size.number_of_nodes() + size.number_of_edges()))


def test_ternary_collapsed_to_binary_fails_the_nary_category():
    ents = [Entity("Vet"), Entity("Pet"), Entity("Visit")]
    gt = schema(ents, [rel("schedules", ["Vet", "Pet", "Visit"], ["1", "N", "1"])])
    pred = schema(ents, [rel("schedules", ["Vet", "Visit"], ["1", "1"])])
    out = er.score(gt, pred)
    assert (out["rel_misconnected"], out["rel_nary"]) == (1, 1)
    assert out["relationships_f1"] == 0.0          # TP = 1 - 1 - 1 clamps to 0
    assert out["nary_f1"] == 0.0
    assert er.score(gt, gt)["nary_f1"] == 1.0
