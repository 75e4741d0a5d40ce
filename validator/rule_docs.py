"""Documentation of the rules Python itself applies: the reader's `hand-log/*` (and
`ruleset/no-version-in-force`) and the linter's `house/*`. Ruleset rules carry their docs in the
ruleset; these carry the same four texts here, so `rules show` and SARIF describe every rule id a
finding can have.
"""

from __future__ import annotations

from dataclasses import dataclass

from validator.findings import Kind, Severity

LOG_REF = "hand-log/1 (docs/hand-log.md)"
HOUSE_REF = "house-rules/1 (docs/house-rules.md)"


@dataclass(frozen=True, slots=True)
class RuleDoc:
    id: str
    kind: Kind
    severity: Severity
    ref: str
    checks: str
    why: str
    fails: str
    passes: str


def _log(rule: str, checks: str, why: str, fails: str, passes: str) -> RuleDoc:
    return RuleDoc(rule, "format", "error", LOG_REF, checks, why, fails, passes)


def _house(
    rule: str, checks: str, why: str, fails: str, passes: str, severity: Severity = "error"
) -> RuleDoc:
    return RuleDoc(rule, "house", severity, HOUSE_REF, checks, why, fails, passes)


_REPLAY_WHY = "A round the validator cannot replay as logged cannot be judged; it is counted unreadable."

_DOCS: tuple[RuleDoc, ...] = (
    _log(
        "hand-log/invalid-json",
        "Every line of a log is one JSON object.",
        "hand-log/1 is JSON Lines: a line that is not JSON cannot be read, and may have been a round.",
        'A line cut in the middle, or with a stray character: `{"type": "deal", &`.',
        '`{"type": "round", "round": "BJ-03/1/17", …}` on one line.',
    ),
    _log(
        "hand-log/invalid-utf8",
        "A log is UTF-8 text.",
        "hand-log/1 files are UTF-8; bytes that are not cannot be read as a record.",
        "A line written in Latin-1 with an accented casino name.",
        "The same line written in UTF-8.",
    ),
    _log(
        "hand-log/line-too-long",
        "A line stays under the reader's limit (--max-line-bytes, one mebibyte by default).",
        "A record of a round is a few hundred bytes; a line over the limit is damage, and is skipped "
        "without being loaded.",
        "A file whose newlines were lost, read as one huge line.",
        "One record per line.",
    ),
    _log(
        "hand-log/too-large",
        "A log stays under the bytes the reader takes from one file (--max-log-bytes, 16G by default), "
        "counted after decompression.",
        "A small compressed file can unfold into gigabytes; past the limit the rest of the file is not "
        "read, and this finding says so, rather than the run going on for hours.",
        "A 1 MB gzip that decompresses to more than --max-log-bytes.",
        "A séance's log of any realistic size.",
    ),
    _log(
        "hand-log/broken-records-skipped",
        "How many records that cannot be read, past --max-broken-records in a row (100 by default), "
        "were only counted rather than reported one by one.",
        "A damaged file can hold millions of identical broken lines; one finding with their count and "
        "lines keeps the report readable, and each is still counted in the summary.",
        "101 lines in a row that are not JSON: 100 findings, then this one for the last line.",
        "A log whose broken lines are fewer than the limit in a row: each is reported.",
    ),
    _log(
        "hand-log/truncated",
        "A file ends after a complete record.",
        "A file (or gzip stream) cut short has lost its last records: the séance is incomplete.",
        "A `.jsonl.gz` copied while it was still being written.",
        "A file whose last line is a complete record.",
    ),
    _log(
        "hand-log/schema",
        "Each record has the fields its type requires, with values of the right form.",
        'The replay relies on every field docs/hand-log.md defines: a card `"AS"`, an amount, a time '
        "with its UTC offset.",
        'A round without `at`, a card `"1S"`, an amount `"ten"` or one of 16 digits before the point.',
        "A record as docs/hand-log.md shows it.",
    ),
    _log(
        "hand-log/unknown-type",
        "A record's `type` is one of hand-log/1's.",
        "Record types are closed: an unknown type may be a misspelt round, which would otherwise be lost.",
        '`{"type": "rnd", "round": "BJ-03/1/17", …}`.',
        '`{"type": "round", …}`.',
    ),
    _log(
        "hand-log/no-table",
        "A table record opens the séance before any other record.",
        "The table record says which game, which ruleset and which limits apply.",
        "A file that starts with a shoe or a round.",
        'A file that starts with `{"type": "table", …}`.',
    ),
    _log(
        "hand-log/no-shoe",
        "A shoe record comes before the first round of a table.",
        "The replay follows the cards out of the shoe: without a shoe it cannot know them.",
        "A round right after the table record.",
        "A table, a shoe, then rounds.",
    ),
    _log(
        "hand-log/other-shoe",
        "A round names the shoe in play.",
        "Each round's cards come from the current shoe; a round naming another shoe is mislabelled "
        "(it is still replayed with the shoe in play).",
        'A round with `"shoe": "BJ-03/2025-03-14/2"` while shoe 1 is in play.',
        "A round naming the last shoe record's id.",
    ),
    _log(
        "hand-log/unknown-hand",
        "An action names a hand that was opened in the round.",
        _REPLAY_WHY,
        '`["hit", "4", "5C"]` where box 4 has no bet and no card.',
        "Actions only on hands dealt in the round.",
    ),
    _log(
        "hand-log/unknown-stake",
        "A settlement names a stake that was bet in the round.",
        _REPLAY_WHY,
        '`["pay", "2:insurance", 10]` with no insurance taken on box 2.',
        "Settlements of the stakes bet, split, doubled or insured in the round.",
    ),
    _log(
        "hand-log/wrong-game",
        "Every action is one of the table's game.",
        _REPLAY_WHY,
        '`["war", "1", 10]` at a blackjack table.',
        '`["war", "1", 10]` at a bataille table after a tie.',
    ),
    _log(
        "hand-log/inconsistent",
        "A round can be replayed as logged.",
        _REPLAY_WHY,
        "A card dealt to a hand that is over, an amount that is no number.",
        "A round whose actions follow each other as the game allows.",
    ),
    _log(
        "ruleset/no-version-in-force",
        "A version of the table's ruleset is in force on the round's date.",
        "Each round is judged by the text in force on its local date; where no version is encoded, "
        "there is no silent fallback to another one.",
        "A French blackjack round dated 2010, before the first wording encoded (2013).",
        "A French blackjack round dated 2025-03-14.",
    ),
    _house(
        "house/option-not-allowed",
        "Each option has a value the regulation lets the casino choose.",
        "The ruleset declares each option's type, allowed values or range, from the article that "
        "gives the choice.",
        "`max_split_hands: 9` where the text allows at most four hands.",
        "`max_split_hands: 3`.",
    ),
    _house(
        "house/fixed-by-regulation",
        "A house file does not set what the regulation fixes.",
        "What the text fixes is not the casino's to choose; writing the text's own value is only a "
        "warning (nothing wrong was chosen), another value is an error citing the article.",
        '`blackjack_pays: "6:5"` at a French blackjack table (art. 55-4 fixes 3 for 2).',
        "Leaving `blackjack_pays` out.",
    ),
    _house(
        "house/unknown-key",
        "Every key of a table entry is one the ruleset declares.",
        "A misspelt option would silently leave the regulation's default in force; the message names "
        "the closest known key.",
        "`surender: true`.",
        "`surrender: true`.",
    ),
    _house(
        "house/unknown-side-bet",
        "Each side bet listed exists in the version of the ruleset.",
        "A casino can only offer the side bets the text in force describes.",
        "`hyper_blackjack` at a French blackjack table in 2016, before the wording that added it.",
        "`lucky_ladies` at a French blackjack table in 2016.",
    ),
    _house(
        "house/required-option",
        "Options the version requires the house to declare are declared.",
        "Some texts leave a choice with no default (the usage description's blackjack payout): the "
        "house must state it.",
        "An entry under the usage description without its blackjack payout.",
        "The same entry declaring it.",
    ),
    _house(
        "house/unknown-ruleset",
        "A table's `ruleset` is one the tool holds.",
        "Without the ruleset, nothing in the entry can be judged.",
        "A ruleset id with a typo.",
        "A ruleset id `rules list` shows.",
    ),
    _house(
        "house/no-version-in-force",
        "A version of the table's ruleset is in force on the day linted.",
        "An entry is judged by the text in force on `--date` (default: today).",
        "`lint --date 2010-01-01` on a French blackjack entry.",
        "`lint --date 2025-03-14`.",
    ),
    _house(
        "house/game-mismatch",
        "An entry's `game` is its ruleset's game.",
        "An entry describing a bataille table under a blackjack ruleset is a mistake of the file.",
        "`game: bataille` with a blackjack ruleset.",
        "`game: blackjack` with a blackjack ruleset, or no `game`.",
    ),
    _house(
        "house/schema",
        "The file has the structure of house-rules/1.",
        "docs/house-rules.md defines the keys every file and entry carries.",
        "An entry without `ruleset`, `format: house-rules/2`, a negative minimum.",
        "A file as docs/house-rules.md shows it.",
    ),
    _house(
        "house/unused-suppression",
        "Each `# casino-validator: ignore[RULE-ID]` comment suppresses a finding.",
        "A suppression left behind after the mistake was fixed would hide the next one unnoticed.",
        "`# casino-validator: ignore[house/unknown-key]` above a key that is known.",
        "The same comment above the misspelt key it was written for.",
        severity="warning",
    ),
)

BUILTIN: dict[str, RuleDoc] = {doc.id: doc for doc in _DOCS}


def builtin_docs(prefixes: tuple[str, ...]) -> list[RuleDoc]:
    """The Python-side rules whose ids start with one of `prefixes` (`("hand-log/", "ruleset/")`)."""
    return [doc for doc in _DOCS if doc.id.startswith(prefixes)]
