"""Mermaid flowcharts committed to public repositories
(:mod:`tools.realtools.sources.mermaid_repo`): the gate that keeps only charts the Mermaid
reader reads in full, the truth it writes, and the committed inputs.  No renderer needed."""

from tools.realtools.sources import mermaid_repo


def test_gate_refuses_what_the_reader_would_skip():
    assert mermaid_repo.usable("flowchart TD\n  A[One] --> B{Two}\n  B --> C(Three)\n") == ""
    assert mermaid_repo.usable("sequenceDiagram\n  A->>B: hi\n") == "not a flowchart"
    assert "unsupported" in mermaid_repo.usable(
        "flowchart TD\n  A[One] --> B\n  B --> C@{ shape: doc }\n")
    assert mermaid_repo.usable("graph LR\n  A --> B\n") == "2 nodes (need 3-60)"


def test_truth_drops_the_front_matter_and_keeps_links_and_labels():
    doc = mermaid_repo.document("---\nconfig:\n  theme: dark\n---\ngraph LR\n  A[x] -->|go| B[y]"
                                "\n  B --> C[z]; style C fill: red\n", 100, 50)
    assert [n["label"] for n in doc["nodes"]] == ["x", "y", "z"]
    assert doc["edges"][0]["label"] == "go" and doc["width"] == 100


def test_committed_inputs_have_provenance_and_pass_the_gate():
    files = mermaid_repo.repo_inputs()
    assert files
    for path, prov in files:
        assert prov["repository"] and len(prov["commit"]) == 40 and prov["path"]
        assert prov["licence"] in ("MIT", "Apache-2.0", "BSD-3-Clause")
        assert mermaid_repo.usable(path.read_text(encoding="utf-8")) == ""
