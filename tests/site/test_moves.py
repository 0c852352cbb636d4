"""Takes, draws and undos through the site, htmx and plain alike, and every refusal."""

import pytest

from game import play
from game.engine.deck import format_deck
from game.engine.state import (
    ALREADY_TAKEN,
    NOT_ONE_RANK,
    NOTHING_TO_UNDO,
    STILL_COVERED,
    STILL_FACE_DOWN,
    STOCK_EMPTY,
)
from game.models import Action, Game
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER
from tests.site.decks import DEAD_END_DECK


def kinds(game):
    return list(game.actions.values_list("kind", flat=True))


def test_the_page_deals_a_game_on_the_first_visit(player):
    page = player.page.content.decode()

    assert player.page.status_code == 200
    assert "Cleared 0/28" in page
    assert page.count("data-card=") == 10
    assert 'data-stock="23"' in page
    assert page.count('aria-label="face-down card"') == 18
    assert kinds(player.game) == ["new"]


def test_the_same_game_comes_back_on_reload(player):
    first = player.game

    player.client.get("/")

    assert player.game == first


def test_a_take_answers_htmx_with_out_of_band_fragments(player):
    player.start(CHAIN_DECK)
    response = player.take(18)
    html = response.content.decode()
    game = player.game

    assert response.status_code == 200
    for region in ('id="table"', 'id="pile"', 'id="status"'):
        assert region in html
    # The controls stay as they are: their links have not changed (the script updates their
    # version fields).
    assert 'id="controls"' not in html
    assert html.count('hx-swap-oob="true"') >= 4
    assert 'data-cleared="1"' in html and 'data-run="1"' in html
    assert 'data-waste="AC"' in html
    assert response["X-Table"] == f"{game.pk}:{game.version}"
    assert game.moves == [18] and game.cleared == 1 and game.version == 1
    assert kinds(game)[-1] == "take" and game.actions.last().pos == 18


def test_a_new_deal_redraws_the_controls_for_the_new_game(player):
    left = player.game

    html = player.post("new", game=left).content.decode()

    game = player.game
    assert game != left
    assert 'id="controls" hx-swap-oob="true"' in html
    assert f'hx-post="/game/{game.pk}/undo"' in html and f"/game/{left.pk}/" not in html


def test_a_dealt_deal_number_leaves_the_field_empty_and_a_stale_one_keeps_it(player):
    game = player.game

    stale = player.post("deal", {"deal": "77", "version": game.version + 1}).content.decode()
    dealt = player.post("deal", {"deal": "77"}).content.decode()

    assert play.STALE in stale and 'name="deal" value="77"' in stale
    assert player.game.deal.number == 77 and 'name="deal" value=""' in dealt


def test_a_plain_take_redirects_to_the_page(player):
    player.start(CHAIN_DECK)

    response = player.take(18, htmx=False)

    assert response.status_code == 302 and response["Location"] == "/"
    page = player.client.get("/").content.decode()
    assert "Cleared 1/28" in page and 'data-waste="AC"' in page


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize(
    ("moves", "pos", "reason"),
    [
        ([], 27, NOT_ONE_RANK),
        ([], 9, STILL_FACE_DOWN),
        ([18], 9, STILL_COVERED),
        ([18], 18, ALREADY_TAKEN),
    ],
)
def test_a_refused_take_shows_its_reason_and_changes_nothing(player, moves, pos, reason, htmx):
    player.start(CHAIN_DECK)
    for move in moves:
        player.take(move)
    before = player.game
    actions = before.actions.count()

    response = player.take(pos, htmx=htmx)

    page = response if htmx else player.client.get(response["Location"])
    assert f"data-message>{reason}<" in page.content.decode()
    after = player.game
    assert (after.version, after.moves, after.actions.count()) == (
        before.version,
        before.moves,
        actions,
    )


def test_draw_turns_the_next_stock_card_and_resets_the_run_visibly(player):
    player.start(CHAIN_DECK)
    player.take(18)

    html = player.post("draw").content.decode()

    assert 'data-stock="22"' in html and 'data-run="0"' in html
    assert ">reset</em>" in html
    assert "Run reset from 1 to 0" in html
    assert player.game.moves == [18, "draw"] and kinds(player.game)[-1] == "draw"


@pytest.mark.parametrize("htmx", [True, False])
def test_refusals_of_draw_and_undo(player, htmx):
    player.start(DEAD_END_DECK)
    response = player.post("undo", htmx=htmx)
    page = response if htmx else player.client.get("/")
    assert f"data-message>{NOTHING_TO_UNDO}<" in page.content.decode()

    for _ in range(23):
        player.post("draw")
    response = player.post("draw", htmx=htmx)
    page = response if htmx else player.client.get("/")
    assert f"data-message>{STOCK_EMPTY}<" in page.content.decode()
    assert player.game.moves == ["draw"] * 23


def test_undo_covers_an_uncovered_card_again_as_face_down(player):
    player.start(CHAIN_DECK)
    player.take(18)
    uncovered = player.take(19).content.decode()
    assert 'data-pos="9" class="card r2 x2" data-card="JC"' in uncovered

    html = player.post("undo").content.decode()

    assert 'data-pos="9" class="card r2 x2 back" aria-label="face-down card"' in html
    assert 'data-card="JC"' not in html and "jack of clubs" not in html
    game = player.game
    assert game.moves == [18] and game.undo_count == 1 and 9 in game.seen
    assert kinds(game)[-1] == "undo"


def test_the_stock_greys_out_with_a_note_when_empty(player):
    player.start(CHAIN_DECK)
    for _ in range(23):
        html = player.post("draw").content.decode()

    assert 'class="card back stock empty" data-stock="0"' in html
    assert 'aria-label="stock, 0 cards"' in html
    assert "Nothing left to turn: 28 cards still standing on the peaks." in html


def test_winning_shows_the_result_panel_and_stops_the_clock(player):
    player.start(CHAIN_DECK)
    for pos in CHAIN_ORDER:
        html = player.take(pos).content.decode()

    game = player.game
    assert game.status == Game.Status.WON and game.finished_at and game.running_since is None
    assert kinds(game)[-2:] == ["take", "win"]
    assert "Deal cleared!" in html and "Cleared 28/28" in html
    assert "<dt>Longest run</dt><dd>28</dd>" in html and "<dt>Moves</dt><dd>28</dd>" in html
    assert f'data-copy="{format_deck(CHAIN_DECK)}"' in html
    assert 'data-action="new"' in html and 'data-action="replay"' in html
    assert "Look at the finished board" in html


def test_after_a_win_moves_and_undo_are_refused(player):
    player.start(CHAIN_DECK)
    for pos in CHAIN_ORDER:
        player.take(pos)

    html = player.post("undo").content.decode()

    assert "This deal is won: start a new deal or replay it." in html
    assert player.game.moves == CHAIN_ORDER


def test_a_dead_end_offers_undo_replay_and_new_deal_and_undo_leaves_it(player):
    player.start(DEAD_END_DECK)
    for _ in range(23):
        html = player.post("draw").content.decode()

    game = player.game
    assert game.status == Game.Status.DEAD_END and game.running_since is None
    assert kinds(game)[-1] == "dead_end"
    assert "No legal move" in html
    panel = html[html.index('id="panel"') :]
    for action in ("undo", "replay", "new"):
        assert f'data-action="{action}"' in panel

    player.post("undo")

    game = player.game
    assert game.status == Game.Status.PLAYING and game.running_since is not None
    assert kinds(game)[-2:] == ["undo", "resume"]


def test_every_action_is_logged_in_order(player):
    player.start(CHAIN_DECK)
    player.take(18)
    player.post("draw")
    player.post("undo")
    player.take(27)  # refused: logs nothing

    seqs = list(Action.objects.filter(game=player.game).values_list("seq", "kind"))
    assert seqs == [(1, "new"), (2, "take"), (3, "draw"), (4, "undo")]
    assert player.game.logged == 4
