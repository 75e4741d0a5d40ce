"""Rulesets from outside the package: `--rules PATH`, `rules = [...]` in the configuration file, and
`CASINO_VALIDATOR_RULES` (paths separated as in `PATH`), all three together.

A path is a `.rules` file or a folder of them (searched at any depth). They are loaded with the shipped
rulesets, so a file may amend a shipped version (`amends fr/blackjack@2024-11-01`) under its own id; an id
the package already ships is refused, never silently shadowed (`registry.py`). A version amended or cited
(`same check as`) is looked for among the shipped versions and the files named, never in a file beside
them that nobody named.

The files a run uses are named with their SHA-256 (the audit dataset's `runs` table), and travel to Dask
workers as bytes with the tasks (`payload`, `install`): the bytes the client's registry read (`remember`),
so that a worker judges with exactly what the client judged with, whether or not it sees the same paths.
A worker writes them into a folder of its own (`tempfile.mkdtemp`: mode 0700, a name nobody can guess),
each file written whole under a temporary name then renamed (whatever was at its name is replaced, never
used), and its registry checks each file's digest against the client's once it has read it (`verify`): a
file planted in the temporary directory, or changed after it was written, cannot choose the law. The
worker loads each file under the client's name for it, so findings and the dataset name it alike.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from validator.errors import ValidatorError
from validator.i18n import _

ENV = "CASINO_VALIDATOR_RULES"
SUFFIX = ".rules"
# The most ruleset files a run reads from outside the package (each is parsed by every command).
MAX_FILES = 256

# The files this process judges with besides the shipped ones (absolute paths, sorted, no duplicates).
_EXTRA: list[tuple[Path, ...]] = [()]
# The bytes of those files as this process's registry read them (real path → bytes): what travels.
_READ: dict[str, bytes] = {}
# On a worker: the files it installed (real path → the SHA-256 the client sent, the client's name).
_INSTALLED: dict[str, tuple[str, str]] = {}
# On a worker: its private folder and a descriptor holding it open (made again if it stops being it).
_PRIVATE: list[tuple[Path, int]] = []


def expand(paths: Iterable[Path], origin: str) -> list[Path]:
    """Every ruleset file the paths name: files as given, folders searched for `*.rules` at any depth.
    `origin` says where the paths came from, for the message when one does not exist."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(p for p in path.rglob(f"*{SUFFIX}") if p.is_file())
            if not inside:
                raise ValidatorError(
                    _("{origin} {path}: no ruleset file (*{suffix}) in this folder").format(
                        origin=origin, path=path, suffix=SUFFIX
                    )
                )
            found.extend(inside)
        elif path.is_file():
            found.append(path)
        else:
            raise ValidatorError(
                _("{origin} {path}: no such file or directory").format(origin=origin, path=path)
            )
    return found


def from_environment() -> list[Path]:
    value = os.environ.get(ENV, "")
    return [Path(part) for part in value.split(os.pathsep) if part]


def gather(option: Iterable[Path], configured: Iterable[Path]) -> tuple[Path, ...]:
    """The ruleset files of `--rules`, of the configuration file, and of the environment, each once."""
    files: list[Path] = []
    files += expand(option, "--rules")
    files += expand(configured, "rules =")
    files += expand(from_environment(), ENV)
    unique: dict[str, Path] = {}
    for file in files:
        unique.setdefault(os.path.realpath(file), Path(os.path.realpath(file)))
    return counted(tuple(sorted(unique.values())), "--rules")


def counted(files: tuple[Path, ...], origin: str) -> tuple[Path, ...]:
    """`files`, unless there are more than `MAX_FILES` of them (exit 2: every command reads them all)."""
    if len(files) > MAX_FILES:
        raise ValidatorError(
            _(
                "{origin}: {count} ruleset files, more than the {most} a run reads from outside the package"
            ).format(origin=origin, count=len(files), most=MAX_FILES)
        )
    return files


def use(files: Iterable[Path]) -> None:
    """The rulesets from outside that this process judges with from now on (`default_registry`)."""
    _EXTRA[0] = tuple(sorted({Path(os.path.realpath(f)) for f in files}))


def extra() -> tuple[Path, ...]:
    return _EXTRA[0]


def digest(path: Path | str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def payload() -> tuple[tuple[str, str, bytes], ...]:
    """The rulesets from outside as they travel to a worker: (name, SHA-256, content) each; the content is
    what this process's registry read (`remember`), else the file as it is now."""
    out = []
    for path in extra():
        data = _READ.get(str(path))
        if data is None:
            data = path.read_bytes()
        out.append((str(path), hashlib.sha256(data).hexdigest(), data))
    return tuple(out)


def name_of(path: Path | str) -> str:
    """How findings and the dataset name a ruleset file: an installed file by the client's name for it."""
    installed = _INSTALLED.get(os.path.realpath(path))
    return installed[1] if installed is not None else str(path)


def verify(path: Path | str, data: bytes) -> None:
    """The bytes just read from `path` by the registry: a file this worker installed must hold exactly
    what the client sent (else the run stops, exit 2); a file from outside is remembered as read."""
    key = os.path.realpath(path)
    installed = _INSTALLED.get(key)
    if installed is not None:
        if hashlib.sha256(data).hexdigest() != installed[0]:
            raise ValidatorError(
                _(
                    "{name}: the copy of the ruleset this worker wrote changed before it was read "
                    "(another process writes in its folder?): not judged with"
                ).format(name=installed[1])
            )
        return
    if Path(key) in extra():
        _READ[key] = data


def install(files: tuple[tuple[str, str, bytes], ...]) -> None:
    """On a worker: the client's rulesets from outside, written into this process's private folder (one
    file per name and digest) and used from now on. Nothing found on disk is trusted: the folder is this
    process's own (`_private`), and a file written for an earlier task is used again only while it still
    holds the client's bytes (else it is written again)."""
    if not files:
        use(())
        return
    paths = []
    for name, sha, data in files:
        if hashlib.sha256(data).hexdigest() != sha:
            raise ValidatorError(_("{name}: the ruleset changed on its way to the worker").format(name=name))
        key = hashlib.sha256(f"{name}\0{sha}".encode()).hexdigest()[:32]
        target = _private() / f"{key}{SUFFIX}"
        if str(target) not in _INSTALLED or not _holds(target, sha):
            _write_whole(target, data)
            _INSTALLED[str(target)] = (sha, name)
        paths.append(target)
    use(paths)


def _holds(path: Path, sha: str) -> bool:
    """Whether `path` is a regular file (not a link, not a folder) whose bytes have the digest `sha`."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        return digest(path) == sha
    except OSError:
        return False


def _private() -> Path:
    """This process's own folder for the rulesets it is sent: made by `mkdtemp` (mode 0700, a name of
    its own: `mkdtemp` never takes a name already there, so nothing in it was put there by anyone else),
    its real path, held open (so that its inode cannot be given to another folder while the process
    lives) and removed when the process ends. Before each use the path must still name that very folder
    (the device and inode of the one held open, a folder, not a link, this user's, closed to others): one
    removed (a cleaner of the temporary directory) or put back in its place, even empty, is never used;
    a new one is made. (A file swapped in between this look and the read is still caught: `verify`.)"""
    if _PRIVATE and _still_ours(*_PRIVATE[0]):
        return _PRIVATE[0][0]
    if _PRIVATE:
        stale, held = _PRIVATE.pop()
        os.close(held)
        for installed in [p for p in _INSTALLED if os.path.dirname(p) == str(stale)]:
            del _INSTALLED[installed]
    folder = Path(os.path.realpath(tempfile.mkdtemp(prefix="casino-validator-rules-")))
    held = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    _PRIVATE.append((folder, held))
    atexit.register(_remove, folder, held)
    return folder


def _still_ours(folder: Path, held: int) -> bool:
    try:
        now, made = os.lstat(folder), os.fstat(held)
    except OSError:
        return False
    return (
        stat.S_ISDIR(now.st_mode)
        and (now.st_dev, now.st_ino) == (made.st_dev, made.st_ino)
        and now.st_uid == os.getuid()
        and stat.S_IMODE(now.st_mode) & 0o077 == 0
    )


def _remove(folder: Path, held: int) -> None:
    """At the end of the process: the private folder, if the path still names the one made (never one put
    in its place)."""
    if _still_ours(folder, held):
        shutil.rmtree(folder, ignore_errors=True)
    with contextlib.suppress(OSError):
        os.close(held)


def _write_whole(target: Path, data: bytes) -> None:
    """`data` at `target`: written to a new temporary file beside it, then renamed over whatever is there."""
    fd, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
