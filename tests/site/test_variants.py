"""The seeds' other games on the site (SPEC.md, "Rule variants"): chosen in the deal form, kept by
New deal and replay, and played by their own rules."""

import pytest

from game.engine.deck import format_deck
from game.engine.state import WILD
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER, STUCK_DECK
from tests.site.markup import element, elements, text
from tests.site.test_moves import kinds


def start(player, rules, deck=CHAIN_DECK):
    response = player.post("deal", {"deal": format_deck(deck), "rules": rules})
    assert response.status_code == 200, response.content
    return response


def test_the_rule_set_chosen_is_the_games_and_new_deal_and_replay_keep_it(player):
    start(player, "open+nowrap")
    assert player.game.rules == "open+nowrap"

    player.post("replay")
    assert player.game.rules == "open+nowrap"
    player.post("new")
    assert player.game.rules == "open+nowrap"


def test_open_peaks_show_every_card_from_the_deal(player):
    html = start(player, "open").content

    assert len(elements(html, "button", data_pos=True, data_card=True)) == 28
    # The 18 still covered say so, to the eye and to a screen reader; the base row does not.
    covered = [
        card for card in elements(html, "button", data_card=True) if "covered" in card.classes
    ]
    assert sorted(int(card["data-pos"]) for card in covered) == list(range(18))
    assert all(card["aria-label"].endswith(", covered") for card in covered)
    assert not element(html, "button", data_pos="18")["aria-label"].endswith("covered")


def test_the_rules_say_what_a_dimmed_card_under_open_peaks_is(player):
    rules = element(player.page.content, "section", id="rules")

    named = zip(elements(rules, "dt"), elements(rules, "dd"), strict=True)
    said = {text(name): text(words) for name, words in named}
    assert "covered is shown dimmed" in said["Open peaks"]


@pytest.mark.parametrize("rules", ["wild", "open+wild"])
def test_the_wild_card_is_laid_once_and_comes_back_with_undo(player, rules):
    start(player, rules)

    assert player.post("wild").status_code == 200
    assert player.game.moves == [WILD] and kinds(player.game)[-1] == "wild"
    again = player.post("wild")
    assert elements(again.content, data_message=True)
    assert player.game.moves == [WILD]
    player.post("undo")
    assert player.game.moves == []


def test_the_wild_card_is_refused_where_the_rules_have_none(player):
    start(player, "standard")

    response = player.post("wild")

    assert element(response.content, data_message=True).text.strip()
    assert player.game.moves == []


@pytest.mark.parametrize("rules", ["vegas", "nowrap+open", "open+open", "", "Standard"])
def test_an_unknown_rule_set_is_refused_and_changes_nothing(player, rules):
    before = player.game

    response = player.post("deal", {"deal": "7", "rules": rules})

    assert response.status_code == 400
    assert element(response.content, data_message=True).text.strip()
    assert player.game == before


def test_the_table_names_its_rules_and_scoring(player):
    html = player.post("deal", {"deal": "7", "rules": "open+nowrap", "scoring": "classic"}).content

    table = element(html, data_table=True)
    assert (table["data-rules"], table["data-scoring"]) == ("open+nowrap", "classic")
    assert "Open peaks + No wrap" in text(element(html, id="status"))


def test_a_held_wild_card_is_a_button_beside_the_waste_until_it_is_laid(player):
    html = start(player, "wild").content
    (wild,) = elements(element(html, id="pile"), "button", data_action="wild")

    laid = player.post("wild").content

    assert not elements(laid, data_action="wild")
    assert element(laid, data_waste=True)["data-waste"] == "wild"
    assert "wild card" in wild.text.lower()


def test_a_wild_card_still_held_when_the_deal_is_won_is_no_longer_offered(player):
    start(player, "wild")
    for pos in CHAIN_ORDER:
        won = player.take(pos).content

    assert player.game.status == player.game.Status.WON
    assert not elements(won, data_action="wild")
    assert not elements(player.client.get("/?board").content, data_action="wild")


def test_a_hint_to_lay_the_wild_card_marks_its_button(player):
    start(player, "wild", STUCK_DECK)
    for _ in range(23):
        player.post("draw")

    html = player.post("hint").content

    assert "Lay the wild card" in element(html, id="hint-slot").text
    assert elements(html, data_hint=True) == elements(html, "button", data_action="wild")


def test_a_head_start_waste_is_an_empty_place_for_the_first_card(player):
    html = start(player, "headstart").content

    waste = element(html, data_waste=True)
    assert waste["data-waste"] == "" and "empty" in waste.classes
    assert int(element(html, data_stock=True)["data-stock"]) == 24
    taken = player.take(18).content  # any uncovered card may start the waste
    assert (
        element(taken, data_waste=True)["data-waste"] == element(html, data_pos="18")["data-card"]
    )


def test_the_deal_form_offers_every_rule_set_and_scoring_with_the_tables_chosen(player):
    html = start(player, "headstart+wild").content
    form = element(html, "form", data_deal_form=True)

    rules = {option["value"]: option for option in elements(form, "option")}
    assert {"standard", "open", "nowrap", "headstart", "wild", "open+nowrap+headstart+wild"} <= set(
        rules
    )
    assert rules["headstart+wild"].has("selected")
    assert {"none", "pysol", "classic"} <= set(rules)
    text_inputs = [field for field in elements(form, "input") if not field.has("type")]
    assert [field["name"] for field in text_inputs] == ["deal"]
