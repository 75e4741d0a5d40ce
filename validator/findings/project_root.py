"""The project root that SARIF URIs and fingerprints are relative to, and a log's path as seen from it.

The root is `--sarif-root DIR` when given, else the git work tree the command runs in
(`git rev-parse --show-toplevel`), else the current folder: the same log then has the same path, and
its findings the same fingerprints, whichever folder of the checkout (or whichever clone) runs the check.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import PureWindowsPath

from validator.errors import ValidatorError
from validator.i18n import _

STDIN_ARTIFACT = "stdin"
_STDIN_NAMES = ("<stdin>", "-")


def find_root(explicit: str | os.PathLike[str] | None = None) -> str:
    """An absolute, normalised folder."""
    if explicit is not None:
        root = os.path.abspath(explicit)
        if not os.path.isdir(root):
            raise ValidatorError(_("--sarif-root {explicit}: no such folder").format(explicit=explicit))
        return root
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return os.getcwd()
    top = done.stdout.strip()
    return os.path.abspath(top) if done.returncode == 0 and top and os.path.isdir(top) else os.getcwd()


def is_stdin(file: str) -> bool:
    return file in _STDIN_NAMES


def relative_to_root(file: str, root: str) -> str | None:
    """`file` relative to `root` with forward slashes, or None when it lies outside (or is standard
    input, or a Windows path with a drive, which no POSIX root holds)."""
    if is_stdin(file) or PureWindowsPath(file).drive or file.startswith("\\\\"):
        return None
    absolute = os.path.normpath(os.path.join(os.getcwd(), file.replace("\\", "/") if os.sep == "/" else file))
    if absolute == root or not absolute.startswith(root.rstrip(os.sep) + os.sep):
        return None
    return os.path.relpath(absolute, root).replace(os.sep, "/")


def fingerprint_file(file: str, root: str) -> str:
    """The path a fingerprint is made from: relative to the root, `stdin`, or the absolute path."""
    if is_stdin(file):
        return STDIN_ARTIFACT
    relative = relative_to_root(file, root)
    if relative is not None:
        return relative
    return os.path.normpath(os.path.abspath(file)).replace(os.sep, "/")
