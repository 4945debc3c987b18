"""The data model round-trips FORMATS.md documents exactly and names bad fields."""

import copy
import json

import pytest

from cvparse.model import (DocumentError, ERSchema, Graph, IsA, UMLModel, document_from_dict,
                           document_from_json)

GRAPH = {
    "kind": "flowchart", "width": 900, "height": 630,
    "nodes": [
        {"id": "n1", "label": "Validate Input", "shape": "round_rect", "bbox": [10, 20, 140, 60]},
        {"id": "n2", "label": "Done", "shape": "stadium", "confidence": 0.9},
    ],
    "edges": [
        {"source": "n1", "target": "n2", "directed": True, "style": "solid", "label": "",
         "type": "", "points": [[1, 2], [3, 4]]},
        {"source": "n1", "target": "n2", "directed": False, "style": "dashed", "label": "x",
         "type": "calls"},
    ],
    "subset": "word",
}

ER = {
    "kind": "er",
    "entities": {
        "Customer": {
            "attributes": ["customer_id", "name", "address", "phone", "age"],
            "primary_keys": ["customer_id"], "multivalued": ["phone"], "derived": ["age"],
            "composite": {"address": ["street", "city", "zip"]}, "weak": False,
        },
        "Order": {"attributes": ["no"], "primary_keys": [], "multivalued": [], "derived": [],
                  "composite": {}, "weak": True},
    },
    "relationships": [
        {"name": "places", "entities": ["Customer", "Order"], "cardinalities": ["1", "N"],
         "weak": True, "attributes": ["date"]},
        {"name": "ISA", "superclass": "Customer", "subclasses": ["Vip", "Basic"]},
    ],
}

UML = {
    "kind": "uml",
    "classes": [{"name": "Dog", "attributes": ["name: String"], "methods": ["bark()"],
                 "bbox": [1, 2, 3, 4]}, {"name": "Animal", "attributes": [], "methods": []}],
    "relations": [{"type": "inheritance", "source": "Dog", "target": "Animal"}],
    "condition": "prior-conform",
}


@pytest.mark.parametrize("doc", [GRAPH, ER, UML])
def test_round_trip_is_exact(doc):
    obj = document_from_dict(copy.deepcopy(doc))
    assert obj.to_dict() == doc
    again = document_from_json(obj.to_json())
    assert again == obj


def test_dispatch_on_kind():
    assert isinstance(document_from_dict(GRAPH), Graph)
    assert isinstance(document_from_dict(ER), ERSchema)
    assert isinstance(document_from_dict(UML), UMLModel)
    assert isinstance(ERSchema.from_dict(ER).relationships[1], IsA)


def _broken(doc, mutate):
    d = copy.deepcopy(doc)
    mutate(d)
    return d


@pytest.mark.parametrize("doc, field", [
    (_broken(GRAPH, lambda d: d["edges"][1].update(target="n9")), "edges[1].target"),
    (_broken(GRAPH, lambda d: d["nodes"][0].pop("label")), "nodes[0].label"),
    (_broken(GRAPH, lambda d: d["nodes"][1].update(shape="blob")), "nodes[1].shape"),
    (_broken(GRAPH, lambda d: d["edges"][0].update(directed="yes")), "edges[0].directed"),
    (_broken(GRAPH, lambda d: d["nodes"][0].update(bbox=[1, 2])), "nodes[0].bbox"),
    (_broken(GRAPH, lambda d: d["nodes"].append({"id": "n1", "label": ""})), "nodes[2].id"),
    (_broken(GRAPH, lambda d: d.pop("nodes")), "nodes"),
    (_broken(ER, lambda d: d["entities"]["Customer"].update(weak=1)), "entities.Customer.weak"),
    (_broken(ER, lambda d: d["relationships"][0].update(cardinalities=["1"])),
     "relationships[0].cardinalities"),
    (_broken(ER, lambda d: d["relationships"][1].update(subclasses="Vip")),
     "relationships[1].subclasses"),
    (_broken(UML, lambda d: d["relations"][0].update(type="uses")), "relations[0].type"),
    (_broken(UML, lambda d: d["classes"][0].pop("name")), "classes[0].name"),
    ({"kind": "pie"}, "kind"),
])
def test_malformed_documents_name_the_field(doc, field):
    with pytest.raises(DocumentError) as err:
        document_from_dict(doc)
    assert str(err.value).startswith(field)


def test_bad_json_text_is_a_document_error():
    with pytest.raises(DocumentError):
        document_from_json("{not json")
    with pytest.raises(DocumentError):
        document_from_json(json.dumps([1, 2]))
