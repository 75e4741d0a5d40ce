"""The table's money in the replay: what a replayed round kept (`round_net`), and the
`money/reconciliation` finding of a séance whose carnet does not match its rounds (the séance's ledger
and its reconciliation: `validator.casino.seance`)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from validator.casino.money import fmt
from validator.casino.seance import ZERO, Balance
from validator.findings.finding import Finding
from validator.i18n import _, ngettext
from validator.logs.rules.money import MONEY_REF, RECONCILIATION


def round_net(engine: Any) -> Decimal:
    """What the house kept of a round its engine replayed (`replay.round_base.RoundReplay`): every `lose`
    collects its amount (the whole stake when it names none, as the audit's ledger counts it), every
    `pay` pays its amount, a `push` returns the stake."""
    net = ZERO
    for name, done in engine.settlements.items():
        for settlement in done:
            verb = settlement.verb
            if verb == "lose":
                amount = settlement.amount
                if amount is None:
                    hand = engine.hands.get(name)
                    amount = hand.stake if hand is not None else engine.side_stakes.get(name, ZERO)
                net += amount
            elif verb == "pay":
                net -= settlement.amount or ZERO
    return net


def finding(found: Balance) -> Finding | None:
    """The `money/reconciliation` finding of a séance whose carnet does not match its rounds."""
    difference = found.difference
    if found.status != "difference" or difference is None:
        return None
    seance = found.seance
    assert found.carnet_result is not None and found.rounds_result is not None
    if found.style == "carnet":
        figures = _(
            "encaisse {closing} − avance initiale {opening} − avances complémentaires {brought}"
        ).format(closing=fmt(found.closing), opening=fmt(found.opening), brought=fmt(found.brought))
    else:
        figures = _(
            "closing inventory {closing} + credits {taken} + drop {drop} − opening inventory {opening} − "
            "fills {brought}"
        ).format(
            closing=fmt(found.closing),
            taken=fmt(found.taken),
            drop=fmt(found.drop),
            opening=fmt(found.opening),
            brought=fmt(found.brought),
        )
    rounds = ngettext("{n} round", "{n} rounds", seance.rounds).format(n=f"{seance.rounds:,}")
    if difference > 0:
        gap = _("{amount} more at the table than the rounds explain").format(amount=fmt(difference))
    else:
        gap = _("{amount} missing from the table").format(amount=fmt(-difference))
    message = _(
        "séance of table {table} opened at {opened}: its carnet gives a result of {carnet} ({figures}), "
        "its {rounds} a result of {result} (stakes collected less amounts paid): {gap}"
    ).format(
        table=seance.table,
        opened=seance.opened,
        carnet=fmt(found.carnet_result),
        figures=figures,
        rounds=rounds,
        result=fmt(found.rounds_result),
        gap=gap,
    )
    return Finding(
        "money",
        RECONCILIATION,
        MONEY_REF,
        "error",
        seance.file,
        found.closing_line,
        message,
        expected={_("the rounds' result"): fmt(found.rounds_result)},
        actual={_("the carnet's result"): fmt(found.carnet_result), **_figures(found)},
    )


def _figures(found: Balance) -> dict[str, str | None]:
    """The carnet's figures, named as the carnet names them."""
    if found.style == "carnet":
        return {
            _("avance initiale"): fmt(found.opening),
            _("avances complémentaires"): fmt(found.brought),
            _("encaisse"): fmt(found.closing),
        }
    return {
        _("opening inventory"): fmt(found.opening),
        _("fills"): fmt(found.brought),
        _("credits"): fmt(found.taken),
        _("drop"): fmt(found.drop),
        _("closing inventory"): fmt(found.closing),
    }
