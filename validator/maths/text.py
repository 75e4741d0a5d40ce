"""`edge` as text: the figures as a laboratory's report lists them, each outcome with its probability."""

from __future__ import annotations

from typing import Any

from validator.i18n import _


def _outcome(label: str) -> str:
    """An outcome's label in the language in use: the program's own words are translated (`net 2`,
    `dealer's blackjack`); a paytable line is the text's own words and stays as the ruleset writes it."""
    if label.startswith("net "):
        return _("net {value}").format(value=label[4:])
    return _(label)


def _rows(lines: list[dict[str, Any]]) -> list[str]:
    labels = [_outcome(line["outcome"]) for line in lines]
    width = max((len(label) for label in labels), default=10)
    outcome, net, probability = _("outcome"), _("net"), _("probability")
    out = [f"    {outcome:<{width}}  {net:>10}  {probability:>14}"]
    for label, line in zip(labels, lines, strict=True):
        meter = f"  (+ {line['meter']})" if line.get("meter") else ""
        out.append(f"    {label:<{width}}  {line['net']:>10}  {line['probability']:>14}{meter}")
    return out


def text(
    report: dict[str, Any], options: list[dict[str, Any]] | None = None, strategy: str | None = None
) -> str:
    """The report as text; `strategy`: the chart of the strategy the figures assume, as its game words it
    (`GameMaths.chart`), printed after the figures."""
    if report["decks_from_version"]:
        decks = _("{n} decks").format(n=report["shoe_decks"])
    else:
        decks = _("{n} decks, not given by the version").format(n=report["shoe_decks"])
    out = [f"{report['ruleset']} ({report['game']}, {decks})"]
    if report.get("table"):
        out.append(_("table {table}").format(table=report["table"]))
    chosen = ", ".join(f"{k}={v}" for k, v in report["house_options"].items() if v != "none")
    out.append(_("house options: {chosen}").format(chosen=chosen or _("none")))
    main = report["main"]
    out.append("")
    out.append(
        _("main stake: return {ret} per unit, house edge {edge} %").format(
            ret=main["return"], edge=main["house_edge_percent"]
        )
    )
    out.append("  " + _("strategy: {strategy}").format(strategy=_(main["strategy"])))
    if main.get("tie"):
        out.append("  " + _("on a tie: {choice}").format(choice=main["tie"]))
    out.extend(_rows(main["lines"]))
    if "variance" in main:
        out.append(
            "  "
            + _(
                "variance {variance} per initial unit squared; covariance of two boxes in one round "
                "{covariance}"
            ).format(variance=main["variance"], covariance=main["covariance"])
        )
    for item in main.get("approximations", []):
        out.append("  " + _("not exact: {what} ({size})").format(what=item["what"], size=item["size"]))
    insurance = main.get("insurance")
    if insurance:
        out.append(
            "  "
            + _(
                "insurance (not taken by the strategy): return {ret} per unit insured, house edge {edge} %"
            ).format(ret=insurance["return"], edge=insurance["house_edge_percent"])
        )
        out.extend(_rows(insurance["lines"]))
    for bet in report["side_bets"]:
        case = " — " + _("case {case}").format(case=bet["case"]) if bet["case"] else ""
        out.append("")
        out.append(
            f"{bet['title']} ({bet['name']}{case}): "
            + _("return {ret} per unit, house edge {edge} %").format(
                ret=bet["return"], edge=bet["house_edge_percent"]
            )
        )
        out.extend(_rows(bet["lines"]))
        out.append("    " + _("variance {variance} per unit staked squared").format(variance=bet["variance"]))
        for meter in bet["meters"]:
            out.append(
                "    "
                + _(
                    "{meter}: won with probability {p}; the return adds {p} × meter / stake; "
                    "break-even {meter} = {even} for a stake of {stake} (other meters at 0)"
                ).format(
                    meter=meter["meter"],
                    p=meter["probability"],
                    even=meter["break_even"],
                    stake=meter["stake"],
                )
            )
    readings = report.get("readings") or []
    if readings:
        out.append("")
        out.append(_("readings: the figures each alternative gives (house edge, %; * the one applied)"))
        for row in readings:
            default = _("(default {alternative})").format(alternative=row["default"])
            out.append(f"  {row['reading']} « {row['quote']} » {default}")
            for figure in row["figures"]:
                said = ", ".join(
                    f"{alt}{'*' if alt == row['applied'] else ''} {edge} %"
                    for alt, edge in figure["house_edge_percent"].items()
                )
                out.append(f"    {_(figure['figure'])}: {said}")
    if strategy:
        out.append("")
        out.append(strategy.rstrip("\n"))
    if options is not None:
        for flag in report.get("edge_changes_side") or []:
            out.append("")
            before, after = flag["house_edge_percent_before"], flag["house_edge_percent_after"]
            out.append(
                _(
                    "warning: {option} = {value} turns the main stake's house edge to the other side of "
                    "zero: {before} % → {after} %"
                ).format(option=flag["option"], value=flag["to"], before=before, after=after)
            )
        out.append("")
        out.append(_("house options: change in house edge, percentage points (+: more for the house)"))
        for row in options:
            if row["changes"] is None:
                out.append(
                    "  "
                    + _(
                        "{option} (now {current}): an amount the house fixes, not weighed as a choice"
                    ).format(option=row["option"], current=row["current"])
                )
                continue
            for change in row["changes"]:
                sides = change.get("side_bet_edge_change") or {}
                extra = "".join(f", {k} {v}" for k, v in sides.items())
                out.append(
                    f"  {row['option']}: {row['current']} → {change['value']}: "
                    + _("main {change}").format(change=change["main_edge_change"])
                    + extra
                )
    out.append("")
    if report.get("kept"):
        said = _(
            "figures kept from an earlier run of the same version, options and program; the command took "
            "{seconds} s ({cpu} s of processor time)"
        )
    else:
        said = _("computed in {seconds} s ({cpu} s of processor time), the whole command")
    out.append(said.format(seconds=report["seconds"], cpu=report["cpu_seconds"]))
    return "\n".join(out) + "\n"
