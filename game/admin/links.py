"""Links between the admin pages of deals, games and actions, so staff can follow a game around,
and only where the viewer may open the page linked to."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import Truncator


def change_link(obj, text=None):
    url = reverse(f"admin:game_{obj._meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, text if text is not None else obj)


def may_view(request, model) -> bool:
    """Whether the admin opens `model`'s pages to the user (its view or change permission)."""
    return admin.site.get_model_admin(model).has_view_permission(request)


class LinksWhereTheyOpen:
    """A model admin whose columns and fields link to another model's pages: staff who may not
    view that model see a twin without the link instead, since the link would only lead them to
    a refusal (403)."""

    unlinked_twins: dict = {}
    """A linking column's or field's name: the model it links to and its twin's name."""

    def get_list_display(self, request):
        return self._opening(request, super().get_list_display(request))

    def get_fields(self, request, obj=None):
        return self._opening(request, super().get_fields(request, obj))

    def get_readonly_fields(self, request, obj=None):
        return self._opening(request, super().get_readonly_fields(request, obj))

    def _opening(self, request, names):
        closed = {
            name: twin
            for name, (model, twin) in self.unlinked_twins.items()
            if not may_view(request, model)
        }
        return [closed.get(name, name) for name in names]


def deal_name(deal) -> str:
    """A deal as a list shows it: its number, or its deck code cut short, so that the columns
    after it stay on screen (the deal's own page gives the code whole)."""
    return Truncator(deal.identifier).chars(16)


def player_of(game) -> str:
    return game.owner.get_username() if game.owner else "anonymous"
