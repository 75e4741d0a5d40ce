"""Build hook: compiles the hot modules with mypyc when asked (`CASINO_VALIDATOR_COMPILE=yes pip install .`).

A wheel is plain Python unless the switch asks for the compiled build: `pip install .` installs in
seconds, with the same results. `CASINO_VALIDATOR_COMPILE` takes `no` (the default: plain Python),
`yes` (compile; when compiling fails, for want of a C compiler or of Python's headers, the wheel is
built as plain Python and the build says so) or `require` (compile, and fail the build if compiling
fails: CI). The modules compiled are the one list `compiled` under
[tool.hatch.build.targets.wheel.hooks.custom] in pyproject.toml. Each becomes a C extension placed beside
its `.py` (which the wheel keeps: `CASINO_VALIDATOR_PURE=1` runs it instead). An editable install
(development) is always plain, and so is the copy pre-commit installs for the `casino-validator-lint`
hook (a clone in pre-commit's store: a `repo…` folder beside the store's `db.db`) under `yes`: the hook
lints house files, which needs no compiled replay. `require` still compiles there.

Run by hand, `python hatch_build.py OUT MODULE...` compiles the modules into OUT (what the hook does in
a temporary folder), which is how benchmarks compare builds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

# The file the wheel carries to say which modules are compiled (validator/compiled.py reads it).
MANIFEST = "validator/_compiled.txt"
ENV = "CASINO_VALIDATOR_COMPILE"
# What compiling needs (mypy's mypyc, setuptools to build the extension), installed into the build
# environment only when the wheel is to be compiled (`dependencies` below).
COMPILER = ["mypy>=1.10,<3", "setuptools>=65"]

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run by hand, outside a build
    BuildHookInterface = object  # type: ignore[assignment,misc]


# The switch's values: what each asks of the build. Unset or empty is the default, plain Python.
MODES = {
    "": "no",
    "no": "no",
    "0": "no",
    "false": "no",
    "yes": "yes",
    "1": "yes",
    "true": "yes",
    "require": "require",
}


def compile_mode(value: str | None) -> str:
    """`no`, `yes` or `require`, from the switch's value (unset: `no`); a value it does not know stops the
    build, naming the ones it takes (a typo must not silently give the other build)."""
    mode = MODES.get((value or "").strip().lower())
    if mode is None:
        raise ValueError(f"{ENV}={value!r}: expected yes, require or no (unset: no, plain Python)")
    return mode


def in_pre_commit_store(root: Path) -> bool:
    """Whether the source being built is pre-commit's clone of this repository, for a hook."""
    return root.name.startswith("repo") and (root.parent / "db.db").is_file()


def compiles(value: str | None, root: Path) -> bool:
    """Whether a wheel built from `root` with the switch set to `value` is to be compiled: only when
    asked (`yes`, `require`), and under `yes` not for pre-commit's copy of the repository."""
    mode = compile_mode(value)
    return mode == "require" or (mode == "yes" and not in_pre_commit_store(root))


class MypycBuildHook(BuildHookInterface):  # type: ignore[misc,valid-type]
    PLUGIN_NAME = "custom"

    def _compiles(self) -> bool:
        return bool(self.config.get("compiled")) and compiles(os.environ.get(ENV), Path(self.root))

    def dependencies(self) -> list[str]:
        return list(COMPILER) if self._compiles() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or not self._compiles():
            return
        mode = compile_mode(os.environ.get(ENV))
        modules = list(self.config.get("compiled", []))
        self._out = tempfile.mkdtemp(prefix="casino-validator-mypyc-")
        failure = compile_modules(Path(self.root), modules, Path(self._out))
        if failure is not None:
            if mode == "require":
                raise RuntimeError(f"compiling with mypyc failed ({ENV}=require):\n{failure}")
            self.app.display_warning(
                "casino-validator: compiling with mypyc failed; the wheel is plain Python "
                f"(same results, slower).\n{failure[-2000:]}"
            )
            return
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        for built in Path(self._out).rglob(f"*{suffix}"):
            build_data["force_include"][str(built)] = built.relative_to(self._out).as_posix()
        manifest = Path(self._out) / "_compiled.txt"
        manifest.write_text("".join(f"{module}\n" for module in modules), encoding="utf-8")
        build_data["force_include"][str(manifest)] = MANIFEST
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:
            import shutil

            shutil.rmtree(out, ignore_errors=True)


def compile_modules(root: Path, modules: list[str], out: Path) -> str | None:
    """Compile `modules` (dotted names under `root`) into extensions under `out`, laid out as in the
    package; None if it worked, else what went wrong. Runs in a child process: mypyc and the C compiler
    get a clean interpreter, and a crash is a failure like any other."""
    paths = [module.replace(".", "/") + ".py" for module in modules]
    missing = [path for path in paths if not (root / path).is_file()]
    if missing:
        return f"no such module: {', '.join(missing)}"
    command = [sys.executable, str(Path(__file__).resolve()), "--child", str(out), *paths]
    try:
        done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    except OSError as error:
        return str(error)
    if done.returncode != 0:
        return (done.stdout + done.stderr).strip() or f"exit status {done.returncode}"
    return None


def _child(out: str, paths: list[str]) -> None:
    """In the child process: mypyc writes C, setuptools compiles it into `out`."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    build_temp = Path(out) / "_build"
    # The build environment has mypy but not the runtime dependencies: their types are Any there (which
    # changes no result, only how much mypyc can specialise), and only the compiled modules' errors count.
    # mypy's notes (an untyped function's body) would stop mypyc as errors do. The project's mypy is strict
    # (pyproject.toml), and strict's checks of what comes from a library (a value returned from it, a class
    # or decorator of it, a call to it) fail on those Any: they are CI's `mypy`, with the libraries there.
    options = [
        "--ignore-missing-imports",
        "--follow-imports=silent",
        "--no-warn-unused-ignores",
        "--disable-error-code=annotation-unchecked",
        "--no-warn-return-any",
        "--allow-subclassing-any",
        "--allow-untyped-calls",
        "--allow-untyped-decorators",
    ]
    extensions = mypycify([*options, *paths], opt_level="3", target_dir=str(build_temp / "c"))
    distribution = Distribution({"name": "casino-validator-mypyc", "ext_modules": extensions})
    command = distribution.get_command_obj("build_ext")
    command.build_lib = out  # type: ignore[attr-defined]
    command.build_temp = str(build_temp)  # type: ignore[attr-defined]
    command.ensure_finalized()
    command.run()
    import shutil

    shutil.rmtree(build_temp, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) > 2:
        problem = compile_modules(Path.cwd(), sys.argv[2:], Path(sys.argv[1]).resolve())
        if problem:
            sys.exit(problem)
    else:
        sys.exit(__doc__)
