#!/usr/bin/env bash
# Installs what cvparse needs to run and test: Tesseract (Debian) and the package in .venv.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v tesseract >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "setup: installing tesseract-ocr with apt-get" >&2
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng >/dev/null
fi

VENV="${CVPARSE_VENV:-.venv}"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
"$VENV/bin/python" -m pip install -q -e ".[dev]"
echo "setup: ready ($("$VENV/bin/python" --version), $(tesseract --version 2>&1 | head -1))" >&2
