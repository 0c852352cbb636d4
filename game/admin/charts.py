"""Bar charts as geometry for a server-rendered SVG (templates/admin/game/bar_chart.html), and
their figures as a table (templates/admin/game/numbers.html).

The SVG coordinate system is sized for a phone: drawn 1:1 on a 360-pixel screen, its text stays
readable; on a desktop the stylesheet caps how wide it grows.
"""

from dataclasses import dataclass

WIDTH = 340
HEIGHT = 200
LEFT = 50
"""Room for the y-axis numbers."""
TOP = 10
BOTTOM = 40
"""Room for the x-axis labels."""
PLOT_HEIGHT = HEIGHT - TOP - BOTTOM
PLOT_WIDTH = WIDTH - LEFT - 8
GAP = 0.15
"""Fraction of each slot left blank between bars."""


@dataclass(frozen=True)
class Bar:
    x: float
    width: float
    y: float
    height: float
    inner_y: float
    inner_height: float
    title: str


@dataclass(frozen=True)
class Numbers:
    """A chart's figures as a table, for exact values and for screen readers: a row per bar that
    is not empty, each named by its `data-<key>` attribute."""

    summary: str
    columns: tuple[str, ...]
    """The rows' label, then each figure's."""
    key: str
    rows: list[tuple[str, str, tuple[int, ...]]]
    """(the row's name, its label, its figures)"""


@dataclass(frozen=True)
class Tick:
    at: float
    label: str
    anchor: str = "end"


@dataclass(frozen=True)
class BarChart:
    bars: list[Bar]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    plot_bottom: int = TOP + PLOT_HEIGHT
    plot_right: int = LEFT + PLOT_WIDTH


def nice_ceiling(value: int) -> int:
    """The smallest 1, 2 or 5 times a power of ten at or above value, for round axis numbers."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if factor * step >= value:
                return factor * step
        step *= 10


def bar_chart(
    values: list[int],
    titles: list[str],
    x_labels: dict[int, str],
    inner: list[int] | None = None,
) -> BarChart:
    """One bar per value, titled for hover and screen readers. `inner` draws a second, darker
    bar inside each (a part of the whole, e.g. games won among games played). `x_labels` names
    the slots that get a label under the axis."""
    top = nice_ceiling(max(values, default=0) or 1)
    slot = PLOT_WIDTH / max(len(values), 1)
    bar_width = slot * (1 - GAP)

    def y_of(value: int) -> float:
        return TOP + PLOT_HEIGHT * (1 - value / top)

    bars = []
    for index, (value, title) in enumerate(zip(values, titles, strict=True)):
        part = inner[index] if inner else 0
        bars.append(
            Bar(
                x=round(LEFT + index * slot + slot * GAP / 2, 2),
                width=round(bar_width, 2),
                y=round(y_of(value), 2),
                height=round(TOP + PLOT_HEIGHT - y_of(value), 2),
                inner_y=round(y_of(part), 2),
                inner_height=round(TOP + PLOT_HEIGHT - y_of(part), 2),
                title=title,
            )
        )
    # Half way up only where that is a whole number of games: 5 gets no line at "2".
    marks = {0, top // 2, top} if top % 2 == 0 else {0, top}
    y_ticks = [Tick(round(y_of(value), 2), f"{value:,}") for value in sorted(marks)]
    x_ticks = [_x_tick(index, label, slot, len(values)) for index, label in x_labels.items()]
    return BarChart(bars, y_ticks, x_ticks)


def _x_tick(index: int, label: str, slot: float, count: int) -> Tick:
    """Centred under its bar, except at the ends, where a long label would run off the chart."""
    if index == 0 and count > 1:
        return Tick(round(LEFT + slot * GAP / 2, 2), label, "start")
    if index == count - 1 and count > 1:
        return Tick(round(LEFT + count * slot - slot * GAP / 2, 2), label, "end")
    return Tick(round(LEFT + (index + 0.5) * slot, 2), label, "middle")
