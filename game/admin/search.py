from datetime import date

from django.db.models import Q

from game.engine.deck import MAX_DEAL_NUMBER
from game.models import Game


class DealNumberSearch:
    """A search term of digits (or "deal" and digits) finds a deal by number, and a daily deal's
    name ("daily 2026-12-06", or the date alone) the games of that day's daily deal; anything
    else goes to search_fields.

    Card codes contain digits too (2-9), so searching codes for "7" would match nearly every
    deal; staff who type a number mean the deal number."""

    deal_number_lookup = "number"

    def get_search_results(self, request, queryset, search_term):
        # "deal 77" as the table and the analysis name a deal.
        term = search_term.strip().removeprefix("deal ").strip()
        # ASCII digits only: str.isdigit also takes "²" and the like, which int() refuses.
        if term.isascii() and term.isdigit():
            number = int(term)
            if number > MAX_DEAL_NUMBER:
                return queryset.none(), False
            return queryset.filter(**{self.deal_number_lookup: number}), False
        if day := _day(term):
            return queryset.filter(self.of_daily_deal(day)), False
        return super().get_search_results(request, queryset, search_term)

    def of_daily_deal(self, day: date) -> Q:
        """The rows of a day's daily deal: here its deal, by a subquery (a join would multiply
        the figures counted over the deal's games)."""
        return Q(pk__in=Game.objects.filter(daily=day).values("deal"))


def _day(term: str) -> date | None:
    """The date a daily deal's name gives ("daily 2026-12-06", or the date alone), if it is one."""
    try:
        return date.fromisoformat(term.removeprefix("daily ").strip())
    except ValueError:
        return None
