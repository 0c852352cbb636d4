"""Takes, draws and undos through the site, htmx and plain alike, and every refusal."""

from urllib.parse import urljoin

import pytest

from game import play
from game.engine.cards import card_code, card_label
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
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER, deck_with
from tests.site.decks import DEAD_END_DECK
from tests.site.markup import actions, card, element, elements, message, text


def kinds(game):
    return list(game.actions.values_list("kind", flat=True))


def test_the_page_deals_a_game_on_the_first_visit(player):
    page = player.page.content

    assert player.page.status_code == 200
    status = element(page, data_cleared=True)
    assert status["data-cleared"] == "0" and "Cleared 0/28" in status.text
    cards = elements(page, "button", data_pos=True)
    face_up = {int(each["data-pos"]) for each in cards if each.has("data-card")}
    assert face_up == set(range(18, 28))
    face_down = [each["aria-label"] for each in cards if not each.has("data-card")]
    assert all(label.startswith("face-down card, ") for label in face_down) and len(face_down) == 18
    # Each card is told apart by its place, as the eye tells them: which peak, which row.
    labels = [each["aria-label"] for each in cards]
    assert len(set(labels)) == 28
    assert labels[0] == "face-down card, left peak, top"
    assert labels[13].startswith("face-down card, middle peak, row 3, 2 of 3")
    assert labels[27].endswith(", bottom row, 10 of 10")
    assert element(page, "button", data_stock=True)["data-stock"] == "23"
    assert kinds(player.game) == ["new"]


def test_the_same_game_comes_back_on_reload(player):
    first = player.game

    player.client.get("/")

    assert player.game == first


def test_a_take_answers_htmx_with_out_of_band_fragments(player):
    player.start(CHAIN_DECK)
    response = player.take(18)
    html = response.content
    game = player.game

    assert response.status_code == 200
    swapped = {region["id"] for region in elements(html, hx_swap_oob=True)}
    assert {"status", "tip", "table", "pile", "panel", "notice", "hint-slot"} <= swapped
    # The controls stay as they are: their links have not changed (the script updates their
    # version fields).
    assert not elements(html, id="controls")
    status = element(html, data_cleared=True)
    assert (status["data-cleared"], status["data-run"]) == ("1", "1")
    assert element(html, data_waste=True)["data-waste"] == "AC"
    assert not elements(html, data_points=True)  # unscored play
    assert game.moves == [18] and game.cleared == 1 and game.version == 1
    assert kinds(game)[-1] == "take" and game.actions.last().pos == 18


def test_a_new_deal_redraws_the_controls_for_the_new_game(player):
    player.post("draw")  # moved in: a deal left untouched has no analysis to link
    left = player.game

    html = player.post("new", game=left).content

    game = player.game
    assert game != left
    controls = element(html, id="controls", hx_swap_oob=True)
    (undo,) = [form for form in elements(controls, "form") if actions(form) == {"undo"}]
    assert undo["action"] == undo["hx-post"] == f"/game/{game.pk}/undo"
    # No action is left on the old game; only its analysis is linked, now that it is over.
    assert not [form for form in elements(html, "form") if f"/game/{left.pk}/" in form["action"]]
    links = [link["href"] for link in elements(html, "a") if f"/game/{left.pk}/" in link["href"]]
    assert links == [f"/game/{left.pk}/analysis"]


def typed_deal(html) -> str:
    """What the deal form's field holds."""
    form = element(html, "form", data_deal_form=True)
    return element(form, "input", name="deal").attrs.get("value") or ""


def test_a_dealt_deal_number_leaves_the_field_empty_and_a_stale_one_keeps_it(player):
    game = player.game

    stale = player.post("deal", {"deal": "77", "version": game.version + 1}).content
    dealt = player.post("deal", {"deal": "77"}).content

    assert message(stale) == play.STALE and typed_deal(stale) == "77"
    assert player.game.deal.number == 77 and typed_deal(dealt) == ""


def test_a_plain_take_redirects_to_the_page(player):
    player.start(CHAIN_DECK)

    response = player.take(18, htmx=False)

    assert response.status_code == 302 and response["Location"] == "/"
    page = player.client.get("/").content
    assert "Cleared 1/28" in element(page, data_cleared=True).text
    assert element(page, data_waste=True)["data-waste"] == "AC"


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
    assert message(page.content) == reason
    after = player.game
    assert (after.version, after.moves, after.actions.count()) == (
        before.version,
        before.moves,
        actions,
    )


def test_draw_turns_the_next_stock_card_and_resets_the_run_visibly(player):
    player.start(CHAIN_DECK)
    player.take(18)

    html = player.post("draw").content

    status = element(html, data_cleared=True)
    assert element(html, "button", data_stock=True)["data-stock"] == "22"
    assert status["data-run"] == "0" and "Run 0 reset" in status.text
    assert "Run reset from 1 to 0" in element(html, id="notice").text
    assert player.game.moves == [18, "draw"] and kinds(player.game)[-1] == "draw"


@pytest.mark.parametrize("htmx", [True, False])
def test_refusals_of_draw_and_undo(player, htmx):
    player.start(DEAD_END_DECK)
    response = player.post("undo", htmx=htmx)
    page = response if htmx else player.client.get("/")
    assert message(page.content) == NOTHING_TO_UNDO

    for _ in range(23):
        player.post("draw")
    response = player.post("draw", htmx=htmx)
    page = response if htmx else player.client.get("/")
    assert message(page.content) == STOCK_EMPTY
    assert player.game.moves == ["draw"] * 23


def test_undo_covers_an_uncovered_card_again_as_face_down(player):
    player.start(CHAIN_DECK)
    player.take(18)
    uncovered = player.take(19).content
    assert card(uncovered, 9)["data-card"] == "JC"

    html = player.post("undo").content

    again = card(html, 9)
    assert (
        not again.has("data-card")
        and again["aria-label"] == "face-down card, left peak, row 3, 1 of 3"
    )
    assert not elements(html, data_card="JC") and "jack of clubs" not in html.decode()
    game = player.game
    assert game.moves == [18] and game.undo_count == 1 and 9 in game.seen
    assert kinds(game)[-1] == "undo"


def test_the_stock_greys_out_with_a_note_when_empty(player):
    player.start(CHAIN_DECK)
    for _ in range(23):
        html = player.post("draw").content

    stock = element(html, "button", data_stock=True)
    assert stock["data-stock"] == "0" and "empty" in stock.classes
    assert stock["aria-label"] == "stock, 0 cards"
    note = "Nothing left to turn: 28 cards still standing."
    assert note in element(html, id="pile").text


def test_a_table_won_with_the_stock_spent_has_no_note_of_cards_standing(player):
    # The last stock card a king, as the waste card is: the chain still runs from it.
    player.start(deck_with({**{pos: card_code(CHAIN_DECK[pos]) for pos in range(29)}, 51: "KH"}))
    for _ in range(23):
        player.post("draw")
    for pos in CHAIN_ORDER:
        html = player.take(pos).content

    assert player.game.status == Game.Status.WON
    assert element(html, "button", data_stock=True)["data-stock"] == "0"
    assert not elements(element(html, id="pile"), "p", **{"class": "note"})


def shown_panel(html):
    """The result panel, which must be showing."""
    panel = element(html, id="panel")
    assert not panel.has("hidden")
    return panel


def test_winning_shows_the_result_panel_and_stops_the_clock(player):
    player.start(CHAIN_DECK)
    for pos in CHAIN_ORDER:
        html = player.take(pos).content

    game = player.game
    assert game.status == Game.Status.WON and game.finished_at and game.running_since is None
    assert kinds(game)[-2:] == ["take", "win"]
    assert "Cleared 28/28" in element(html, data_cleared=True).text
    panel = shown_panel(html)
    assert "Deal cleared!" in panel.text
    result = dict(
        zip(
            (term.text for term in elements(panel, "dt")),
            (value.text for value in elements(panel, "dd")),
            strict=True,
        )
    )
    assert result["Longest run"] == "28" and result["Moves"] == "28"
    assert element(panel, data_copy=True)["data-copy"] == format_deck(CHAIN_DECK)
    assert element(panel, "input", readonly=True)["value"] == format_deck(CHAIN_DECK)
    assert {"new", "replay"} <= actions(panel)
    assert "See the board" in panel.text


@pytest.mark.parametrize("shown_at", ["/", "a refusal"])
def test_see_the_board_leads_to_the_board_from_any_page_that_shows_the_result(player, shown_at):
    """Without the script it is a link: from a plain post's refusal, answered at the post's
    address, a link relative to it asked that address, which only takes posts."""
    player.start(CHAIN_DECK)
    for pos in CHAIN_ORDER:
        player.take(pos)
    if shown_at == "a refusal":
        shown = player.post("deal", {"deal": "5x"}, htmx=False)
        address = f"/game/{player.game.pk}/deal"
    else:
        shown, address = player.client.get(shown_at), shown_at

    links = elements(shown_panel(shown.content), "a", data_look=True)
    [href] = [link["href"] for link in links if link.text == "See the board"]
    board = player.client.get(urljoin(address, href))

    assert board.status_code == 200
    assert "collapsed" in element(board.content, id="panel")["class"].split()


def test_the_result_panel_is_named_by_its_heading_and_names_nothing_while_hidden(player):
    player.start(CHAIN_DECK)
    assert not element(player.page.content, id="panel").has("aria-labelledby")
    for pos in CHAIN_ORDER:
        html = player.take(pos).content

    name = shown_panel(html)["aria-labelledby"]
    assert element(html, id=name).text == "Deal cleared!"


def test_after_a_win_moves_and_undo_are_refused(player):
    player.start(CHAIN_DECK)
    for pos in CHAIN_ORDER:
        player.take(pos)

    html = player.post("undo").content

    assert message(html) == play.DEAL_WON
    assert player.game.moves == CHAIN_ORDER


def test_each_move_is_said_with_what_it_shows(player):
    """What a screen reader hears: the move, the cards it turned over, the waste after an undo."""
    player.start(CHAIN_DECK)
    player.take(18)

    took = text(element(player.take(19).content, id="notice"))
    undone = text(element(player.post("undo").content, id="notice"))

    turned = card_label(CHAIN_DECK[9])  # held down by the ace and the 2 alone
    assert took.startswith(f"Took the 2 of clubs. Turned over the {turned}.")
    assert undone == "Move undone. The waste shows the ace of clubs."


def test_a_dead_end_offers_undo_replay_and_new_deal_and_undo_leaves_it(player):
    player.start(DEAD_END_DECK)
    for _ in range(23):
        html = player.post("draw").content

    game = player.game
    assert game.status == Game.Status.DEAD_END and game.running_since is None
    assert kinds(game)[-1] == "dead_end"
    panel = shown_panel(html)
    assert "No legal move" in panel.text
    assert {"undo", "replay", "new"} <= actions(panel)
    # What the deal came to, as a won one's panel says it.
    figures = text(element(panel, "dl"))
    assert "Moves 23" in figures and "Cards cleared 0/28" in figures and "Longest run 0" in figures
    # Said to a screen reader as well: the last draw's news ends with it.
    assert text(element(html, id="notice")).endswith("No legal move is left.")

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
