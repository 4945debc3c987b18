"""Small documents that exercise every feature the exporters map."""

import pytest

from cvparse.model import (Edge, Entity, ERSchema, Graph, IsA, Node, Relationship, UMLClass,
                           UMLModel, UMLRelation)


@pytest.fixture
def graph() -> Graph:
    """Every shape once, every style, a label, a parallel pair, both kinds of undirected edge
    and traced polylines (one stored target -> source, as a connector can be)."""
    shapes = ["rect", "round_rect", "stadium", "diamond", "ellipse", "circle", "hexagon",
              "parallelogram", "cylinder", "triangle", "icon", "text", "other"]
    nodes = [Node(f"n{i + 1}", f"{s} {i}", s, [100 * i, 10, 100 * i + 80, 50])
             for i, s in enumerate(shapes)]
    nodes[1].label = 'Say "hi" & <go>\\N'
    nodes.append(Node("no box", "floating", "rect"))
    edges = [
        Edge("n1", "n2", extra={"points": [[80, 30], [90, 60], [95, 60], [100, 30]]}),
        Edge("n1", "n2", style="dashed", label="again"),
        Edge("n2", "n3", directed=False, style="dotted", extra={"heads": ["arrow", "arrow"]}),
        Edge("n3", "n4", directed=False, style="bold"),
        Edge("n5", "n4", type="flow", extra={"points": [[300, 30], [350, 80], [480, 30]]}),
        Edge("n6", "no box", directed=False, extra={"mermaid_link": "both"}),
    ]
    return Graph(kind="topology", width=1400, height=200, nodes=nodes, edges=edges)


@pytest.fixture
def schema() -> ERSchema:
    """Composite, multivalued, derived, weak entity with identifying relationship (with an
    attribute), 1:N, 1:1, recursive 1:N, M:N with an attribute, ternary, IS-A with a
    subclass that is not declared, reserved and spaced names, an entity without a key."""
    entities = {
        "Customer": Entity("Customer", ["customer_id", "name", "address", "phone", "age"],
                           ["customer_id"], ["phone"], ["age"],
                           {"address": ["street", "city", "zip"]}),
        "Order": Entity("Order", ["order_id", "date"], ["order_id"]),
        "OrderLine": Entity("OrderLine", ["line_no", "qty"], ["line_no"], weak=True),
        "Product": Entity("Product", ["sku", "title"], ["sku"]),
        "Employee": Entity("Employee", ["ssn", "name"], ["ssn"]),
        "Account": Entity("Account", ["acct_no", "balance"], ["acct_no"]),
        "Savings": Entity("Savings", ["rate"]),
        "Work Group": Entity("Work Group", ["group name"]),
    }
    rels = [
        Relationship("places", ["Customer", "Order"], ["1", "N"], attributes=["since"]),
        Relationship("contains", ["Order", "OrderLine"], ["1", "N"], weak=True,
                     attributes=["position"]),
        Relationship("refers_to", ["OrderLine", "Product"], ["N", "1"]),
        Relationship("supervises", ["Employee", "Employee"], ["1", "N"]),
        Relationship("likes", ["Customer", "Product"], ["M", "N"], attributes=["order"]),
        Relationship("supplies", ["Employee", "Product", "Customer"], ["M", "N", "1"]),
        Relationship("leads", ["Work Group", "Employee"], ["1", "1"]),
        IsA("Account", ["Savings", "Checking"]),
    ]
    return ERSchema(entities=entities, relationships=rels)


@pytest.fixture
def uml() -> UMLModel:
    """Every relation type, an undirected association, a spaced name, a dotted name and a
    relation end that is not a declared class."""
    classes = [
        UMLClass("Animal", ["name: String"], ["speak()"], [10, 10, 110, 80]),
        UMLClass("Dog", ["breed: String"], ["bark()", "fetch(ball: Ball)"], [10, 150, 110, 220]),
        UMLClass("Pet Owner", [], [], [200, 150, 300, 200]),
        UMLClass("Speaker", [], ["speak()"], extra={"stereotype": "interface"}),
        UMLClass("zoo.Kennel", ["size: int"], []),
    ]
    rels = [
        UMLRelation("inheritance", "Dog", "Animal", {"points": [[60, 150], [60, 80]]}),
        UMLRelation("realization", "Animal", "Speaker"),
        UMLRelation("composition", "zoo.Kennel", "Dog"),
        UMLRelation("aggregation", "Pet Owner", "Dog",
                    {"points": [[110, 185], [150, 170], [200, 175]]}),
        UMLRelation("dependency", "Dog", "Bone"),
        UMLRelation("association", "Pet Owner", "zoo.Kennel"),
        UMLRelation("association", "Animal", "Pet Owner", {"directed": False}),
    ]
    return UMLModel(classes=classes, relations=rels)
