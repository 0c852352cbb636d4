"""The statistics page's bar charts: round numbers on the axis, evenly spaced."""

import pytest
from django.template.loader import render_to_string

from game.admin.charts import Numbers, bar_chart
from tests.site.markup import elements


@pytest.mark.parametrize("highest", [1, 2, 3, 5, 7, 10, 12, 45, 100, 4_999])
def test_the_value_axis_is_marked_at_even_steps_from_zero_to_the_top(highest):
    values = [0, highest // 3, highest]
    chart = bar_chart(values, [str(value) for value in values], {})
    marks = [int(tick.label.replace(",", "")) for tick in chart.y_ticks]
    steps = {upper - lower for lower, upper in zip(marks, marks[1:], strict=False)}
    assert marks[0] == 0 and marks[-1] >= highest
    assert len(steps) == 1
    tallest = max(chart.bars, key=lambda bar: bar.height)
    top_mark = min(chart.y_ticks, key=lambda tick: tick.at)
    # The tallest bar reaches as high as its value says against the top mark.
    assert tallest.y == pytest.approx(
        chart.plot_bottom - (chart.plot_bottom - top_mark.at) * highest / marks[-1], abs=0.02
    )


def test_a_charts_figures_are_written_with_thousands_as_the_headline_figures_are():
    numbers = Numbers("Figures", ("Day", "Played"), "day", [("2026-03-01", "Sun 1 Mar", (1831,))])

    html = render_to_string("admin/game/numbers.html", {"numbers": numbers})

    assert elements(html, "td")[1].text == "1,831"
