"""`text`: one line per finding as rounds come, then a summary block an auditor reads top to bottom."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

from validator import __version__
from validator.findings.finding import Finding, RoundOutcome, RuleInfo, Summary
from validator.findings.words import kind_word, severity_word
from validator.formats.base import (
    NO_HOUSE,
    Repeats,
    Reporter,
    has_values,
    kinds_text,
    location,
    plural,
    repeat_sentence,
    round_context,
    rules_by_count,
    values_line,
    with_ref,
)
from validator.i18n import _, current
from validator.numbers import amount, whole

if TYPE_CHECKING:
    from rich.console import Console

# A line is a list of (text, style) pieces: joined as is without colour, styled through rich with it.
Piece = tuple[str, str | None]

# i18n: not shown (terminal styles)
_SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow"}
_INDENT = "    "


class TextReporter(Reporter):
    name = "text"

    def __init__(self, out: TextIO, *, color: bool = False, tool_version: str = __version__) -> None:
        super().__init__(out, color=color, tool_version=tool_version)
        self._repeats = Repeats()
        # Colour goes through rich only when asked: plain output must stay byte-exact for pipes and tests
        # (and rich is imported only then).
        self._console: Console | None = None
        if color:
            from rich.console import Console

            self._console = Console(
                file=out,
                force_terminal=True,
                color_system="standard",
                highlight=False,
                markup=False,
                emoji=False,
                soft_wrap=True,
            )

    def round(self, outcome: RoundOutcome) -> None:
        self._repeats.add(outcome)
        for finding in outcome.findings:
            if finding.caused_by is not None:
                # A consequence, right under its cause (the replay keeps them together).
                self._line(
                    [
                        (_INDENT + _("caused by the finding above:") + " ", "dim"),
                        *self._finding_pieces(finding, outcome),
                    ]
                )
                if has_values(finding):
                    self._line([(_INDENT * 2 + values_line(finding), "dim")])
                continue
            self._line(self._finding_pieces(finding, outcome))
            if has_values(finding):
                self._line([(_INDENT + values_line(finding), "dim")])

    def finish(self, summary: Summary, rules: Mapping[str, RuleInfo]) -> None:
        # A blank line only separates findings from the summary; a clean run starts with the summary.
        if summary.findings:
            self._line([])
        for pieces in self._summary_lines(summary):
            self._line(pieces)

    # --- lines ----------------------------------------------------------------------------------------

    def _finding_pieces(self, finding: Finding, outcome: RoundOutcome) -> list[Piece]:
        """`file:line: error RULE [kind] table T, round R at TIME, box B: message (ref)`: the severity
        in words on every line (colour or not), then where at the table, before the message."""
        context = round_context(finding, outcome.table, outcome.at, outcome.titles)
        return [
            (location(finding), "bold"),
            (": ", None),
            (severity_word(finding.severity), _SEVERITY_STYLE.get(finding.severity)),
            (" ", None),
            (finding.rule, "cyan"),
            (" ", None),
            (f"[{kind_word(finding.kind)}]", "magenta"),
            (" ", None),
            (f"{context}: " if context else "", None),
            (with_ref(finding), None),
        ]

    def _summary_lines(self, summary: Summary) -> list[list[Piece]]:
        errors = summary.by_severity["error"]
        warnings = summary.by_severity["warning"]
        if summary.findings:
            findings: list[Piece] = [
                (f"{whole(summary.findings, sep='')} (", None),
                (plural(errors, "error"), _SEVERITY_STYLE["error"] if errors else None),
                (", ", None),
                (plural(warnings, "warning"), _SEVERITY_STYLE["warning"] if warnings else None),
                (")", None),
            ]
        else:
            findings = [(_("none"), "bold green")]  # i18n: not shown (a style)
        none = _("none")
        if summary.subject == "house":  # lint: files, table entries and findings; no rounds, no money
            tables = _("{tables} ({with_findings} with findings)").format(
                tables=whole(summary.records, sep=""),
                with_findings=whole(summary.tables_with_findings, sep=""),
            )
            rows: list[tuple[str, list[Piece]]] = [
                (_("files"), [(whole(summary.files, sep=""), None)]),
                (_("tables"), [(tables, None)]),
                (_("findings"), findings),
                (_("by kind"), [(kinds_text(summary) or none, None)]),
            ]
            tail: list[tuple[str, list[Piece]]] = [
                (_("rulesets"), [(", ".join(sorted(summary.rulesets)) or none, None)]),
                *readings_rows(summary),
                (_("house rules"), [(summary.house or _(NO_HOUSE), None)]),
            ]
            return self._summary_block(summary, rows, tail)
        rows = [
            (_("files"), [(f"{whole(summary.files, sep='')} ({plural(summary.records, 'record')})", None)]),
            (_("rounds read"), [(whole(summary.rounds_read, sep=""), None)]),
            (_("rounds checked"), [(whole(summary.rounds_checked, sep=""), None)]),
            (_("rounds clean"), [(whole(summary.rounds_clean, sep=""), None)]),
            (_("rounds with findings"), [(whole(summary.rounds_with_findings, sep=""), None)]),
            (_("rounds unreadable"), [(whole(summary.rounds_unreadable, sep=""), None)]),
            (_("findings"), findings),
            (_("by kind"), [(kinds_text(summary) or none, None)]),
        ]
        tail = [
            (_("overpaid by house"), [(amount(summary.overpaid, sep=""), None)]),
            (_("underpaid to players"), [(amount(summary.underpaid, sep=""), None)]),
            (_("rulesets"), [(", ".join(sorted(summary.rulesets)) or none, None)]),
            *readings_rows(summary),
            (_("house rules"), [(summary.house or _(NO_HOUSE), None)]),
        ]
        return self._summary_block(summary, rows, tail)

    def _summary_block(
        self,
        summary: Summary,
        rows: list[tuple[str, list[Piece]]],
        tail: list[tuple[str, list[Piece]]],
    ) -> list[list[Piece]]:
        width = (
            max(
                len(label)
                for label, _value in [*rows, *tail, (_("by rule"), []), (_("notes"), []), (_("repeated"), [])]
            )
            + 1
        )

        def row(label: str, value: list[Piece]) -> list[Piece]:
            return [("  " + f"{label}:".ljust(width) + " ", None), *value]

        lines: list[list[Piece]] = [[(_("summary"), "bold")]]
        repeated = self._repeats.items(summary.rounds_checked) if summary.subject != "house" else []
        if repeated:
            # The deviations that repeat, first: one line each, with its count.
            lines.append(row(_("repeated"), []))
            lines += [[(f"{_INDENT}- {repeat_sentence(item)}", None)] for item in repeated]
        lines += [row(label, value) for label, value in rows]
        if summary.by_rule:
            lines.append(row(_("by rule"), []))
            counts = rules_by_count(summary)
            shown = [(whole(count, sep=""), rule) for rule, count in counts]
            digits = max(len(text) for text, _rule in shown)
            lines += [[(f"{_INDENT}{text:>{digits}}  ", None), (rule, "cyan")] for text, rule in shown]
        lines += [row(label, value) for label, value in tail]
        if summary.all_notes:
            lines.append(row(_("notes"), []))
            lines += [[(f"{_INDENT}- {note}", None)] for note in summary.all_notes]
        # Trailing spaces after an empty "by rule:" value would only trouble diff-based reviews.
        return [_rstrip(pieces) for pieces in lines]

    def _line(self, pieces: list[Piece]) -> None:
        if self._console is None:
            self.out.write("".join(text for text, _style in pieces) + "\n")
        else:
            from rich.text import Text

            self._console.print(Text.assemble(*((text, style or "") for text, style in pieces)))


def _rstrip(pieces: list[Piece]) -> list[Piece]:
    if pieces and pieces[-1][0].endswith(" "):
        text, style = pieces[-1]
        return [*pieces[:-1], (text.rstrip(), style)]
    return pieces


def readings_rows(summary: Summary) -> list[tuple[str, list[Piece]]]:
    """The summary's `readings` rows: for each version judged that has readings, the alternative each
    was applied with, those other than the default marked."""
    rows: list[tuple[str, list[Piece]]] = []
    lang = current()

    def named(reading: str, alternative: str) -> str:
        info = summary.alternatives.get((reading, alternative))
        gloss = info.gloss(lang) if info is not None else None
        return f"{reading} = {alternative}" + (f" ({gloss})" if gloss else "")

    for version, applied in summary.readings_by_version().items():
        said = ", ".join(
            named(r["reading"], r["alternative"]) + ("" if r["default"] else _(" (not the default)"))
            for r in applied
        )
        rows.append((_("readings"), [(f"{version}: {said}", None)]))
    for changed, found in summary.readings_judged:
        under = (
            ", ".join(named(reading, alternative) for reading, alternative in changed)
            if changed
            else _("the readings applied")
        )
        rows.append(
            (
                _("judged under"),
                [(_("{under}: {n} findings").format(under=under, n=whole(found, sep="")), None)],
            )
        )
    return rows
