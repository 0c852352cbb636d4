"""What the page shows of a game: the template context, built only from what the player may see.

Face-down cards carry no card, and the stock is only a count, so neither can leak into a page.
"""

from functools import cache, lru_cache
from types import MappingProxyType

from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import SafeString

from game.choices import FLAG_CHOICES, RULE_CHOICES, RULES_BY_NAME, SCORING_CHOICES
from game.engine.cards import SUIT_SYMBOLS, card_code, card_label, is_red, rank_symbol, suit
from game.engine.geometry import ACROSS, BASE_ROW, ROW_OF, ROWS, TABLEAU_SIZE
from game.engine.state import DRAW, WILD, Table
from game.models import Game
from game.play import UNSTORED, Outcome, bank_of, daily_results, still_a_record, today


def grid_column(pos: int) -> int:
    """The first of the two half-card grid columns a card spans (20 columns, 1-based)."""
    return int(2 * ACROSS[pos]) + 1


def _place_words(pos: int) -> str:
    """Where a card sits, as a screen reader says it: the eye sees at once which peak a card is
    on and what holds it down, the ear only by its place."""
    row = ROW_OF[pos]
    if row == ROW_OF[BASE_ROW.start]:
        return f"bottom row, {pos - BASE_ROW.start + 1} of {len(BASE_ROW)}"
    peak, across = divmod(pos - ROWS[row].start, row + 1)  # a peak's row holds row + 1 cards
    side = ("left", "middle", "right")[peak]
    if row == 0:
        return f"{side} peak, top"
    return f"{side} peak, row {row + 1}, {across + 1} of {row + 1}"


PLACE_WORDS = tuple(map(_place_words, range(TABLEAU_SIZE)))


def rules_label(name: str) -> str:
    """A rule set as players read it ("Head start + Wild card"), not by its name."""
    return RULES_BY_NAME[name].label


def face(card: int) -> dict:
    """A card's face as every page draws it (the table, the analysis, the staff's picture): its
    code, the words a screen reader says, the rank and suit symbol printed on it, its colour."""
    return {
        "code": card_code(card),
        "label": card_label(card),
        "rank": rank_symbol(card),
        "suit": SUIT_SYMBOLS[suit(card)],
        "red": is_red(card),
    }


def faces_taken(table: Table) -> str:
    """The cards taken from the peaks, in the order taken, as their faces print ("A♣ 10♥"): what
    a win's rain shows (tripeaks.js), every one of them seen by then."""
    taken = (face(table.deck[move]) for move in table.moves if isinstance(move, int))
    return " ".join(card["rank"] + card["suit"] for card in taken)


def clock(ms: float | None) -> str | None:
    """A time as the table's clock shows it, m:ss, in whole seconds as tripeaks.js counts them
    while it ticks, so a page and its live clock agree. None for no time at all, such as the
    average time of no games: each page says how it shows that."""
    if ms is None:
        return None
    minutes, seconds = divmod(int(ms // 1000), 60)
    return f"{minutes}:{seconds:02d}"


def count(number: int) -> str:
    """A count as print sets it, thousands set apart: 1,640."""
    return f"{number:,}"


def points(score: int) -> str:
    """A score as print sets it: a minus sign, not a hyphen, before a loss, as the points each
    move scores are written (game.engine.scoring), and thousands set apart (a bank grows)."""
    return f"\N{MINUS SIGN}{count(-score)}" if score < 0 else count(score)


def percent(fraction: float | None) -> str:
    """A share in whole percent; a dash while there is nothing to share (nothing played yet)."""
    return "–" if fraction is None else f"{fraction:.0%}"


# The pieces a tap redraws are rendered from their partials once per process for each form they
# take (a few thousand cards, 156 waste cards, 48 stocks) and reused as they are.


@cache
def card_button(
    pos: int, card: int | None, free: bool, hint: bool, covered: bool = False
) -> SafeString:
    """A card on the peaks (`card` None when face down), as the button that takes it; a face-up
    card still `covered` (under open peaks) says so, to the eye and to a screen reader."""
    shown = None if card is None else face(card)
    place = {"pos": pos, "row": ROW_OF[pos], "column": grid_column(pos), "where": PLACE_WORDS[pos]}
    return _piece("card", **place, face=shown, free=free, hint=hint, covered=covered)


@cache
def waste_card(card: int | None, moved: str, wild: bool = False) -> SafeString:
    """The top of the waste, landing there when `moved` is "take" or "draw": a card, the wild
    card (`wild`, which the script flies from its button), or with neither (a head start) the empty
    place the first card goes to."""
    return _piece("waste", waste=None if card is None else face(card), moved=moved, wild=wild)


@cache
def stock_button(count: int, hinted: bool, finished: bool) -> SafeString:
    """The stock, in the Tab order only while a draw can be made: as with the cards, keys pass
    over what can no longer be played (after a win, the stock may be left under the panel)."""
    return _piece("stock", stock=count, hint_draw=hinted, drawable=count and not finished)


def _piece(name: str, **context) -> SafeString:
    return get_template(f"game/play.html#{name}").render(context)


@lru_cache(maxsize=4096)
def links(game_id: int) -> MappingProxyType:
    """The links every tap's fragments carry, reversed once per game rather than on every tap,
    where reversing them was a noticeable share of the work."""
    names = ("take", "draw", "wild", "pause", "resume", "analysis")
    urls = {name: reverse(name, args=[game_id]) for name in names}
    return MappingProxyType(urls)


def context(outcome: Outcome, **extra) -> dict:
    row, table, hint = outcome.row, outcome.table, outcome.hint
    hinted = hint.move if hint else None
    # A won deal offers nothing more to play, though the stock and the wild card may be left; nor
    # does one its player has seen the analysis of.
    finished = row.status == Game.Status.WON or row.revealed
    free = set() if finished else set(table.legal_takes())
    # A face-down card carries only its place: not even its name can reach the page. The
    # buttons are joined here, one string for the template instead of a loop of 28.
    cards = SafeString(
        "\n".join(
            card_button(
                pos,
                table.deck[pos] if table.is_face_up(pos) else None,
                pos in free,
                pos == hinted,
                table.rules.open_peaks and not table.is_uncovered(pos),
            )
            for pos in range(TABLEAU_SIZE)
            if not table.is_removed(pos)
        )
    )
    elapsed = row.elapsed_ms()
    panel = {Game.Status.WON: "won", Game.Status.DEAD_END: "dead_end"}.get(row.status)
    if row.revealed and panel is None:  # a left game, seen in its analysis: it stays left
        panel = "left"
    scored = row.scoring != Game.Scoring.NONE
    game_id = row.pk or UNSTORED
    return {
        "game": row,
        "game_id": game_id,
        "links": links(game_id),
        "cards": cards,
        "waste_card": waste_card(table.waste_top, outcome.moved, table.wild_on_waste),
        "wild_held": table.wild_held and not finished,
        "hint_wild": hinted == WILD,
        "rules": RULES_BY_NAME[row.rules],
        "scored": scored,
        "bank": bank_of(row) if scored else None,
        "daily_results": _daily_results(row.daily) if row.daily and panel else None,
        # A daily record an undo can still lead out of is dealt again once it is over for good.
        "replayable": not still_a_record(row),
        "left": outcome.left,
        "left_daily": outcome.left_daily,
        "set_aside": outcome.set_aside,
        "left_score": outcome.left_score,
        "stock": table.stock_count,
        "stock_button": stock_button(table.stock_count, hinted == DRAW, finished),
        "standing": TABLEAU_SIZE - table.cleared,
        "cleared": table.cleared,
        "run": table.run,
        "longest_run": table.longest_run,
        "run_reset": outcome.run_reset,
        "clock": clock(elapsed),
        "clock_ms": elapsed,
        "clock_running": row.running_since is not None,
        "message": outcome.message,
        "note": outcome.note,
        "news": " ".join(filter(None, [outcome.news, outcome.scored])),
        # The wild card laid changes what fits onto the waste, which no card on the table shows.
        "news_shown": outcome.moved == WILD,
        "points": outcome.scored,
        "hint": hint,
        "panel": panel,
        "faces_taken": faces_taken(table) if panel == "won" else "",
        # Defaults for what only some pages set: a name missing from the context costs a failed
        # lookup (an exception caught) each time the template reads it.
        "tip": False,
        "rule_choices": RULE_CHOICES,
        "flag_choices": FLAG_CHOICES,
        "scoring_choices": SCORING_CHOICES,
        "look": False,
        "oob": False,
        **extra,
    }


def _daily_results(day) -> dict:
    results = daily_results(day)
    # Not today's: a record begun before midnight (UTC) and finished since.
    return results | {"median_time": clock(results["median_ms"]), "today": day == today()}
