"""The correction loop on real parses: parse -> draw.io -> read back gives the parsed
document again, on every test image of every family."""

import pytest

from cvparse.export.drawio import to_drawio
from cvparse.export.drawio_read import read_drawio
from tests.export.contract import contract


@pytest.mark.parametrize("family", ["flowchart", "topology", "er", "uml"])
def test_parse_drawio_read_back_is_the_parse(test_set_predictions, family):
    rows = test_set_predictions(family, family)
    assert len(rows) >= 30
    for image, _, doc in rows:
        back, warnings = read_drawio(to_drawio(doc))
        assert contract(back) == contract(doc), image
        assert warnings == [], image
