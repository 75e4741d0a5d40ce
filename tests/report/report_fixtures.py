"""A small fixed run for the report tests: two log files, six rounds, every shape a reporter meets.

File `logs/table-7.jsonl`: a table record with a finding (outside any round, with a line), a clean round,
a round with three payout findings (two underpaid under the same rule, one overpaid with a `%` in its
message), a round with a procedure warning (without expected/actual) and a procedure error, an
unreadable round (a format finding quoting `&`, `"` and `<`), a round with a finding and its
consequence (`caused_by`).
File `logs/salle 2/table,9.jsonl` (a space and a comma, which URIs and workflow commands must escape):
a clean round, then a truncated end with no line (outside any round).
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from validator.findings.finding import Finding, RoundOutcome, RuleInfo, Summary
from validator.findings.fingerprint import fingerprint
from validator.formats import REPORTERS, Reporter
from validator.formats.sarif import SarifReporter

FILE_A = "logs/table-7.jsonl"
FILE_B = "logs/salle 2/table,9.jsonl"
REF_55_2 = "Arrêté du 14 mai 2007, art. 55-2"
REF_55_3 = "Arrêté du 14 mai 2007, art. 55-3"
REF_55_4 = "Arrêté du 14 mai 2007, art. 55-4, 1°"
REF_55_11 = "Arrêté du 14 mai 2007, art. 55-11"
REF_LOG = "hand-log/1 (docs/hand-log.md)"

TABLE_LIMIT = Finding(
    kind="procedure",
    rule="fr/blackjack/table-limits",
    ref=REF_55_2,
    severity="error",
    file=FILE_A,
    line=1,
    message="The table's maximum bet of 10000 is above the 5000 the regulation allows.",
    expected={"limits.max": "<= 5000"},
    actual={"limits.max": "10000"},
)
UNDERPAID = Finding(
    kind="payout",
    rule="fr/blackjack/natural-pays-3-to-2",
    ref=REF_55_11,
    severity="error",
    file=FILE_A,
    line=14,
    round="r-0002",
    stake="seat-3/main",
    message="The blackjack of seat 3 was paid 10 where 3 to 2 on a stake of 10 gives 15.",
    expected={"pay": "15"},
    actual={"pay": "10"},
    discrepancy=Decimal("-5"),
)
# The same rule broken again in the same round, on seat 5.
UNDERPAID_AGAIN = replace(
    UNDERPAID,
    line=16,
    stake="seat-5/main",
    message="The blackjack of seat 5 was paid 20 where 3 to 2 on a stake of 20 gives 30.",
    expected={"pay": "30"},
    actual={"pay": "20"},
    discrepancy=Decimal("-10"),
)
OVERPAID = Finding(
    kind="payout",
    rule="fr/blackjack/surrender-returns-half",
    ref=REF_55_11,
    severity="error",
    file=FILE_A,
    line=15,
    round="r-0002",
    stake="seat-1/main",
    message="The surrender of seat 1 returned 100% of the stake instead of 50%.",
    expected={"return": "2.5"},
    actual={"return": "5"},
    discrepancy=Decimal("2.50"),
)
DEALER_DREW = Finding(
    kind="procedure",
    rule="fr/blackjack/dealer-stands-17",
    ref=REF_55_4,
    severity="error",
    file=FILE_A,
    line=22,
    round="r-0003",
    message="The dealer drew a card on a total of 17.",
    expected={"dealer.total": "< 17"},
    actual={"dealer.total": 17},
)
NOT_BURNED = Finding(
    kind="procedure",
    rule="fr/blackjack/burn-first-card",
    ref=REF_55_3,
    severity="warning",
    file=FILE_A,
    line=21,
    round="r-0003",
    message="The first card after the shuffle was dealt instead of burned.",
)
BAD_JSON = Finding(
    kind="format",
    rule="hand-log/invalid-json",
    ref=REF_LOG,
    severity="error",
    file=FILE_A,
    line=30,
    round="r-0004",
    message='Line 30 is not JSON: unexpected "&" after {"type": "deal", <…',
)
TRUNCATED = Finding(
    kind="format",
    rule="hand-log/truncated",
    ref=REF_LOG,
    severity="error",
    file=FILE_B,
    line=None,
    message="The file ends in the middle of a record: the gzip stream is cut short.",
)

# Round r-0005: the dealer's second card at the initial deal (the cause), then an insurance taken once it
# is out, which it decides (its consequence: `caused_by` is the cause's fingerprint, docs/findings.md).
REF_55_4_2 = "Arrêté du 14 mai 2007, art. 55-4, 2°, al. 2 et 4"
EARLY_CARD = Finding(
    kind="procedure",
    rule="fr/blackjack/dealer-second-card-after-players",
    ref="Arrêté du 14 mai 2007, art. 55-4, 1°, al. 1 et 4",
    severity="error",
    file=FILE_A,
    line=35,
    round="r-0005",
    stake="D",
    message="The dealer took his second card before the players had played.",
    expected={"round.players_done": "true"},
    actual={"round.players_done": "false"},
)
INSURED_AFTER = Finding(
    kind="procedure",
    rule="fr/blackjack/insurance-before-dealer-second-card",
    ref=REF_55_4_2,
    severity="error",
    file=FILE_A,
    line=35,
    round="r-0005",
    stake="1:insurance",
    message="Insurance was taken on box 1 after the dealer's second card, which decides it.",
    expected={"dealer.cards": "< 2"},
    actual={"dealer.cards": 2},
    caused_by=fingerprint(EARLY_CARD),
)

OUTCOMES: tuple[RoundOutcome, ...] = (
    RoundOutcome(FILE_A, 1, None, (TABLE_LIMIT,)),
    RoundOutcome(FILE_A, 2, "r-0001", (), "clean"),
    RoundOutcome(FILE_A, 9, "r-0002", (UNDERPAID, OVERPAID, UNDERPAID_AGAIN), "findings"),
    RoundOutcome(FILE_A, 17, "r-0003", (NOT_BURNED, DEALER_DREW), "findings"),
    RoundOutcome(FILE_A, 30, "r-0004", (BAD_JSON,), "unreadable"),
    RoundOutcome(FILE_A, 35, "r-0005", (EARLY_CARD, INSURED_AFTER), "findings"),
    RoundOutcome(FILE_B, 2, "b-0001", (), "clean"),
    RoundOutcome(FILE_B, None, None, (TRUNCATED,)),
)
FINDINGS: tuple[Finding, ...] = tuple(f for outcome in OUTCOMES for f in outcome.findings)
ROUND_IDS = ("r-0001", "r-0002", "r-0003", "r-0004", "r-0005", "b-0001")

RULES: dict[str, RuleInfo] = {
    info.id: info
    for info in (
        RuleInfo("fr/blackjack/table-limits", REF_55_2, "error", "Bets stay within the table limits."),
        RuleInfo(
            "fr/blackjack/natural-pays-3-to-2",
            REF_55_11,
            "error",
            "A blackjack is paid 3 to 2.",
            "A two-card 21 of the player is paid one and a half times the stake, unless the dealer "
            "also has a blackjack.",
        ),
        RuleInfo(
            "fr/blackjack/surrender-returns-half", REF_55_11, "error", "A surrender returns half the stake."
        ),
        RuleInfo("fr/blackjack/dealer-stands-17", REF_55_4, "error", "The dealer stands on 17 or more."),
        RuleInfo(
            "fr/blackjack/burn-first-card", REF_55_3, "warning", "The first card after a shuffle is burned."
        ),
        RuleInfo(
            "fr/blackjack/dealer-second-card-after-players",
            "Arrêté du 14 mai 2007, art. 55-4, 1°, al. 1 et 4",
            "error",
            "The dealer draws his second card after the players.",
        ),
        RuleInfo(
            "fr/blackjack/insurance-before-dealer-second-card",
            REF_55_4_2,
            "error",
            "Insurance is taken before the dealer's second card.",
        ),
        # Never broken in this run: SARIF still lists it.
        RuleInfo("fr/blackjack/split-aces-one-card", REF_55_4, "error", "Split aces receive one card each."),
    )
}


def full_summary() -> Summary:
    summary = Summary(files=2, records=41, rulesets={"fr/blackjack@2013-12-15"})
    for finding in FINDINGS:
        summary.count(finding)
    for outcome in OUTCOMES:
        if outcome.status == "clean":
            summary.rounds_clean += 1
        elif outcome.status == "findings":
            summary.rounds_with_findings += 1
        elif outcome.status == "unreadable":
            summary.rounds_unreadable += 1
    summary.notes.append(
        "fr/blackjack/insurance-2-to-1: the amount depends on a house option that is not declared"
    )
    return summary


CLEAN_OUTCOMES: tuple[RoundOutcome, ...] = (
    RoundOutcome(FILE_A, 2, "r-0001", (), "clean"),
    RoundOutcome(FILE_A, 9, "r-0002", (), "clean"),
)


def clean_summary() -> Summary:
    return Summary(
        files=1,
        records=12,
        rounds_clean=2,
        rulesets={"fr/blackjack@2013-12-15"},
        house="houses/casino-nord.yaml",
    )


# Goldens must not change with each release: reports are rendered as by a fixed version.
TOOL_VERSION = "9.9.9"
CHECKOUT_URI = "file:///checkout/"


def render_run(
    name: str,
    outcomes: tuple[RoundOutcome, ...],
    summary: Summary,
    rules: Mapping[str, RuleInfo],
    *,
    color: bool = False,
) -> str:
    """What `--format NAME` writes for these outcomes, fed in order as the run feeds them."""
    out = io.StringIO()
    if name == "sarif":
        # Relative paths are relative to the current folder, taken as the root; the root's own URI (in
        # originalUriBaseIds) is written as a fixed one so the golden does not depend on the checkout.
        reporter: Reporter = SarifReporter(
            out, tool_version=TOOL_VERSION, root=os.getcwd(), err=io.StringIO()
        )
    else:
        reporter = REPORTERS[name](out, color=color, tool_version=TOOL_VERSION)
    for outcome in outcomes:
        reporter.round(outcome)
    reporter.finish(summary, rules)
    return out.getvalue().replace(Path.cwd().as_uri().rstrip("/") + "/", CHECKOUT_URI)


def render_full(name: str, *, color: bool = False) -> str:
    return render_run(name, OUTCOMES, full_summary(), RULES, color=color)


def render_clean(name: str, *, color: bool = False) -> str:
    return render_run(name, CLEAN_OUTCOMES, clean_summary(), RULES, color=color)
