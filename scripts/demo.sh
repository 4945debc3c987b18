#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and parses the bundled example diagrams: prints the flowchart as
# Mermaid and writes every result (JSON + overlay PNG) to demo-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
PY="${CVPARSE_VENV:-.venv}/bin/python"
echo "== fixtures/flowchart/test/flowchart_test_0000.jpg as Mermaid =="
"$PY" -m cvparse parse fixtures/flowchart/test/flowchart_test_0000.jpg --format mermaid
echo "== four example diagrams (flowchart, ER, UML, topology) -> demo-out/ =="
"$PY" -m cvparse parse --out demo-out --overlay --no-resume \
    fixtures/flowchart/test/flowchart_test_0000.jpg \
    fixtures/er/test/er_test_0000.png \
    fixtures/uml/test/uml_test_0000_s15.png \
    fixtures/topology/test/topology_test_0000.png
echo "results: $(ls demo-out | tr '\n' ' ')"
