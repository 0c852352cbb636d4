"""Links between the admin pages of deals, games and actions, so staff can follow a game around."""

from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import Truncator


def change_link(obj, text=None):
    url = reverse(f"admin:game_{obj._meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, text if text is not None else obj)


def deal_name(deal) -> str:
    """A deal as a list shows it: its number, or its deck code cut short, so that the columns
    after it stay on screen (the deal's own page gives the code whole)."""
    return Truncator(deal.identifier).chars(16)


def player_of(game) -> str:
    return game.owner.get_username() if game.owner else "anonymous"
