"""The tools of a ruleset's authors, driven through the real command: `rules test --coverage` and
`--mutate`, `rules diff --witness`, `rules fmt`, `rules check` of a shipped version's candidate.

Most run on zz/tiny (tests/fixtures/authoring/tiny/tiny.rules), an invented text of three articles whose
clauses, fixtures and mutants are few enough to be worked out by hand; the working is beside each test.
"""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path
from typing import Any

from validator.dsl.format import format_text, layout, without_positions
from validator.dsl.parser import parse_ruleset
from validator.rulebook.meaning import meaning
from validator.rulebook.registry import compile_trees, default_registry, read_tree, ruleset_files

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "authoring"
TINY = HERE / "tiny" / "tiny.rules"
CASES = HERE / "cases"
ROOT = Path(__file__).resolve().parents[2]


def _tiny_cases(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    shutil.copytree(CASES, folder)
    return folder


# ---------------------------------------------------------------- rules test --coverage

# zz/tiny's items, and what its three cases make of them:
# - six-decks `on shoe require six` (six: shoe.decks == 6): the 6-deck case holds it, the 8-deck case
#   fails it (its finding listed): exercised.
# - burn-one `on shoe require shoe.burned >= 1`: every case burns 5 cards, so it only holds: not exercised.
# - used-cards `on shoe when not param.shoe.new_cards_each_session …`: the parameter is true, so the guard
#   is false and the clause never applies: not counted.
# - parameter shoe.decks: read by six-decks (exercised): exercised; shoe.new_cards_each_session: read only
#   by used-cards, which never applies: not exercised.
# - reading tiny-decks: `six` (default) told apart by the 6-deck case (under `eight` it gives a finding);
#   `eight` by the case read as eight (no finding; under `six` one): both exercised.
# 4 of 6 items: 66.6 % (rounded down).


def test_coverage_says_what_the_cases_exercise(cli):
    result = cli("rules", "test", str(CASES), "--rules", str(TINY), "--coverage")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    head = next(line for line in lines if line.startswith("zz/tiny@2025-01-01"))
    assert head.endswith(": 66.6 % (4/6)")
    assert "    require clauses           1/2    50.0 %" in lines
    assert "    parameters                1/2    50.0 %" in lines
    assert "    reading alternatives      2/2    100.0 %" in lines
    missing = [line.strip() for line in lines if line.startswith("      ")]
    assert len(missing) == 2
    assert missing[0].endswith(
        "tiny.rules:44: rule burn-one, on shoe: never fails in a passing case (no case lists its finding)"
    )
    assert missing[1].endswith(
        "tiny.rules:15: parameter shoe.new_cards_each_session: no clause or line reading it is exercised"
    )


def test_fail_under_fails_a_version_below_it(cli):
    below = cli("rules", "test", str(CASES), "--rules", str(TINY), "--coverage", "--fail-under", "70")
    assert below.returncode == 1
    assert "zz/tiny@2025-01-01: coverage 66.6 % is below --fail-under 70.0" in below.stderr
    assert cli("rules", "test", str(CASES), "--rules", str(TINY), "--fail-under", "66").returncode == 0


def test_a_case_that_fails_burn_one_exercises_it(cli, tmp_path):
    # Art. 2: « au moins une carte est brûlée à chaque sabot »: a shoe with no burn breaks it.
    folder = _tiny_cases(tmp_path)
    log = (
        (folder / "zz" / "tiny" / "passes-six-decks.jsonl")
        .read_text()
        .replace('"burn": ["9H", "2C", "KD", "4S", "7H"]', '"burn": []')
    )
    (folder / "zz" / "tiny" / "fails-no-burn.jsonl").write_text(log)
    (folder / "zz" / "tiny" / "fails-no-burn.expect.json").write_text(
        json.dumps(
            {"rulesets": ["zz/tiny@2025-01-01"], "findings": [{"rule": "zz/tiny/burn-one", "line": 2}]}
        )
    )
    result = cli("rules", "test", str(folder), "--rules", str(TINY), "--coverage")
    assert result.returncode == 0, result.stdout
    assert any(line.endswith(": 83.3 % (5/6)") for line in result.stdout.splitlines())


def test_a_case_may_choose_a_reading_and_an_unknown_one_is_refused(cli, tmp_path):
    folder = _tiny_cases(tmp_path)
    case = folder / "zz" / "tiny" / "passes-eight-decks-read-as-eight.expect.json"
    # Read as written (six), the eight-deck shoe breaks six-decks: the case fails without its reading.
    case.write_text(json.dumps({"rulesets": ["zz/tiny@2025-01-01"], "findings": []}))
    assert cli("rules", "test", str(folder), "--rules", str(TINY)).returncode == 1
    case.write_text(
        json.dumps({"rulesets": ["zz/tiny@2025-01-01"], "readings": {"tiny-decks": "ten"}, "findings": []})
    )
    refused = cli("rules", "test", str(folder), "--rules", str(TINY))
    assert refused.returncode == 2
    assert str(case) in refused.stderr and "has no alternative 'ten'" in refused.stderr


# A rule that reads only a parameter, `param.shoe.new_cards_each_session == true`: the compiler keeps the
# lone comparison as written (its finding's words), but the version's parameter decides it (true == true):
# it has one outcome, so evaluated by the 6-deck case is exercised, and the parameter it reads with it.
# 6 of 7 items (the 4 above, this clause and shoe.new_cards_each_session): 85.7 %.
NEW_CARDS = """
rule new-cards {
    ref "Tiny, art. 3"
    severity error
    message "The cards are new." message fr "Les cartes sont neuves."
    on shoe require param.shoe.new_cards_each_session == true
    checks "That the cards are new." checks fr "Que les cartes soient neuves."
    why "« neuves »." fails "Never." fails fr "Jamais." passes "Always." passes fr "Toujours."
}
"""


def test_a_clause_the_parameters_decide_is_exercised_once_evaluated(cli, tmp_path):
    rules = tmp_path / "tiny.rules"
    rules.write_text(TINY.read_text() + NEW_CARDS)
    result = cli("rules", "test", str(CASES), "--rules", str(rules), "--coverage")
    assert result.returncode == 0, result.stdout
    assert any(line.endswith(": 85.7 % (6/7)") for line in result.stdout.splitlines()), result.stdout
    assert "new-cards" not in result.stdout


# An alternative that adds a rule: under `eight`, « au moins une carte » read as at least one card and,
# invented, an eight-deck shoe burning two (`burn-two`: `shoe.burned >= 2 or shoe.decks == 6`, a
# disjunction, whose finding's expected is the rule's `checks`). The eight-deck shoe burning one, judged
# under `eight`, breaks burn-two only. The case lists the finding in the rule's own terms; the coverage
# run must read it with the rule the alternative adds, as `rules test` does (it failed there alone).
BURN_TWO = """
        add rule burn-two {
            ref "Tiny, art. 2"
            severity error
            message "Two cards must be burned." message fr "Deux cartes doivent être brûlées."
            on shoe require shoe.burned >= 2 or shoe.decks == 6
            checks "The burn of an eight-deck shoe." checks fr "Le brûlage d'un sabot de huit jeux."
            why "Invented." fails "One burned." fails fr "Une brûlée."
            passes "Two burned." passes fr "Deux brûlées."
        }
"""


def test_a_case_listing_a_finding_of_a_rule_an_alternative_adds_passes_in_coverage(cli, tmp_path):
    rules = tmp_path / "tiny.rules"
    replaced = '        replace parameter shoe.decks = 8  ref "Tiny, art. 1"\n'
    text = TINY.read_text()
    assert replaced in text
    rules.write_text(text.replace(replaced, replaced + BURN_TWO))
    folder = _tiny_cases(tmp_path)
    log = (folder / "zz" / "tiny" / "passes-eight-decks-read-as-eight.jsonl").read_text()
    assert '"burn": ["9H", "2C", "KD", "4S", "7H"]' in log
    (folder / "zz" / "tiny" / "fails-one-burned-read-as-eight.jsonl").write_text(
        log.replace('"burn": ["9H", "2C", "KD", "4S", "7H"]', '"burn": ["9H"]')
    )
    finding = {
        "rule": "zz/tiny/burn-two",
        "line": 2,
        "expected": {"condition": "shoe.burned >= 2 or shoe.decks == 6"},
        "actual": {"shoe.burned": 1, "shoe.decks": 8},
    }
    (folder / "zz" / "tiny" / "fails-one-burned-read-as-eight.expect.json").write_text(
        json.dumps(
            {"rulesets": ["zz/tiny@2025-01-01"], "readings": {"tiny-decks": "eight"}, "findings": [finding]}
        )
    )
    plain = cli("rules", "test", str(folder), "--rules", str(rules))
    assert plain.returncode == 0, plain.stdout
    covered = cli("rules", "test", str(folder), "--rules", str(rules), "--coverage")
    assert covered.returncode == 0, covered.stdout
    assert "FAIL" not in covered.stdout


# Outcomes declared unreachable (unreachable-outcomes.json, docs/rules-language.md step 5). The declaration
# is taken at its word until a passing case gives the outcome: here burn-one's failure (which a log
# without a burn would give: the declaration is a test of the mechanism, not of tiny's law). burn-one has
# held in every case and is declared never to fail: it leaves the figure, listed apart with its reason.
# 4 of the 5 other items (above): 80.0 %.


def _declare_unreachable(folder: Path, declarations: list[dict[str, Any]]) -> None:
    (folder / "unreachable-outcomes.json").write_text(json.dumps({"unreachable": declarations}))


BURN_ONE_ITEM = f"{TINY}:44: rule burn-one, on shoe"
SIX_DECKS_ITEM = f"{TINY}:35: rule six-decks, on shoe"


def test_an_outcome_declared_unreachable_leaves_its_item_out_of_the_figure_with_its_reason(cli, tmp_path):
    folder = _tiny_cases(tmp_path)
    _declare_unreachable(folder, [{"item": BURN_ONE_ITEM, "never": "fails", "why": "Invented reason."}])
    result = cli("rules", "test", str(folder), "--rules", str(TINY), "--coverage", "--fail-under", "80")
    assert result.returncode == 0, result.stdout
    lines = result.stdout.splitlines()
    head = next(line for line in lines if line.startswith("zz/tiny@2025-01-01"))
    assert head.endswith(": 80.0 % (4/5), 1 item unreachable (declared)")
    assert "    require clauses           1/1    100.0 %" in lines
    at = lines.index("    unreachable (declared):")
    assert lines[at + 1] == f"      {BURN_ONE_ITEM}: never fails"
    at = lines.index("unreachable (declared in unreachable-outcomes.json, each with why no log can give it):")
    assert lines[at + 1 : at + 3] == [f"  {BURN_ONE_ITEM}: never fails", "      Invented reason."]
    assert lines[-1] == "coverage: 80.0 % (4/5) of 1 versions, 1 item unreachable (declared)"


def test_a_declared_outcome_a_case_gives_or_a_declaration_naming_nothing_fails_the_run(cli, tmp_path):
    folder = _tiny_cases(tmp_path)
    # six-decks holds in the 6-deck case: declaring that it never holds is false. No clause at line 99,
    # and burn-one is a require clause, which never "pays": both name nothing (stale).
    _declare_unreachable(
        folder,
        [
            {"item": SIX_DECKS_ITEM, "never": "holds", "why": "Wrong."},
            {"item": f"{TINY}:99: rule burn-one, on shoe", "never": "holds", "why": "Moved."},
            {"item": BURN_ONE_ITEM, "never": "pays", "why": "Not a line."},
        ],
    )
    result = cli("rules", "test", str(folder), "--rules", str(TINY), "--coverage")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    at = lines.index("declared unreachable, yet a passing case gives it (the declaration is false):")
    case = "zz/tiny/passes-six-decks.jsonl @ zz/tiny@2025-01-01"
    assert lines[at + 1] == f"  {SIX_DECKS_ITEM}: never holds: the case {case} gives it"
    heading = (
        "declared unreachable, but no item of the file is that one with that outcome "
        "(the file changed: look again):"
    )
    at = lines.index(heading)
    assert lines[at + 1 : at + 3] == [
        f"  {TINY}:99: rule burn-one, on shoe: never holds",
        f"  {BURN_ONE_ITEM}: never pays",
    ]
    # The false declaration leaves nothing out: six-decks still counts (and is exercised).
    assert (
        "unreachable (declared in unreachable-outcomes.json, each with why no log can give it):" not in lines
    )
    assert any(line.endswith(": 66.6 % (4/6)") for line in lines)


def test_a_declaration_leaves_out_only_the_outcome_it_names():
    """A declared outcome takes the item out of the figure only once its other outcomes are given: a
    clause declared never to hold that no case makes fail either still counts, lacking its failure."""
    from validator.checking.coverage import _Declared
    from validator.checking.unreachable import Unreachable

    holds = Unreachable("f.rules:3: rule r, on late_bet", "holds", "Why.")
    chosen = Unreachable("f.rules:9: rule s, settle main", "chosen", "Why.")
    declared = _Declared([holds, chosen])
    needs = ("holds", "fails")
    assert declared.judge("v", "require", holds.item, needs, {}) == ("never evaluated by a passing case", ())
    failed = {"evaluated": "case", "fails": "case"}
    assert declared.judge("v", "require", holds.item, needs, failed) == ("", ("holds",))
    # The whole of a settle clause declared unreachable: out of the figure while no case chooses it.
    assert declared.judge("v", "settle", chosen.item, ("agrees", "disagrees"), {}) == ("", ("chosen",))
    assert not declared.false
    agreed = {"chosen": "case 2", "agrees": "case 2"}
    missing, off = declared.judge("v", "settle", chosen.item, ("agrees", "disagrees"), agreed)
    assert off == () and missing.startswith("never chosen where the log settles otherwise")
    assert declared.false == [(chosen, "v", "case 2")]


def test_a_malformed_unreachable_declaration_is_refused_naming_the_file(cli, tmp_path):
    folder = _tiny_cases(tmp_path)
    _declare_unreachable(folder, [{"item": BURN_ONE_ITEM, "never": "sometimes", "why": "?"}])
    refused = cli("rules", "test", str(folder), "--rules", str(TINY), "--coverage")
    assert refused.returncode == 2
    assert str(folder / "unreachable-outcomes.json") in refused.stderr and "declaration 1" in refused.stderr
    # Without --coverage the file is not read: the fixtures run as before.
    assert cli("rules", "test", str(folder), "--rules", str(TINY)).returncode == 0


# ---------------------------------------------------------------- rules test --mutate

# zz/tiny's 14 mutants, worked out from its text and its three cases:
# - six (`shoe.decks == param.shoe.decks`): `!=` → the 6-deck case gets a finding: killed.
# - shoe.decks = 6 → 7 or 5: the 6-deck case gets a finding: killed (2).
# - shoe.new_cards_each_session = true → false: used-cards applies, the 8-deck case gets its finding: killed.
# - the reading's shoe.decks = 8 → 9 or 7: the case read as eight gets a finding: killed (2).
# - burn-one `>=` → `<`: every case gets a finding: killed; `>=` → `>`, 1 → 0, 1 → 2: 5 burned still
#   holds: surviving (3).
# - used-cards `not` dropped: the guard holds, the 8-deck case gets a finding: killed.
# - used-cards `==` → `!=`, 6 → 5, 6 → 7: its guard is still false, the clause never applies: proven
#   equivalent (3).
# 8 killed, 3 equivalent, 3 surviving.


def test_mutation_lists_the_mutants_no_case_kills(cli):
    result = cli("rules", "test", str(CASES), "--rules", str(TINY), "--mutate", "--only", str(TINY))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    summary = next(line for line in lines if line.startswith("mutants:"))
    assert summary.startswith(
        "mutants: 14 (8 killed, 3 proven equivalent, 0 declared equivalent, 3 surviving; 0 more refused"
    )
    at = lines.index("surviving (no fixture notices the change):")
    surviving = [line.strip() for line in lines[at + 1 :]]
    assert [s.split("tiny.rules:")[1] for s in surviving] == [
        "44:21: rule burn-one: `shoe.burned >= 1` → `shoe.burned > 1`",
        "44:36: rule burn-one: `1` → `0`",
        "44:36: rule burn-one: `1` → `2`",
    ]


# Declarations (equivalent-mutants.json beside the cases). burn-one's three survivors are real gaps of the
# cases (a shoe burning exactly one card would kill them); declared here only to drive the mechanism: each
# declared one leaves the survivors and is listed with its reason.
BURN_ONE = [
    "44:21: rule burn-one: `shoe.burned >= 1` → `shoe.burned > 1`",
    "44:36: rule burn-one: `1` → `0`",
    "44:36: rule burn-one: `1` → `2`",
]


def _declare(folder: Path, items: list[dict[str, str]]) -> None:
    (folder / "equivalent-mutants.json").write_text(json.dumps({"equivalent": items}, ensure_ascii=False))


def test_mutants_declared_equivalent_leave_the_survivors_with_their_reason(cli, tmp_path):
    folder = _tiny_cases(tmp_path)
    _declare(folder, [{"mutant": f"{TINY}:{each}", "why": f"Reason {n}."} for n, each in enumerate(BURN_ONE)])
    result = cli("rules", "test", str(folder), "--rules", str(TINY), "--mutate", "--only", str(TINY))
    assert result.returncode == 0, result.stdout
    lines = result.stdout.splitlines()
    summary = next(line for line in lines if line.startswith("mutants:"))
    assert summary.startswith(
        "mutants: 14 (8 killed, 3 proven equivalent, 3 declared equivalent, 0 surviving; 0 more refused"
    )
    at = lines.index("declared equivalent (equivalent-mutants.json, each with why no log can show it):")
    assert [line.strip() for line in lines[at + 1 : at + 7]] == [
        f"{TINY}:{BURN_ONE[0]}", "Reason 0.", f"{TINY}:{BURN_ONE[1]}", "Reason 1.", f"{TINY}:{BURN_ONE[2]}",
        "Reason 2.",
    ]  # fmt: skip
    assert "surviving (no fixture notices the change):" not in lines


def test_a_false_or_stale_declaration_fails_the_run_and_a_malformed_one_is_refused(cli, tmp_path):
    folder = _tiny_cases(tmp_path)
    line, text = next(
        (n, t) for n, t in enumerate(TINY.read_text().splitlines(), 1) if t.startswith("define six")
    )
    column = text.index("shoe.decks ==") + 1
    # Killed by the 6-deck case (see above): declaring it equivalent is false.
    change = "`shoe.decks == param.shoe.decks` → `shoe.decks != param.shoe.decks`"
    killed = f"{TINY}:{line}:{column}: define six: {change}"
    stale = f"{TINY}:99:1: rule burn-one: `1` → `0`"  # no mutant there: the file changed under it
    _declare(folder, [{"mutant": killed, "why": "Wrong."}, {"mutant": stale, "why": "Moved."}])
    result = cli("rules", "test", str(folder), "--rules", str(TINY), "--mutate", "--only", str(TINY))
    assert result.returncode == 1
    lines = [text.strip() for text in result.stdout.splitlines()]
    false = "declared equivalent, yet a fixture kills it (the declaration is false):"
    assert lines[lines.index(false) + 1] == killed
    heading = "declared equivalent, but no mutant of the file is that one (the file changed: look again):"
    assert lines[lines.index(heading) + 1] == stale
    _declare(folder, [{"mutant": stale}])
    refused = cli("rules", "test", str(folder), "--rules", str(TINY), "--mutate", "--only", str(TINY))
    assert refused.returncode == 2
    assert str(folder / "equivalent-mutants.json") in refused.stderr and "declaration 1" in refused.stderr


def test_a_version_compiled_for_comparison_only_has_the_same_meaning_without_generated_functions():
    """`rules test --mutate` compiles a mutant's alternatives only to compare them: without the generated
    functions the replay runs (`generate=False`), the meaning it compares is the same."""
    from validator.dsl.compiler import compile_ruleset
    from validator.dsl.readings import chosen

    tree = read_tree(TINY, str(TINY))
    for each in (tree, chosen(tree, {"tiny-decks": "eight"})):
        full, bare = compile_ruleset(each), compile_ruleset(each, generate=False)
        assert full.all_held_by_event and not bare.all_held_by_event
        assert meaning(bare) == meaning(full)


def test_mutation_of_a_file_not_judged_is_refused(cli, tmp_path):
    other = tmp_path / "other.rules"
    other.write_text("")
    result = cli("rules", "test", str(CASES), "--rules", str(TINY), "--mutate", "--only", str(other))
    assert result.returncode == 2
    assert "not a ruleset file of this run" in result.stderr


# ---------------------------------------------------------------- rules diff --witness


def test_witness_of_a_reading_written_as_fixtures_that_pass(cli, tmp_path):
    out = tmp_path / "witnesses"
    result = cli(
        "rules", "diff", "zz/tiny", "zz/tiny", "--rules", str(TINY), "--fixtures", str(CASES), "-o", str(out)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    text = result.stdout
    assert "reading tiny-decks of zz/tiny@2025-01-01: six (default) / eight" in text
    # The shortest logs first (by name among equals): the 8-deck shoe, which breaks art. 1 as written
    # (« six jeux ») and is right when the sentence is read as eight.
    assert "witness: " in text and "fails-eight-decks.jsonl" in text
    assert "  zz/tiny@2025-01-01: 1 finding(s)" in text
    assert '"rule": "zz/tiny/six-decks"' in text
    assert "  zz/tiny@2025-01-01 [tiny-decks=eight]: 0 finding(s)" in text
    written = sorted(p.name for p in out.iterdir())
    assert len(written) == 4
    rerun = cli("rules", "test", str(out), "--rules", str(TINY))
    assert rerun.returncode == 0, rerun.stdout
    assert "PASS: 2/2" in rerun.stdout


def test_every_amendment_and_alternative_of_the_shipped_rulesets_has_a_witness(cli):
    registry = default_registry()
    pairs = []
    for family, versions in registry.families.items():
        if family.startswith("zz/"):
            continue
        pairs += [(versions[0].version, versions[0].version)]
        pairs += [(a.version, b.version) for a, b in itertools.pairwise(versions)]
    missing = []
    for old, new in pairs:
        result = cli("rules", "diff", old, new, "--witness")
        lines = result.stdout.splitlines()
        missing += [
            f"{old} → {new}: {lines[i - 1]}"
            for i, line in enumerate(lines)
            if line.startswith("  no witness")
        ]
    assert missing == []


# ---------------------------------------------------------------- rules fmt

MESSY = """# a comment on its own line
ruleset   zz/tiny
title "Tiny"   # a comment after code
parameter shoe.decks=6 ref "Tiny, art. 1"


rule six-decks{
ref "Tiny, art. 1"
  on shoe require shoe.decks==param.shoe.decks and total( player.first_two )>=2
      or not (shoe.decks < 1)
}
"""
# What the layout makes of it (docs/rules-language.md, "rules fmt"): one blank line at most, four spaces a
# block, a continuation line four more, one space around operators, none inside brackets or before a
# function's parenthesis, the ref of a one-line parameter at column 43, two spaces before a comment.
TIDY = """# a comment on its own line
ruleset zz/tiny
title "Tiny"  # a comment after code
parameter shoe.decks = 6                  ref "Tiny, art. 1"

rule six-decks {
    ref "Tiny, art. 1"
    on shoe require shoe.decks == param.shoe.decks and total(player.first_two) >= 2
        or not (shoe.decks < 1)
}
"""


def test_layout_of_a_messy_file():
    assert layout(MESSY) == TIDY
    assert layout(TIDY) == TIDY


def test_the_text_s_words_keep_their_places():
    """An alias continues the option or fixed value above it (four more spaces); `side_bets alias` is an
    item of the file's own (no indentation), not the continuation of the fixed value before it."""
    messy = 'fixed decks = 6 ref "A, art. 1"\nalias "jeux"\n    side_bets alias "mises additionnelles"\n'
    assert layout(messy) == (
        'fixed decks = 6                           ref "A, art. 1"\n'
        '    alias "jeux"\n'
        'side_bets alias "mises additionnelles"\n'
    )


def test_the_shipped_rulesets_are_formatted(cli):
    result = cli("rules", "fmt", "--check", "rulesets")
    assert result.returncode == 0, result.stdout


def test_formatting_is_idempotent_keeps_comments_and_compiles_to_the_same_rules(tmp_path):
    """Every shipped file, and zz/tiny, laid out from a scrambled copy (indentation and spaces dropped):
    the layout is the canonical one whatever the input's, a second run changes no byte, every comment is
    kept, and the versions compile to the same rules."""
    files = [*ruleset_files(), TINY]
    for path in files:
        text = path.read_text(encoding="utf-8")
        once = format_text(text, str(path))
        assert format_text(once, str(path)) == once
        scrambled = "\n".join(line.strip() for line in text.splitlines()) + "\n"
        assert layout(scrambled) == layout(once), path
        comments = [line.strip() for line in text.splitlines() if line.strip().startswith("#")]
        assert [line.strip() for line in once.splitlines() if line.strip().startswith("#")] == comments
    given = [(p, read_tree(p)) for p in ruleset_files()]
    formatted = [
        (p, parse_ruleset(format_text(p.read_text(encoding="utf-8"), t.file), t.file)) for p, t in given
    ]
    before = {r.version: _placeless(meaning(r)) for r in compile_trees(given)}
    after = {r.version: _placeless(meaning(r)) for r in compile_trees(formatted)}
    assert before == after and len(before) == 7


def _placeless(value: Any) -> Any:
    """A version's meaning without the columns its expressions were written at (the layout moves them)."""
    if isinstance(value, dict):
        return {key: _placeless(item) for key, item in value.items()}
    return without_positions(value)


def test_the_pre_commit_hook_checks_the_layout_of_ruleset_files():
    import re

    import yaml

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    [hook] = [h for h in hooks if h["id"] == "casino-validator-rules-fmt"]
    assert hook["entry"] == "casino-validator rules fmt --check"
    assert hook["pass_filenames"] is True
    files = re.compile(hook["files"])
    assert files.search("rulesets/fr/blackjack/2020-05-25.rules")
    assert not files.search("house/casino.yaml") and not files.search("notes.rules.txt")


def test_fmt_check_names_the_files_and_fmt_writes_them(cli, tmp_path):
    path = tmp_path / "messy.rules"
    path.write_text(MESSY)
    check = cli("rules", "fmt", "--check", str(path))
    assert check.returncode == 1 and f"would reformat {path}" in check.stdout
    assert path.read_text() == MESSY
    assert cli("rules", "fmt", str(path)).returncode == 0
    assert path.read_text() == TIDY
    assert cli("rules", "fmt", "--check", str(path)).returncode == 0


def test_fmt_reports_a_file_that_does_not_parse(cli, tmp_path):
    path = tmp_path / "broken.rules"
    path.write_text("ruleset zz/x\nrule {\n")
    result = cli("rules", "fmt", str(path))
    assert result.returncode == 2
    assert f"{path}:2:6: syntax error" in result.stderr


# ---------------------------------------------------------------- rules check of a shipped version's copy


def test_a_copy_of_a_shipped_file_is_checked_as_a_candidate(cli, tmp_path):
    copy = tmp_path / "rulesets" / "fr" / "blackjack"
    copy.mkdir(parents=True)
    for path in (ROOT / "rulesets" / "fr" / "blackjack").glob("*.rules"):
        shutil.copy(path, copy)
    candidate = copy / "2020-05-25.rules"
    same = cli("rules", "check", str(candidate))
    assert same.returncode == 0, same.stderr
    assert f"{candidate}: checked as a candidate for fr/blackjack@2020-05-25" in same.stdout
    assert "the same as the installed version" in same.stdout
    # Paytable A's pair of queens of hearts paid 126 for 1 instead of the arrêté's 125 (art. 55-4, 5°).
    text = candidate.read_text()
    assert text.count('"Paire de dames de cœur"                   pays 125:1') == 1
    candidate.write_text(
        text.replace(
            '"Paire de dames de cœur"                   pays 125:1',
            '"Paire de dames de cœur"                   pays 126:1',
        )
    )
    changed = cli("rules", "check", str(candidate))
    assert changed.returncode == 0, changed.stderr
    assert "differs from the installed version:" in changed.stdout
    assert '        now: "Paire de dames de cœur" 126:1 when queens_of_hearts' in changed.stdout
