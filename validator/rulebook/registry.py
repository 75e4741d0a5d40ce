"""All rulesets: loaded from `rulesets/`, grouped by family, and picked by date.

A round is judged by the version in force on its date; a date no version covers is an error that
says so. There is no fallback to a neighbouring version.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import functools
import hashlib
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import date
from functools import cache
from pathlib import Path

from validator.dsl import ast
from validator.dsl.amend import consolidate, in_force_on, undated
from validator.dsl.cache import parsed
from validator.dsl.cite import not_citable, resolve
from validator.dsl.compiler import compile_ruleset
from validator.dsl.limits import MAX_CHAIN, MAX_FILE_BYTES
from validator.dsl.model import Rule, Ruleset
from validator.dsl.readings import ReadingInfo, chosen
from validator.dsl.resources import rulesets_dir
from validator.errors import RulesetError, RulesetErrors, UnknownRuleset, ValidatorError
from validator.i18n import _
from validator.rulebook import sources


class NoVersionInForce(ValidatorError):
    pass


def read_tree(path: Path | str, display: str | None = None) -> ast.RulesetFile:
    """A ruleset file's syntax tree, as written (an amending file not yet applied to its base), with the
    SHA-256 of the bytes read. A file over `MAX_FILE_BYTES` is refused before it is read whole; a file a
    worker installed is checked against the digest the client sent (`sources.verify`)."""
    path = Path(path)
    name = display or sources.name_of(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ValidatorError(_("{name}: no such file").format(name=name)) from None
    except IsADirectoryError:
        raise ValidatorError(_("{name}: a folder, not a ruleset file").format(name=name)) from None
    except OSError as exc:
        raise ValidatorError(
            _("{name}: cannot be read ({strerror})").format(name=name, strerror=exc.strerror)
        ) from None
    if len(data) > MAX_FILE_BYTES:
        raise RulesetError(
            name,
            1,
            1,
            _("the file is larger than {size} bytes, the most a ruleset file may be").format(
                size=f"{MAX_FILE_BYTES:,}"
            ),
        )
    sources.verify(path, data)
    try:
        # utf-8-sig: a byte-order mark some editors write at the start is dropped, as the log reader does.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RulesetError(name, 1, 1, f"not UTF-8 text ({exc.reason})") from None
    tree = parsed(text, name, _parse)
    return dataclasses.replace(tree, sha256=hashlib.sha256(data).hexdigest())


def _parse(text: str, name: str) -> ast.RulesetFile:
    """The parser (and lark) is imported only when the cache of parsed rulesets does not hold the file."""
    from validator.dsl.parser import parse_ruleset

    return parse_ruleset(text, name)


def load_file(path: Path | str, display: str | None = None) -> Ruleset:
    """One file's version; an amending file is applied to its base, and a cited check found, among the
    shipped versions (a file beside it is never read: name both to `load_all`)."""
    [ruleset] = _compile_all([(Path(path), read_tree(path, display))])
    return ruleset


def tree_version(tree: ast.RulesetFile) -> str:
    """The version a file states (ID@DATE, or the bare ID of an undated text), as the registry names it."""
    return _version_of(tree)


def _version_of(tree: ast.RulesetFile) -> str:
    for header in tree.headers:
        if header.key == "in_force" and header.value[0] is not None:
            return f"{tree.family}@{header.value[0].isoformat()}"
    return tree.family


def _consolidated(
    given: list[tuple[Path, ast.RulesetFile]],
    broken_given: tuple[Path, ...] = (),
    only: frozenset[Path] | None = None,
) -> list[ast.RulesetFile]:
    """Each given tree as a whole version: amending files applied to the version they amend, and the
    checks cited (`same check as`) taken, each looked for among the given files, then among the shipped
    versions. Nothing else is read: a file beside a given one, which nobody named, never chooses the law
    (it could declare a shipped id from outside the package). `broken_given`: files given with these
    that did not parse (their errors are reported already). `only`: the given files to make versions of
    (None: all); the others are only amended or cited."""
    versions = _Versions(given, broken_given)
    out = []
    errors: list[RulesetError] = []
    for path, tree in given:
        if only is not None and path not in only:
            continue
        try:
            out.append(resolve(versions.whole(path, tree), functools.partial(versions.cited, path)))
        except RulesetErrors as exc:
            errors.extend(exc.errors)
    if errors:
        raise RulesetErrors(errors)
    return out


class _Versions:
    """The versions the given files may amend or cite: the given ones, by family, then the shipped ones
    (read once, the first time a version is looked for in vain among the given files); and the versions
    made whole so far, and those that could not be."""

    def __init__(self, given: list[tuple[Path, ast.RulesetFile]], broken_given: tuple[Path, ...]) -> None:
        self.pool: dict[str, list[tuple[Path, ast.RulesetFile]]] = {}  # by family
        for path, tree in given:
            self.pool.setdefault(tree.family, []).append((path, tree))
        self.seen_paths = {path.resolve() for path, _unused in given} | {
            path.resolve() for path in broken_given
        }
        # A given file of a shipped version's id stands in its place (a copy from a checkout, a candidate):
        # the shipped one is not taken beside it, which would make the family two versions of one date.
        self.given_versions = {_version_of(tree) for _unused, tree in given}
        self.broken_given = broken_given
        self.shipped_taken = False
        self.done: dict[int, ast.RulesetFile] = {}
        self.failed: set[int] = set()
        self.lengths: dict[int, int] = {}  # a whole version's chain: itself and the versions below it

    def shipped(self) -> None:
        """The shipped versions, for files read without them (`load_file`) that amend or cite one."""
        if self.shipped_taken:
            return
        self.shipped_taken = True
        root = rulesets_dir()
        for other in ruleset_files(root):
            if other.resolve() not in self.seen_paths:
                self.seen_paths.add(other.resolve())
                tree = read_tree(other, display=f"rulesets/{other.relative_to(root)}")
                if _version_of(tree) not in self.given_versions:
                    self.pool.setdefault(tree.family, []).append((other, tree))

    def find(
        self, family: str, keep: Callable[[ast.RulesetFile], bool]
    ) -> list[tuple[Path, ast.RulesetFile]]:
        """The versions of `family` that `keep`, among the files named, else among the shipped ones."""
        found = [(p, t) for p, t in self.pool.get(family, ()) if keep(t)]
        if not found:
            self.shipped()
            found = [(p, t) for p, t in self.pool.get(family, ()) if keep(t)]
        return found

    def whole(self, path: Path, tree: ast.RulesetFile) -> ast.RulesetFile:
        """The version made whole: the chain of versions it amends followed down (without recursion) to
        one already whole or that amends nothing, then each amendment applied on the way back up. A
        version more than `MAX_CHAIN` versions up a chain is refused (the first such one, at its
        `amends`), and those above it with it."""
        if tree.amends is None:
            return tree
        if id(tree) in self.done:
            return self.done[id(tree)]
        if id(tree) in self.failed:
            raise RulesetErrors([])  # its own errors are reported once, where it is checked
        chain = [(path, tree)]
        try:
            self.follow_down(chain)
            self.apply_up(chain)
        except RulesetErrors:
            self.failed.update(id(t) for _p, t in chain if id(t) not in self.done)
            raise
        return self.done[id(tree)]

    def follow_down(self, chain: list[tuple[Path, ast.RulesetFile]]) -> None:
        """`chain` extended with the versions its last amends, down to one already whole or that amends
        nothing; versions that amend each other in a circle are refused."""
        on_chain = {id(tree) for _path, tree in chain}
        while True:
            below = chain[-1][1]
            if below.amends is None or id(below) in self.done:
                return
            if id(below) in self.failed:
                raise RulesetErrors([])
            base = self.base(below)
            if id(base[1]) in on_chain:
                pos = base[1].amends.pos if base[1].amends is not None else base[1].family_pos
                said = _("versions amend each other in a circle")
                raise RulesetErrors([RulesetError(base[1].file, pos.line, pos.column, said)])
            chain.append(base)
            on_chain.add(id(base[1]))

    def apply_up(self, chain: list[tuple[Path, ast.RulesetFile]]) -> None:
        """Each amendment of `chain` applied to the version below it made whole, from the bottom up."""
        bottom = chain[-1][1]
        result = self.done.get(id(bottom), bottom)
        length = self.lengths.get(id(bottom), 1)
        for (_path, above), (_base_path, base_tree) in reversed(list(itertools.pairwise(chain))):
            length += 1
            if length > MAX_CHAIN:
                pos = above.amends.pos if above.amends is not None else above.family_pos
                said = _(
                    "more than {count} versions amend one another in a chain down to here: make the "
                    "earlier ones one version"
                ).format(count=MAX_CHAIN)
                raise RulesetErrors([RulesetError(above.file, pos.line, pos.column, said)])
            result = consolidate(above, result, _version_of(base_tree))
            self.done[id(above)] = result
            self.lengths[id(above)] = length

    def base(self, tree: ast.RulesetFile) -> tuple[Path, ast.RulesetFile]:
        """The version `tree` amends, among the files given, else the shipped versions (undated
        `amends FAMILY`: every version of the family there, of which there must be one)."""
        amends = tree.amends
        assert amends is not None
        day = amends.on
        found = self.find(amends.family, lambda t: t is not tree and (day is None or in_force_on(t, day)))
        if not found and self.broken_given:
            raise RulesetErrors([])  # the version it amends may be a given file that does not parse
        if len(found) != 1:
            message = _no_one_base(amends, len(found))
            raise RulesetErrors([RulesetError(tree.file, amends.pos.line, amends.pos.column, message)])
        return found[0]

    def cited(self, path: Path, family: str, on: date | None) -> tuple[ast.RulesetFile, str]:
        """The version a `same check as` names: the one in force on `on` (the undated one for None),
        looked for as the version an amending file amends is."""
        if on is None:
            found = self.find(family, undated)
        else:
            day = on
            found = self.find(family, lambda t: in_force_on(t, day))
        if len(found) != 1:
            raise not_citable(family, on, found)
        base_path, base_tree = found[0]
        return self.whole(base_path, base_tree), _version_of(base_tree)


def _no_one_base(amends: ast.Amends, count: int) -> str:
    """Why an amending file's `amends` names no one version: `count` versions (0, or more than 1) fit."""
    if amends.on is None:
        if count:
            return _(
                "{family} has {count} versions: name the one amended by its date ({family}@YYYY-MM-DD)"
            ).format(family=amends.family, count=count)
        return _("no version of {family} to amend").format(family=amends.family)
    if count:
        said = _("more than one version of {family} in force on {day} to amend")
    else:
        said = _(
            "no version of {family} in force on {day} to amend among the shipped versions and "
            "the files named (a file beside it is not read unless it is named)"
        )
    return said.format(family=amends.family, day=amends.on.isoformat())


def _compile_all(
    given: list[tuple[Path, ast.RulesetFile]],
    broken_given: tuple[Path, ...] = (),
    only: frozenset[Path] | None = None,
) -> list[Ruleset]:
    rulesets = []
    errors: list[RulesetError] = []
    try:
        trees = _consolidated(given, broken_given, only)
    except RulesetErrors as exc:
        errors.extend(exc.errors)
        trees = []
    for tree in trees:
        try:
            rulesets.append(compile_ruleset(tree))
        except RulesetErrors as exc:
            errors.extend(exc.errors)
        except RulesetError as exc:
            errors.append(exc)
    if errors:
        raise RulesetErrors(errors)
    return rulesets


class Registry:
    def __init__(self, rulesets: Iterable[Ruleset], readings: Mapping[str, str] | None = None) -> None:
        # The readings chosen for this registry's versions (reading → alternative), as asked.
        self.chosen: dict[str, str] = dict(readings or {})
        self.families: dict[str, list[Ruleset]] = {}
        for ruleset in rulesets:
            self.families.setdefault(ruleset.family, []).append(ruleset)
        for versions in self.families.values():
            versions.sort(key=lambda r: r.valid_from or date.min)
        self._check_overlaps()

    def _check_overlaps(self) -> None:
        errors = []
        for family, versions in self.families.items():
            for before, after in itertools.pairwise(versions):
                if (
                    before.valid_until is None
                    or after.valid_from is None
                    or before.valid_until >= after.valid_from
                ):
                    which = (
                        _("the version in force from {day}").format(day=after.valid_from.isoformat())
                        if after.valid_from is not None
                        else _("the undated version, which applies to every date,")
                    )
                    said = _("{family}: {which} overlaps the one of {file}, {dates}").format(
                        family=family, which=which, file=before.file, dates=before.dates()
                    )
                    errors.append(RulesetError(after.file, 1, 1, said))
        if errors:
            raise RulesetErrors(errors)

    def with_readings(self, choices: Mapping[str, str]) -> Registry:
        """The same versions, each compiled under the alternatives chosen among its own readings (others
        as written). `choices` are checked first: an unknown reading or alternative stops the run."""
        if not choices:
            return self
        check_choices(self, choices)
        return Registry([under_readings(r, choices) for r in self.all()], {**self.chosen, **choices})

    def readings(self) -> dict[str, list[tuple[Ruleset, ReadingInfo]]]:
        """Each reading id → the versions that have it, with the reading as each states it."""
        found: dict[str, list[tuple[Ruleset, ReadingInfo]]] = {}
        for ruleset in self.all():
            for name, reading in ruleset.readings.items():
                found.setdefault(name, []).append((ruleset, reading))
        return found

    def all(self) -> list[Ruleset]:
        return [r for family in sorted(self.families) for r in self.families[family]]

    def family(self, family: str) -> list[Ruleset]:
        try:
            return self.families[family]
        except KeyError:
            known = ", ".join(sorted(self.families))
            raise UnknownRuleset(
                _("unknown ruleset {family!r}: known rulesets are {known}").format(family=family, known=known)
            ) from None

    def in_force(self, family: str, day: date) -> Ruleset:
        versions = self.family(family)
        for ruleset in versions:
            if ruleset.in_force_on(day):
                return ruleset
        covered = "; ".join(f"{r.version} {r.dates()}" for r in versions)
        raise NoVersionInForce(
            _("{family} has no version in force on {day} (its versions: {covered})").format(
                family=family, day=day.isoformat(), covered=covered
            )
        )

    def resolve(self, spec: str) -> tuple[str, date | None]:
        """`fr/blackjack` or `fr/blackjack@2019-06-01` → (family, pinned date or None)."""
        family, at, when = spec.partition("@")
        self.family(family)
        if not at:
            return family, None
        try:
            # fromisoformat also reads 20250101; the message, and the user, expect YYYY-MM-DD.
            if len(when) != 10:
                raise ValueError(when)
            return family, date.fromisoformat(when)
        except ValueError:
            raise ValidatorError(
                _("{spec!r}: the date after @ must be YYYY-MM-DD").format(spec=spec)
            ) from None

    def pick(self, spec: str) -> Ruleset:
        """`ID@DATE` → that version; a bare `ID` → the version in force today, or the latest."""
        family, when = self.resolve(spec)
        if when is not None:
            return self.in_force(family, when)
        return self.family(family)[-1]


def parse_choices(given: Iterable[str], where: str = "--reading") -> dict[str, str]:
    """`ID=ALTERNATIVE` strings → {reading: alternative}; a malformed one, or a reading given twice with
    two answers, stops the run."""
    choices: dict[str, str] = {}
    for text in given:
        name, eq, alternative = text.partition("=")
        name, alternative = name.strip(), alternative.strip()
        if not eq or not name or not alternative:
            raise ValidatorError(
                _("{where} {text}: give ID=ALTERNATIVE (a reading and one of its answers)").format(
                    where=where, text=repr(text)
                )
            )
        if choices.get(name, alternative) != alternative:
            both = f"{choices[name]}, {alternative}"
            raise ValidatorError(
                _("{where}: reading {name} is given two alternatives ({both})").format(
                    where=where, name=repr(name), both=both
                )
            )
        choices[name] = alternative
    return choices


def choice_problem(registry: Registry, name: str, alternative: str) -> str | None:
    """Why `name=alternative` is no reading of the registry's versions (with a did-you-mean), or None."""
    readings = registry.readings()
    if name not in readings:
        near = difflib.get_close_matches(name, list(readings), n=1)
        hint = _(" (did you mean {name}?)").format(name=repr(near[0])) if near else ""
        known = ", ".join(sorted(readings)) or _("none")
        return _("unknown reading {name}{hint}: the readings are {known}").format(
            name=repr(name), hint=hint, known=known
        )
    names: list[str] = []
    for _unused, reading in readings[name]:
        names.extend(n for n in reading.names if n not in names)
    if alternative not in names:
        near = difflib.get_close_matches(alternative, names, n=1)
        hint = _(" (did you mean {name}?)").format(name=repr(near[0])) if near else ""
        known = ", ".join(names)
        return _(
            "reading {name} has no alternative {alternative}{hint}: its alternatives are {known}"
        ).format(name=repr(name), alternative=repr(alternative), hint=hint, known=known)
    return None


def check_choices(registry: Registry, choices: Mapping[str, str]) -> None:
    for name, alternative in choices.items():
        problem = choice_problem(registry, name, alternative)
        if problem is not None:
            raise ValidatorError(problem)


# Versions compiled under readings, kept for the run: (the tree as written, the alternatives other
# than the defaults) → the version (the tree is kept alive with it, so its id is not reused).
_UNDER: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[ast.RulesetFile, Ruleset]] = {}
_UNDER_NAMED: dict[tuple[tuple[int, tuple[tuple[str, str], ...]], tuple[tuple[str, str], ...]], Ruleset] = {}


def under_readings(ruleset: Ruleset, choices: Mapping[str, str]) -> Ruleset:
    """`ruleset` compiled under the alternatives chosen among its readings, on top of those it already
    applies (a choice of a reading it does not have, or an alternative it does not list, is left out)."""
    own = {n: a for n, a in choices.items() if n in ruleset.readings and a in ruleset.readings[n].names}
    merged = {**dict(ruleset.applied), **own}
    applied = tuple(sorted(merged.items()))
    if applied == ruleset.applied or ruleset.tree is None:
        return ruleset
    other = tuple((n, a) for n, a in applied if ruleset.readings[n].default != a)
    key = (id(ruleset.tree), other)
    found = _UNDER.get(key)
    if found is None:
        try:
            compiled = compile_ruleset(chosen(ruleset.tree, dict(other)))
        except (RulesetErrors, RulesetError) as exc:
            said = ", ".join(f"{n} = {a}" for n, a in other)
            raise ValidatorError(
                _("{version} under reading {readings} does not compile:\n{error}").format(
                    version=ruleset.version, readings=said, error=exc
                )
            ) from None
        found = (ruleset.tree, dataclasses.replace(compiled, tree=ruleset.tree))
        _UNDER[key] = found
    # The same object for the same choices (frozen): what is computed from a version in this process,
    # `edge`'s figures under each reading, is found again by it.
    named = _UNDER_NAMED.get((key, applied))
    if named is None:
        named = dataclasses.replace(found[1], applied=applied)
        _UNDER_NAMED[(key, applied)] = named
    return named


Outcome = tuple[str, str, "Ruleset | list[RulesetError]"]


def alternatives(ruleset: Ruleset) -> list[Outcome]:
    """Each non-default alternative of the version's readings compiled alone, in the order the readings
    list them: its reading, its name, and the version it gives or the errors it raises. `rules check`
    asks both what they break and what rules they give (`alternative_errors`, `alternative_rules`):
    compiled once, handed to both. Not kept beyond the caller: the errors are in the language of the run."""
    if ruleset.tree is None:
        return []
    compiled: list[Outcome] = []
    for reading in ruleset.readings.values():
        for alt in reading.alternatives:
            if alt.name == reading.default:
                continue
            outcome: Ruleset | list[RulesetError]
            try:
                outcome = compile_ruleset(chosen(ruleset.tree, {reading.name: alt.name}))
            except RulesetErrors as exc:
                outcome = list(exc.errors)
            except RulesetError as exc:
                outcome = [exc]
            compiled.append((reading.name, alt.name, outcome))
    return compiled


def alternative_errors(ruleset: Ruleset, compiled: list[Outcome] | None = None) -> list[RulesetError]:
    """Each non-default alternative of the version's readings compiled alone (`rules check`): what it
    breaks (an unread parameter, an uncited condition, a name unknown where it is cited) as errors,
    each saying under which reading it arises. `compiled`: `alternatives(ruleset)`, when already made."""
    errors: list[RulesetError] = []
    for reading, alternative, outcome in alternatives(ruleset) if compiled is None else compiled:
        if isinstance(outcome, Ruleset):
            continue
        under = _("under reading {reading} = {alternative}").format(reading=reading, alternative=alternative)
        errors.extend(RulesetError(e.file, e.line, e.column, f"{under}: {e.detail}") for e in outcome)
    return errors


def alternative_rules(ruleset: Ruleset, compiled: list[Outcome] | None = None) -> list[Rule]:
    """The rules each non-default alternative of the version's readings gives (`rules check` asks each
    for its French as it does the version's own rules); an alternative that does not compile gives none
    (`alternative_errors` says why). `compiled`: `alternatives(ruleset)`, when already made."""
    rules: list[Rule] = []
    for _reading, _alternative, outcome in alternatives(ruleset) if compiled is None else compiled:
        if isinstance(outcome, Ruleset):
            rules.extend(outcome.rules)
    return rules


def compile_trees(
    given: list[tuple[Path, ast.RulesetFile]], only: frozenset[Path] | None = None
) -> list[Ruleset]:
    """The versions of syntax trees already read (a file's tree changed in memory: `rules test --mutate`),
    each amending tree applied to the one it amends among them; `only`: the files to make versions of."""
    return _compile_all(given, (), only)


@contextlib.contextmanager
def compiled_for_now() -> Iterator[None]:
    """Versions compiled under readings inside the block (those of trees changed in memory) are not kept
    once it ends."""
    under, named = set(_UNDER), set(_UNDER_NAMED)
    try:
        yield
    finally:
        for key in set(_UNDER) - under:
            del _UNDER[key]
        for name in set(_UNDER_NAMED) - named:
            del _UNDER_NAMED[name]


def ruleset_files(root: Path | None = None) -> list[Path]:
    root = root or rulesets_dir()
    return sorted(root.rglob("*.rules"))


def load_all(paths: Iterable[Path], root: Path | None = None) -> Registry:
    given: list[tuple[Path, ast.RulesetFile]] = []
    broken: list[Path] = []
    errors: list[RulesetError] = []
    for path in paths:
        inside = root is not None and path.is_relative_to(root)
        display = (
            f"rulesets/{path.relative_to(root)}" if root is not None and inside else sources.name_of(path)
        )
        try:
            given.append((path, read_tree(path, display=display)))
        except RulesetErrors as exc:
            errors.extend(exc.errors)
            broken.append(path)
        except RulesetError as exc:
            errors.append(exc)
            broken.append(path)
    try:
        rulesets = _compile_all(given, tuple(broken))
    except RulesetErrors as exc:
        errors.extend(exc.errors)
    if errors:
        raise RulesetErrors(errors)
    return Registry(rulesets)


def default_registry() -> Registry:
    """The shipped rulesets, with those from outside this process was told to use (`sources.use`)."""
    return registry_with(sources.extra())


@cache
def registry_with(extra: tuple[Path, ...]) -> Registry:
    root = rulesets_dir()
    shipped = ruleset_files(root)
    if not extra:
        return load_all(shipped, root)
    refuse_shipped_ids(extra, {tree_family(path) for path in shipped})
    return load_all([*shipped, *extra], root)


def shipped_version(spec: str) -> Ruleset | None:
    """The shipped version `spec` names (`ID@YYYY-MM-DD`: the one in force that day; a bare `ID`: the
    latest), compiled alone: the versions it amends or cites are read (from the parse cache), not
    compiled, so a command about one version (`edge`) does not compile the others. None where this
    cannot stand for `default_registry().pick(spec)`: rulesets from outside in use, an unknown family,
    a malformed date, no version or two in force that day (the whole registry then says why)."""
    if sources.extra():
        return None
    family, at, when = spec.partition("@")
    day: date | None = None
    if at:
        try:
            day = date.fromisoformat(when) if len(when) == 10 else None
        except ValueError:
            day = None
        if day is None:
            return None
    root = rulesets_dir()
    given = [
        (path, read_tree(path, display=f"rulesets/{path.relative_to(root)}")) for path in ruleset_files(root)
    ]
    versions = [(path, tree) for path, tree in given if tree.family == family]
    if day is not None:
        versions = [(path, tree) for path, tree in versions if in_force_on(tree, day)]
    elif versions:
        latest = max(_starts(tree) for _path, tree in versions)
        versions = [(path, tree) for path, tree in versions if _starts(tree) == latest]
    if len(versions) != 1:
        return None
    [ruleset] = _compile_all(given, (), frozenset({versions[0][0]}))
    return ruleset


def _starts(tree: ast.RulesetFile) -> date:
    """The day a file's `in force` header starts (the earliest for an undated one)."""
    for header in tree.headers:
        if header.key == "in_force" and header.value[0] is not None:
            start: date = header.value[0]
            return start
    return date.min


def tree_family(path: Path) -> str:
    return read_tree(path).family


def refuse_shipped_ids(extra: tuple[Path, ...], shipped: set[str]) -> None:
    """A ruleset from outside may not add a version to a family the package ships, nor replace one: an
    audit must know which encoding judged it, and a shadowed law would be silent."""
    errors = []
    for path in extra:
        try:
            tree = read_tree(path)
        except ValidatorError:
            continue  # a file that does not parse is reported where it is loaded, with its place
        if tree.family in shipped:
            errors.append(
                RulesetError(
                    str(path),
                    tree.family_pos.line,
                    tree.family_pos.column,
                    _(
                        "ruleset {family} is shipped with casino-validator: a ruleset from outside cannot "
                        "replace it or add a version to it; give yours an id of its own (such as {example}) "
                        "and start it with `amends {family}@DATE`"
                    ).format(family=tree.family, example=f"zz/{tree.family.split('/')[-1]}"),
                )
            )
    if errors:
        raise RulesetErrors(errors)


def encoding_files(registry: Registry, versions: Iterable[str]) -> list[dict[str, str]]:
    """The files that wrote `versions` (each version's own file, those of the versions it amends and of
    the versions whose rules' checks it takes, `same check as`), with the version each holds and the
    SHA-256 of the bytes this process read it from: the exact encoding a run was judged with (not what
    the file holds by the time the run ends)."""
    by_version = {ruleset.version: ruleset for ruleset in registry.all()}
    out: dict[str, dict[str, str]] = {}
    todo = [by_version[v] for v in sorted(versions) if v in by_version]
    while todo:
        ruleset = todo.pop()
        if ruleset.file not in out:
            sha = ruleset.tree.sha256 if ruleset.tree is not None else ""
            out[ruleset.file] = {"file": ruleset.file, "version": ruleset.version, "sha256": sha}
        # A cited version's clauses judged too: its files are part of the encoding (each looked at once).
        cited = {rule.same_check.version for rule in ruleset.rules if rule.same_check is not None}
        todo.extend(by_version[v] for v in sorted(cited) if v in by_version and by_version[v].file not in out)
        if ruleset.amends:
            family, _, day = ruleset.amends.partition("@")
            try:
                # Undated (`amends FAMILY`): the family's one version.
                base = (
                    registry.in_force(family, date.fromisoformat(day)) if day else registry.family(family)[0]
                )
            except (ValidatorError, ValueError):
                continue
            todo.append(base)
    return [out[name] for name in sorted(out)]
