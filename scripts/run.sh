#!/usr/bin/env bash
# Set up .venv/ with the project, then run the main job: the game server. Open the address it
# prints (http://127.0.0.1:8000/ by default) to create a game against the bots or invite friends.
# Extra arguments go to `kashgar serve` (e.g. --port 8080, --db postgresql://...).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "kashgar: open http://127.0.0.1:${KASHGAR_PORT:-8000}/ in a browser (Ctrl-C stops the server)"
exec .venv/bin/kashgar serve --port "${KASHGAR_PORT:-8000}" "$@"
