"""One typed options object per command (issue 36, part 1): built once by the CLI from the command line,
taken whole by the command's module and the layers below; each option's choices read from the registry
that owns them; each default written once, in the options class, and the same at every layer."""

from __future__ import annotations

import inspect
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import NoneType
from typing import Any, get_args

import pytest
from conftest import ROOT, SAMPLES, run_cli

from validator import formats
from validator.commands.options import (
    CheckOptions,
    EdgeOptions,
    ExplainOptions,
    LintOptions,
    ReportOptions,
    RulesCheckOptions,
    RulesDiffOptions,
    RulesListOptions,
    RulesShowOptions,
    RulesTestOptions,
    SchemaOptions,
    SimulateOptions,
    WatchOptions,
    default,
)
from validator.commands.schema import SCHEMAS
from validator.findings.config import FAIL_LEVELS
from validator.i18n import LANGUAGES
from validator.simulate.players import KINDS

LOG = str(SAMPLES / "logs" / "disputes" / "BJ-03-2016-06-11.jsonl")


def _commands() -> dict[str, Any]:
    """Every command of the CLI by its name as typed (`rules show`), as click builds it."""
    import typer.main

    from validator.cli import app

    group = typer.main.get_command(app)
    found: dict[str, Any] = {}
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        found[name] = command
        for sub, nested in getattr(command, "commands", {}).items():
            found[f"{name} {sub}"] = nested
    return found


def _option(command: str, name: str) -> Any:
    return _option_of(_commands()[command], name)


def _option_of(command: Any, name: str) -> Any:
    (param,) = [p for p in command.params if name in p.opts]
    return param


def _choices(param: Any) -> list[str]:
    """The values an option takes: the members of the enumeration it is declared with."""
    annotation = param.type_descriptor.annotation
    (enumeration,) = [
        a for a in (*get_args(annotation), annotation) if isinstance(a, type) and a is not NoneType
    ]
    return [member.value for member in enumeration]


# ---------------------------------------------------------------- one object, built once, with the defaults

# What each command is given with nothing but what it requires, the module whose `run` takes it, and the
# object it must be: the options class with every default of its own.
MINIMAL = [
    (("check", "x.jsonl"), "check", "run", CheckOptions(logs=("x.jsonl",))),
    (("watch", "x.jsonl"), "watch", "run", WatchOptions(logs=("x.jsonl",))),
    # `check --follow` is `watch` with watch's own defaults (once written, in WatchOptions).
    (("check", "x.jsonl", "--follow"), "watch", "run", WatchOptions(logs=("x.jsonl",))),
    (("report", "d"), "report", "run", ReportOptions(datasets=(Path("d"),))),
    (("explain", "x.jsonl", "--round", "R1"), "explain", "run", ExplainOptions("x.jsonl", "R1")),
    (("simulate", "--ruleset", "fr/bataille"), "simulate", "run", SimulateOptions("fr/bataille")),
    (("edge",), "edge", "run", EdgeOptions()),
    (("lint", "h.yaml"), "lint", "run", LintOptions(files=(Path("h.yaml"),))),
    (("schema", "findings"), "schema", "run", SchemaOptions("findings")),
    (("rules", "list"), "rules", "list_", RulesListOptions()),
    (("rules", "show", "fr/bataille"), "rules", "show", RulesShowOptions("fr/bataille")),
    (("rules", "diff", "a", "b"), "rules", "diff", RulesDiffOptions("a", "b")),
    (("rules", "check", "r.rules"), "rules", "check", RulesCheckOptions((Path("r.rules"),))),
    (("rules", "test"), "rules", "test", RulesTestOptions()),
]


def _given(monkeypatch: pytest.MonkeyPatch, module: str, function: str, *args: str) -> list[Any]:
    """The options objects the command's module was given when the CLI ran `args` (its `run` replaced
    by one that records them and finds nothing)."""
    import importlib

    taken: list[Any] = []

    def record(options: Any, **_: Any) -> int:
        taken.append(options)
        return 0

    monkeypatch.setattr(importlib.import_module(f"validator.commands.{module}"), function, record)
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    return taken


@pytest.mark.parametrize(("args", "module", "function", "expected"), MINIMAL, ids=lambda v: str(v))
def test_each_command_is_given_one_object_with_the_defaults_of_its_class(
    monkeypatch, args, module, function, expected
):
    assert _given(monkeypatch, module, function, *args) == [expected]


def test_every_option_given_reaches_the_object(monkeypatch):
    # Written out: what each option of `check` becomes in the object (the CLI's only job).
    args = ("check", "a.jsonl", "b.jsonl", "--ruleset", "fr/blackjack", "--house", "h.yaml", "-f", "json")
    args += ("-o", "out.json", "-q", "--select", "fr/,house/", "--ignore", "x", "--fail-level", "warning")
    args += ("--reading", "r=a", "--max-line-bytes", "2M", "--max-broken-records", "3", "-j", "2")
    (options,) = _given(monkeypatch, "check", "run", *args)
    assert options.logs == ("a.jsonl", "b.jsonl") and options.ruleset == "fr/blackjack"
    assert (options.house, options.format, options.output) == (Path("h.yaml"), "json", Path("out.json"))
    assert options.quiet and options.policy.select == ("fr/,house/",) and options.policy.ignore == ("x",)
    assert options.policy.fail_level == "warning" and options.policy.readings == ("r=a",)
    assert (options.limits.max_line_bytes, options.limits.max_broken_records) == ("2M", 3)
    assert options.jobs == 2 and options.rules == ()


def test_the_help_shows_the_defaults_of_the_options_classes():
    # The CLI's parameters carry the classes' defaults (typer needs them in the function's signature).
    assert _option("check", "--jobs").default == default(CheckOptions, "jobs") == 1
    assert _option("check", "--scheduler-timeout").default == default(CheckOptions, "scheduler_timeout")
    assert _option("watch", "--interval").default == default(WatchOptions, "interval") == 0.25
    assert _option("watch", "--state").default == default(WatchOptions, "state")
    assert _option("simulate", "--rounds").default == default(SimulateOptions, "rounds") == 100
    assert _option("simulate", "--players").default == default(SimulateOptions, "players") == "best"
    # A help that names its default shows the class's.
    helped = run_cli("watch", "-h").stdout
    assert "(default .casino-validator-watch.json)" in helped.replace("-\n", "-").replace(" " * 34, "")
    assert "Time between two looks (default 0.25)." in helped
    assert "Kill CMD past this (default 30)." in helped


def test_the_layers_below_have_no_defaults_of_their_own():
    """`players` was `best` in the CLI and `random` in `prepare`: `prepare` and the watcher now take the
    options object, with no default for any option."""
    from validator.live.watch import Watcher
    from validator.simulate.plan import prepare

    assert list(inspect.signature(prepare).parameters) == ["registry", "options", "violations_for"]
    watcher = inspect.signature(Watcher).parameters
    assert "options" in watcher and not {"interval", "ruleset", "targets"} & set(watcher)


def test_simulate_plays_the_players_the_help_names_by_default(monkeypatch, tmp_path):
    # The help says `best` is the default: the séance is played by the strategy `best` gives.
    from validator.simulate import players

    kinds: list[str] = []
    real = players.strategy_for

    def recorded(kind: str, *args: Any, **kwargs: Any) -> Any:
        kinds.append(kind)
        return real(kind, *args, **kwargs)

    monkeypatch.setattr(players, "strategy_for", recorded)
    done = run_cli(
        "simulate", "--ruleset", "fr/bataille", "--rounds", "2", "-q", "-o", str(tmp_path / "s.jsonl")
    )
    assert done.returncode == 0, done.stderr
    assert kinds == ["best"] == [default(SimulateOptions, "players")]


# ---------------------------------------------------------------- choices from their registries


def test_the_choices_are_read_from_their_registries():
    assert _choices(_option("check", "--format")) == list(formats.names())
    assert _choices(_option("watch", "--format")) == list(formats.names())
    assert _choices(_option("lint", "--format")) == list(formats.names(of_house=True))
    assert "html" in formats.names() and "html" not in formats.names(of_house=True)
    assert formats.names(streaming=True) == ("text", "jsonl", "github")
    assert _choices(_option("simulate", "--players")) == list(KINDS)
    for command, name in (("check", "--fail-level"), ("lint", "--fail-level"), ("watch", "--bell")):
        assert _choices(_option(command, name)) == list(FAIL_LEVELS)
    assert _commands()["schema"].params[0].metavar == "|".join(SCHEMAS)
    for command in _commands().values():
        if not getattr(command, "commands", None):
            assert _choices(_option_of(command, "--lang")) == list(LANGUAGES)


_NEW_FORMAT = """
import sys
import validator.formats as registry
registry.FORMATS["ndjson"] = registry.Format("validator.formats.jsonl", "JsonLinesReporter", streams=True)
sys.argv = ["casino-validator", *{args!r}]
from validator.cli import main
main()
"""


def _with_new_format(*args: str) -> subprocess.CompletedProcess[str]:
    code = _NEW_FORMAT.format(args=list(args))
    return subprocess.run(
        [sys.executable, "-P", "-c", code], capture_output=True, text=True, cwd=ROOT, check=False, timeout=300
    )


def test_a_format_added_to_the_registry_is_a_format_choice_of_every_command_that_takes_it():
    """A format registered in validator/formats (here `ndjson`, written by the jsonl reporter) is a
    `--format` choice of `check`, `watch` (it streams) and `lint`, without a line of the CLI changed."""
    done = _with_new_format("check", LOG, "-q", "-f", "ndjson")
    assert done.returncode == 1, done.stderr  # the sample's disputes are findings
    assert done.stdout == run_cli("check", LOG, "-q", "-f", "jsonl").stdout != ""
    helped = _with_new_format("check", "-h").stdout
    assert "[text|jsonl|json|sarif|junit|github|gitlab|html|ndjson]" in helped.replace("\n", "").replace(
        " ", ""
    )
    linted = _with_new_format("lint", str(SAMPLES / "house" / "mistakes.yaml"), "-f", "ndjson")
    assert linted.returncode == 1 and linted.stdout.startswith("{"), linted.stderr
    # Without it, the same command refuses the name, listing the registry's formats.
    refused = run_cli("check", LOG, "-f", "ndjson")
    assert refused.returncode == 2
    assert (
        "--format ndjson: choose one of text, jsonl, json, sarif, junit, github, gitlab, html"
        in refused.stderr
    )


def test_watch_refuses_a_format_the_registry_does_not_stream(tmp_path):
    done = run_cli("watch", str(tmp_path), "-f", "json", "--state", str(tmp_path / "state.json"))
    assert done.returncode == 2
    assert "--format text | jsonl | github (json is one document" in done.stderr


# ---------------------------------------------------------------- the logs found once


class _Counting:
    """How many times a store's folder was listed (`find`, what expanding a prefix does)."""

    finds = 0


@pytest.fixture
def counted_store() -> Iterator[str]:
    """Two sample logs and a README under a prefix of a file system that counts its listings (fsspec's
    in-memory one under the protocol `counted`, standing in for s3://); the prefix's URL."""
    fsspec = pytest.importorskip("fsspec")
    from fsspec.implementations.memory import MemoryFileSystem

    class Counted(MemoryFileSystem):  # type: ignore[misc]
        protocol = "counted"

        @classmethod
        def _strip_protocol(cls, path: str) -> str:
            return str(super()._strip_protocol(path.replace("counted://", "memory://", 1)))

        def find(self, *args: Any, **kwargs: Any) -> Any:
            _Counting.finds += 1
            return super().find(*args, **kwargs)

    fsspec.register_implementation("counted", Counted, clobber=True)
    fs = fsspec.filesystem("counted")
    root = f"/bucket-{uuid.uuid4().hex[:8]}/logs"
    for name in ("BJ-03-2016-06-11.jsonl", "BA-01-2025-02-01.jsonl"):
        fs.pipe(f"{root}/{name}", (SAMPLES / "logs" / "disputes" / name).read_bytes())
    fs.pipe(f"{root}/README.txt", b"not a log")
    _Counting.finds = 0
    try:
        yield f"counted://{root}/"
    finally:
        fs.rm(root, recursive=True)


@pytest.mark.parametrize("extra", [(), ("--all-readings",), ("-f", "html", "-o", "{tmp}/page.html")])
def test_check_lists_a_stores_prefix_once(counted_store, extra, tmp_path):
    """Before, `check` expanded its arguments twice (two listings of an s3:// prefix: once to open the
    logs before reporting, once to replay them), and once more per reading's alternative judged with
    --all-readings. The logs are now found once and every layer takes them."""
    if "html" in extra:
        pytest.importorskip("duckdb")
    args = [arg.replace("{tmp}", str(tmp_path)) for arg in extra]
    done = run_cli("check", counted_store, "-q", "-f", "json", *args)
    assert done.returncode == 1, done.stderr
    assert _Counting.finds == 1
    if not extra:
        # Both logs read, and the same findings as the local files give.
        local = run_cli(
            "check",
            *(
                str(SAMPLES / "logs" / "disputes" / n)
                for n in ("BA-01-2025-02-01.jsonl", "BJ-03-2016-06-11.jsonl")
            ),
            "-q",
            "-f",
            "json",
        )
        assert _count_findings(done.stdout) == _count_findings(local.stdout) > 0


def _count_findings(report: str) -> int:
    import json

    return int(json.loads(report)["summary"]["findings"]["total"])


def test_the_files_not_read_of_a_folder_are_found_in_the_same_walk(tmp_path):
    from validator.logs.reader import find_logs, iter_log_paths

    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "b.JSONL").write_text("", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    (tmp_path / ".DS_Store").write_text("", encoding="utf-8")
    found = find_logs([str(tmp_path)])
    assert found.paths == (str(tmp_path / "b.JSONL"), str(tmp_path / "sub" / "a.jsonl"))
    assert found.not_read == (str(tmp_path / "notes.txt"),)
    # Logs found are taken as they are: nothing is listed again.
    assert iter_log_paths(found) == list(found.paths) and find_logs(found) is found


# ---------------------------------------------------------------- --lang wherever it is typed


def test_lang_after_the_command_chooses_the_language():
    french = run_cli("check", LOG, "-q", "--lang", "fr")
    assert french.returncode == 1, french.stderr
    assert "résumé" in french.stdout and "summary" not in french.stdout
    assert run_cli("check", LOG, "-q", "--lang=fr").stdout == french.stdout
    # The last --lang counts, before the command or after it.
    assert run_cli("--lang", "en", "check", LOG, "-q", "--lang", "fr").stdout == french.stdout
    assert "summary" in run_cli("--lang", "fr", "check", LOG, "-q", "--lang", "en").stdout


def test_lang_is_taken_by_every_command_and_the_nested_ones():
    assert (
        "message : L'assurance est payée 2 pour 1"
        in run_cli("rules", "show", "fr/blackjack/insurance-pays-2-1", "--lang", "fr").stdout
    )
    assert (
        "message : L'assurance est payée 2 pour 1"
        in run_cli("rules", "--lang", "fr", "show", "fr/blackjack/insurance-pays-2-1").stdout
    )
    linted = run_cli("lint", str(SAMPLES / "house" / "mistakes.yaml"), "--lang", "fr")
    assert linted.returncode == 1 and "résumé" in linted.stdout
    assert "avantage de la maison" in run_cli("edge", "--ruleset", "fr/bataille", "--lang", "fr").stdout
    # Every command, nested ones too, has the option.
    for name, command in _commands().items():
        assert any("--lang" in p.opts for p in command.params), name


def test_a_help_asked_for_before_lang_is_in_the_language_given_after_it():
    helped = run_cli("check", "-h", "--lang", "fr")
    assert helped.stdout.startswith("Usage : casino-validator check"), helped.stdout
    assert "Format de sortie." in helped.stdout


def test_a_language_not_spoken_is_refused_after_the_command_too():
    refused = run_cli("check", LOG, "--lang", "de")
    assert refused.returncode == 2
    assert "--lang de: choose one of en, fr" in refused.stderr


def test_the_option_after_the_command_outranks_the_configuration_file(tmp_path):
    """The precedence (docs/findings.md): the option, wherever typed, then the configuration file's
    `lang`, then the locale, then English."""
    (tmp_path / "casino-validator.toml").write_text('lang = "fr"\n', encoding="utf-8")
    configured = run_cli("check", LOG, "-q", cwd=tmp_path)
    assert "résumé" in configured.stdout
    english = run_cli("check", LOG, "-q", "--lang", "en", cwd=tmp_path)
    assert "summary" in english.stdout and "résumé" not in english.stdout
