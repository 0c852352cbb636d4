from django.apps import AppConfig
from django.core import checks
from django.urls import register_converter

from game.converters import GameId
from tripeaks_site.checks import static_files_collected


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"

    def ready(self):
        # Registered once, before any URL conf is read: the accounts' URLs name games too.
        register_converter(GameId, "game")
        # A deploy check only: collectstatic itself runs the static files' other checks first.
        checks.register(static_files_collected, checks.Tags.staticfiles, deploy=True)
