"""A game's table at any entry of its log, drawn for staff: every card shown, face-down ones too.

The log is the truth (STYLE.md): the table at entry k is the deal replayed through the takes,
draws and undos logged up to k. Positions are laid out from the covering table (`ACROSS`), so the
picture follows the geometry rather than a hand-made list of coordinates.
"""

from dataclasses import dataclass

from game.display import face
from game.engine.cards import card_code
from game.engine.geometry import ACROSS, ROW_OF, TABLEAU_SIZE
from game.engine.rules import Rules
from game.engine.state import Table
from game.models import Action

CARD_WIDTH = 34
CARD_HEIGHT = 48
STEP = 38
"""Distance between neighbouring base-row cards."""
ROW_DROP = 26
"""How far each row sits below the one it covers: cards overlap like on a real table."""
MARGIN = 4
TABLEAU_BOTTOM = MARGIN + 3 * ROW_DROP + CARD_HEIGHT
PILES_TOP = TABLEAU_BOTTOM + 14
WILD_FACE = {"code": "wild", "label": "the wild card", "rank": "★", "suit": "", "red": False}


@dataclass(frozen=True)
class CardPicture:
    x: float
    y: float
    face: dict
    """As the players' pages draw it (game.display.face), face-down cards too."""
    state: str
    """"removed", "face-up" or "face-down"."""
    pos: int | None = None

    @property
    def text_x(self) -> float:
        return self.x + CARD_WIDTH / 2

    @property
    def text_y(self) -> float:
        """Near the top: a covering card hides the rest."""
        return self.y + 17


@dataclass(frozen=True)
class TablePicture:
    cards: list[CardPicture]
    waste: CardPicture | None
    stock: CardPicture | None
    stock_codes: list[str]
    """The stock in drawing order, next card first: staff see it, players never do."""
    waste_count: int
    cleared: int
    run: int
    over: str
    """"won", "dead end" or empty while the game goes on."""
    wild_held: bool
    width: int = 10 * STEP + 2 * MARGIN
    height: int = PILES_TOP + CARD_HEIGHT + MARGIN
    card_width: int = CARD_WIDTH
    card_height: int = CARD_HEIGHT
    waste_label_x: float = MARGIN + 4 * STEP - 6


def table_at(deck: tuple[int, ...], actions: list[Action], seq: int, rules: Rules) -> TablePicture:
    """The table after the log entry numbered seq, under the game's rules. Raises IllegalAction
    if the log breaks them, which would mean a corrupt log."""
    moves = [action.move for action in actions if action.seq <= seq]
    game = Table.replay(deck, [move for move in moves if move is not None], rules)
    return picture_of(game)


def picture_of(game: Table) -> TablePicture:
    cards = [
        _card(
            game.deck[pos],
            MARGIN + ACROSS[pos] * STEP,
            MARGIN + ROW_OF[pos] * ROW_DROP,
            _state_of(game, pos),
            pos,
        )
        for pos in range(TABLEAU_SIZE)
    ]
    waste_x = MARGIN + 4 * STEP
    waste = None
    if game.wild_on_waste:
        waste = CardPicture(x=waste_x, y=PILES_TOP, face=WILD_FACE, state="face-up")
    elif game.waste_top is not None:
        waste = _card(game.waste_top, waste_x, PILES_TOP, "face-up")
    stock_cards = game.deck[game.stock_next :]
    stock = (
        _card(stock_cards[0], waste_x + STEP + 8, PILES_TOP, "face-down") if stock_cards else None
    )
    over = "won" if game.won else "dead end" if game.dead_end else ""
    return TablePicture(
        cards=cards,
        waste=waste,
        stock=stock,
        stock_codes=[card_code(card) for card in stock_cards],
        waste_count=len(game.waste),
        cleared=game.cleared,
        run=game.run,
        over=over,
        wild_held=game.wild_held,
    )


def _state_of(game: Table, pos: int) -> str:
    if game.is_removed(pos):
        return "removed"
    return "face-up" if game.is_face_up(pos) else "face-down"


def _card(card: int, x: float, y: float, state: str, pos: int | None = None) -> CardPicture:
    return CardPicture(x=x, y=y, face=face(card), state=state, pos=pos)
