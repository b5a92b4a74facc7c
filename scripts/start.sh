#!/usr/bin/env bash
# Quick start, first command: set everything up and run the main job, the web table
# (http://127.0.0.1:8000/, games stored in ./torite.db, SQLite). Extra arguments go to `torite serve`
# (bash scripts/start.sh --port 8101). The table runs the compiled engine (scripts/compile.sh; the
# first start compiles it, a minute or two) where a C compiler is there, else the pure-Python one;
# the lobby's footer says which.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f .venv/.torite-installed ]; then
  echo "torite: setting up (a virtual environment in .venv, about two minutes the first time)…"
fi
bash scripts/setup.sh
compiled=$(bash scripts/compile.sh)
if [ -n "$compiled" ]; then
  export PYTHONPATH="$compiled${PYTHONPATH:+:$PYTHONPATH}"
fi
.venv/bin/torite --version
echo "torite: starting the web table (Ctrl+C stops it)…"
exec .venv/bin/torite serve --open "$@"
