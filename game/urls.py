from django.urls import path

from game import views

urlpatterns = [
    path("", views.table, name="table"),
    path("game/<int:game_id>/take", views.take, name="take"),
    path("game/<int:game_id>/draw", views.draw, name="draw"),
    path("game/<int:game_id>/undo", views.undo, name="undo"),
    path("game/<int:game_id>/hint", views.hint, name="hint"),
    path("game/<int:game_id>/new", views.new, name="new"),
    path("game/<int:game_id>/replay", views.replay, name="replay"),
    path("game/<int:game_id>/deal", views.choose, name="deal"),
    path("game/<int:game_id>/pause", views.pause, name="pause"),
    path("game/<int:game_id>/resume", views.resume, name="resume"),
]
