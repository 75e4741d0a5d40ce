"""Rulesets from outside the package: `--rules PATH`, `rules = [...]` in the configuration file, and
`CASINO_VALIDATOR_RULES` (paths separated as in `PATH`), all three together.

A path is a `.rules` file or a folder of them (searched at any depth). They are loaded with the shipped
rulesets, so a file may amend a shipped version (`amends fr/blackjack@2024-11-01`) under its own id; an id
the package already ships is refused, never silently shadowed (`registry.py`). The files a run uses are
named with their SHA-256 (the audit dataset's `runs` table), and travel to Dask workers as text with the
tasks (`payload`, `install`): a worker judges with the exact encoding the client read, whether or not it
sees the same paths.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from validator.errors import ValidatorError
from validator.i18n import _

ENV = "CASINO_VALIDATOR_RULES"
SUFFIX = ".rules"

# The files this process judges with besides the shipped ones (absolute paths, sorted, no duplicates).
_EXTRA: list[tuple[Path, ...]] = [()]


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
    return tuple(sorted(unique.values()))


def use(files: Iterable[Path]) -> None:
    """The rulesets from outside that this process judges with from now on (`default_registry`)."""
    _EXTRA[0] = tuple(sorted({Path(os.path.realpath(f)) for f in files}))


def extra() -> tuple[Path, ...]:
    return _EXTRA[0]


def digest(path: Path | str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def payload() -> tuple[tuple[str, str, bytes], ...]:
    """The rulesets from outside as they travel to a worker: (name, SHA-256, content) each."""
    out = []
    for path in extra():
        data = path.read_bytes()
        out.append((str(path), hashlib.sha256(data).hexdigest(), data))
    return tuple(out)


def install(files: tuple[tuple[str, str, bytes], ...]) -> None:
    """On a worker: the client's rulesets from outside, written where this process can load them (a
    folder of the temporary directory per set, named by their digests) and used from now on."""
    if not files:
        use(())
        return
    key = hashlib.sha256("".join(sha for _name, sha, _data in files).encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / f"casino-validator-rules-{key}"
    paths = []
    for name, sha, data in files:
        if hashlib.sha256(data).hexdigest() != sha:
            raise ValidatorError(_("{name}: the ruleset changed on its way to the worker").format(name=name))
        # Each file keeps its name under a folder of its own digest: an amending file finds its base among
        # the files given, whatever folder each came from.
        target = folder / sha[:16] / Path(name).name
        if not target.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            temporary = target.with_name(f".{target.name}.{os.getpid()}")
            temporary.write_bytes(data)
            os.replace(temporary, target)
        paths.append(target)
    use(paths)
