"""`edge` as text: the figures as a laboratory's report lists them, each outcome with its probability."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from validator.dsl.readings import headline
from validator.i18n import N_, _, current, ngettext
from validator.numbers import localized as n

# A tie's way out, as `edge` names the decision in its JSON (`"tie": "war"`), in the language in use.
_TIE_WORDS = {"war": N_("war"), "surrender": N_("surrender")}


def _outcome(label: str) -> str:
    """An outcome's label in the language in use: the program's own words are translated (`net 2`,
    `dealer's blackjack`); a paytable line is the text's own words and stays as the ruleset writes it."""
    if label.startswith("net "):
        return _("net {value}").format(value=n(label[4:]))
    return _(label)


def _rows(lines: list[dict[str, Any]]) -> list[str]:
    labels = [_outcome(line["outcome"]) for line in lines]
    width = max((len(label) for label in labels), default=10)
    outcome, net, probability = _("outcome"), _("net"), _("probability")
    out = [f"    {outcome:<{width}}  {net:>10}  {probability:>14}"]
    for label, line in zip(labels, lines, strict=True):
        meter = f"  (+ {line['meter']})" if line.get("meter") else ""
        out.append(f"    {label:<{width}}  {n(line['net']):>10}  {n(line['probability']):>14}{meter}")
    return out


def text(
    report: dict[str, Any], options: list[dict[str, Any]] | None = None, strategy: str | None = None
) -> str:
    """The report as text; `strategy`: the chart of the strategy the figures assume, as its game words it
    (`GameMaths.chart`), printed after the figures."""
    out = _heading(report)
    out.extend(_main_lines(report["main"]))
    for bet in report["side_bets"]:
        out.extend(_side_bet_lines(bet))
    out.extend(_reading_lines(report.get("readings") or []))
    if strategy:
        out.append("")
        out.append(strategy.rstrip("\n"))
    if options is not None:
        out.extend(_option_section(report, options))
    out.append("")
    if report.get("kept"):
        said = _(
            "figures kept from an earlier run of the same version, options and program; the command took "
            "{seconds} s ({cpu} s of processor time)"
        )
    else:
        said = _("computed in {seconds} s ({cpu} s of processor time), the whole command")
    out.append(said.format(seconds=n(str(report["seconds"])), cpu=n(str(report["cpu_seconds"]))))
    return "\n".join(out) + "\n"


def _heading(report: dict[str, Any]) -> list[str]:
    """The version, its game and shoe, the table and the house options chosen."""
    if report["decks_from_version"]:
        decks = _("{n} decks").format(n=report["shoe_decks"])
    else:
        decks = _("{n} decks, not given by the version").format(n=report["shoe_decks"])
    out = [f"{report['ruleset']} ({report['game']}, {decks})"]
    if report.get("table"):
        out.append(_("table {table}").format(table=report["table"]))
    chosen = ", ".join(f"{k}={v}" for k, v in report["house_options"].items() if v != "none")
    out.append(_("house options: {chosen}").format(chosen=chosen or _("none")))
    return out


def _main_lines(main: dict[str, Any]) -> list[str]:
    """The main stake: its return and edge, the strategy, each outcome, its variance, what is not exact,
    and insurance."""
    out = [
        "",
        _("main stake: return {ret} per unit, house edge {edge} %").format(
            ret=n(main["return"]), edge=n(main["house_edge_percent"])
        ),
        "  " + _("strategy: {strategy}").format(strategy=_(main["strategy"])),
    ]
    if main.get("tie"):
        way = main["tie"]
        choice = _(_TIE_WORDS[way]) if way in _TIE_WORDS else way
        out.append("  " + _("on a tie: {choice}").format(choice=choice))
    out.extend(_rows(main["lines"]))
    if "variance" in main:
        out.append(
            "  "
            + _(
                "variance {variance} per initial unit squared; covariance of two boxes in one round "
                "{covariance}"
            ).format(variance=n(main["variance"]), covariance=n(main["covariance"]))
        )
    for item in main.get("approximations", []):
        out.append("  " + _("not exact: {what} ({size})").format(what=item["what"], size=item["size"]))
    insurance = main.get("insurance")
    if insurance:
        out.append(
            "  "
            + _(
                "insurance (not taken by the strategy): return {ret} per unit insured, house edge {edge} %"
            ).format(ret=n(insurance["return"]), edge=n(insurance["house_edge_percent"]))
        )
        out.extend(_rows(insurance["lines"]))
    return out


def _side_bet_lines(bet: dict[str, Any]) -> list[str]:
    """A side bet: its return and edge, each outcome, its variance, and each meter it may win."""
    case = " — " + _("case {case}").format(case=bet["case"]) if bet["case"] else ""
    out = [
        "",
        _("{label}: {text}").format(
            label=f"{bet['title']} (`{bet['name']}`{case})",  # the title, and the id as JSON gives it
            text=_("return {ret} per unit, house edge {edge} %").format(
                ret=n(bet["return"]), edge=n(bet["house_edge_percent"])
            ),
        ),
    ]
    out.extend(_rows(bet["lines"]))
    out.append("    " + _("variance {variance} per unit staked squared").format(variance=n(bet["variance"])))
    for meter in bet["meters"]:
        out.append(
            "    "
            + _(
                "{meter}: won with probability {p}; the return adds {p} × meter / stake; "
                "break-even {meter} = {even} for a stake of {stake} (other meters at 0)"
            ).format(
                meter=meter["meter"],
                p=n(meter["probability"]),
                even=n(meter["break_even"]),
                stake=n(meter["stake"]),
            )
        )
    return out


def _reading_lines(readings: list[dict[str, Any]]) -> list[str]:
    """The figures each alternative of each reading gives."""
    if not readings:
        return []
    lang = current()
    out = ["", _("readings: the figures each alternative gives (house edge, %; * the one applied)")]
    for row in readings:
        default = _("(default {alternative})").format(alternative=row["default"])
        out.append(f"  {row['reading']} « {row['quote']} » {default}")
        # The alternatives' names are English words: in another language, each with its first words.
        for alternative, meanings in (row.get("meanings") or {}).items():
            if lang != "en" and meanings.get(lang):
                out.append(
                    "    " + _("{label}: {text}").format(label=alternative, text=headline(meanings[lang]))
                )
        for figure in row["figures"]:
            said = ", ".join(
                f"{alt}{'*' if alt == row['applied'] else ''} {n(edge)} %"
                for alt, edge in figure["house_edge_percent"].items()
            )
            label = figure["figure"]  # the main stake's words, or a side bet's id
            out.append("    " + _("{label}: {text}").format(label=_(label), text=said))
    return out


def _option_section(report: dict[str, Any], options: list[dict[str, Any]]) -> list[str]:
    """`--options`: a warning for each choice that turns the main stake's edge to the other side of zero,
    then what each choice changes."""
    out: list[str] = []
    for flag in report.get("edge_changes_side") or []:
        out.append("")
        before, after = flag["house_edge_percent_before"], flag["house_edge_percent_after"]
        out.append(
            _(
                "warning: {option} = {value} turns the main stake's house edge to the other side of "
                "zero: {before} % → {after} %"
            ).format(option=flag["option"], value=flag["to"], before=n(before), after=n(after))
        )
    out.append("")
    out.append(_("house options: change in house edge, percentage points (+: more for the house)"))
    out.extend(_option_rows(options))
    return out


def _changes_something(change: dict[str, Any]) -> bool:
    """Whether a choice moves a house edge, as printed (to the places `edge` gives: 0.0000 is none)."""
    figures = [change["main_edge_change"], *(change.get("side_bet_edge_change") or {}).values()]
    return any(Decimal(str(figure)) != 0 for figure in figures)


def _option_rows(options: list[dict[str, Any]]) -> list[str]:
    """A line for each choice that moves a house edge; the choices that move none, and the amounts the
    house fixes (not weighed), each counted and named on one line."""
    out: list[str] = []
    unmoved: list[str] = []
    amounts: list[str] = []
    for row in options:
        if row["changes"] is None:
            amounts.append(row["option"])
            continue
        still = 0
        for change in row["changes"]:
            if not _changes_something(change):
                still += 1
                continue
            sides = change.get("side_bet_edge_change") or {}
            extra = "".join(f", {k} {n(v)}" for k, v in sides.items())
            out.append(
                f"  {row['option']}: {row['current']} → {change['value']}: "
                + _("main {change}").format(change=n(change["main_edge_change"]))
                + extra
            )
        if still:
            unmoved.append(
                row["option"]
                if still == len(row["changes"])
                else ngettext("{option} ({n} more value)", "{option} ({n} more values)", still).format(
                    option=row["option"], n=still
                )
            )
    if unmoved:
        out.append(
            "  "
            + ngettext(
                "{n} choice changes no house edge (to 4 places): {options}",
                "{n} choices change no house edge (to 4 places): {options}",
                len(unmoved),
            ).format(n=len(unmoved), options=", ".join(unmoved))
        )
    if amounts:
        out.append(
            "  "
            + ngettext(
                "{n} amount the house fixes, not weighed as a choice: {options}",
                "{n} amounts the house fixes, not weighed as a choice: {options}",
                len(amounts),
            ).format(n=len(amounts), options=", ".join(amounts))
        )
    return out
