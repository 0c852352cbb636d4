"""What the analysis page shows of a finished game: the whole deal face up, the verdict, and the
winning line as a picture of the table to step through.

Only for a game that is over (game.play.analysis_of refuses one still being played): once it is,
every card may be shown.
"""

import json

from game.display import face, grid_column
from game.engine.geometry import ROW_OF, TABLEAU_SIZE
from game.engine.state import DRAW, WILD, Move, Table
from game.models import Analysis, Game
from game.play import rules_named


def move_words(table: Table, move: Move) -> str:
    """A move as a player says it, on the table it is played on: "take the 7 of hearts"."""
    if move == DRAW:
        return "draw"
    if move == WILD:
        return "lay the wild card"
    return f"take the {face(table.deck[move])['label']}"


def context(game: Game, analysis: Analysis, step: int | None, *, players: bool = True) -> dict:
    """The page's context, with the table `step` moves into the winning line (its start, where
    the deal was still winnable, if None). The player's own page (`players`) offers to try again
    from there; the staff's does not."""
    deck, rules = game.deal.cards, rules_named(game.rules)
    line = analysis.line
    start = analysis.last_winnable or 0
    stepped = step is not None  # a page of the line, reached by its step links
    step = 0 if step is None else max(0, min(step, len(line)))
    played = game.moves[:start] if analysis.last_winnable is not None else []
    table = Table.replay(deck, [*played, *line[:step]], rules)
    next_move = line[step] if step < len(line) else None
    lost_by = None
    if analysis.losing_move is not None:
        lost_by = move_words(Table.replay(deck, played, rules), analysis.losing_move)
    return {
        "game": game,
        "analysis": analysis,
        "deck": game.deal.deck,
        "line_json": json.dumps(line),
        "start": start,
        "lost_by": lost_by,
        "step": step,
        "stepped": stepped,
        "steps": len(line),
        "next_move": move_words(table, next_move) if next_move is not None else "",
        "cards": [_card(table, pos, next_move) for pos in range(TABLEAU_SIZE)],
        "waste": face(table.waste_top) if table.waste_top is not None else None,
        "wild_on_waste": table.wild_on_waste,
        "stock": [
            {**face(card), "next": i == 0 and next_move == DRAW}
            for i, card in enumerate(table.deck[table.stock_next :])
        ],
        "cleared": table.cleared,
        "players": players,
        "try_again": players and analysis.last_winnable is not None,
        # Every card seen: game.play deals the try as practice, unscored and in no record.
        "again_unscored": game.scoring != Game.Scoring.NONE,
    }


def _card(table: Table, pos: int, next_move: Move | None) -> dict:
    return {
        "pos": pos,
        "row": ROW_OF[pos],
        "column": grid_column(pos),
        "face": face(table.deck[pos]),
        "taken": table.is_removed(pos),
        "covered": not table.is_uncovered(pos),
        "next": pos == next_move,
    }
