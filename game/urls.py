from django.urls import path

from game import views
from game.engine.state import DRAW, UNDO, WILD

urlpatterns = [
    path("", views.table, name="table"),
    path("daily", views.daily, name="daily"),
    path("winnable-only", views.winnable_only, name="winnable_only"),
    path("game/<game:game_id>/take", views.take, name="take"),
    path("game/<game:game_id>/draw", views.move, {"action": DRAW}, name="draw"),
    path("game/<game:game_id>/undo", views.move, {"action": UNDO}, name="undo"),
    path("game/<game:game_id>/wild", views.move, {"action": WILD}, name="wild"),
    path("game/<game:game_id>/hint", views.hint, name="hint"),
    path("game/<game:game_id>/new", views.leave, {"replay": False}, name="new"),
    path("game/<game:game_id>/replay", views.leave, {"replay": True}, name="replay"),
    path("game/<game:game_id>/deal", views.deal, name="deal"),
    path("game/<game:game_id>/analysis", views.analysis, name="analysis"),
    path("game/<game:game_id>/again", views.again, name="again"),
    path("game/<game:game_id>/take-up", views.take_up, name="take_up"),
    path("game/<game:game_id>/pause", views.pause, name="pause"),
    path("game/<game:game_id>/resume", views.resume, name="resume"),
]
