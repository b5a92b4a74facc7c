#!/usr/bin/env bash
# The compiled build (issue 25), for scripts/start.sh: the wheel `pip install .` makes, with the
# hot path compiled by mypyc, unpacked into build/compiled/ (made again only when a source
# changed).  Prints that folder, to put first on PYTHONPATH; prints nothing, and says why in one
# line on stderr, when it cannot be compiled here (no C compiler, say): the pure build then runs.
# The development environment (.venv, an editable install) stays pure either way.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/compiled
want=$(cat setup.py pyproject.toml $(find src/torite -name '*.py' | sort) | sha256sum | cut -d' ' -f1)
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$want" ]; then
  echo "$PWD/$out"
  exit 0
fi
rm -rf "$out" build/wheel
mkdir -p build
echo "torite: compiling the engine with mypyc (a few minutes, once)" >&2
if ! .venv/bin/python -m pip wheel --disable-pip-version-check --no-deps --no-build-isolation -v -w build/wheel . \
    > build/compile.log 2>&1; then
  echo "torite: the compiled build failed (build/compile.log): the pure-Python build runs" >&2
  exit 0
fi
wheel=$(ls build/wheel/torite-*.whl)
# (grep reads the whole listing: `grep -q` would stop at the first match, the listing would end
# on a broken pipe, and pipefail would take the compiled wheel for a pure one)
if ! .venv/bin/python -m zipfile -l "$wheel" | grep '__mypyc' > /dev/null; then
  # setup.py said why in one line (no C compiler, ...)
  grep -m1 '^torite: ' build/compile.log | sed 's/$/ (the pure-Python build runs)/' >&2 || true
  exit 0
fi
.venv/bin/python -m zipfile -e "$wheel" "$out"
echo "$want" > "$out/.stamp"
echo "$PWD/$out"
