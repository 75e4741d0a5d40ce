"""Parsed rulesets kept on disk between runs, so that a command starts without parsing every `.rules`
file again (a third of a second of each start-up: Lark builds its tables, then reads ~7 files).

What is kept is the syntax tree only (`ast.RulesetFile`); compiling it is fast and always done anew.
An entry is found by a hash of everything the tree depends on: the file's text and displayed name,
the grammar, the source of the modules that build the tree, Lark's and Python's versions. Change any
of them and the old entry is simply never asked for again. Entries live in the user's cache folder:
`$XDG_CACHE_HOME/casino-validator`, else `~/.cache/casino-validator`; `CASINO_VALIDATOR_CACHE` names
another folder, `CASINO_VALIDATOR_NO_CACHE=1` turns it off. The entries are kept in a folder of their own
inside it (`ENTRIES`), so that a folder the user names, which holds files of theirs, is never pruned: only
files of that folder named as this cache names its entries are ever removed. A folder that cannot be
written, or an entry that cannot be read, only means parsing as before. Entries are named by the ruleset
file's name, then the hash: keeping a new one removes the others of that file (and, in the default
folder, which is this cache's own, the entries of earlier releases' layouts).

Nothing read from the cache can run code: an entry is JSON data (never a pickle), rebuilt into the
`ast` classes by name from a fixed list, each field checked for its kind; anything else is a miss. And
since an entry decides what the law says, the folder is used only when it belongs to the user and
nobody else can write to it (a shared `XDG_CACHE_HOME`, a CI cache restored from another job's files):
otherwise every ruleset is parsed from its text.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import importlib.util
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import orjson

from validator.dsl import ast
from validator.dsl.ast import RulesetFile
from validator.dsl.resources import grammar_path

_BUILDERS = ("ast.py", "transformer.py", "parser.py", "cache.py")
SUFFIX = ".json"
# The cache's own folder inside the one chosen: nothing but entries is written there.
ENTRIES = "parsed-rulesets"
# An entry's name: the first 16 hex digits of the hash of the file's name, then the entry's hash.
_ENTRY = re.compile(r"[0-9a-f]{16}-[0-9a-f]{64}\.json")
# The entries of earlier releases, directly in the default folder: unprefixed, and pickles.
_EARLIER = re.compile(r"(?:[0-9a-f]{64}\.json|[0-9a-f]{16}-[0-9a-f]{64}\.pickle|[0-9a-f]{64}\.pickle)")

# The only classes an entry may name: the syntax tree's own.
_CLASSES: dict[str, type] = {
    name: cls
    for name, cls in vars(ast).items()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == ast.__name__
}
_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in _CLASSES.values()
}


def encode(value: Any) -> Any:
    """A syntax tree as plain JSON data: a node `{"c": class, "v": [fields]}`, a Decimal `{"d": text}`,
    a date `{"t": "YYYY-MM-DD"}`, a tuple a list; text, whole numbers, booleans and null as they are."""
    if value is None or isinstance(value, bool | str | int):
        return value
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    if isinstance(value, Decimal):
        return {"d": str(value)}
    if isinstance(value, date):
        return {"t": value.isoformat()}
    cls = type(value)
    if cls in _FIELDS:
        return {"c": cls.__name__, "v": [encode(getattr(value, name)) for name in _FIELDS[cls]]}
    raise TypeError(f"{cls.__name__} is not part of a syntax tree")  # i18n: not shown (a bug of the program)


class NotATree(ValueError):
    """An entry that is not the JSON `encode` writes."""


def decode(data: Any) -> Any:
    """The inverse of `encode`; `NotATree` for anything `encode` does not write."""
    kind = type(data)
    if kind is dict:
        node = data.get("c")
        if node is not None:
            cls = _CLASSES.get(node)
            values = data.get("v")
            if cls is None or type(values) is not list or len(data) != 2 or len(values) != len(_FIELDS[cls]):
                # i18n: not shown (a cache entry that does not read is parsed anew, silently)
                raise NotATree(f"not a syntax tree node: {str(data)[:60]}")
            return cls(*map(decode, values))
        if len(data) == 1:
            if type(data.get("d")) is str:
                try:
                    return Decimal(data["d"])
                except ArithmeticError:
                    raise NotATree("bad decimal") from None  # i18n: not shown (as above)
            if type(data.get("t")) is str:
                return date.fromisoformat(data["t"])
        raise NotATree(f"not a syntax tree value: {str(data)[:60]}")  # i18n: not shown (as above)
    if kind is list:
        return tuple(map(decode, data))
    if data is None or kind is str or kind is int or kind is bool:
        return data
    raise NotATree(f"not a syntax tree value: {kind.__name__}")  # i18n: not shown (as above)


def _lark_version() -> str:
    spec = importlib.util.find_spec("lark")
    if spec is not None and spec.origin is not None:
        with contextlib.suppress(OSError):
            source = Path(spec.origin).read_text(encoding="utf-8")
            found = re.search(r"""^__version__\s*(?::\s*str\s*)?=\s*["']([^"']+)["']""", source, re.M)
            if found:
                return found.group(1)
    import lark

    return str(lark.__version__)


def cache_dir() -> Path | None:
    if os.environ.get("CASINO_VALIDATOR_NO_CACHE"):
        return None
    chosen = os.environ.get("CASINO_VALIDATOR_CACHE")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "casino-validator"


@functools.cache
def _salt() -> bytes:
    # lark's version, read from where it is written rather than by importing lark, which a run whose
    # rulesets all come from the cache never needs.
    digest = hashlib.sha256(f"{_lark_version()} {sys.version_info[:2]}".encode())
    digest.update(grammar_path().read_bytes())
    here = Path(__file__).resolve().parent
    for name in _BUILDERS:
        digest.update((here / name).read_bytes())
    return digest.digest()


def trusted(folder: Path) -> bool:
    """The folder is the user's and only the user (or root) can write to it. A missing folder is made
    so, with mode 0700. A folder another user owns, or one the group or others may write, is not
    used: anyone who can write an entry there could choose the law a ruleset file is read as."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = os.stat(folder, follow_symlinks=False)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # no owners to compare (Windows): the folder's own permissions apply
        return True
    return info.st_uid == getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def entries_dir() -> Path | None:
    """The cache's own folder, inside the one chosen, if both are the user's alone (made so if missing)."""
    folder = cache_dir()
    if folder is None or not trusted(folder) or not trusted(folder / ENTRIES):
        return None
    return folder / ENTRIES


def parsed(text: str, name: str, parse: Callable[[str, str], RulesetFile]) -> RulesetFile:
    """`parse(text, name)`, or the tree it gave last time for the same text, name and parser."""
    folder = entries_dir()
    if folder is None:
        return parse(text, name)
    key = hashlib.sha256(_salt() + name.encode() + b"\0" + text.encode()).hexdigest()
    entry = folder / f"{_name_id(name)}-{key}{SUFFIX}"
    try:
        tree = _decoded(_read_own(entry))
        if isinstance(tree, RulesetFile) and tree.file == name and tree.source_text == text:
            return tree
    except Exception:  # missing, unreadable, or not what `encode` writes: parse as if never kept
        pass
    tree = parse(text, name)  # a RulesetError propagates, and nothing is kept
    _keep(folder, entry, tree)
    return tree


@functools.lru_cache(maxsize=32)
def _decoded(data: bytes) -> Any:
    """An entry's tree, rebuilt once per process for the same bytes: a process that loads the rulesets
    again (`rules check`, run in-process many times by the test suite) reads each entry again, as its
    checks require, but does not rebuild an identical tree (its nodes are frozen: one tree is shared)."""
    return decode(orjson.loads(data))


def _read_own(entry: Path) -> bytes:
    """The entry's bytes, if it is a regular file of the user's that only the user may write."""
    fd = os.open(entry, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        getuid = getattr(os, "getuid", None)
        if not stat.S_ISREG(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            # i18n: not shown (an entry that is not the user's own is parsed anew, silently)
            raise PermissionError(f"{entry}: not a private file")
        if getuid is not None and info.st_uid != getuid():
            raise PermissionError(f"{entry}: another user's file")  # i18n: not shown (as above)
        return handle.read()


def _keep(folder: Path, entry: Path, tree: RulesetFile) -> None:
    if write_beside(folder, entry, lambda: orjson.dumps(encode(tree))):
        _prune(folder, entry)


def write_beside(folder: Path, entry: Path, data: Callable[[], bytes]) -> bool:
    """The bytes `data` makes written to a file beside `entry`, then renamed to it: a reader in another
    process sees a whole entry or none. False when it could not be kept (a full disk, say): the run goes
    on without it."""
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data())
        os.replace(temporary, entry)
    except Exception:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return False
    return True


def _name_id(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()[:16]


def _prune(folder: Path, kept: Path) -> None:
    """Entries for other versions of the same ruleset file (another text, grammar or tool version) are
    never asked for again: remove them when a new one is kept, so the folder holds one entry per ruleset
    file. Only files named as entries are named, in the cache's own folder; and in the default folder
    (this cache's own, not one the user chose), the entries of earlier releases' layouts."""
    prefix = kept.name.split("-", 1)[0]
    for old in folder.iterdir():
        if old != kept and old.name.startswith(prefix + "-") and _ENTRY.fullmatch(old.name):
            with contextlib.suppress(OSError):
                old.unlink()
    if not os.environ.get("CASINO_VALIDATOR_CACHE"):
        with contextlib.suppress(OSError):
            for old in folder.parent.iterdir():
                if _EARLIER.fullmatch(old.name) or _ENTRY.fullmatch(old.name):
                    with contextlib.suppress(OSError):
                        old.unlink()
