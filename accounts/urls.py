"""Accounts under /accounts/, with Django's standard names for the auth views."""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("password_change/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="accounts/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path("choose/", views.choose, name="choose"),
    path("games/", views.games, name="games"),
    path("games/<game:game_id>/continue", views.continue_game, name="continue_game"),
    path("games/<game:game_id>/replay", views.replay, name="replay_deal"),
]
