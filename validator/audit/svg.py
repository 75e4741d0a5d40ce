"""The report's charts as inline SVG, drawn when the page is made: no script, nothing fetched, and the page
prints as it shows. This module computes the geometry only (bars, points, lines, axis ticks, in the
chart's own coordinates); the template (`report.html.j2`, macro `chart`) draws it, with every word of the
chart (titles, series names) written there, in one place. Floats are for drawing only: each chart's table
beside it shows the exact figures."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from validator.numbers import NARROW_SPACE, decimal_mark, fixed, whole

WIDTH = 900
HEIGHT = 320
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 12, 92  # room for the y labels and the slanted x labels
LABEL_CHARS = 24  # an x label longer than this is cut (the table beside the chart has it whole)


@dataclass(frozen=True, slots=True)
class Mark:
    """A bar (w > 0) or a point (w == 0) of series `series`; `tip` is its label and value, for a tooltip."""

    x: float
    y: float
    w: float
    h: float
    series: int
    tip: str


@dataclass(frozen=True, slots=True)
class Tick:
    at: float
    text: str


@dataclass(frozen=True, slots=True)
class Whisker:
    """An interval drawn as a vertical segment at x, from y1 to y2."""

    x: float
    y1: float
    y2: float


@dataclass(slots=True)
class Chart:
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM
    marks: list[Mark] = field(default_factory=list)
    lines: list[tuple[int, str]] = field(default_factory=list)  # (series, SVG points "x,y x,y")
    whiskers: list[Whisker] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)
    x_labels_slanted: bool = True
    zero: float = HEIGHT - BOTTOM  # the y of the value 0

    @property
    def empty(self) -> bool:
        return not self.marks and not self.lines


def _nice_step(span: float, count: int = 5) -> float:
    raw = span / count if span > 0 else 1.0
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power


def _fmt(value: float) -> str:
    """An axis tick or a tooltip's figure in the page's language: `2,5` and `39 300` in French."""
    if value == int(value):
        return whole(int(value), sep=NARROW_SPACE)
    mark = decimal_mark()
    return fixed(round(value, 2), 2).rstrip("0").rstrip(mark)


def _scale(low: float, high: float, chart: Chart) -> tuple[float, float, float]:
    """Nice bounds around [low, high], always including 0; the y ticks set on the chart."""
    low, high = min(low, 0.0), max(high, 0.0)
    if low == high:
        high = low + 1.0
    step = _nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    value = low
    while value <= high + step / 2:
        chart.y_ticks.append(Tick(_y(value, low, high, chart), _fmt(round(value, 10))))
        value += step
    chart.zero = _y(0.0, low, high, chart)
    return low, high, step


def _y(value: float, low: float, high: float, chart: Chart) -> float:
    return round(chart.bottom - (value - low) / (high - low) * (chart.bottom - chart.top), 2)


def _label(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def bars(
    categories: Sequence[str],
    series: Sequence[Sequence[float | None]],
    *,
    stacked: bool = False,
    intervals: Sequence[tuple[float, float] | None] | None = None,
    points: Sequence[float | None] | None = None,
) -> Chart:
    """Bars per category, one per series side by side (or stacked); `intervals`: a whisker per category;
    `points`: a marker per category (its own series, numbered after the bars')."""
    chart = Chart()
    if not categories:
        return chart
    values = [v for s in series for v in s if v is not None]
    if stacked:
        values += [sum(s[i] or 0.0 for s in series) for i in range(len(categories))]
    values += [v for pair in intervals or () if pair is not None for v in pair]
    values += [v for v in points or () if v is not None]
    low, high, _ = _scale(min(values, default=0.0), max(values, default=0.0), chart)
    slot = (chart.right - chart.left) / len(categories)
    width = slot * 0.8 / (1 if stacked else max(1, len(series)))
    for i, category in enumerate(categories):
        start = chart.left + i * slot + slot * 0.1
        centre = chart.left + (i + 0.5) * slot
        chart.x_ticks.append(Tick(round(centre, 2), _label(category)))
        base = 0.0
        for k, values_k in enumerate(series):
            value = values_k[i]
            if value is None:
                continue
            bottom, top = (base, base + value) if stacked else (0.0, value)
            y_top, y_bottom = _y(max(bottom, top), low, high, chart), _y(min(bottom, top), low, high, chart)
            x = start if stacked else start + k * width
            chart.marks.append(
                Mark(
                    round(x, 2),
                    y_top,
                    round(width, 2),
                    round(y_bottom - y_top, 2),
                    k,
                    f"{category}: {_fmt(value)}",
                )
            )
            if stacked:
                base += value
        interval = intervals[i] if intervals is not None else None
        if interval is not None:
            chart.whiskers.append(
                Whisker(
                    round(centre, 2), _y(interval[0], low, high, chart), _y(interval[1], low, high, chart)
                )
            )
        point = points[i] if points is not None else None
        if point is not None:
            value = float(point)
            chart.marks.append(
                Mark(
                    round(centre, 2),
                    _y(value, low, high, chart),
                    0,
                    0,
                    len(series),
                    f"{category}: {_fmt(value)}",
                )
            )
    return chart


def lines(categories: Sequence[str], series: Sequence[Sequence[float]]) -> Chart:
    """One line per series over the categories (in order), a point at each."""
    chart = Chart()
    if not categories:
        return chart
    values = [v for s in series for v in s]
    low, high, _ = _scale(min(values, default=0.0), max(values, default=0.0), chart)
    slot = (chart.right - chart.left) / len(categories)
    every = max(1, math.ceil(len(categories) / 30))  # at most 30 x labels
    for i, category in enumerate(categories):
        if i % every == 0:
            chart.x_ticks.append(Tick(round(chart.left + (i + 0.5) * slot, 2), _label(category)))
    for k, values_k in enumerate(series):
        points = []
        for i, value in enumerate(values_k):
            x, y = round(chart.left + (i + 0.5) * slot, 2), _y(value, low, high, chart)
            points.append(f"{x},{y}")
            chart.marks.append(Mark(x, y, 0, 0, k, f"{categories[i]}: {_fmt(value)}"))
        chart.lines.append((k, " ".join(points)))
    return chart


def scatter(points: Sequence[tuple[float, float, int, str]]) -> Chart:
    """Points (x, y, series, label) on two linear axes that start at 0."""
    chart = Chart(x_labels_slanted=False, bottom=HEIGHT - 40)
    if not points:
        return chart
    y_low, y_high, _ = _scale(0.0, max(p[1] for p in points), chart)
    x_high = max(max(p[0] for p in points), 0.0) or 1.0
    step = _nice_step(x_high)
    x_high = math.ceil(x_high / step) * step
    span = chart.right - chart.left
    value = 0.0
    while value <= x_high + step / 2:
        chart.x_ticks.append(Tick(round(chart.left + value / x_high * span, 2), _fmt(round(value, 10))))
        value += step
    for x, y, series, label in points:
        chart.marks.append(
            Mark(
                round(chart.left + x / x_high * span, 2),
                _y(y, y_low, y_high, chart),
                0,
                0,
                series,
                f"{label}: {_fmt(x)}, {_fmt(y)}",
            )
        )
    return chart
