#!/usr/bin/env bash
# Set up .venv/ with the project, then run the main job: random games with statistics and the
# engine benchmark. Extra arguments go to `kashgar simulate`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/kashgar simulate --players 2 --games 500 --seed 1 "$@"
.venv/bin/kashgar bench
