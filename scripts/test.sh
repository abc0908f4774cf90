#!/usr/bin/env bash
# Set up a virtual environment with the project and its test tools, then run every test and lint.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e ".[test]"
.venv/bin/ruff check src tests
.venv/bin/python -m pytest "$@"
