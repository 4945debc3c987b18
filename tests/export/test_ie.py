"""The crow's-foot view of a Chen schema shared by the Mermaid and PlantUML ER writers."""

import pytest

from cvparse.export.ie import ends, ie_view, multiplicity


@pytest.mark.parametrize("card, want", [("1", "one"), ("0..1", "zero_or_one"),
                                        ("1..*", "one_or_more"), ("1..N", "one_or_more"),
                                        ("N", "zero_or_more"), ("M", "zero_or_more"),
                                        ("0..*", "zero_or_more"), ("", "zero_or_more")])
def test_multiplicity(card, want):
    assert multiplicity(card) == want


def test_ends_put_each_cardinality_beside_its_entity():
    assert ends("1", "N", False) == "||..o{"
    assert ends("0..1", "1..*", True) == "|o--|{"


def test_view_of_the_schema(schema):
    view = ie_view(schema)
    names = [e.name for e in view.entities]
    # every entity once, the ends only relationships name, one associative entity per
    # relationship with attributes or more than two participants
    assert names[:8] == list(schema.entities)
    assert "Checking" in names and names.count("places") == 1
    assoc = {e.name for e in view.entities if e.key.startswith("\0")}
    assert assoc == {"places", "contains", "likes", "supplies"}
    customer = view.entities[0]
    assert [a.name for a in customer.attributes if a.primary] == ["customer_id"]
    assert next(a for a in customer.attributes if a.name == "address").notes == [
        "composite: street, city, zip"]
    by_label = {}
    for k in view.links:
        by_label.setdefault(k.label, []).append(k)
    assert [k.ends for k in by_label["refers_to"]] == ["}o..||"]
    assert [k.ends for k in by_label["contains"]] == ["}o--||", "}o--o{"]  # identifying
    assert [(k.left, k.right) for k in by_label["ISA"]] == [("Savings", "Account"),
                                                           ("Checking", "Account")]
    assert len(by_label["supplies"]) == 3


def test_types_and_foreign_keys_are_read():
    from cvparse.model import Entity, ERSchema

    e = Entity("Invoice", ["InvoiceId", "CustomerId"], ["InvoiceId"],
               extra={"types": {"InvoiceId": "INTEGER"}, "foreign_keys": {"CustomerId": "C"}})
    [ent] = ie_view(ERSchema(entities={"Invoice": e})).entities
    assert [(a.type, a.primary, a.foreign) for a in ent.attributes] == [
        ("INTEGER", True, False), ("", False, True)]
