"""PlantUML activity diagrams of the real-tool corpus: the reader of their text
(:mod:`tools.realtools.puml_activity`) and the source's generator and committed inputs.
No renderer is needed."""

import random

import pytest

from tools.realtools import puml_activity
from tools.realtools.sources import plantuml_activity


def edges(text: str) -> list[tuple[str, str, str]]:
    """(source label or id, target label or id, edge label) of a read diagram."""
    flow = puml_activity.read(text)
    name = {n["id"]: n["label"] or n["id"] for n in flow.nodes}
    return [(name[e["source"]], name[e["target"]], e["label"]) for e in flow.edges]


def test_if_else_meets_in_a_diamond_and_a_stopped_branch_does_not():
    text = """@startuml
start
:Load;
if (Valid?) then (yes)
  :Send;
else (no)
  :Log;
endif
if (Paid?) then (yes)
  :Print;
else (no)
  stop
endif
:Archive;
stop
@enduml
"""
    flow = puml_activity.read(text)
    shapes = [n["shape"] for n in flow.nodes]
    assert shapes.count("diamond") == 1
    assert shapes.count("hexagon") == 2
    got = edges(text)
    assert ("Valid?", "Send", "yes") in got and ("Valid?", "Log", "no") in got
    assert ("Send", "n5", "") in got and ("Log", "n5", "") in got
    assert ("Print", "Archive", "") in got
    assert ("Paid?", "n8", "no") in got and ("Archive", "n10", "") in got
    assert not any(s == "n8" for s, _, _ in got)


def test_if_without_else_runs_on_along_its_no_side():
    got = edges("@startuml\nstart\nif (Ok?) then (yes)\n:A;\nendif\n:B;\n@enduml\n")
    assert ("Ok?", "A", "yes") in got
    assert ("Ok?", "n3", "") in got and ("A", "n3", "") in got and ("n3", "B", "") in got


def test_loops_link_back_to_their_test_and_start():
    got = edges("""@startuml
start
while (More?) is (yes)
  :Pack;
endwhile (no)
repeat
  :Retry;
repeat while (Timeout?) is (yes) not (no)
:Done;
end
@enduml
""")
    assert ("More?", "Pack", "yes") in got and ("Pack", "More?", "") in got
    assert ("More?", "n3", "no") in got
    assert ("Timeout?", "n3", "yes") in got and ("Timeout?", "Done", "no") in got


def test_arrow_labels_styles_and_markup():
    flow = puml_activity.read("@startuml\n:**Read** file\\nnow;\n-[#blue,dashed]-> on error;"
                              "\n:Stop //here//;\n@enduml\n")
    assert [n["label"] for n in flow.nodes] == ["Read file now", "Stop here"]
    assert flow.edges[0]["label"] == "on error" and flow.edges[0]["style"] == "dashed"


def test_multiline_action_is_one_box():
    flow = puml_activity.read("@startuml\nstart\n:first line\nsecond line;\nstop\n@enduml\n")
    assert [n["label"] for n in flow.nodes] == ["", "first line second line", ""]


@pytest.mark.parametrize("body", ["|Lane|\n:a;", "fork\n:a;\nend fork", "note right: x",
                                  "if (a) then\n:b;\nelseif (c) then\n:d;\nendif",
                                  "#pink:a;", ":box]", "(*) --> a", "if (a) then\n:b;"])
def test_constructs_it_does_not_model_are_refused(body):
    with pytest.raises(puml_activity.Unsupported):
        puml_activity.read(f"@startuml\nstart\n{body}\n@enduml\n")


def test_generated_diagrams_read_back_with_a_connected_flow():
    for seed in range(30):
        text = plantuml_activity.make_diagram(random.Random(seed), ["!theme plain"])
        flow = puml_activity.read(text)
        ids = {n["id"] for n in flow.nodes}
        assert len(flow.nodes) >= 5
        assert all(e["source"] in ids and e["target"] in ids for e in flow.edges)
        targets = {e["target"] for e in flow.edges}
        assert all(n["id"] in targets for n in flow.nodes[1:]), text


def test_committed_inputs_have_provenance_and_are_read():
    files = plantuml_activity.repo_inputs()
    assert files
    for path, prov in files:
        assert prov["repository"] and len(prov["commit"]) == 40 and prov["path"]
        assert prov["licence"].split()[0] in ("MIT", "Apache-2.0", "BSD-3-Clause")
        assert puml_activity.read(path.read_text(encoding="utf-8")).nodes
