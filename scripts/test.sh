#!/usr/bin/env bash
# Set up .venv/ with the project and its test tools, then lint and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test,rl,ray
.venv/bin/ruff check src tests examples
.venv/bin/python -m pytest "$@"
