#!/usr/bin/env bash
# Quick start, first command: set everything up and run the main job, the web table
# (http://127.0.0.1:8000/, games stored in ./torite.db, SQLite). Extra arguments go to `torite serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/torite serve --open "$@"
