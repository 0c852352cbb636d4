"""What the page shows of a game: the template context, built only from what the player may see.

Face-down cards carry no card, and the stock is only a count, so neither can leak into a page.
"""

from game.engine.cards import RANK_NAMES, SUIT_SYMBOLS, card_code, card_label, is_red
from game.engine.geometry import ROW_OF, TABLEAU_SIZE
from game.engine.state import DRAW
from game.models import Game
from game.play import Outcome


def grid_column(pos: int) -> int:
    """The first of the two half-card grid columns a card spans (20 columns, 1-based): each card
    sits centred over the two cards that cover it."""
    row = ROW_OF[pos]
    if row == 3:
        return 2 * (pos - 18) + 1
    if row == 2:
        return 2 * (pos - 9) + 2
    if row == 1:
        peak, j = divmod(pos - 3, 2)
        return 6 * peak + 2 * j + 3
    return 6 * pos + 4


def face(card: int) -> dict:
    rank = RANK_NAMES[card % 13]
    return {
        "code": card_code(card),
        "label": card_label(card),
        "rank": rank[0].upper() if len(rank) > 2 else rank,
        "suit": SUIT_SYMBOLS[card // 13],
        "red": is_red(card),
    }


def clock(ms: int) -> str:
    minutes, seconds = divmod(ms // 1000, 60)
    return f"{minutes}:{seconds:02d}"


def context(outcome: Outcome, **extra) -> dict:
    row, table, hint = outcome.row, outcome.table, outcome.hint
    hinted = hint.move if hint else None
    free = set(table.legal_takes()) if row.status != Game.Status.WON else set()
    cards = []
    for pos in range(TABLEAU_SIZE):
        if table.is_removed(pos):
            continue
        # A face-down card carries only its place: not even its name can reach the page.
        card = {"pos": pos, "free": pos in free, "hint": pos == hinted, "code": None}
        if table.is_face_up(pos):
            card |= face(table.deck[pos])
        shade = " red" if card.get("red") else "" if card["code"] else " back"
        card["classes"] = f"card r{ROW_OF[pos]} x{grid_column(pos)}{shade}"
        cards.append(card)
    elapsed = row.elapsed_ms()
    panel = {Game.Status.WON: "won", Game.Status.DEAD_END: "dead_end"}.get(row.status)
    return {
        "game": row,
        "cards": cards,
        "waste": face(table.waste_top),
        "stock": table.stock_count,
        "standing": TABLEAU_SIZE - table.cleared,
        "cleared": table.cleared,
        "run": table.run,
        "longest_run": table.longest_run,
        "run_reset": outcome.run_reset,
        "moved": outcome.moved,
        "clock": clock(elapsed),
        "clock_ms": elapsed,
        "clock_running": row.running_since is not None,
        "message": outcome.message,
        "news": outcome.news,
        "hint": hint,
        "hint_draw": hinted == DRAW,
        "panel": panel,
        **extra,
    }
