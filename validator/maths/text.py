"""`edge` as text: the figures as a laboratory's report lists them, each outcome with its probability."""

from __future__ import annotations

from typing import Any


def _rows(lines: list[dict[str, Any]]) -> list[str]:
    width = max((len(line["outcome"]) for line in lines), default=10)
    out = [f"    {'outcome':<{width}}  {'net':>10}  {'probability':>14}"]
    for line in lines:
        meter = f"  (+ {line['meter']})" if line.get("meter") else ""
        out.append(f"    {line['outcome']:<{width}}  {line['net']:>10}  {line['probability']:>14}{meter}")
    return out


def text(report: dict[str, Any], options: list[dict[str, Any]] | None = None) -> str:
    decks = f"{report['shoe_decks']} decks" + (
        "" if report["decks_from_version"] else ", not given by the version"
    )
    out = [f"{report['ruleset']} ({report['game']}, {decks})"]
    if report.get("table"):
        out.append(f"table {report['table']}")
    chosen = ", ".join(f"{k}={v}" for k, v in report["house_options"].items() if v != "none")
    out.append(f"house options: {chosen or 'none'}")
    main = report["main"]
    out.append("")
    out.append(f"main stake: return {main['return']} per unit, house edge {main['house_edge_percent']} %")
    out.append(f"  strategy: {main['strategy']}")
    if main.get("tie"):
        out.append(f"  on a tie: {main['tie']}")
    out.extend(_rows(main["lines"]))
    if "variance" in main:
        out.append(
            f"  variance {main['variance']} per initial unit squared; covariance of two boxes in one round "
            f"{main['covariance']}"
        )
    for item in main.get("approximations", []):
        out.append(f"  not exact: {item['what']} ({item['size']})")
    insurance = main.get("insurance")
    if insurance:
        out.append(
            f"  insurance (not taken by the strategy): return {insurance['return']} per unit insured, "
            f"house edge {insurance['house_edge_percent']} %"
        )
        out.extend(_rows(insurance["lines"]))
    for bet in report["side_bets"]:
        case = f" — case {bet['case']}" if bet["case"] else ""
        out.append("")
        out.append(
            f"{bet['title']} ({bet['name']}{case}): return {bet['return']} per unit, "
            f"house edge {bet['house_edge_percent']} %"
        )
        out.extend(_rows(bet["lines"]))
        out.append(f"    variance {bet['variance']} per unit staked squared")
        for meter in bet["meters"]:
            out.append(
                f"    {meter['meter']}: won with probability {meter['probability']}; the return adds "
                f"{meter['probability']} × meter / stake; break-even {meter['meter']} = "
                f"{meter['break_even']} for a stake of {meter['stake']} (other meters at 0)"
            )
    readings = report.get("readings") or []
    if readings:
        out.append("")
        out.append("readings: the figures each alternative gives (house edge, %; * the one applied)")
        for row in readings:
            out.append(f"  {row['reading']} « {row['quote']} » (default {row['default']})")
            for figure in row["figures"]:
                said = ", ".join(
                    f"{alt}{'*' if alt == row['applied'] else ''} {edge} %"
                    for alt, edge in figure["house_edge_percent"].items()
                )
                out.append(f"    {figure['figure']}: {said}")
    if report.get("strategy"):
        from validator.games.blackjack.chart import text as chart_text

        out.append("")
        out.append(chart_text(report["strategy"]).rstrip("\n"))
    if options is not None:
        for flag in report.get("edge_changes_side") or []:
            out.append("")
            before, after = flag["house_edge_percent_before"], flag["house_edge_percent_after"]
            out.append(
                f"warning: {flag['option']} = {flag['to']} turns the main stake's house edge to the other "
                f"side of zero: {before} % → {after} %"
            )
        out.append("")
        out.append("house options: change in house edge, percentage points (+: more for the house)")
        for row in options:
            if row["changes"] is None:
                out.append(
                    f"  {row['option']} (now {row['current']}): "
                    "an amount the house fixes, not weighed as a choice"
                )
                continue
            for change in row["changes"]:
                sides = change.get("side_bet_edge_change") or {}
                extra = "".join(f", {k} {v}" for k, v in sides.items())
                out.append(
                    f"  {row['option']}: {row['current']} → {change['value']}: "
                    f"main {change['main_edge_change']}{extra}"
                )
    out.append("")
    out.append(f"computed in {report['seconds']} s ({report['cpu_seconds']} s of processor time)")
    return "\n".join(out) + "\n"
