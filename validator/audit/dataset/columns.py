"""The dataset's data dictionary: every column of its tables, its type and what it holds. One place:
the Arrow schemas (`validator.audit.dataset.schema`) are built from it, each field carrying its description in
the Parquet metadata, and `casino-validator schema dataset` prints it. Plain Python (no pyarrow), so the
dictionary is readable without the audit extra.

Column names are not SQL keywords (`table_id`, not `table`), and one idea has one name: `rules_net` is the
players' net the rules give, on a stake and summed on a round.

Days, weeks and months are gaming days: a casino's gaming day starts at the hour its house file states
(`gaming_day_start`, 06:00 by default) on the table's own clock, so a round dealt at 02:00 belongs to the
gaming day that started the evening before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: str  # string, int16, int32, int64, float64, bool, date, money, utc_time, local_time, list<…>
    description: str


MONEY_NOTE = "DECIMAL(38, 10), exact"

# Columns several tables have, each the same in all of them.
_RUN_ID = Column("run_id", "string", "The `check --dataset` run that wrote the row.")
_LOG_DIGEST = Column("log_digest", "string", "SHA-256 of the log file's bytes.")
_FILE = Column("file", "string", "The log file.")
_ROUND = Column("round", "string", "The round id.")
_CASINO = Column("casino", "string", "The casino.")
_TABLE_ID = Column("table_id", "string", "The table id.")
_HOUSE_DIGEST = Column("house_digest", "string", "SHA-256 of the house-rules file.")

STAKE: tuple[Column, ...] = (
    Column(
        "stake", "string", "The stake as hand-log/1 names it: `3`, `3/2` (a split hand), `3:lucky_ladies`."
    ),
    Column("bet", "string", "`main`, or the side bet's name (insurance, lucky_ladies, war, …)."),
    Column("player", "string", "The player of the stake's box."),
    Column("wagered", "money", "What was wagered on the stake, after doubles."),
    Column("paid", "money", "What the house paid the player on this stake (every `pay`)."),
    Column("collected", "money", "What the house collected on this stake (every `lose`)."),
    Column(
        "rules_net", "money", "The player's net the rules give (pay +, lose −, push 0); null: not judged."
    ),
    Column(
        "main_game",
        "bool",
        "Part of the main game `edge`'s house edge covers (the main stake, doubles and splits, bataille's "
        "war stake); false: a bet of its own (insurance, a side bet).",
    ),
)

DECISION: tuple[Column, ...] = (
    Column("hand", "string", "The hand that decided: `3`, `3/2` (a split hand)."),
    Column(
        "verb",
        "string",
        "hit, stand, double, split, surrender, insurance, even_money; bataille: war, surrender.",
    ),
    Column("cards", "string", "The hand's cards when it decided, two characters each (`TH9S`)."),
    Column("dealer_cards", "string", "The dealer's cards in sight when it decided (`6D`)."),
    Column("stake", "money", "The hand's stake when it decided (before a double adds to it)."),
    Column("split", "bool", "A hand of a split pair."),
    Column("split_aces", "bool", "A hand of a split pair of aces."),
    Column("hands", "int16", "The hands of its box when it decided."),
)

ROUNDS: tuple[Column, ...] = (
    Column("run_id", "string", "The `check --dataset` run that wrote the row (see `runs`)."),
    _LOG_DIGEST,
    Column(
        "round_key",
        "string",
        "The round's key in this dataset: the log digest's first 16 digits and the line.",
    ),
    Column("file", "string", "The log file, as the run named it."),
    Column("line", "int64", "The round record's line in the log."),
    Column("casino", "string", "The casino, as the table record names it."),
    Column("table_id", "string", "The table id, as the logs and the house file name it."),
    Column("shoe", "string", "The shoe (or deck) id."),
    _ROUND,
    Column("at", "string", "The round's time as the log wrote it, with its UTC offset."),
    Column("at_utc", "utc_time", "The round's time in UTC."),
    Column("utc_offset_minutes", "int16", "The table clock's offset from UTC, in minutes."),
    Column("local_time", "local_time", "The table's wall clock: hours are counted in it."),
    Column(
        "gaming_day", "date", "The gaming day of the round (it starts at the house file's gaming_day_start)."
    ),
    Column("dealer", "string", "The dealer of the round."),
    Column(
        "ruleset",
        "string",
        "The version of the rules the round was judged by, as `rules list` names versions.",
    ),
    Column("house_file", "string", "The house-rules file the run was given."),
    _HOUSE_DIGEST,
    Column("boxes", "int16", "Boxes played."),
    Column("players", "list<string>", "The players of the round."),
    Column(
        "staked_main",
        "money",
        "The main bets as placed, before doubles and splits: what the house edge is a fraction of.",
    ),
    Column(
        "staked_box_sq",
        "float64",
        "The sum over the boxes of each box's main bets as placed, squared: with `staked_main` squared, "
        "what the hold band's variance reads (the boxes of a round move together).",
    ),
    Column(
        "wagered_main",
        "money",
        "Wagered on the main stakes, after doubles and splits (bataille: with the war stakes, the main "
        "stake raised).",
    ),
    Column("wagered_side", "money", "Wagered on side bets and insurance."),
    Column("wagered", "money", "Wagered on every stake."),
    Column(
        "kept_main",
        "money",
        "What the house kept on the main stakes (bataille: war stakes included): collected − paid.",
    ),
    Column("paid", "money", "Paid by the house, every stake."),
    Column("collected", "money", "Collected by the house, every stake."),
    Column("rules_net", "money", "The players' net the rules give, summed over the stakes they judge."),
    Column("overpaid", "money", "Paid by the house beyond what the rules give (payout findings)."),
    Column("underpaid", "money", "Paid by the house short of what the rules give (payout findings)."),
    Column("findings", "int32", "Findings of the round."),
    Column("findings_procedure", "int32", "Procedure findings of the round."),
    Column("findings_payout", "int32", "Payout findings of the round."),
    Column("findings_format", "int32", "Format findings of the round."),
    Column("findings_house", "int32", "House-rules findings of the round."),
    Column("errors", "int32", "Findings of severity error."),
    Column("status", "string", "`clean`, `findings` or `unreadable`."),
    Column("clean", "bool", "No finding."),
    Column("unreadable", "bool", "The record could not be replayed."),
    Column("stakes", "list<stake>", "Each stake of the round: " + ", ".join(c.name for c in STAKE) + "."),
    Column("trace", "string", "The step-by-step account of the round (rounds with findings only)."),
    Column(
        "decisions",
        "list<decision>",
        "Each decision a player took, in order: " + ", ".join(c.name for c in DECISION) + ". What the "
        "report's theoretical figure prices against the best play.",
    ),
    Column(
        "cards",
        "string",
        "The cards the round took out of the shoe, in order, burns and discards included, two characters "
        "each: what the shoe tests read.",
    ),
)

FINDINGS: tuple[Column, ...] = (
    _RUN_ID,
    _LOG_DIGEST,
    Column("round_key", "string", "The round's key (joins `rounds.round_key`); null outside a round."),
    Column("fingerprint", "string", "The finding's fingerprint, stable across runs (docs/findings.md)."),
    Column("kind", "string", "procedure, payout, format or house."),
    Column("rule", "string", "The rule id."),
    Column("ref", "string", "The legal reference of the rule."),
    Column("severity", "string", "error or warning."),
    _FILE,
    Column("line", "int64", "The line of the record in the log."),
    _ROUND,
    Column("stake", "string", "The stake the finding is about."),
    Column("path", "string", "Where in the record (`actions[4]`)."),
    Column("message", "string", "The finding's message."),
    Column("expected", "string", "What the rules give, as JSON."),
    Column("actual", "string", "What the log shows, as JSON."),
    Column("discrepancy", "money", "Signed: + the house overpaid, − the house underpaid."),
    _CASINO,
    _TABLE_ID,
    Column("dealer", "string", "The dealer."),
    Column("player", "string", "The player of the stake."),
    Column("local_time", "local_time", "The table's wall clock."),
    Column("gaming_day", "date", "The gaming day of the round."),
    Column(
        "rests_on",
        "string",
        "check --all-readings: the readings the finding rests on, as JSON [{reading, alternative}] "
        "([] firm); "
        "null when the run judged under the readings applied only.",
    ),
    Column(
        "caused_by",
        "string",
        "Only on a consequence: the fingerprint of the finding of the same round that caused it, which "
        "comes just before it in the round (docs/findings.md, one finding per cause); else null.",
    ),
    Column(
        "video_kept_until",
        "utc_time",
        "Until when the table's video of the finding is kept at least: its round's time (a séance's "
        "opening for a money finding) plus the house file's `video_retention_days`, else a week (the "
        "arrêté du 14 mai 2007, art. 21); null where the time is not known.",
    ),
)

# The registre de contrôle (the arrêté du 14 mai 2007, art. 69): one row per séance whose table's money
# was looked at (hand-log/1.2 `money` records, or a hand-log/1.2 log), its carnet beside its rounds.
SEANCES: tuple[Column, ...] = (
    _RUN_ID,
    _LOG_DIGEST,
    _FILE,
    Column("line", "int64", "The line of the séance's `table` record."),
    _CASINO,
    _TABLE_ID,
    Column("opened", "string", "The séance's opening time as logged (its `table` record's `at`)."),
    Column("opened_utc", "utc_time", "The same, in UTC."),
    Column("local_time", "local_time", "The same, on the table's wall clock."),
    Column("gaming_day", "date", "The gaming day the séance opened in."),
    Column(
        "status",
        "string",
        "reconciled (the carnet's result is the rounds' to the cent), difference (a money/reconciliation "
        "finding), or not_reconciled (see `reason`).",
    ),
    Column("reason", "string", "Why not reconciled: no-money, no-opening, no-closing, unreadable-rounds, …"),
    Column(
        "style", "string", "carnet (avance initiale, avances complémentaires, encaisse) or inventory (US)."
    ),
    Column("opening", "money", "The avance initiale (or opening inventory)."),
    Column("brought", "money", "The avances complémentaires (or fills), summed."),
    Column("taken", "money", "The credits (the US way), summed; 0 for a carnet."),
    Column("drop", "money", "The drop (the US way); null for a carnet."),
    Column("closing", "money", "The encaisse (or closing inventory)."),
    Column("carnet_result", "money", "The table's result by its carnet: encaisse − avances (US: see docs)."),
    Column(
        "rounds_result", "money", "The rounds' result: stakes collected less amounts paid, side bets too."
    ),
    Column("difference", "money", "carnet_result − rounds_result: + more at the table, − missing."),
    Column("rounds", "int64", "The séance's rounds replayed."),
    Column("closing_line", "int64", "The line of the encaisse (or closing inventory): the finding's."),
    Column(
        "video_kept_until",
        "utc_time",
        "Until when the séance's video is kept at least: its opening plus the retention (art. 21).",
    ),
)

RUNS: tuple[Column, ...] = (
    Column("run_id", "string", "The run."),
    Column("started", "utc_time", "When it started."),
    Column("finished", "utc_time", "When it ended."),
    Column("tool_version", "string", "casino-validator's version."),
    Column("options", "string", "The options the run was given, as JSON."),
    Column("logs", "list<log>", "Each log read: file, digest."),
    Column("house_file", "string", "The house-rules file."),
    _HOUSE_DIGEST,
    Column(
        "ruleset_files",
        "list<ruleset_file>",
        "The encoding that judged the run: each ruleset file of the versions used (and of the versions "
        "they amend), as the run named it, with the version it holds and its SHA-256.",
    ),
    Column("rounds", "int64", "Rounds read."),
    Column("findings", "int64", "Findings."),
    Column("summary", "string", "The `json` format's summary of the run, as JSON."),
    Column(
        "committed",
        "int64",
        "When the run committed, in nanoseconds since the epoch: the commits' order (a log belongs to "
        "the last run that committed it).",
    ),
    Column(
        "files",
        "list<file>",
        "The run's manifest: every file it wrote (path under the dataset, table, the log's digest "
        "prefix, rows). Only the files a committed run lists count.",
    ),
)

TABLES: dict[str, tuple[Column, ...]] = {
    "rounds": ROUNDS,
    "findings": FINDINGS,
    "seances": SEANCES,
    "runs": RUNS,
}


def dictionary() -> dict[str, Any]:
    """The data dictionary as `casino-validator schema dataset` prints it."""
    return {
        "title": "casino-validator audit dataset",
        "layout": (
            "DIR/rounds/casino_key=KEY/month=YYYY-MM/*.parquet (findings/, seances/ too), DIR/runs/*.parquet"
        ),
        "money": MONEY_NOTE,
        "tables": {
            name: {c.name: {"type": c.type, "description": c.description} for c in columns}
            for name, columns in TABLES.items()
        },
        "stake": {c.name: {"type": c.type, "description": c.description} for c in STAKE},
        "decision": {c.name: {"type": c.type, "description": c.description} for c in DECISION},
    }
