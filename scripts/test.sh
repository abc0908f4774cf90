#!/usr/bin/env bash
# Set up .venv/ with the project and its test tools, install and start the services the web tests
# need (PostgreSQL, Debian's Chromium: scripts/services.sh, needs root as in CI), then lint and run
# every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test,rl,ray
if svc=$(bash scripts/services.sh); then
  eval "$svc"
elif [ -n "${CI:-}" ]; then
  echo "scripts/services.sh failed: CI needs PostgreSQL and Chromium for the web tests" >&2
  exit 1
else
  echo "services unavailable: the PostgreSQL and browser tests will be skipped" >&2
fi
.venv/bin/ruff check src tests examples
.venv/bin/python -m pytest "$@"
