"""How pages show figures: a table's head row, a share as a percentage, a score, a rule set in
words."""

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from game import display

register = template.Library()
register.filter("count", display.count)
register.filter("percent", display.percent)
register.filter("points", display.points)
register.filter("rules_label", display.rules_label)


@register.filter
def breakable(rules: str) -> str:
    """A rule set's name that may wrap after each "+", where a narrow table needs it to."""
    return format_html_join(mark_safe("+<wbr>"), "{}", ((flag,) for flag in rules.split("+")))


@register.inclusion_tag("column_heads.html")
def column_heads(*listed: str, names=(), numeric: int = 0, unseen: str = "") -> dict:
    """One column heading per name, listed in the tag or given as one sequence `names`. The
    `numeric` columns after the first hold figures and are aligned right, as their figures are;
    `unseen` names a last column of buttons, which say what they do, so its heading is for screen
    readers only."""
    columns = [(name, 0 < i <= numeric) for i, name in enumerate(listed or names)]
    return {"columns": columns, "unseen": unseen}
