#!/usr/bin/env bash
# Quick start, first command: set everything up and run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/torite play trick-of-the-dead --bots normal,normal "$@"
