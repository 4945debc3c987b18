#!/usr/bin/env bash
# Sets up (scripts/setup.sh), lints (ruff) and type-checks (mypy, settings in
# pyproject.toml) the code, then runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
PY="${CVPARSE_VENV:-.venv}/bin/python"
"$PY" -m ruff check cvparse benchmarks tests
"$PY" -m mypy
"$PY" -m pytest "$@"
