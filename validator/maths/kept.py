"""`edge`'s figures kept on disk between runs: a version's figures (its main game, side bets, readings,
and with --options or --strategy what those add) are computed once, and a later `edge` for the same
version, options and table reads them back (as `validator.dsl.cache` keeps parsed rulesets).

An entry is found by a hash of everything the figures depend on: the version's consolidated text (its
syntax tree, amendments applied) and the readings it applies, the house options and the table, what was
asked (--options, --strategy), the language of the run (the figures carry prose written in it: what is
not exact, and why), and the program: the source of every module of the package, Python's and numpy's
versions. Change any of them and the old entry is never asked for again (and is removed when the
new one is kept). Entries live in the folder of the parse cache (`CASINO_VALIDATOR_CACHE`, else the
user's cache folder), on the same terms: only a folder that is the user's and nobody else can write to,
only a private regular file; an entry is JSON data, never code. `CASINO_VALIDATOR_NO_CACHE=1` turns it
off. A folder that cannot be written, or an entry that cannot be read, only means computing as before.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import stat
import sys
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import orjson

from validator.dsl.cache import cache_dir, encode, trusted, write_beside
from validator.dsl.model import Ruleset
from validator.i18n import current

PREFIX = "edge-"
SUFFIX = ".json"


@functools.cache
def _program() -> bytes:
    """What the figures' code is: every module's source, Python's and numpy's versions."""
    digest = hashlib.sha256(f"{sys.version_info[:3]}".encode())
    with contextlib.suppress(PackageNotFoundError):
        digest.update(version("numpy").encode())
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.digest()


def key(
    ruleset: Ruleset,
    house: Mapping[str, Any] | None,
    table: str | None,
    asked: tuple[object, ...],
) -> tuple[str, str] | None:
    """The entry's name prefix (the version, options, table and what was asked) and its full key (that,
    the version's text and the program), or None where the version has no text to hash."""
    if ruleset.tree is None:
        return None
    options = tuple(
        sorted((name, type(value).__name__, repr(value)) for name, value in (house or {}).items())
    )
    # The language too: the figures carry prose written in it (a strategy's words, what is not exact).
    said = repr((ruleset.version, ruleset.applied, options, table, asked, current())).encode()
    prefix = hashlib.sha256(said).hexdigest()[:16]
    digest = hashlib.sha256(_program() + said + b"\0" + orjson.dumps(encode(ruleset.tree)))
    return prefix, digest.hexdigest()


def _entry(folder: Path, found: tuple[str, str]) -> Path:
    return folder / f"{PREFIX}{found[0]}-{found[1]}{SUFFIX}"


def read(found: tuple[str, str] | None) -> dict[str, Any] | None:
    """The figures kept under this key, or None (none kept, the cache off, an entry not the user's own or
    not what `keep` writes)."""
    folder = cache_dir()
    if found is None or folder is None or not trusted(folder):
        return None
    entry = _entry(folder, found)
    try:
        fd = os.open(entry, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            getuid = getattr(os, "getuid", None)
            if not stat.S_ISREG(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return None
            if getuid is not None and info.st_uid != getuid():
                return None
            data = orjson.loads(handle.read())
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(data, dict) or data.get("key") != found[1] or not isinstance(data.get("figures"), dict):
        return None
    figures: dict[str, Any] = data["figures"]
    return figures


def keep(found: tuple[str, str] | None, figures: Mapping[str, Any]) -> None:
    """Keep the figures under this key (written beside, then renamed: a reader sees a whole entry or
    none), and remove the entries of the same prefix (an earlier text or program)."""
    folder = cache_dir()
    if found is None or folder is None or not trusted(folder):
        return
    entry, key = _entry(folder, found), found[1]
    if not write_beside(folder, entry, lambda: orjson.dumps({"key": key, "figures": figures})):
        return  # a full disk, say: the run goes on without keeping the figures
    for old in folder.glob(f"{PREFIX}{found[0]}-*{SUFFIX}"):
        if old != entry:
            with contextlib.suppress(OSError):
                old.unlink()
