"""HTTP in and out. Each view reads and checks its input, calls one game.play function and
answers with `answer`: an htmx request gets the changed regions of the page as fragments; a plain
form post is redirected back to the page, which shows once what the post did (its flash)."""

from dataclasses import dataclass, replace
from datetime import date
from functools import wraps

from django.conf import settings
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.utils.cache import add_never_cache_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe
from django_ratelimit.core import get_usage

from game import display, play, preferences, review
from game.engine.deck import DeckError
from game.engine.geometry import TABLEAU_SIZE
from game.engine.rules import Rules, RulesError
from game.engine.scoring import ScoringError, system_named
from game.models import Deal
from game.owners import Owner

FLASH = "flash"
"""Session key: what a plain post did, shown once by the page it redirects to."""
FLASHED = (
    "message",
    "note",
    "news",
    "moved",
    "run_reset",
    "scored",
    "left",
    "left_score",
    "left_daily",
    "set_aside",
)
GONE_FROM_HERE = "That tap was not made: you logged in or out in another tab."
WINNABLE_CHOSEN = "New deal now deals only deals that can be won."
ANY_CHOSEN = "New deal now deals any deal, winnable or not."
TIPPED = "tipped"
"""Session key: the first-run tip has been shown."""


@dataclass(frozen=True)
class Typed:
    """The deal form as the player filled it in, given back to them when what it asked for was
    not dealt (None: a field not sent, for which the form shows the table's game and scoring and
    the player's kept choice of winnable deals)."""

    deal: str = ""
    rules: str | None = None
    scoring: str | None = None
    winnable: bool | None = None

    @classmethod
    def of(cls, request) -> "Typed":
        post = request.POST
        return cls(post.get("deal", ""), post.get("rules"), post.get("scoring"), "winnable" in post)

    def context(self, request, row) -> dict:
        """The deal form's fields, for display.context wherever the form is drawn: as typed, else
        the table's game, the scoring New deal deals with (after practice, the last played for
        real) and the player's kept choice of winnable deals."""
        winnable = preferences.winnable_only(request) if self.winnable is None else self.winnable
        return {
            "deal_text": self.deal,
            "form_rules": self.rules or row.rules,
            "form_scoring": self.scoring or play.scoring_handed_on(row),
            "winnable_only": winnable,
        }


NOTHING_TYPED = Typed()


class BadInput(ValueError):
    """A request no honest form sends, or a deal that cannot be started; the message says why."""

    def __init__(self, message: str, typed: Typed = NOTHING_TYPED):
        super().__init__(message)
        self.typed = typed
        """The deal form as the player filled it in, to give back to them."""


def game_action(view):
    """A post that acts on one of the player's games. Bad input, or a game that is not theirs,
    changes nothing: the player gets their own table back with the reason."""

    @require_POST
    @wraps(view)
    def checked(request, game_id, **options):
        try:
            if game_id == play.UNSTORED:
                return first_action(request, view, **options)
            if is_newcomer(request):
                raise Http404(play.NOT_YOURS)  # not a session of their own, so not a game
            return view(request, game_id, **options)
        except play.Stale:  # a table dealt in another tab, never stored
            return answer(request, play.as_it_stands(Owner.of(request)))
        except BadInput as error:
            return refusal(request, 400, str(error), error.typed)
        except Http404 as error:
            response = refusal(request, 404, str(error))
            if request.htmx:
                # The page's own forms name only the player's games: the player has changed
                # since it was drawn. The whole page comes back, so that its account links say
                # who is playing too.
                reload_saying_why(request, response)
            return response

    return checked


def reload_saying_why(request, response) -> None:
    """Have the page that sent a tap reload, saying why the tap was not made: the player logged
    in or out in another tab since it opened. Said to a player with a session to say it in: one
    just logged out has its "Log in" link to say it, and a request without a session stores
    nothing."""
    response["HX-Refresh"] = "true"
    if not is_newcomer(request):
        request.session[FLASH] = {"message": GONE_FROM_HERE}


def is_newcomer(request) -> bool:
    """A visitor with neither an account nor a session. They are dealt a table stored nowhere,
    so that a page view writes nothing; their first action stores it, and their session."""
    return not request.user.is_authenticated and request.session.is_empty()


def first_action(request, view, **options):
    """A newcomer's first action, on the table they were dealt, stored for it with their session.
    Refused as bad input, it stores nothing at all (on SQLite, other writes wait for it, a first
    Hint's search included)."""
    try:
        with transaction.atomic():
            return view(request, newcomer_game(request), **options)
    except BadInput:
        request.session.flush()  # begun for the table: its cached copy goes too
        raise


def newcomer_game(request) -> int:
    """The game a newcomer's first action acts on: the table they were dealt (dealt_in), stored
    now."""
    day, number = dealt_in(request)
    try:
        deal = play.daily_deal(day) if day else Deal.for_number(number or 0)
    except DeckError as error:
        raise BadInput(f"That table cannot be stored: {error}.") from None
    request.session[TIPPED] = True
    # A record of the day is begun on its day: a daily deal shown before midnight (UTC) and first
    # played after it is an ordinary game of that deal, as a past day's typed into the deal form is.
    record = day if day == play.today() else None
    return play.store_dealt(Owner.of(request), deal, daily=record)


def dealt_in(request) -> tuple[date | None, int | None]:
    """The table a newcomer's post was sent from: the daily deal by its date in the form's `daily`
    field (its number unsaid, lest it be played beforehand as an ordinary game), else the deal
    numbered in `dealt`."""
    number = _whole_number(request.POST.get("dealt"), "dealt")
    try:
        day = play.daily_date(request.POST["daily"]) if "daily" in request.POST else None
    except DeckError as error:
        raise BadInput(f"That table cannot be stored: {error}.") from None
    return day, number


def owner_of_stored(request) -> Owner:
    """The owner of the games a request may reach; a newcomer has none, and looking for theirs
    must not start a session."""
    if is_newcomer(request):
        raise Http404(play.NOT_YOURS)
    return Owner.of(request)


def visitor_table(request, resume: bool = True) -> play.Outcome:
    """The table a visitor sees: a newcomer's dealt one, else their own."""
    if is_newcomer(request):
        try:  # a refused post's is the table it was sent from
            return play.dealt_table(*dealt_in(request))
        except (BadInput, DeckError):
            return play.dealt_table()

    def first_deal():  # a visitor whose session holds no game yet: New deal's kind of deal
        return play.random_deal(winnable=preferences.winnable_only(request))

    return play.open_table(Owner.of(request), resume, first_deal)


# The table moves on: Back and Forward fetch it again rather than show a copy the browser kept.
@never_cache
@require_safe
def table(request):
    outcome = visitor_table(request)
    flash = request.session.pop(FLASH, {})
    outcome = replace(outcome, hint=play.last_hint(outcome.row), **flash)
    context = display.context(
        outcome,
        tip=first_visit(request),
        look="board" in request.GET,
        **NOTHING_TYPED.context(request, outcome.row),
    )
    return render(request, "game/play.html", context)


def first_visit(request) -> bool:
    """Whether the page is the player's first, to show the first-run tip: once, marked as shown
    (a newcomer's by their first action, newcomer_game, since their page view writes nothing).
    An account holder has played before, on this device or another, and needs no tip."""
    first = not request.user.is_authenticated and not request.session.get(TIPPED)
    if first and not is_newcomer(request):
        request.session[TIPPED] = True
    return first


@game_action
def take(request, game_id):
    outcome = play.move(Owner.of(request), game_id, version_of(request), position_of(request))
    return answer(request, outcome)


@game_action
def move(request, game_id, action):
    """Draw, undo or lay the wild card (`action`, from the URL)."""
    outcome = play.move(Owner.of(request), game_id, version_of(request), action)
    return answer(request, outcome)


@game_action
def hint(request, game_id):
    owner = Owner.of(request)
    if wait := hint_wait(request, owner):
        response = refusal(request, 429, too_many_hints(wait))
        response["Retry-After"] = str(wait)
        return response
    outcome = play.hint(owner, game_id, version_of(request))
    return answer(request, outcome)


def too_many_hints(wait: int) -> str:
    return (
        "Hints are coming faster than they can be thought out: "
        f"ask again in {wait} second{pluralize(wait)}."
    )


def hint_wait(request, owner: Owner) -> int | None:
    """The seconds to wait when this Hint goes past the player's rate (settings.HINT_RATE) or
    their address's (settings.HINT_ADDRESS_RATE), else None. A Hint past the player's own rate is
    not counted against the address: one player's burst must not shut out the others there."""
    player = f"user {owner.user_id}" if owner.user_id else f"session {owner.session_key}"
    limits = [("hint", lambda *_: player, settings.HINT_RATE),
              ("hint-address", "ip", settings.HINT_ADDRESS_RATE)]  # fmt: skip
    for group, key, rate in limits:
        usage = get_usage(request, group=group, key=key, rate=rate, increment=True)
        if usage is not None and usage["should_limit"]:  # None: no limit, or the cache is away
            return max(usage["time_left"], 1)
    return None


@game_action
def leave(request, game_id, replay):
    """New deal, or with `replay` (from the URL) the table's deal again."""
    owner, version = Owner.of(request), version_of(request)
    if replay:
        outcome = play.replay_table(owner, game_id, version)
    else:
        outcome = play.new_deal(owner, game_id, version, preferences.winnable_only(request))
    return answer(request, outcome)


@game_action
def deal(request, game_id):
    """Start the deal form's deal: the one typed (a deal number, deck code or daily deal's name),
    else a random one, under the rules and scoring chosen; its winnable box is the player's choice
    from now on."""
    typed = Typed.of(request)
    version = version_of(request)
    try:
        chosen = play.deal_from_text(typed.deal)
        rules = Rules.from_name(typed.rules).name if typed.rules is not None else None
        scoring = system_named(typed.scoring) if typed.scoring is not None else None
    except (DeckError, RulesError, ScoringError) as error:
        raise BadInput(f"That deal cannot be started: {error}.", typed) from None
    preferences.choose_winnable_only(request, typed.winnable)
    owner = Owner.of(request)
    outcome = play.start_deal(owner, game_id, version, chosen, rules, scoring, typed.winnable)
    return answer(request, outcome, typed=typed)


@require_POST
def winnable_only(request):
    """The deal form's winnable box, kept as soon as the player changes it, so that New deal deals
    as it shows (without the script, Play keeps it). A newcomer's first action on the table they
    were dealt, which is stored with it: seen again, the table is the one they chose it at."""
    if is_newcomer(request) and {"dealt", "daily"} & request.POST.keys():
        try:
            stored = newcomer_game(request)
        except BadInput as error:
            return refusal(request, 400, str(error))
        # Its clock stopped, as the page still shows it (it names no game to pause or resume).
        play.pause(Owner.of(request), stored)
    chosen = "winnable" in request.POST
    preferences.choose_winnable_only(request, chosen)
    if not request.htmx:
        return HttpResponse(status=204)
    # Ticked, nothing changes on the table: the player is told, beside the box, when it applies.
    context = {"note": WINNABLE_CHOSEN if chosen else ANY_CHOSEN, "tip": False}
    return render(request, "game/play.html#winnable_chosen", context)


@never_cache
@require_safe
def daily(request):
    """Today's daily deal (UTC), the same for everyone: the player's record of it once begun. A
    newcomer's is dealt as the table is, stored by their first action."""
    today = play.today()
    if is_newcomer(request):
        outcome = play.dealt_table(today)
    else:
        outcome = play.open_daily(Owner.of(request), today)
        # Why a tap on this page was refused, as it asked for the page anew (reload_saying_why).
        refused = request.session.pop(FLASH, {}).get("message") or outcome.message
        outcome = replace(outcome, hint=play.last_hint(outcome.row), message=refused)
    context = display.context(
        outcome, tip=first_visit(request), **NOTHING_TYPED.context(request, outcome.row)
    )
    return render(request, "game/play.html", context)


@never_cache  # the player's own, the whole deal shown
@require_safe
def analysis(request, game_id):
    """The whole deal and the solver's look back at it, once the game is over (404 for anyone
    but its player)."""
    try:
        step = _whole_number(request.GET.get("step"), "step")
        owner = owner_of_stored(request)
        game, found = play.analysis_of(owner, game_id)
    except BadInput as error:
        return not_understood(request, error)
    except play.StillPlaying:
        return render(request, "game/still_playing.html", status=409)
    context = review.context(game, found, step) | {"table": play.current_game(owner)}
    return render(request, "game/analysis.html", context)


@game_action
def again(request, game_id):
    """Play a finished game's deal again from a move of its analysis."""
    count = _whole_number(request.POST.get("moves"), "moves")
    shown = shown_table(request)
    try:
        outcome = play.try_again_from(Owner.of(request), game_id, count or 0, *shown)
    except play.StillPlaying:
        raise BadInput("That game is still being played: finish or leave it first.") from None
    except ValueError as error:
        raise BadInput(f"That point cannot be played again: {error}.") from None
    return answer(request, outcome)


@require_POST
def take_up(request, game_id):
    """Take up again a game set aside unfinished (the table it replaces is set aside in turn)."""
    try:
        return answer(request, play.take_up(owner_of_stored(request), game_id))
    except Http404 as error:
        return refusal(request, 404, str(error))


@require_POST
def pause(request, game_id):
    if game_id != play.UNSTORED:  # a dealt table's clock has not started
        play.pause(owner_of_stored(request), game_id)
    return HttpResponse(status=204)


@require_POST
def resume(request, game_id):
    response = HttpResponse(status=204)
    if game_id != play.UNSTORED:
        clock_ms = play.resume(owner_of_stored(request), game_id)
        if clock_ms is not None:
            response["X-Clock"] = clock_ms
    return response


def answer(request, outcome: play.Outcome, typed: Typed = NOTHING_TYPED):
    """The page's answer to an action on the game its URL names."""
    if not request.htmx:
        request.session[FLASH] = {name: getattr(outcome, name) for name in FLASHED}
        return redirect("table")
    # The deal form comes back as typed only when its deal was not dealt. The controls change
    # only with the game (their links) or to give the form back; the script keeps their version
    # fields in step with the table (see tripeaks.js).
    typed = typed if outcome.message else NOTHING_TYPED
    controls = outcome.row.pk != request.resolver_match.kwargs["game_id"] or typed != NOTHING_TYPED
    return _fragments(request, outcome, 200, typed, controls)


def refusal(request, status: int, message: str, typed: Typed = NOTHING_TYPED):
    """The player's own table with the reason their request changed nothing."""
    outcome = replace(visitor_table(request, resume=False), message=message)
    if request.htmx:
        response = _fragments(request, outcome, status, typed, controls=True)
    else:
        context = display.context(outcome, **typed.context(request, outcome.row))
        response = render(request, "game/play.html", context, status=status)
    # The table as it stands now: Back must not show it again later as the table (the table's
    # own page is never kept either).
    add_never_cache_headers(response)
    return response


def _fragments(request, outcome, status, typed: Typed, controls):
    # The deal form is drawn only with the controls.
    form = typed.context(request, outcome.row) if controls else {}
    context = display.context(outcome, controls=controls, **form)
    return render(request, "game/play.html#update", context, status=status)


def not_understood(request, error: BadInput):
    """A page of its own for bad input to a page that is not the table's."""
    context = {"title": "Not understood", "message": str(error)}
    return render(request, "notice_page.html", context, status=400)


def version_of(request) -> int | None:
    """The table version the request was made for, if it names one."""
    return _whole_number(request.POST.get("version"), "version")


def shown_table(request) -> tuple[int | None, int | None]:
    """The player's table as the page posting showed it, if it says: its game id and version (a
    version alone names no table)."""
    table = _whole_number(request.POST.get("table"), "table")
    return table, None if table is None else version_of(request)


def position_of(request) -> int:
    pos = _whole_number(request.POST.get("pos"), "pos")
    if pos is None or pos >= TABLEAU_SIZE:
        raise BadInput(f"pos must be a tableau position from 0 to {TABLEAU_SIZE - 1}.")
    return pos


def _whole_number(text: str | None, name: str) -> int | None:
    if text is None:
        return None
    # ASCII only (str.isdigit also admits digits like "²", which int() refuses) and short enough
    # for any version or position.
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise BadInput(f"{name} must be a whole number, not {text[:20]!r}.")
    return int(text)
