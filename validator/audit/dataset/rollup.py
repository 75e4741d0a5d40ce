"""The rounds without findings of one run's HTML report, summed instead of kept one row each.

`check --format html` writes a temporary dataset that the audit report reads (`validator.audit`). A
round without findings is never listed there: it only counts, in the overview, the money by table,
dealer and day, the dealers' rates, the player–dealer pairs and the tables' hold. So such rounds are
summed by what those figures group them by (`rounds`: the log, casino, table, dealer, gaming day, hour of the
table's clock and ruleset; `played`: the dealer, player, casino, table and gaming day), each group a row with
its number of rounds as `weight`, and the audit's queries count `weight` where they counted rows
(`audit.query`). The sums are those DuckDB would make of the rows (`audit.dataset.writer`) writes for the same
rounds, exactly: money is summed as the same DECIMAL(38, 10) amounts.

The sums are made wherever the rounds are replayed (a worker of `check --jobs` sends back its share's
`Rollup`, not its rounds) and merged by the report's process in any order: they are sums.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, localcontext
from pathlib import Path
from typing import Any, TypeVar

from validator.audit.dataset.writer import (
    DECISION_KEY,
    DEFAULT_GAMING_DAY_START,
    box_squares,
    decision_row,
    file_digest,
    money,
    when_of,
)
from validator.findings.finding import RoundOutcome

_ZERO = money(Decimal(0))

# (log_digest, casino, table_id, dealer, gaming_day, hour of local_time, ruleset)
RoundKey = tuple[str, str | None, str | None, str | None, date | None, datetime | None, str | None]
# (verb, cards, dealer's cards, split, split_aces, hands): a decision and what it was taken on
DecisionKey = tuple[Any, ...]  # a decision row's DECISION_KEY columns: verb, cards, … hands
K = TypeVar("K")
# (dealer, player, casino, table_id, gaming_day)
PlayedKey = tuple[str, str | None, str | None, str | None, date | None]


@dataclass(slots=True)
class Rollup:
    """Sums of rounds without findings: per `RoundKey`, [rounds, wagered, collected, paid, staked_main,
    kept_main, staked_main squared, the boxes' stakes squared] (`staked_main` and the squares over the
    rounds with facts, None where none had them, as the rows would hold null); per `RoundKey` and
    decision, [its stakes, times taken]; per `PlayedKey`, rounds."""

    rounds: dict[RoundKey, list[Any]] = field(default_factory=dict)
    decisions: dict[tuple[RoundKey, DecisionKey], list[Any]] = field(default_factory=dict)
    # per `RoundKey` and bet of its own (insurance, a side bet): [wagered, kept, Σ round's wager², rounds]
    bets: dict[tuple[RoundKey, str], list[Any]] = field(default_factory=dict)
    # a row per round: its cards out of the shoe, with what orders them (the shoe tests)
    dealt: list[dict[str, Any]] = field(default_factory=list)
    played: dict[PlayedKey, int] = field(default_factory=dict)
    # The gaming day's start, as the run's dataset writer counts it (`DatasetSpec.gaming_day_start`).
    gaming_day_start: int = DEFAULT_GAMING_DAY_START
    # Where this process reads a log the outcomes name otherwise (a worker's folder is not the client's):
    # its digest is of the file, wherever it is read.
    located: dict[str, str] = field(default_factory=dict)
    _file: tuple[str | None, str] = (None, "")

    def add(self, outcome: RoundOutcome) -> None:
        """A clean round's outcome, carrying its facts (`check` collects them for the HTML report)."""
        if outcome.file != self._file[0]:
            self._file = (outcome.file, file_digest(self.located.get(outcome.file, outcome.file)))
        facts = outcome.facts
        if facts is None:
            key: RoundKey = (self._file[1], None, None, None, None, None, None)
            wagered = collected = paid = kept_main = _ZERO
            staked: Decimal | None = None
            boxes = None
        else:
            when = when_of(facts.at, self.gaming_day_start)
            hour = when.local.replace(minute=0, second=0, microsecond=0) if when.local else None
            key = (self._file[1], facts.casino, facts.table, facts.dealer, when.day, hour, facts.ruleset)
            main = sum((s.wagered for s in facts.stakes if s.main_game), Decimal(0))
            side = sum((s.wagered for s in facts.stakes if not s.main_game), Decimal(0))
            wagered = money(main + side)
            collected = money(sum((s.collected for s in facts.stakes), Decimal(0)))
            paid = money(sum((s.paid for s in facts.stakes), Decimal(0)))
            kept_main = money(sum((s.collected - s.paid for s in facts.stakes if s.main_game), Decimal(0)))
            staked = money(facts.staked_main)
            boxes = box_squares(facts.staked_boxes)
            if facts.cards:
                self.dealt.append(
                    {
                        "casino": facts.casino,
                        "table_id": facts.table,
                        "shoe": facts.shoe,
                        "gaming_day": when.day,
                        "at_utc": when.at_utc,
                        "file": outcome.file,
                        "line": outcome.line,
                        "cards": facts.cards,
                    }
                )
            own: dict[str, list[Decimal]] = {}
            for stake in facts.stakes:
                if not stake.main_game:
                    held = own.setdefault(stake.bet, [Decimal(0), Decimal(0)])
                    held[0] += stake.wagered
                    held[1] += stake.collected - stake.paid
            for bet, (on_it, kept_it) in own.items():
                _add(self.bets, (key, bet), [money(on_it), money(kept_it), float(on_it) ** 2, 1])
            for decision in facts.decisions:
                row = decision_row(decision)
                taken: DecisionKey = tuple(row[column] for column in DECISION_KEY)
                _add(self.decisions, (key, taken), [row["stake"], 1])
            if facts.dealer is not None:
                for player in facts.players:
                    place = (facts.dealer, player, facts.casino, facts.table, when.day)
                    self.played[place] = self.played.get(place, 0) + 1
        square = None if staked is None else _square(staked)
        _add(self.rounds, key, [1, wagered, collected, paid, staked, kept_main, square, boxes])

    def merge(self, other: Rollup) -> None:
        for key, sums in other.rounds.items():
            _add(self.rounds, key, list(sums))
        for taken, sums in other.decisions.items():
            _add(self.decisions, taken, list(sums))
        for placed, sums in other.bets.items():
            _add(self.bets, placed, list(sums))
        self.dealt.extend(other.dealt)
        for place, count in other.played.items():
            self.played[place] = self.played.get(place, 0) + count

    def write(self, root: str, run_id: str, house_file: str | None) -> None:
        """The sums as `rollup/rounds.parquet` and `rollup/played.parquet` under the dataset `root`, in
        the keys' order (the same files however the rounds were shared out)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        from validator.audit.dataset import schema

        folder = Path(root) / "rollup"
        folder.mkdir(parents=True, exist_ok=True)
        rounds = [
            {
                "run_id": run_id,
                **_keyed(key, house_file),
                "status": "clean",
                "wagered": sums[1],
                "collected": sums[2],
                "paid": sums[3],
                "staked_main": sums[4],
                "kept_main": sums[5],
                "staked_sq": float(sums[6]) if sums[6] is not None else None,
                "staked_box_sq": sums[7],
                "overpaid": _ZERO,
                "underpaid": _ZERO,
                "findings_procedure": 0,
                "findings_payout": 0,
                "weight": sums[0],
            }
            for key, sums in sorted(self.rounds.items(), key=lambda item: _order(item[0]))
        ]
        played = [
            {
                "dealer": k[0],
                "player": k[1],
                "casino": k[2],
                "table_id": k[3],
                "gaming_day": k[4],
                "weight": n,
            }
            for k, n in sorted(self.played.items(), key=lambda item: _order(item[0]))
        ]
        decisions = [
            {
                **_keyed(key, house_file),
                "verb": taken[0],
                "cards": taken[1],
                "dealer_cards": taken[2],
                "stake": sums[0],
                "split": taken[3],
                "split_aces": taken[4],
                "hands": taken[5],
                "weight": sums[1],
            }
            for (key, taken), sums in sorted(
                self.decisions.items(), key=lambda item: (_order(item[0][0]), item[0][1])
            )
        ]
        pq.write_table(pa.Table.from_pylist(rounds, schema=schema.ROLLUP_ROUNDS), folder / "rounds.parquet")
        pq.write_table(
            pa.Table.from_pylist(decisions, schema=schema.ROLLUP_DECISIONS), folder / "decisions.parquet"
        )
        bets = [
            {
                **_keyed(key, house_file),
                "bet": bet,
                "wagered": sums[0],
                "kept": sums[1],
                "wagered_sq": sums[2],
                "weight": sums[3],
            }
            for (key, bet), sums in sorted(
                self.bets.items(), key=lambda item: (_order(item[0][0]), item[0][1])
            )
        ]
        pq.write_table(pa.Table.from_pylist(bets, schema=schema.ROLLUP_BETS), folder / "bets.parquet")
        pq.write_table(
            pa.Table.from_pylist(
                sorted(self.dealt, key=lambda r: (str(r["file"]), r["line"])), schema=schema.ROLLUP_DEALT
            ),
            folder / "dealt.parquet",
        )
        pq.write_table(pa.Table.from_pylist(played, schema=schema.ROLLUP_PLAYED), folder / "played.parquet")


def _add(rounds: dict[K, list[Any]], key: K, sums: list[Any]) -> None:
    """Adds `sums` to the key's; a None (no facts) adds nothing, as SQL's sum skips nulls."""
    held = rounds.get(key)
    if held is None:
        rounds[key] = sums
        return
    with localcontext() as exact:
        exact.prec = 100  # the squares' sums exactly, as the amounts' (see `_square`)
        for i, value in enumerate(sums):
            if value is not None:
                held[i] = value if held[i] is None else held[i] + value


def _square(amount: Decimal) -> Decimal:
    """An amount squared exactly (10 decimals at most, so 20 for the square: the default context's 28
    digits would round a large one)."""
    with localcontext() as exact:
        exact.prec = 100
        return amount * amount


def _keyed(key: tuple[Any, ...], house_file: str | None) -> dict[str, Any]:
    """The columns a rollup row takes from its key (the log, table, dealer, day, hour and version), with
    the run's house file: the same in the rounds', decisions' and bets' rows."""
    return {
        "log_digest": key[0],
        "casino": key[1],
        "table_id": key[2],
        "dealer": key[3],
        "gaming_day": key[4],
        "local_time": key[5],
        "ruleset": key[6],
        "house_file": house_file,
    }


def _order(key: tuple[Any, ...]) -> tuple[Any, ...]:
    """A key sortable whatever its None values: each part as (is it None, its value)."""
    return tuple((part is None, part if part is not None else 0) for part in key)
