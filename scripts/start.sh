#!/usr/bin/env bash
# Quick start, first command: set everything up and run the main job, the web table
# (http://127.0.0.1:8000/, games stored in ./torite.db, SQLite). Extra arguments go to `torite serve`
# (bash scripts/start.sh --port 8101).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f .venv/.torite-installed ]; then
  echo "torite: setting up (a virtual environment in .venv, about two minutes the first time)…"
fi
bash scripts/setup.sh
echo "torite: starting the web table (Ctrl+C stops it)…"
exec .venv/bin/torite serve --open "$@"
