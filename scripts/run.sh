#!/usr/bin/env bash
# Set up a virtual environment with the project, then run the main job: a batch of random games
# with statistics, and the engine benchmark. Extra arguments go to `kashgar simulate`.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e .
.venv/bin/kashgar simulate --players 2 --games 500 --seed 1 "$@"
.venv/bin/kashgar bench
