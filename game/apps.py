from django.apps import AppConfig
from django.urls import register_converter

from game.converters import GameId


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"

    def ready(self):
        # Registered once, before any URL conf is read: the accounts' URLs name games too.
        register_converter(GameId, "game")
