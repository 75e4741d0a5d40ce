"""One check cited by several texts: `same check as FAMILY@DATE rule NAME` (issue 24, item 2).

A rule takes the clauses of another text's rule under its own id, reference, severity, message and docs.
Held here: the grammar; each error `rules check` gives at the citation (FILE:LINE:COL); that a citation
cannot chain (so no cycle can be written); that findings carry the citing rule's id and reference and the
citing ruleset's parameters; and that the shipped rulesets that cite fr/blackjack's clauses (Ontario's
licence, the French popular description, the bataille) judge exactly as the same files with those clauses
written in place.
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

from validator.dsl import ast
from validator.dsl.parser import parse_ruleset
from validator.dsl.resources import rulesets_dir
from validator.errors import RulesetError
from validator.rulebook.registry import load_file

HEADER = """ruleset zz/cites
title "Citing text (test fixture, not law)"
source "none"
game blackjack
in force from 2025-01-01
parameter shoe.decks = 8  ref "Texte Z, art. 1"
"""
# A rule of the fixture: line 7 of the file; its citation (`{cite}`) on line 11, column 5.
RULE = """rule eight-decks {{
    ref "Texte Z, art. 1"
    severity error
    message "The shoe must hold eight decks; it holds {{shoe.decks}}."
    {cite}
}}
"""
CITE_LINE = 11


def rule(cite: str, name: str = "eight-decks") -> str:
    return RULE.format(cite=cite).replace("eight-decks", name)


# ---- grammar ----


def test_the_citation_parses_with_and_without_a_date() -> None:
    tree = parse_ruleset(
        HEADER
        + rule("same check as fr/blackjack@2024-11-01 rule six-decks")
        + rule("same check as fr/usage-blackjack rule deal-order", "deal"),
        "zz.rules",
    )
    dated, undated = (r.same_checks for r in tree.rules)
    assert dated == (ast.SameCheck(ast.Pos(CITE_LINE, 5), "fr/blackjack", date(2024, 11, 1), "six-decks"),)
    assert undated[0].on is None and undated[0].rule == "deal-order"
    assert dated[0].cited == "fr/blackjack@2024-11-01 rule six-decks"
    assert undated[0].cited == "fr/usage-blackjack rule deal-order"
    # As written, the citing rule has no clause of its own: the loader puts the cited ones there.
    assert tree.rules[0].checks == () and tree.rules[0].settles == ()


def test_the_words_of_the_citation_stay_free_as_names() -> None:
    tree = parse_ruleset(
        HEADER + 'define same = hand.total == 21 ref "r"\n'
        'rule r {\n  ref "r"\n  on hit require not same\n}\n',
        "zz.rules",
    )
    assert [d.name for d in tree.defines] == ["same"]


def test_a_citation_without_its_rule_is_a_syntax_error_at_its_place() -> None:
    with pytest.raises(RulesetError) as caught:
        parse_ruleset(HEADER + rule("same check as fr/blackjack@2024-11-01 six-decks"), "zz.rules")
    expected = f"zz.rules:{CITE_LINE}:43: syntax error: unexpected 'six'; expected 'rule'"
    assert str(caught.value).startswith(expected)


# ---- what `rules check` refuses, at the citation ----


def checked(cli, tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "zz.rules"
    path.write_text(text, encoding="utf-8")
    done = cli("rules", "check", str(path))
    assert done.returncode == 2, done.stdout
    assert "Traceback" not in done.stderr
    # `rules check` names the shipped files it reads by their path: shown here from the folder holding
    # `rulesets/` (the checkout, or the installed package's data).
    shipped = f"{rulesets_dir().parent}/"
    return [line.replace(f"{tmp_path}/", "").replace(shipped, "") for line in done.stderr.splitlines()]


def fr_line(file: str, rule_name: str, clause: str) -> int:
    """The line of a cited rule's clause in a shipped ruleset file (what the error names)."""
    lines = (ROOT / "rulesets" / file).read_text(encoding="utf-8").splitlines()
    start = lines.index(f"rule {rule_name} {{")
    return next(n for n, line in enumerate(lines[start:], start + 1) if line.strip().startswith(clause))


@pytest.mark.parametrize(
    ("cite", "message"),
    [
        (
            "same check as fr/blackjack@2024-11-01 rule six-deck",
            "fr/blackjack@2024-11-01 has no rule 'six-deck' to take the check of; did you mean 'six-decks'?",
        ),
        (
            "same check as fr/blackjack@2001-01-01 rule six-decks",
            "no version of fr/blackjack is in force on 2001-01-01 to take a check from",
        ),
        (
            "same check as zz/nowhere@2025-01-01 rule six-decks",
            "no version of zz/nowhere is in force on 2025-01-01 to take a check from",
        ),
        (
            "same check as fr/blackjack rule six-decks",
            "fr/blackjack has no undated version to take a check from: cite the version in force on a date "
            "(fr/blackjack@YYYY-MM-DD)",
        ),
        (
            # Ontario's six-decks takes its check from the arrêté's: the citation must name that one.
            "same check as on/fair-blackjack rule six-decks",
            "on/fair-blackjack rule 'six-decks' takes its own check from fr/blackjack@2024-11-01 rule "
            "six-decks: cite that rule, which writes it (a check is taken from the rule that writes it, so "
            "citations never chain)",
        ),
        (
            "same check as fr/blackjack@2024-11-01 rule six-decks\n    on shoe require shoe.decks == 8",
            "rule 'eight-decks' writes clauses of its own and takes the check of fr/blackjack@2024-11-01 "
            "rule six-decks: a rule either writes its check or takes another's",
        ),
    ],
)
def test_a_citation_that_cannot_be_followed_is_an_error_at_its_line(cli, tmp_path, cite, message) -> None:
    assert checked(cli, tmp_path, HEADER + rule(cite)) == [f"zz.rules:{CITE_LINE}:5: {message}"]


def test_two_citations_in_one_rule_are_refused_at_the_second(cli, tmp_path) -> None:
    cites = (
        "same check as fr/blackjack@2024-11-01 rule six-decks\n    same check as fr/usage-blackjack rule x"
    )
    assert checked(cli, tmp_path, HEADER + rule(cites)) == [
        f"zz.rules:{CITE_LINE + 1}:5: rule 'eight-decks' takes its check from two rules "
        "(fr/blackjack@2024-11-01 rule six-decks, fr/usage-blackjack rule x): a rule takes one"
    ]


def test_citations_never_chain_so_no_cycle_can_be_written(cli, tmp_path) -> None:
    """Two rules citing each other, and a rule citing itself: each citation names a rule that takes its
    check from another, and each is refused where it is written."""
    text = (
        HEADER
        + rule("same check as zz/cites@2025-01-01 rule b", "a")
        + rule("same check as zz/cites@2025-01-01 rule a", "b")
        + rule("same check as zz/cites@2025-01-01 rule c", "c")
    )
    chain = (
        "zz/cites@2025-01-01 rule {cited!r} takes its own check from zz/cites@2025-01-01 rule {source}: cite "
        "that rule, which writes it (a check is taken from the rule that writes it, so citations never chain)"
    )
    assert checked(cli, tmp_path, text) == [
        f"zz.rules:{CITE_LINE}:5: " + chain.format(cited="b", source="a"),
        f"zz.rules:{CITE_LINE + 6}:5: " + chain.format(cited="a", source="b"),
        f"zz.rules:{CITE_LINE + 12}:5: " + chain.format(cited="c", source="c"),
    ]


def test_a_cited_check_is_read_with_the_citing_ruleset_and_what_does_not_fit_is_refused(
    cli, tmp_path
) -> None:
    # burn-five reads param.shoe.burn, which this ruleset does not set; a bataille rule's `on war` is no
    # event of a blackjack round. Each is reported at the citation, naming the cited file and line.
    burn = fr_line("fr/blackjack/2013-12-15.rules", "burn-five", "on shoe")
    war = fr_line("fr/bataille/2013-05-12.rules", "war-only-on-tie", "on war")
    text = (
        HEADER
        + rule("same check as fr/blackjack@2024-11-01 rule burn-five", "burn")
        + rule("same check as fr/bataille@2013-05-12 rule war-only-on-tie", "war")
    )
    assert checked(cli, tmp_path, text) == [
        f"zz.rules:{CITE_LINE}:5: rule 'zz/cites/burn' takes the check of fr/blackjack@2024-11-01 rule "
        f"burn-five (rulesets/fr/blackjack/2013-12-15.rules:{burn}), which does not fit here: "
        "param.shoe.burn: not set in this ruleset",
        f"zz.rules:{CITE_LINE + 6}:5: rule 'zz/cites/war' takes the check of fr/bataille@2013-05-12 rule "
        f"war-only-on-tie (rulesets/fr/bataille/2013-05-12.rules:{war}), which does not fit here: event "
        "'war' is a bataille event: a blackjack round never gives it",
    ]


def test_the_errors_are_french_when_asked(cli, tmp_path) -> None:
    path = tmp_path / "zz.rules"
    path.write_text(HEADER + rule("same check as fr/blackjack@2001-01-01 rule six-decks"), encoding="utf-8")
    done = cli("--lang", "fr", "rules", "check", str(path))
    assert done.returncode == 2
    assert done.stderr.strip().endswith(
        f"zz.rules:{CITE_LINE}:5: aucune version de fr/blackjack n'est en vigueur le 2001-01-01 pour en "
        "prendre une vérification"
    )


# ---- a ruleset from outside the package that cites, through the real command ----

CITING = (
    HEADER
    + """rule eight-decks {
    ref "Texte Z, art. 1"
    severity error
    message "The shoe must hold eight decks; it holds {shoe.decks}."
    message fr "Le sabot doit contenir huit jeux ; il en contient {shoe.decks}."
    same check as fr/blackjack@2024-11-01 rule six-decks
    checks "The number of decks of every shoe."
    checks fr "Le nombre de jeux de chaque sabot."
    why "Texte Z (a fixture, not law), art. 1: eight decks."
    why fr "Texte Z (une fixture, pas une loi), art. 1 : huit jeux."
    fails "A shoe of six decks."
    fails fr "Un sabot de six jeux."
    passes "A shoe of eight decks."
    passes fr "Un sabot de huit jeux."
}
"""
)


@pytest.fixture
def citing(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "zz-cites.rules").write_text(CITING, encoding="utf-8")
    return folder


def test_a_ruleset_from_outside_takes_a_check_and_its_findings_carry_its_own_id_and_ref(cli, citing) -> None:
    assert cli("rules", "check", str(citing)).returncode == 0
    shown = cli("rules", "show", "zz/cites", "--rules", str(citing))
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    at = lines.index("    ref: Texte Z, art. 1")
    six = fr_line("fr/blackjack/2013-12-15.rules", "six-decks", "rule six-decks")
    # What runs is shown under the citation, as the cited rule writes it.
    assert lines[at + 1 : at + 3] == [
        "    same check as fr/blackjack@2024-11-01 rule six-decks    "
        f"(rulesets/fr/blackjack/2013-12-15.rules:{six})",
        "      on shoe require shoe.decks == param.shoe.decks",
    ]
    # A six-deck shoe (the Ontario fixture's passing log) against this text's eight decks: the French
    # rule's clause, read with this ruleset's parameter, fails; the finding is this ruleset's rule.
    log = FIXTURES / "rules" / "on" / "fair-blackjack" / "six-decks" / "passes-six-decks.jsonl"
    done = cli(
        "check", str(log), "--rules", str(citing), "--ruleset", "zz/cites", "-f", "jsonl", "--no-config"
    )
    assert done.returncode == 1, done.stderr
    findings = [json.loads(line) for line in done.stdout.splitlines()]
    decks = [f for f in findings if f["rule"] == "zz/cites/eight-decks"]
    assert [(f["ref"], f["line"], f["expected"], f["actual"]) for f in decks] == [
        ("Texte Z, art. 1", 2, {"decks in this shoe": 8}, {"decks in this shoe": 6})
    ]
    assert not any(f["rule"].startswith("fr/") for f in findings)


# ---- the shipped rulesets: citing is exactly writing the clauses in place ----

# Each family citing fr/blackjack's clauses: its file, how many of its rules cite (those whose clauses were
# word for word a fr/blackjack rule's, counted before the change, less those issue 39 found to differ from
# their own text and wrote in their own words: Ontario's settlement-order and deal-order, bataille's
# bet-within-limits; plus bataille's standing-bet-on-seated-box; plus issue 37's split-hand-completed and
# reshuffle-after-the-coup), the reference its own rules carry, and
# logs that its rules judge (its rule fixtures, and samples judged under it).
SHIPPED = {
    "on/fair-blackjack": (
        "on/fair-blackjack/current.rules",
        34,  # issue 37 (hand-log/1.2): bets-before-deal cites the French check; issue 39: two fewer
        "Licence d'activité de jeu",
        ("disputes/ON-01-2025-08-23.jsonl", "disputes/BJ-03-2016-06-11.jsonl"),
    ),
    "fr/usage-blackjack": (
        "fr/usage-blackjack/current.rules",
        20,
        "Description du black-jack",
        ("disputes/BJ-03-2016-06-11.jsonl", "clean/US-01-2024-07-05.jsonl"),
    ),
    "fr/bataille": (
        "fr/bataille/2013-05-12.rules",
        # issue 37 (hand-log/1.2): cut-card-placed and bets-before-deal cite the French checks; issue 39:
        # one fewer
        21,
        "Arrêté du 14 mai 2007, bataille",
        ("disputes/BA-01-2025-02-01.jsonl", "clean/BA-01-2025-01-31.jsonl"),
    ),
}


def _written_in_place(registry, family: str, file: str) -> str:
    """The ruleset's file with each citation replaced by the clauses it cites, as `rules show` writes them."""
    from validator.catalogue.view import check_lines

    version = registry.family(family)[-1]
    text = (ROOT / "rulesets" / file).read_text(encoding="utf-8")
    by_name = {r.name: r for r in version.rules}
    out = []
    current = None
    for line in text.splitlines():
        found = re.match(r"rule (\S+) \{", line)
        current = found.group(1) if found else current
        if line.strip().startswith("same check as "):
            out.extend(f"    {clause}" for clause in check_lines(by_name[current]))
        else:
            out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("family", sorted(SHIPPED))
def test_a_shipped_ruleset_that_cites_judges_as_if_it_wrote_the_clauses(tmp_path: Path, family: str) -> None:
    from validator.checking.serial import check_logs
    from validator.rulebook.registry import default_registry, load_all, ruleset_files

    file, count, ref, samples = SHIPPED[family]
    shipped = default_registry()
    cited = [r for r in shipped.family(family)[-1].rules if r.same_check is not None]
    assert len(cited) == count
    # The arrêté's latest wording, or the 2013 one where the citing text has its words (the bataille's
    # talon « de la valeur approximative d'au moins un jeu »).
    assert {r.same_check.version for r in cited} <= {"fr/blackjack@2024-11-01", "fr/blackjack@2013-12-15"}
    # Each keeps its own text's reference: only the clauses are the arrêté's blackjack rule's.
    assert all(r.ref.startswith(ref) for r in cited)
    inline = tmp_path / file
    inline.parent.mkdir(parents=True)
    inline.write_text(_written_in_place(shipped, family, file), encoding="utf-8")
    assert not re.search(r"^\s*same check as", inline.read_text(), re.M)
    others = [p for p in ruleset_files() if not str(p).endswith(file)]
    written = load_all([*others, inline])
    logs = sorted(str(p) for p in (FIXTURES / "rules" / family).rglob("*.jsonl"))
    logs += [str(ROOT / "samples" / "logs" / name) for name in samples]

    def findings(registry) -> list[dict]:
        return [
            f.as_dict() for outcome in check_logs(registry, logs, ruleset=family) for f in outcome.findings
        ]

    mine, theirs = findings(shipped), findings(written)
    assert len(mine) > 20 and {f["rule"] for f in mine} & {r.id for r in cited}
    assert mine == theirs


def test_a_reading_alternative_may_replace_a_rule_by_one_that_cites(tmp_path: Path) -> None:
    """A citation inside a reading's alternative is looked up with the version's: the alternative, chosen,
    runs the cited clauses (here the arrêté's burn check instead of a check of the decks)."""
    from validator.rulebook.registry import load_all, ruleset_files, under_readings

    text = (
        HEADER
        + 'parameter shoe.burn = 5  ref "Texte Z, art. 2"\n'
        + rule("same check as fr/blackjack@2024-11-01 rule six-decks")
        + """rule burn {
    ref "Texte Z, art. 2"
    severity error
    message "Five cards burned, not {shoe.burned}."
    same check as fr/blackjack@2024-11-01 rule burn-five
}
reading which {
    ref "Texte Z, art. 1"
    quote "huit jeux"
    question "Does art. 1 count the decks, or the cards burned?"
    alternative decks "The decks."
    alternative burned "The cards burned." {
        replace rule eight-decks {
            ref "Texte Z, art. 1"
            severity error
            message "Five cards burned, not {shoe.burned}."
            same check as fr/blackjack@2024-11-01 rule burn-five
        }
    }
    default decks because "A fixture: the text is invented."
}
"""
    )
    path = tmp_path / "zz.rules"
    path.write_text(text, encoding="utf-8")
    registry = load_all([*ruleset_files(), path])
    [version] = registry.family("zz/cites")

    def clauses(ruleset) -> list[str]:
        from validator.catalogue.view import check_lines

        return list(check_lines(ruleset.rule("zz/cites/eight-decks")))

    assert clauses(version) == ["on shoe require shoe.decks == param.shoe.decks"]
    other = under_readings(version, {"which": "burned"})
    assert clauses(other) == ["on shoe require shoe.burned == param.shoe.burn"]
    assert other.rule("zz/cites/eight-decks").same_check.rule_id == "fr/blackjack/burn-five"


def test_explain_shows_the_citation_and_the_clauses_as_applied(cli) -> None:
    """Box 2's blackjack on 10 paid 10 in the French dispute sample; judged under Ontario's licence, whose
    section 3 pays 3 for 2 (15), it is Ontario's finding, and explain names the clause it takes."""
    log = ROOT / "samples" / "logs" / "disputes" / "BJ-03-2016-06-11.jsonl"
    done = cli("explain", "--ruleset", "on/fair-blackjack", "--round", "BJ-03/2016-06-11/1/2", str(log))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    at = lines.index(
        "  on/fair-blackjack/blackjack-pays-3-2 [payout] on box 2: A blackjack is paid 3 for 2. The hand: "
        "A♠ K♦ (21); the dealer: 9♥ 8♣ (17)."
    )
    line = fr_line("fr/blackjack/2013-12-15.rules", "blackjack-pays-3-2", "rule blackjack-pays-3-2")
    assert lines[at + 1].startswith("    ref: Licence d'activité de jeu") and lines[at + 1].endswith(
        "section 3"
    )
    assert lines[at + 2] == '    expected {"pay": "15"}, actual {"pay": "10"}'
    assert lines[at + 3 : at + 5] == [
        "    rule: same check as fr/blackjack@2024-11-01 rule blackjack-pays-3-2    "
        f"(rulesets/fr/blackjack/2013-12-15.rules:{line})",
        "    rule: settle main when hand.blackjack => pay stake.amount * param.pays.blackjack",
    ]


def test_the_audit_names_the_files_of_the_cited_versions() -> None:
    """An audit names the exact encoding that judged a run: Ontario's file, and those of the version its
    rules take their clauses from (fr/blackjack@2024-11-01, which amends 2020-05-25, which amends
    2019-08-12, which amends 2013-12-15: the `amends` line of each file)."""
    from validator.rulebook.registry import default_registry, encoding_files

    files = [entry["file"] for entry in encoding_files(default_registry(), ["on/fair-blackjack"])]
    assert files == [
        "rulesets/fr/blackjack/2013-12-15.rules",
        "rulesets/fr/blackjack/2019-08-12.rules",
        "rulesets/fr/blackjack/2020-05-25.rules",
        "rulesets/fr/blackjack/2024-11-01.rules",
        "rulesets/on/fair-blackjack/current.rules",
    ]


def test_a_file_read_alone_takes_its_cited_check_from_the_shipped_versions(tmp_path) -> None:
    """`load_file` on a file whose cited text is not beside it (a vendor's file in a folder of its own)
    finds the version among the shipped ones, as `rules check` and `--rules` do."""
    path = tmp_path / "zz.rules"
    path.write_text(HEADER + rule("same check as fr/blackjack@2024-11-01 rule six-decks", "decks"), "utf-8")
    [decks] = [r for r in load_file(path).rules if r.id == "zz/cites/decks"]
    assert decks.same_check is not None and decks.same_check.version == "fr/blackjack@2024-11-01"
