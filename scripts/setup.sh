#!/usr/bin/env bash
# Create .venv/ (once) and install the project into it, with the extras named in $1 (e.g. "test").
# Sourced by run.sh and test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
if [ -n "${1:-}" ]; then
  .venv/bin/python -m pip install -q -e ".[$1]"
else
  .venv/bin/python -m pip install -q -e .
fi
