"""Bounds on rulesets from outside (issue 42, item 3): each refused at FILE:LINE:COL with exit 2 before the
work it asks for explodes, and none a shipped ruleset comes near (`validator/dsl/limits.py`).

Before issue 42: `define d1 = d0 and d0`, forty times over, expanded 2^40 nodes (a 42-line file never
finished `rules check`); a sum of 68 terms wrote more than 200 nested parentheses into the generated Python
(SyntaxError, exit 3), and 400 chained conditions exhausted the folder's stack (RecursionError, exit 3);
no file size was refused; 200 alternatives made `--all-readings` judge the logs 200 times; thousands of
versions each amending the one before never finished.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import FIXTURES, run_cli
from outside_ruleset import HEAD, HEAD_LINES, write

from validator.dsl import limits
from validator.dsl.limits import _DefineSizes, _placed, size_problems
from validator.rulebook import sources
from validator.rulebook.registry import default_registry


def _check(path: Path) -> tuple[int, list[str]]:
    done = run_cli("rules", "check", str(path))
    assert "Traceback" not in done.stderr
    return done.returncode, done.stderr.splitlines()


def test_a_condition_doubled_by_each_citation_is_refused_at_the_first_past_the_bound(tmp_path: Path) -> None:
    """d(i) = d(i-1) and d(i-1): d0 (`dealer.total == 17`) is 3 nodes (the comparison and its two terms) and
    d(i) is 1 + 2 d(i-1), so 2^(i+2) - 1 nodes: d9 has 2,047, d10 4,095 (> 4,000). Forty of them used to
    expand 2^41 nodes; d10, the first past the bound, is refused at its line, and nothing after it."""
    defines = ["d0 = dealer.total == 17", *(f"d{i} = d{i - 1} and d{i - 1}" for i in range(1, 40))]
    code, errors = _check(write(tmp_path, defines, "not d39"))
    assert code == 2
    assert errors == [
        f"{tmp_path}/bounds.rules:{HEAD_LINES + 11}:9: "
        "the expression has more than 4,000 nodes once the named conditions it cites are put in place "
        "(a condition that cites another twice doubles it): split it, or cite each condition once"
    ]


def test_a_sum_past_the_depth_that_compiles_is_refused_and_the_deepest_accepted_one_runs(
    tmp_path: Path,
) -> None:
    """A sum of N terms compared nests N levels (the comparison, N - 1 additions, a term). 68 terms used to
    write more than 200 nested parentheses into the generated Python (exit 3); 61 are refused (61 levels >
    60), and 60, the deepest accepted, compile and judge a log (the rule holds on every round: the sum of
    59 totals is never below one; the log's other findings are its own, without the house file)."""
    deep = write(tmp_path, [], "dealer.total <= " + " + ".join(["dealer.total"] * 68), "deep.rules")
    code, errors = _check(deep)
    assert code == 2
    assert errors == [
        f"{deep}:{HEAD_LINES + 6}:32: "
        "the expression nests more than 60 levels deep once the named conditions it cites are put in place "
        "(each citation, 'and', 'or', 'not', '+' or '*' counts one level): split it into several rules "
        "or conditions"
    ]
    assert (
        _check(write(tmp_path, [], "dealer.total <= " + " + ".join(["dealer.total"] * 60), "d61.rules"))[0]
        == 2
    )
    ok = write(tmp_path, [], "dealer.total <= " + " + ".join(["dealer.total"] * 59), "d60.rules")
    assert _check(ok) == (0, [])
    log = str(FIXTURES.parent.parent / "samples" / "logs" / "clean" / "BJ-07-2025-03-14.jsonl.gz")
    judged = run_cli("check", log, "--rules", str(ok), "--ruleset", "zz/bounds", "--no-config", "-f", "jsonl")
    assert judged.returncode in (0, 1), judged.stderr
    rules = {json.loads(line)["rule"] for line in judged.stdout.splitlines()}
    assert rules and "zz/bounds/r1" not in rules


def test_a_long_chain_of_conditions_is_refused_where_it_passes_the_depth(tmp_path: Path) -> None:
    """d(i) = d(i-1) and dealer.total > i: each citation a level; d0 is 2 levels deep (a comparison and its
    terms), so d58 is 60 and d59 61: refused at d59's line. 400 of them used to exhaust the stack."""
    defines = ["d0 = dealer.total == 17", *(f"d{i} = d{i - 1} and dealer.total > {i}" for i in range(1, 400))]
    code, errors = _check(write(tmp_path, defines, "not d399"))
    assert code == 2
    assert [e.split(": ")[0] for e in errors] == [f"{tmp_path}/bounds.rules:{HEAD_LINES + 60}:9"]


def test_a_file_over_the_size_bound_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    path = write(tmp_path, [], "dealer.total <= 21")
    path.write_bytes(path.read_bytes() + b"# " + b"x" * limits.MAX_FILE_BYTES + b"\n")
    code, errors = _check(path)
    assert code == 2
    assert errors == [f"{path}:1:1: the file is larger than 1,048,576 bytes, the most a ruleset file may be"]


def test_more_alternatives_than_the_bound_are_refused_at_the_first_past_it(tmp_path: Path) -> None:
    """The version amends the French text of 2024-11-01, whose readings have 22 alternatives besides their
    defaults (issue 39's readings included: counted from the registry, so that a reading added later keeps
    the test at the bound); 11 more readings of two alternatives each make 33, one more than 32: the 11th
    reading's second alternative is refused, at its line."""
    base = sum(len(r.names) - 1 for r in default_registry().pick("fr/blackjack@2024-11-01").readings.values())
    more = limits.MAX_ALTERNATIVES - base + 1
    assert base == 22 and more == 11
    readings = []
    for n in range(more):
        readings.append(
            f"    add reading q{n} {{\n"
            '        ref "x"\n'
            '        question "Q?"\n'
            '        question fr "Q ?"\n'
            '        alternative a "A" fr "A"\n'
            '        alternative b "B" fr "B" {\n'
            '            replace parameter shoe.decks = 8  ref "x"\n'
            "        }\n"
            '        default a because "as written"\n'
            '        because fr "tel qu\'écrit"\n'
            "    }\n"
        )
    path = tmp_path / "readings.rules"
    path.write_text(HEAD + "".join(readings) + "}\n", encoding="utf-8")
    done = run_cli("rules", "check", str(path))
    assert done.returncode == 2, done.stderr
    line = HEAD_LINES + 1 + (more - 1) * 11 + 5
    assert f"{path}:{line}:9: the version's readings have more than 32 alternatives" in done.stderr


def test_a_chain_of_versions_longer_than_the_bound_is_refused(tmp_path: Path) -> None:
    """40 versions, each amending the one before, the first amending a minimal text (tests/fixtures,
    itself amending nothing): v(n) is the (n + 2)th version of its chain, v30 the 32nd, accepted; v31 the
    33rd, the first refused, at its `amends` line (and those above it with it, not said again)."""
    shutil.copy(FIXTURES / "rulesets" / "valid-minimal.rules", tmp_path / "minimal.rules")
    for n in range(40):
        amends = "xx/minimal@2020-06-01" if n == 0 else f"zz/chain@{2030 + n - 1}-01-01"
        until = f" until {2030 + n}-12-31" if n < 39 else ""
        (tmp_path / f"v{n:02}.rules").write_text(
            f"ruleset zz/chain\namends {amends}\n"
            f'title "v{n}"\nsource "none"\nin force from {2030 + n}-01-01{until}\n',
            encoding="utf-8",
        )
    done = run_cli("rules", "check", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"{tmp_path}/v31.rules:2:1: more than 32 versions amend one another in a chain down to here: make "
        "the earlier ones one version"
    ]


def test_more_files_from_outside_than_the_bound_are_refused(tmp_path: Path) -> None:
    for n in range(sources.MAX_FILES + 1):
        (tmp_path / f"f{n:03}.rules").write_text("", encoding="utf-8")
    done = run_cli("rules", "list", "--rules", str(tmp_path))
    assert done.returncode == 2
    assert "257 ruleset files, more than the 256 a run reads from outside the package" in done.stderr


def test_the_shipped_rulesets_are_far_within_every_bound() -> None:
    """What the bounds' comments say of the shipped rulesets, with room for the rules still to come: a
    condition under 50 nodes (of 4,000) and 10 levels (of 60: the bataille's order of settlement is 8), a
    version under 2,000 nodes (of 100,000) and 24 alternatives besides its defaults (of 32: the French text
    of 2024-11-01 has 22, issue 39's readings), files under 160 KiB (of 1 MiB)."""
    for version in default_registry().all():
        tree = version.tree
        assert tree is not None
        assert size_problems(tree) == []
        sizes = _DefineSizes(tree)
        measured = [sizes.of(expr) for _file, _pos, expr, _name in _placed(tree)]
        assert max(s.nodes for s in measured) < 50 and max(s.depth for s in measured) < 10
        assert sum(s.nodes for s in measured) < 2_000
        assert sum(len(r.names) - 1 for r in version.readings.values()) <= 24
    shipped = Path(default_registry().all()[0].file).parent
    assert shipped.parts[0] == "rulesets"


def test_all_readings_refuses_more_alternatives_than_its_bound(monkeypatch) -> None:
    """The bound lowered to 3 (the shipped 2013 wording, which judges this log, has 8 alternatives
    besides its defaults): the run stops with exit 2 at the reading of the 4th, rather than judge the log
    once per alternative."""
    from validator.checking import readings

    monkeypatch.setattr(readings, "MAX_ALTERNATIVES", 3)
    log = FIXTURES.parent.parent / "samples" / "logs" / "disputes" / "BJ-03-2016-06-11.jsonl"
    done = run_cli("check", str(log), "--all-readings", "--no-config")
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith("casino-validator: rulesets/fr/blackjack/2013-12-15.rules:")
    assert "--all-readings: the readings of the versions that judged the logs have 8 alternatives" in line
