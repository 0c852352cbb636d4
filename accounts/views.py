"""Account pages in the site's own look: log in, sign up, change password, choose a deal, My
games.

Log out is Django's own view, stopping the table's clock first. Logging in (the staff's login to
the admin too), signing up and changing a password are limited per client address, and every
password checked counts toward the lockout (tripeaks_site/limits.py).
"""

from functools import partial

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import NON_FIELD_ERRORS
from django.core.paginator import Paginator
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts import claim, records
from game import play
from game.owners import Owner
from game.views import BadInput, answer, not_understood, shown_table
from tripeaks_site import limits

GAMES_PER_PAGE = 25


@method_decorator(limits.per_address("login"), name="post")
class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        return checked_login(request, partial(super().post, request, *args, **kwargs))

    def form_valid(self, form):
        if claim.log_in(self.request, form.get_user()):
            # Which deal to continue is asked first; the page asked for (if any) comes after.
            asked = self.get_redirect_url()
            return redirect(reverse("choose") + (f"?{urlencode({'next': asked})}" if asked else ""))
        return redirect(self.get_success_url())

    def form_invalid(self, form):
        # The name stays filled in; the password, emptied, is what to type again.
        form.fields["username"].widget.attrs.pop("autofocus", None)
        form.fields["password"].widget.attrs["autofocus"] = True
        # Why, shown by the password field and read with it as focus lands there (a field's
        # error is tied to it; the form's own is tied to nothing).
        if NON_FIELD_ERRORS in form.errors:
            form.add_error("password", form.errors.pop(NON_FIELD_ERRORS).as_data())
        return super().form_invalid(form)


@sensitive_post_parameters("password")
@limits.per_address("login")
def staff_login(request):
    """The admin's own login page (its look, its check that the user is staff) under the site's
    login limits: posts count with the site's login per address, and toward the lockout."""
    if request.method != "POST":
        return admin.site.login(request)
    return checked_login(request, partial(admin.site.login, request))


def checked_login(request, log_in):
    """The answer of `log_in` (a login form's post) if one more password for the user name posted
    may be checked now from this address (limits.password_attempt), else the lockout page."""
    # The name as the form reads it, so that every spelling of one name shares its count.
    username = UsernameField().to_python(request.POST.get("username"))
    with limits.password_attempt(request, username) as allowed:
        return log_in() if allowed else locked_out(request)


class LogoutView(auth_views.LogoutView):
    def post(self, request, *args, **kwargs):
        # The page's own pause, posted as it unloads, reaches the server after the session has
        # ended and is refused: the table's clock would run for as long as the player is away.
        if request.user.is_authenticated:
            play.pause_table(Owner.of_user(request.user))
        return super().post(request, *args, **kwargs)


@require_http_methods(["GET", "HEAD", "POST"])
@limits.per_address("signup")
def signup(request):
    if request.user.is_authenticated:
        return redirect("table")
    form = UserCreationForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        # A new account has no deal of its own: the one on the table simply becomes its.
        claim.log_in(request, form.save())
        return redirect("table")
    if form.is_bound:
        focus_first_error(form)
    return render(request, "accounts/signup.html", {"form": form})


def focus_first_error(form) -> None:
    """Put focus on the first field with an error, not the form's first field: on a small phone
    an error further down would be out of sight."""
    for field in form.fields.values():
        field.widget.attrs.pop("autofocus", None)
    first = next((name for name in form.fields if name in form.errors), None)
    if first is not None:
        form.fields[first].widget.attrs["autofocus"] = True


@method_decorator(limits.per_address("password_change"), name="post")
class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change, where a wrong old password is a wrong password as at login."""

    template_name = "accounts/password_change.html"

    def post(self, request, *args, **kwargs):
        with limits.password_attempt(request, request.user.get_username()) as allowed:
            if not allowed:
                return locked_out(request)
            # The new password is saved, then the session renewed for it; should the session
            # fail (Redis away), the password stays as the player was told it is.
            with transaction.atomic():
                return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        if form.has_error("old_password", "password_incorrect"):
            # Recorded by axes as a failed login for this user name from this address; at the
            # limit, axes answers with the lockout page instead of the form.
            credentials = {"username": self.request.user.get_username()}
            user_login_failed.send(__name__, credentials=credentials, request=self.request)
        focus_first_error(form)
        return super().form_invalid(form)


@never_cache  # a player's own page, from their session: for no cache to keep (Back fetches it)
@require_safe
@login_required
def choose(request):
    """Both this device and the account had a deal in progress at login: which to continue."""
    games = claim.choice(request)
    if not games:
        return redirect("table")
    here, theirs = (records.line(game, None) for game in games)
    context = {"here": here, "theirs": theirs, "next": page_asked_for(request, request.GET)}
    return render(request, "accounts/choose.html", context)


@require_POST
@login_required
def continue_game(request, game_id):
    """Continue one of the player's unfinished games (see play.take_up). Then the table, or the
    page the login that asked which deal to continue was for."""
    outcome = play.take_up(Owner.of(request), game_id)
    claim.chosen(request)
    asked = page_asked_for(request, request.POST)
    return redirect(asked) if asked else answer(request, outcome)


def page_asked_for(request, data) -> str:
    """The `next` page in `data`, if it is one of the site's; else none."""
    asked = data.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        asked, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return asked if safe else ""


@require_POST
@login_required
def replay(request, game_id):
    try:
        shown = shown_table(request)
    except BadInput as error:
        return not_understood(request, error)
    # Sent twice, the second finds the table it named gone, and the table it shows says so.
    return answer(request, play.replay_deal(Owner.of(request), game_id, *shown))


@never_cache
@require_safe
@login_required
def games(request):
    table = play.current_game(Owner.of(request))
    page = Paginator(records.history(request.user), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    lines = [records.line(game, table and table.pk) for game in page]
    context = {
        "statistics": records.statistics(request.user),
        "page": page,
        "lines": lines,
        "table": table,
    }
    return render(request, "accounts/games.html", context)


def locked_out(request, original_response=None, credentials=None):
    """axes' answer to a locked-out login (AXES_LOCKOUT_CALLABLE): says why and for how long,
    the same whether or not the user name exists."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {"minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT}
    return render(request, "accounts/locked_out.html", context, status=429)


GROUP_OF_URL = {"staff_login": "login"}
"""The forms counted with another's posts, by URL name: the staff's login is a login."""
WAITS = {"s": "a moment", "m": "a minute", "h": "up to an hour", "d": "up to a day"}
"""How long a client past a rate may wait, by the rate's period (django-ratelimit's units)."""


def throttled(request, exception=None):
    """django-ratelimit's answer (RATELIMIT_VIEW) to a client address past its rate, with how
    long the wait may be: the rate's period (each form's group is named as its URL is)."""
    name = request.resolver_match.url_name
    rate = settings.TRIPEAKS_ADDRESS_RATES.get(GROUP_OF_URL.get(name, name), "")
    wait = WAITS.get(rate[-1:], "a while")
    return render(request, "accounts/throttled.html", {"wait": wait}, status=429)
