#!/usr/bin/env bash
# CI's second job (issue 25): the compiled build in an environment of its own.  Builds the wheel
# `pip install .` makes (mypyc compiles the hot path; a machine without a C compiler fails here,
# since this job is about the compiled build), installs it into build/ci-venv, whose other
# packages are .venv's (linked, not installed again: .venv's editable torite is not seen), and
# runs on it the conformance suite, the Hearts differential against OpenSpiel, the record and
# replay tests, the bots carried to the server's worker processes (pickled: compiled, a bot is a
# native object), the test that both builds play the same games byte for byte, and a game from
# outside the package that subclasses the compiled game and state classes (tests/outside), and
# the research encodings it compiles (the tracker against the whole encoding, the batched env),
# and the adapters (OpenSpiel's random_sim_test for every game, which deep-copies states; the
# PettingZoo and Gymnasium checks), all but Ray's (a cluster started for a few games: slow, and
# nothing in it is compiled code the others do not run).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
trap 'echo "the compiled job took $(( $(date +%s) - start )) s in all"' EXIT
bash scripts/setup.sh
rm -rf build/ci-wheel build/ci-venv
mkdir -p build
t0=$(date +%s)
# the compile, each module's C in its own file, two at a time: half the time on two cores
TORITE_MYPYC_MULTI_FILE=1 .venv/bin/python -m pip wheel --disable-pip-version-check --no-deps --no-build-isolation -v \
  -w build/ci-wheel . > build/ci-compile.log 2>&1 || { tail -40 build/ci-compile.log; exit 1; }
grep '^torite: ' build/ci-compile.log || true
wheel=$(ls build/ci-wheel/torite-*.whl)
echo "compiled wheel $(basename "$wheel") in $(( $(date +%s) - t0 )) s"
base=$(.venv/bin/python -c 'import sys; print(sys._base_executable)')
"$base" -m venv build/ci-venv
site=$(build/ci-venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' > "$site/torite-deps.pth"
build/ci-venv/bin/python -m pip install --disable-pip-version-check --quiet --no-deps --no-index "$wheel"
# from here on, torite is the compiled wheel (the repository's src/ is not on the path)
build/ci-venv/bin/python - <<'PY'
import torite
from torite.build import build_name
assert build_name() == "compiled (mypyc)", build_name()
assert "site-packages" in torite.__file__, torite.__file__
print("running the tests on", build_name(), "from", torite.__file__)
PY
build/ci-venv/bin/python -m pytest -n 2 -p no:cacheprovider tests/conformance tests/hearts/test_openspiel_differential.py \
  tests/cli/test_record.py tests/web/test_bots.py tests/test_builds.py tests/outside \
  tests/adapters --ignore=tests/adapters/test_ray.py "$@"
