"""Links between the admin pages of deals, games and actions, so staff can follow a game around."""

from django.urls import reverse
from django.utils.html import format_html


def change_link(obj, text=None):
    url = reverse(f"admin:game_{obj._meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, text if text is not None else obj)


def player_of(game) -> str:
    return game.owner.get_username() if game.owner else "anonymous"
