"""The player's choice of winnable deals only: kept on their account, else in their session."""

from accounts.models import Preferences

WINNABLE_ONLY = "winnable_only"
"""Session key: an anonymous player's choice."""


def winnable_only(request) -> bool:
    if request.user.is_authenticated:
        return Preferences.objects.filter(user=request.user, winnable_only=True).exists()
    return bool(request.session.get(WINNABLE_ONLY, False))


def choose_winnable_only(request, chosen: bool) -> None:
    if request.user.is_authenticated:
        Preferences.objects.update_or_create(user=request.user, defaults={WINNABLE_ONLY: chosen})
    elif chosen != winnable_only(request):
        request.session[WINNABLE_ONLY] = chosen


def keep_on_account(request) -> None:
    """At login: a choice made in the session before it is the player's latest."""
    if WINNABLE_ONLY in request.session:
        choose_winnable_only(request, request.session.pop(WINNABLE_ONLY))
