"""HTTP in and out: parse the request, call game.play, render. An htmx request gets the changed
regions of the page as fragments; a plain form post is redirected back to the page."""

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from game import display, play
from game.engine.deck import DeckError
from game.engine.geometry import TABLEAU_SIZE
from game.engine.state import DRAW, UNDO
from game.models import Action

FLASH = "flash"
"""Session key: what a plain post did, shown once by the page it redirects to."""
FLASHED = ("message", "news", "moved", "run_reset")
TIPPED = "tipped"
"""Session key: the first-run tip has been shown."""


class BadInput(ValueError):
    """A request no honest form sends; the message says what is wrong."""


@require_GET
def table(request):
    outcome = play.current(play.owner_of(request))
    for name, value in request.session.pop(FLASH, {}).items():
        setattr(outcome, name, value)
    outcome.hint = play.last_hint(outcome.row)
    first_visit = not request.session.get(TIPPED)
    if first_visit:
        request.session[TIPPED] = True
    extra = {"tip": first_visit, "look": "board" in request.GET}
    return render(request, "game/play.html", display.context(outcome, **extra))


@require_POST
def take(request, game_id):
    return _act(
        request, game_id, lambda owner, version: play.move(owner, game_id, version, _pos(request))
    )


@require_POST
def draw(request, game_id):
    return _act(request, game_id, lambda owner, version: play.move(owner, game_id, version, DRAW))


@require_POST
def undo(request, game_id):
    return _act(request, game_id, lambda owner, version: play.move(owner, game_id, version, UNDO))


@require_POST
def hint(request, game_id):
    return _act(request, game_id, lambda owner, version: play.hint(owner, game_id, version))


@require_POST
def new(request, game_id):
    return _act(request, game_id, lambda owner, version: play.new_deal(owner, game_id, version))


@require_POST
def replay(request, game_id):
    kind = Action.Kind.REPLAY
    return _act(
        request, game_id, lambda owner, version: play.leave(owner, game_id, version, None, kind)
    )


@require_POST
def choose(request, game_id):
    """Start the deal typed into the deal form: a deal number or a deck code."""
    text = request.POST.get("deal", "")

    def start(owner, version):
        try:
            deal = play.deal_from_text(text)
        except DeckError as error:
            raise BadInput(f"That deal cannot be started: {error}.") from None
        return play.leave(owner, game_id, version, deal, Action.Kind.NEW)

    return _act(request, game_id, start, deal_text=text)


@require_POST
def pause(request, game_id):
    play.pause(play.owner_of(request), game_id)
    return HttpResponse(status=204)


@require_POST
def resume(request, game_id):
    play.resume(play.owner_of(request), game_id)
    return HttpResponse(status=204)


def _act(request, game_id, act, **extra):
    """Run one action on the requester's game and answer it; bad input changes nothing."""
    owner = play.owner_of(request)
    try:
        outcome = act(owner, _number(request.POST.get("version"), "version"))
    except BadInput as error:
        return _refuse(request, owner, 400, str(error), extra)
    except Http404 as error:
        return _refuse(request, owner, 404, str(error), extra)
    if not request.htmx:
        request.session[FLASH] = {name: getattr(outcome, name) for name in FLASHED}
        return redirect("table")
    # A typed deal goes back into its field only when it was not dealt. The controls change
    # only with the game (their links) or to show that text; the script keeps their version
    # fields in step with the table (see tripeaks.js).
    extra = extra if outcome.message else {}
    controls = outcome.row.pk != game_id or bool(extra)
    return _fragments(request, outcome, 200, extra, controls)


def _refuse(request, owner, status, message, extra):
    """Answer bad input with the player's current table and the reason, changing nothing."""
    outcome = play.current(owner, resume=False)
    outcome.message = message
    if request.htmx:
        return _fragments(request, outcome, status, extra, controls=True)
    return render(request, "game/play.html", display.context(outcome, **extra), status=status)


def _fragments(request, outcome, status, extra, controls):
    context = display.context(outcome, controls=controls, **extra)
    response = render(request, "game/play.html#update", context, status=status)
    # The script drops a hint that answers for a table that has changed since it was asked.
    response["X-Table"] = f"{outcome.row.pk}:{outcome.row.version}"
    return response


def _number(text: str | None, name: str) -> int | None:
    if text is None:
        return None
    # ASCII only (str.isdigit also admits digits like "²", which int() refuses) and short enough
    # for any version or position.
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise BadInput(f"{name} must be a whole number, not {text[:20]!r}.")
    return int(text)


def _pos(request) -> int:
    pos = _number(request.POST.get("pos"), "pos")
    if pos is None or pos >= TABLEAU_SIZE:
        raise BadInput(f"pos must be a tableau position from 0 to {TABLEAU_SIZE - 1}.")
    return pos
