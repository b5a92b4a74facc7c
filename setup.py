"""Build torite: the hot path compiled by mypyc when a C compiler is there, else pure Python.

The metadata is in ``pyproject.toml``; this file only decides what to compile.  A normal
install (``pip install .``, a wheel) compiles the modules listed in ``torite.build.COMPILED``
from the same typed sources the pure build runs; it falls back to the pure build, saying so in
one line, when there is no C compiler (or ``TORITE_PURE=1`` is set, or the compile fails).  An
editable install (``pip install -e .``, what ``scripts/setup.sh`` makes for development) never
compiles.  ``MYPYC_OPT_LEVEL`` (default 3) and ``TORITE_MYPYC_MULTI_FILE=1`` tune the compile.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
#: only these commands build code; metadata steps (egg_info, dist_info, sdist) never compile
BUILDS = {"bdist_wheel", "build", "build_ext", "install", "bdist"}


def _torite_build() -> Any:
    """``src/torite/build.py``, read without importing torite (it is not installed yet)."""
    spec = importlib.util.spec_from_file_location("_torite_build", HERE / "src" / "torite" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def note(text: str) -> None:
    print(f"torite: {text}", file=sys.stderr, flush=True)


def why_not_compiled() -> str | None:
    """Why this build cannot be compiled, or None when it can."""
    if os.environ.get("TORITE_PURE", "") not in ("", "0"):
        return "TORITE_PURE is set"
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    exe = shlex.split(compiler)[0]
    if shutil.which(exe) is None:
        return f"no C compiler ({exe} not found)"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h; on Debian: apt-get install python3-dev)"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (it comes with mypy)"
    return None


class BuildExt(build_ext):
    """build_ext that compiles as many files at once as there are cores, falls back to the pure
    build when the compile fails, and records the hash of each compiled module's source
    (``torite/_compiled.json``, read by torite's stale check)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as e:  # a compiler or linker error: the pure build still works
            self._remove_outputs()
            note(f"the compile failed ({str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__}): "
                 "installing the pure-Python version (slower; the same games)")
            return
        info = _torite_build()
        hashes = {name: info.source_hash(HERE / "src" / name) for name in info.COMPILED}
        out = Path(self.build_lib if not self.inplace else HERE / "src") / "torite" / info.RECORD
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        note(f"compiled {len(hashes)} modules with mypyc")

    def _remove_outputs(self) -> None:
        for ext in self.extensions:
            path = Path(self.get_ext_fullpath(ext.name))
            if path.exists():
                path.unlink()


def ext_modules(argv: list[str]) -> list[Any]:
    """The compiled modules to build for the command line ``argv``: none for an editable
    install or a command that builds nothing, none (said in one line) when the build cannot be
    compiled."""
    commands = set(argv[1:])
    if not commands & BUILDS or "editable_wheel" in commands or "develop" in commands:
        return []
    why = why_not_compiled()
    if why is not None:
        note(f"{why}: installing the pure-Python version (slower; the same games)")
        return []
    from mypyc.build import mypycify

    info = _torite_build()
    note(f"compiling {len(info.COMPILED)} modules with mypyc (a few minutes)")
    os.chdir(HERE)  # mypyc names modules by their path under src/
    extensions = mypycify(
        [f"src/{name}" for name in info.COMPILED],
        opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
        multi_file=os.environ.get("TORITE_MYPYC_MULTI_FILE", "") not in ("", "0"),
        target_dir=str(Path("build") / "mypyc"),
    )
    # the game classes open to house rules: mypyc's allow_interpreted_subclasses, which it reads
    # only on native classes, applied to the C it generated (torite/build.py says why)
    sources = sorted({Path(src) for ext in extensions for src in ext.sources if src.endswith(".c")})
    counts = info.open_non_native_classes(sources, info.open_classes(HERE / "src"))
    closed = [name for name, k in counts.items() if not k]
    if closed:
        note(f"no type check of {', '.join(closed)} found to open: subclasses of them may be refused")
    return extensions


if __name__ == "__main__":  # as setuptools runs it (a test imports it to call the functions above)
    setup(ext_modules=ext_modules(sys.argv), cmdclass={"build_ext": BuildExt})
