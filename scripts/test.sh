#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
"${CVPARSE_VENV:-.venv}/bin/python" -m pytest "$@"
