"""Parsed rulesets kept on disk between runs, so that a command starts without parsing every `.rules`
file again (a third of a second of each start-up: Lark builds its tables, then reads ~7 files).

What is kept is the syntax tree only (`ast.RulesetFile`); compiling it is fast and always done anew.
An entry is found by a hash of everything the tree depends on: the file's text and displayed name,
the grammar, the source of the modules that build the tree, Lark's and Python's versions. Change any
of them and the old entry is simply never asked for again. Like parso's cache, entries are pickles in
the user's cache folder: `$XDG_CACHE_HOME/casino-validator`, else `~/.cache/casino-validator`;
`CASINO_VALIDATOR_CACHE` names another folder, `CASINO_VALIDATOR_NO_CACHE=1` turns it off. A folder
that cannot be written, or an entry that cannot be read, only means parsing as before. Entries are
named by the ruleset file's name, then the hash: keeping a new one removes the others of that file.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from validator.dsl.ast import RulesetFile
from validator.resources import grammar_path

_BUILDERS = ("ast.py", "transformer.py", "parser.py")


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
    import lark

    digest = hashlib.sha256(f"{lark.__version__} {sys.version_info[:2]}".encode())
    digest.update(grammar_path().read_bytes())
    here = Path(__file__).resolve().parent
    for name in _BUILDERS:
        digest.update((here / name).read_bytes())
    return digest.digest()


def parsed(text: str, name: str, parse: Callable[[str, str], RulesetFile]) -> RulesetFile:
    """`parse(text, name)`, or the tree it gave last time for the same text, name and parser."""
    folder = cache_dir()
    if folder is None:
        return parse(text, name)
    key = hashlib.sha256(_salt() + name.encode() + b"\0" + text.encode()).hexdigest()
    entry = folder / f"{_name_id(name)}-{key}.pickle"
    try:
        tree = pickle.loads(entry.read_bytes())
        if isinstance(tree, RulesetFile):
            return tree
    except Exception:  # missing, unreadable, or written by something else: parse as if never kept
        pass
    tree = parse(text, name)  # a RulesetError propagates, and nothing is kept
    _keep(folder, entry, tree)
    return tree


def _keep(folder: Path, entry: Path, tree: RulesetFile) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        # Written beside, then renamed: a reader in another process sees a whole entry or none.
        fd, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out:
            pickle.dump(tree, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, entry)
    except Exception:  # a full disk, say: the run goes on without keeping the tree
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return
    _prune(folder, entry)


def _name_id(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()[:16]


def _prune(folder: Path, kept: Path) -> None:
    """Entries for other versions of the same ruleset file (another text, grammar or tool version) are
    never asked for again: remove them when a new one is kept, and the unprefixed entries of earlier
    releases of this cache, so the folder holds one entry per ruleset file."""
    prefix = kept.name.split("-", 1)[0]
    for old in folder.glob("*.pickle"):
        stale = old.name.startswith(prefix + "-") or "-" not in old.name
        if stale and old != kept:
            with contextlib.suppress(OSError):
                old.unlink()
