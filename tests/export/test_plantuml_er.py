"""PlantUML for ER schemas: IE entities, checked by PlantUML when installed."""

from cvparse.export.plantuml import to_plantuml
from tests.export.consumers import plantuml_syntax


def test_entities_and_links(schema):
    lines = to_plantuml(schema).splitlines()
    assert lines[0] == "@startuml" and lines[-1] == "@enduml"
    assert 'entity "Customer" as e1 {' in lines and "  * customer_id <<PK>>" in lines
    assert 'entity "OrderLine" as e3 <<weak>> {' in lines
    assert "  address <<composite: street, city, zip>>" in lines
    assert 'entity "Work Group" as e8 {' in lines
    assert "e3 }o..|| e4 : refers_to" in lines and "e5 ||..o{ e5 : supervises" in lines


def test_types_are_written():
    from cvparse.model import Entity, ERSchema

    e = Entity("Invoice", ["InvoiceId"], ["InvoiceId"], extra={"types": {"InvoiceId": "INT"}})
    assert "  * InvoiceId : INT <<PK>>" in to_plantuml(ERSchema(entities={"I": e}))


def test_plantuml_accepts_the_er_text(schema):
    verdict = plantuml_syntax(to_plantuml(schema))
    assert verdict.splitlines()[0] == "CLASS"  # PlantUML files IE entities as a class diagram
