from django.contrib import admin

from game.models import Action, Game

from .links import LinksWhereTheyOpen, change_link, player_of
from .moves import card_taken
from .view_only import ViewOnly


@admin.register(Action)
class ActionAdmin(LinksWhereTheyOpen, ViewOnly, admin.ModelAdmin):
    """The append-only log: read-only for everyone, staff included."""

    list_display = ["game_link", "seq", "kind", "card", "player", "at"]
    list_display_links = ["seq"]  # the first column is a link of its own, to the game
    ordering = ["-id"]  # the latest play first
    list_filter = ["kind", "at"]
    list_select_related = ["game__deal", "game__owner"]
    search_fields = ["game__id__exact", "game__deal__number__exact", "game__owner__username"]
    search_help_text = "A game id, a deal number or a player's user name."
    fields = ["game_link", "seq", "kind", "pos", "card", "detail", "at"]
    readonly_fields = fields
    unlinked_twins = {"game_link": (Game, "game_text")}

    @admin.display(description="game", ordering="game_id")
    def game_link(self, action):
        return change_link(action.game, self.game_text(action))

    @admin.display(description="game", ordering="game_id")
    def game_text(self, action):
        return f"Game {action.game_id}"

    @admin.display(description="card")
    def card(self, action):
        return card_taken(action.game.deal.cards, action)

    @admin.display(description="player")
    def player(self, action):
        return player_of(action.game)
