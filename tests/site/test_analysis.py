"""The analysis page (SPEC.md, "After the deal: analysis"): the whole deal once the game is over,
the last move after which it could still be won, and a winning line from there."""

import json
from importlib import import_module

import pytest
from django.apps import apps
from django.core.cache import cache
from django.test import Client

from accounts import records
from game import play
from game.display import face, rules_label
from game.engine.analysis import analyse
from game.engine.cards import card_code, card_from_code, card_label
from game.engine.deck import format_deck
from game.engine.rules import Rules
from game.engine.solver import solve_table
from game.engine.state import Table
from game.models import Analysis, Game, Verdict
from game.owners import Owner
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER
from tests.engine.test_analysis import careless_line, lost_lines
from tests.site.conftest import Player
from tests.site.markup import element, elements, message, text
from tests.site.test_moves import kinds

DECK, LINE = next(lost_lines(1))


def play_line(player, deck, line):
    player.start(deck)
    for move in line:
        response = player.post("draw") if move == "draw" else player.take(move)
        assert response.status_code == 200
    return player.game


@pytest.fixture
def lost(player):
    """A game played to a dead end from a deal that could have been won."""
    game = play_line(player, DECK, LINE)
    assert game.status == game.Status.DEAD_END
    return game


def test_a_lost_game_shows_the_whole_deal_where_it_was_lost_and_a_line_from_there(player, lost):
    response = player.client.get(f"/game/{lost.pk}/analysis")

    assert response.status_code == 200
    page = element(response.content, data_deck=True)
    expected = analyse(DECK, LINE)
    assert page["data-deck"] == lost.deal.deck
    assert page["data-winnable"] == "true"
    assert int(page["data-last-winnable"]) == expected.last_winnable
    line = json.loads(page["data-line"])
    assert Table.replay(DECK, [*LINE[: expected.last_winnable], *line]).won
    # Every card of the deal is shown, face down ones and the stock included.
    shown = {card["data-card"] for card in elements(response.content, data_card=True)}
    assert len(shown) == 28


def test_the_analysis_is_kept_by_no_cache(player, lost):
    response = player.client.get(f"/game/{lost.pk}/analysis")

    assert {"no-store", "private"} <= set(response["Cache-Control"].replace(",", " ").split())


def test_a_deal_is_analysed_once(player, lost, monkeypatch):
    player.client.get(f"/game/{lost.pk}/analysis")
    monkeypatch.setattr(play, "analyse", lambda *args, **kwargs: pytest.fail("analysed again"))

    assert player.client.get(f"/game/{lost.pk}/analysis").status_code == 200
    assert Analysis.objects.filter(game=lost).count() == 1


def test_an_analysis_cut_short_says_so_and_is_worked_out_again_later(player, lost, monkeypatch):
    # The solver's clock bound stands for a busy server: a bound on its work that decides the deal
    # from its start (that solve's own size) and not where the line lost it.
    bound = solve_table(Table(DECK)).nodes

    def analyse_in_time(deck, moves, rules, **_):
        return analyse(deck, moves, rules, max_nodes=bound)

    monkeypatch.setattr(play, "analyse", analyse_in_time)
    url = f"/game/{lost.pk}/analysis"

    page = player.client.get(url).content

    shown = element(page, data_deck=True)
    assert shown["data-winnable"] == "true" and "data-last-winnable" not in shown.attrs
    assert "ran out of time" in text(element(page, "section", **{"class": "verdict"}))
    assert not elements(page, "button", data_action="again")
    assert not Analysis.objects.filter(game=lost).exists(), "not kept for good"
    assert text(element(page, "h2", id="line-title")) == "A winning line", "from the deal's start"
    monkeypatch.setattr(play, "analyse", lambda *args, **kwargs: pytest.fail("analysed again"))
    assert "ran out of time" in player.client.get(url).text, "kept for a while"

    cache.clear()  # time has passed: the next look tries again, with the site's own bound
    monkeypatch.undo()
    again = element(player.client.get(url).content, data_deck=True)

    assert int(again["data-last-winnable"]) == analyse(DECK, LINE).last_winnable
    assert Analysis.objects.filter(game=lost).exists()


@pytest.mark.parametrize(
    ("number", "verdict", "start"),
    [
        (134, "This deal could be won, but your first move (take the", "the start"),
        (78, "After your first move a win was still possible; move 2 (take the", "move 1"),
    ],
    ids=["lost by the first move", "by the second"],
)
def test_a_game_lost_by_its_first_moves_is_told_in_plain_words(player, number, verdict, start):
    deck, line = careless_line(number, seed=number)
    game = play_line(player, deck, line)

    page = player.client.get(f"/game/{game.pk}/analysis").content

    assert verdict in text(element(page, "section", **{"class": "verdict"}))
    assert text(element(page, "h2", id="line-title")) == f"A winning line from {start}"
    assert text(element(page, "button", data_action="again")).startswith(f"Try again from {start}")


@pytest.mark.parametrize("rules", ["standard", "nowrap"])
def test_an_analysis_records_the_deals_verdict_under_its_rules(player, rules):
    game = play_under(player, rules, ["draw"])

    player.client.get(f"/game/{game.pk}/analysis")

    verdict = Verdict.objects.get(deal=game.deal, rules=rules)
    analysis = Analysis.objects.get(game=game)
    assert verdict.result == ("winnable" if analysis.winnable else "unwinnable")
    assert verdict.nodes > 0


def test_try_again_sent_twice_deals_once(player, lost):
    page = player.client.get(f"/game/{lost.pk}/analysis").content
    form = element(page, "form", action=f"/game/{lost.pk}/again")
    sent = {field["name"]: field["value"] for field in elements(form, "input", type="hidden")}
    before = Game.objects.count()

    first = player.client.post(f"/game/{lost.pk}/again", sent)
    tried = player.game
    second = player.client.post(f"/game/{lost.pk}/again", sent)

    assert first.status_code == second.status_code == 302
    assert Game.objects.count() == before + 1 and player.game == tried
    assert tried.status == Game.Status.PLAYING and tried.moves == LINE[: int(sent["moves"])]
    assert message(player.client.get("/").content) == play.MOVED_ON


def test_the_winning_line_can_be_stepped_through_forwards_and_back(player, lost):
    analysis_url = f"/game/{lost.pk}/analysis"
    player.client.get(analysis_url)
    steps = len(Analysis.objects.get(game=lost).line)

    start = player.client.get(f"{analysis_url}?step=0").content
    one = player.client.get(f"{analysis_url}?step=1").content
    end = player.client.get(f"{analysis_url}?step={steps}").content

    assert element(start, data_step=True)["data-step"] == "0"
    assert element(one, data_step=True)["data-step"] == "1"
    taken = [elements(page, "span", data_card=True) for page in (start, one, end)]
    counts = [sum("taken" in card["class"].split() for card in cards) for cards in taken]
    assert counts[0] <= counts[1] <= counts[2] == 28
    assert "the peaks are cleared" in text(end)


def test_a_screen_reader_reads_the_whole_deal_card_by_card(player, lost):
    page = player.client.get(f"/game/{lost.pk}/analysis?step=1").content

    cards = elements(element(page, role="list"), role="listitem")
    assert len(cards) == 28
    named = [card["aria-label"].split(",")[0] for card in cards]
    assert named == [card_label(card_from_code(card["data-card"])) for card in cards]
    said_next = [card["aria-label"].endswith(", played next") for card in cards]
    assert said_next == [card.has("data-next") for card in cards]
    # A page of the line comes back with focus on Forward, to step on, which reads the step.
    forward = element(page, "a", rel="next")
    assert forward.has("autofocus")
    assert text(element(page, id=forward["aria-describedby"])).startswith("Step 1 of ")


def test_the_cards_still_covered_are_dimmed_as_under_open_peaks_and_said_so(player, lost):
    analysis = f"/game/{lost.pk}/analysis"
    player.client.get(analysis)
    found = Analysis.objects.get(game=lost)

    page = player.client.get(f"{analysis}?step=1").content

    table = Table.replay(DECK, [*LINE[: found.last_winnable], *found.line[:1]])
    cards = elements(element(page, role="list"), role="listitem")
    covered = [pos for pos, card in enumerate(cards) if "covered" in card.classes]
    standing = [pos for pos in range(28) if not table.is_removed(pos)]
    assert covered == [pos for pos in standing if not table.is_uncovered(pos)]
    assert covered and len(covered) < len(standing)  # the free cards are not dimmed
    said = [card["aria-label"].endswith(", covered") for card in cards]
    assert said == [pos in covered for pos in range(28)]


def test_the_lines_last_step_comes_back_with_focus_on_back(player, lost):
    """Forward is gone there: focus would fall to the page's start."""
    analysis_url = f"/game/{lost.pk}/analysis"
    player.client.get(analysis_url)
    steps = len(Analysis.objects.get(game=lost).line)

    end = player.client.get(f"{analysis_url}?step={steps}").content

    back = element(end, "a", rel="prev")
    assert back.has("autofocus") and not elements(end, rel="next")
    assert "the peaks are cleared" in text(element(end, id=back["aria-describedby"]))
    assert [link for link in elements(end, "a") if link.has("autofocus")] == [back]


def test_each_step_marks_the_card_the_line_plays_next(player, lost):
    analysis_url = f"/game/{lost.pk}/analysis"
    player.client.get(analysis_url)
    line = Analysis.objects.get(game=lost).line
    assert "draw" in line and any(move != "draw" for move in line)

    k = Analysis.objects.get(game=lost).last_winnable
    for step, move in [*enumerate(line), (len(line), None)]:
        page = player.client.get(f"{analysis_url}?step={step}").content
        marked = [mark.text for mark in elements(page, data_next=True)]
        table = Table.replay(DECK, [*LINE[:k], *line[:step]])
        if move is None:
            assert marked == []
        elif move == "draw":  # the stock's next card, named in the list of the stock
            card = face(table.deck[table.stock_next])
            assert marked == [card["rank"] + card["suit"]]
        else:
            cards = elements(page, "span", data_next=True, data_card=card_code(DECK[move]))
            assert len(marked) == len(cards) == 1


def test_try_again_from_the_last_winnable_move(player, lost):
    player.client.get(f"/game/{lost.pk}/analysis")
    k = Analysis.objects.get(game=lost).last_winnable

    response = player.post("again", {"moves": k}, game=lost, htmx=False)

    assert response.status_code == 302
    table = player.game
    assert table.pk != lost.pk and table.deal == lost.deal
    assert table.moves == LINE[:k] and table.status == table.Status.PLAYING
    assert kinds(table)[0] == "replay" and len(kinds(table)) == 1 + k
    assert Table.replay(DECK, table.moves).moves == table.moves


@pytest.mark.parametrize("touched", [True, False])
def test_try_again_sets_aside_a_deal_in_play_and_leaves_one_untouched(player, lost, touched):
    player.client.get(f"/game/{lost.pk}/analysis")
    player.start(CHAIN_DECK)
    if touched:
        player.post("draw")
    table = player.game

    player.post("again", {"moves": 1}, game=lost, htmx=False)

    assert player.game.deal == lost.deal
    table.refresh_from_db()
    assert table.running_since is None
    take_up = elements(player.client.get("/").content, "form", action=f"/game/{table.pk}/take-up")
    if touched:  # to be taken up again, and counted as nothing meanwhile
        assert table.status == Game.Status.PLAYING and table.moves == ["draw"]
        assert len(take_up) == 1
    else:
        assert table.status == Game.Status.SKIPPED and not take_up


def test_a_won_game_says_it_was_won(player):
    game = play_line(player, CHAIN_DECK, CHAIN_ORDER)

    response = player.client.get(f"/game/{game.pk}/analysis")

    page = element(response.content, data_deck=True)
    assert page["data-winnable"] == "true" and not page.has("data-last-winnable")
    said = text(element(response.content, "section", **{"class": "verdict"}))
    assert said == "You won this deal."  # said once, plainly


def test_nothing_is_shown_while_the_game_is_being_played(player):
    game = player.game
    player.post("draw")

    response = player.client.get(f"/game/{game.pk}/analysis")

    assert response.status_code == 409
    assert game.deal.deck not in response.content.decode()
    assert not elements(response.content, data_deck=True)
    assert player.post("again", {"moves": 0}, game=game).status_code == 400


@pytest.mark.parametrize(("played", "said"), [(["draw"], "1 move in play"), ([], "0 moves")])
def test_try_again_from_past_the_games_end_says_how_many_moves_it_has(player, played, said):
    game = play_line(player, CHAIN_DECK, played)
    player.post("new", game=game)

    response = player.post("again", {"moves": 999}, game=game)

    assert response.status_code == 400 and said in message(response.content)


def test_someone_elses_analysis_is_a_404(player, lost):
    stranger = Client()
    stranger.get("/")

    assert stranger.get(f"/game/{lost.pk}/analysis").status_code == 404


@pytest.mark.parametrize("step", ["-1", "x", "1.5"])
def test_a_bad_step_is_a_400(player, lost, step):
    assert player.client.get(f"/game/{lost.pk}/analysis?step={step}").status_code == 400


def test_the_dead_end_and_the_next_table_lead_to_the_analysis(player, lost):
    html = player.client.get("/").content
    (link,) = elements(element(html, id="panel"), "a", data_analysis=True)
    assert link["href"] == f"/game/{lost.pk}/analysis"

    after = player.post("new").content

    assert [a["href"] for a in elements(element(after, id="notice"), "a")] == [link["href"]]


def test_a_deal_left_untouched_has_no_analysis_to_look_back_at(player):
    player.post("new")  # the first table, never moved in

    after = player.post("new").content

    assert not elements(element(after, id="notice"), "a", data_analysis=True)


def play_under(player, rules, moves, scoring="none"):
    """CHAIN_DECK under other rules and scoring, `moves` played, then left for another deal."""
    code = format_deck(CHAIN_DECK)
    player.post("deal", {"deal": code, "rules": rules, "scoring": scoring})
    for move in moves:
        response = player.post(move) if move in ("draw", "wild") else player.take(move)
        assert response.status_code == 200
    game = player.game
    assert game.rules == rules and game.moves == moves
    player.post("new")
    return game


# A first move each rule set allows where the standard game does not, or a deal the standard
# game wins by a line these rules forbid (the chain wraps from K to A).
ONLY_UNDER = {"headstart": [27], "wild": ["wild"], "nowrap": ["draw"]}


@pytest.mark.parametrize("rules", ONLY_UNDER)
def test_a_game_is_analysed_under_its_own_rules(player, rules):
    game = play_under(player, rules, ONLY_UNDER[rules])

    response = player.client.get(f"/game/{game.pk}/analysis")

    assert response.status_code == 200
    page = element(response.content, data_deck=True)
    expected = analyse(CHAIN_DECK, game.moves, Rules.from_name(rules))
    assert page["data-winnable"] == "true" and expected.winnable
    k = int(page["data-last-winnable"])
    assert k == expected.last_winnable
    line = json.loads(page["data-line"])
    assert Table.replay(CHAIN_DECK, [*game.moves[:k], *line], Rules.from_name(rules)).won
    assert rules_label(rules) in text(element(response.content, "h1"))


def test_a_scored_hand_tried_again_part_way_is_unscored_and_banks_nothing(player):
    game = play_under(player, "wild", [18, 19, 20, 21], scoring="classic")
    page = player.client.get(f"/game/{game.pk}/analysis").content
    k = int(element(page, data_deck=True)["data-last-winnable"])
    assert k == 4 and "unscored" in text(element(page, "button", data_action="again"))
    bank = play.bank_of(player.game)

    player.post("again", {"moves": k}, game=game)

    table = player.game
    assert table.moves == game.moves and table.rules == "wild"
    assert table.scoring == Game.Scoring.NONE
    assert play.bank_of(Game.objects.filter(scoring="classic").latest("pk")) == bank


def test_a_game_tried_again_from_its_start_keeps_its_rules_as_unscored_practice(player):
    game = play_under(player, "nowrap", ["draw"], scoring="pysol")
    player.post("deal", {"deal": "", "rules": "standard", "scoring": "none"})
    page = player.client.get(f"/game/{game.pk}/analysis").content
    again = element(page, "button", data_action="again")
    said = text(element(page, id=again["aria-describedby"]))
    assert "unscored" in text(again) and said.startswith("A try is practice")

    player.post("again", {"moves": 0}, game=game)

    table = player.game
    assert (table.rules, table.scoring, table.moves) == ("nowrap", "none", [])
    assert table.practice


def test_practice_replayed_is_practice_still(player, lost):
    player.client.get(f"/game/{lost.pk}/analysis")
    player.post("again", {"moves": 0}, game=lost)
    practice = player.game

    player.post("replay", game=practice)  # the table's Replay deal
    replayed = player.game
    owner = Owner(session_key=player.client.session.session_key)
    again = play.replay_deal(owner, practice.pk).row  # My games' Replay

    assert replayed.pk != practice.pk and replayed.deal == practice.deal and replayed.practice
    assert again.pk != replayed.pk and again.practice


@pytest.mark.parametrize("how", ["the deal form", "Replay deal", "My games' Replay"])
def test_a_deal_whose_analysis_was_seen_is_practice_however_it_is_dealt_again(player, lost, how):
    """Its player has seen every card: a score or a win bought by its line would count."""
    player.client.get(f"/game/{lost.pk}/analysis")

    if how == "the deal form":
        player.post("deal", {"deal": format_deck(DECK), "rules": "open", "scoring": "pysol"})
    elif how == "Replay deal":
        player.post("replay", game=lost)  # from the dead end's panel
    else:
        player.post("new", game=lost)
        play.replay_deal(Owner(session_key=player.client.session.session_key), lost.pk)

    again = player.game
    assert again.pk != lost.pk and again.deal == lost.deal
    assert again.practice and again.scoring == "none"
    assert "practice" in text(element(player.client.get("/").content, "h1"))


@pytest.mark.parametrize("plain", [False, True], ids=["htmx", "plain post"])
def test_a_score_asked_for_a_deal_seen_whole_is_not_given_and_the_table_says_why(
    player, lost, plain
):
    player.client.get(f"/game/{lost.pk}/analysis")

    response = player.post("deal", {"deal": format_deck(DECK), "scoring": "pysol"}, htmx=not plain)

    page = player.client.get("/").content if plain else response.content
    assert player.game.practice and player.game.scoring == "none"
    assert "practice, unscored" in text(element(page, data_note=True))


def test_a_deal_seen_whole_dealt_unscored_as_asked_needs_no_word(player, lost):
    player.post("deal", {"deal": "", "scoring": "pysol"})  # a scored hand, played for real
    player.post("draw")
    player.client.get(f"/game/{lost.pk}/analysis")
    player.post("deal", {"deal": format_deck(DECK), "scoring": "none"})
    practice = player.game

    # Unscored as the practice hand it replays: New deal would hand on the scoring last played
    # for real, but Replay asks for none.
    response = player.post("replay", game=practice)

    assert player.game.practice and player.game.pk != practice.pk
    assert not elements(response.content, data_note=True)


def test_seeing_a_deals_analysis_makes_its_game_still_in_play_practice(player):
    code = format_deck(CHAIN_DECK)
    player.post("deal", {"deal": code})
    player.take(CHAIN_ORDER[0])
    left = player.game
    player.post("deal", {"deal": code})  # the same deal again, first
    in_play = player.game
    assert not in_play.practice

    player.client.get(f"/game/{left.pk}/analysis")
    for pos in CHAIN_ORDER:
        player.take(pos)

    won = Game.objects.get(pk=in_play.pk)
    assert won.status == Game.Status.WON and won.practice


def test_seeing_a_deals_analysis_ends_its_scored_hand_in_play_keeping_its_points(player):
    code = format_deck(CHAIN_DECK)
    player.post("deal", {"deal": code, "scoring": "classic"})
    player.take(CHAIN_ORDER[0])  # +1
    left = player.game
    player.post("deal", {"deal": code, "scoring": "classic"})
    player.post("draw")
    player.post("draw")  # −10
    in_play = player.game
    assert play.bank_of(in_play) == -9

    player.client.get(f"/game/{left.pk}/analysis")

    # Its −10 stays in the bank: looking cannot wipe out a hand going badly. It is in no record,
    # and, every card known, plays no more.
    ended = Game.objects.get(pk=in_play.pk)
    assert ended.practice and ended.status == Game.Status.LEFT and ended.revealed
    assert (ended.scoring, ended.score) == ("classic", -10) and play.bank_of(ended) == -9
    player.take(CHAIN_ORDER[0])
    assert Game.objects.get(pk=in_play.pk).moves == ["draw", "draw"]


def test_after_practice_a_new_deal_is_scored_as_the_player_last_played_for_real(player, lost):
    player.post("deal", {"deal": "", "scoring": "classic"})
    player.post("draw")
    player.client.get(f"/game/{lost.pk}/analysis")
    player.post("deal", {"deal": format_deck(DECK)})  # practice, so unscored
    assert player.game.practice and player.game.scoring == "none"
    # The deal form offers the scoring New deal deals with, not the practice hand's.
    form = element(player.client.get("/").content, data_deal_form=True)
    offered = element(element(form, "select", name="scoring"), "option", selected=True)
    assert offered["value"] == "classic"

    player.post("new")

    assert not player.game.practice and player.game.scoring == "classic"


def test_a_deal_whose_analysis_was_not_seen_is_played_for_real(player, lost):
    player.post("deal", {"deal": format_deck(DECK), "scoring": "pysol"})

    again = player.game
    assert again.deal == lost.deal and not again.practice and again.scoring == "pysol"
    assert "practice" not in text(element(player.client.get("/").content, "h1"))


def test_a_try_again_is_practice_in_no_record_and_counts_only_its_players_moves(
    django_user_model,
):
    """Its player has seen every card: a win bought by the analysis's line would count."""
    player = Player(Client())
    lost = play_line(player, DECK, LINE)
    found = analyse(DECK, LINE)
    player.client.get(f"/game/{lost.pk}/analysis")
    player.post("again", {"moves": found.last_winnable}, game=lost)
    untouched = player.game
    player.post("new", game=untouched)  # left untouched: skipped, though it holds moves
    player.post("again", {"moves": found.last_winnable}, game=lost)
    for move in found.line:
        player.post("draw") if move == "draw" else player.take(move)
    practice = player.game

    untouched.refresh_from_db()
    assert untouched.status == Game.Status.SKIPPED and untouched.move_count == 0
    assert practice.status == Game.Status.WON and practice.practice
    assert practice.move_count == len(found.line)
    alice = django_user_model.objects.create_user("alice", password="a long pass phrase")
    player.client.post("/accounts/login/", {"username": "alice", "password": "a long pass phrase"})
    figures = records.statistics(alice).overall
    assert (figures.played, figures.won, figures.best_time) == (1, 0, None)
    history = player.client.get("/accounts/games/").content
    results = [text(cell) for cell in elements(history, "td", data_label="Result")]
    assert results == ["Won (practice)", "Dead end"]


def test_the_migration_forgets_the_analyses_worked_out_under_the_wrong_rules(player):
    migration = import_module("game.migrations.0019_analyses_under_their_games_rules")
    standard = play_under(player, "standard", [18])
    wild = play_under(player, "wild", ["wild"])
    for game in (standard, wild):
        Analysis.objects.create(game=game, winnable=True, last_winnable=0)

    migration.forget_analyses_of_other_rule_sets(apps, None)

    assert list(Analysis.objects.values_list("game", flat=True)) == [standard.pk]


def test_the_migration_forgets_the_analyses_a_solves_time_cut_short(player):
    migration = import_module("game.migrations.0025_forget_undecided_analyses")
    decided, undecided, where_unknown, won = (
        play_under(player, "standard", [18]) for _ in range(4)
    )
    Game.objects.filter(pk=won.pk).update(status=Game.Status.WON)
    Analysis.objects.create(game=decided, winnable=True, last_winnable=0)
    Analysis.objects.create(game=undecided, winnable=None)
    Analysis.objects.create(game=where_unknown, winnable=True, last_winnable=None)
    Analysis.objects.create(game=won, winnable=True, last_winnable=None)

    migration.forget_undecided_analyses(apps, None)

    assert set(Analysis.objects.values_list("game", flat=True)) == {decided.pk, won.pk}


def test_a_game_whose_analysis_its_player_has_seen_takes_no_more_moves(player, lost):
    before = player.client.get("/").content
    assert elements(element(before, id="panel"), data_action="undo")

    player.client.get(f"/game/{lost.pk}/analysis")
    response = player.post("undo")

    assert message(response.content) == play.REVEALED
    game = player.game
    assert game.moves == LINE and game.status == Game.Status.DEAD_END
    # The dead end's panel no longer offers the undo the game would refuse.
    assert not elements(element(player.client.get("/").content, id="panel"), data_action="undo")


def test_an_analysis_is_of_the_game_as_it_ended(player, lost):
    """Staff may look at a game at a dead end that its player has not analysed: its player may
    still undo and play on, and the analysis is then worked out afresh for the new ending."""
    found = play.analysis_of_game(lost)
    for _ in LINE[found.last_winnable :]:
        assert player.post("undo").status_code == 200
    assert not Analysis.objects.filter(game=lost).exists()
    for move in found.line:
        player.post("draw") if move == "draw" else player.take(move)

    assert player.game.status == Game.Status.WON
    page = element(player.client.get(f"/game/{lost.pk}/analysis").content, data_deck=True)
    assert not page.has("data-last-winnable")


def test_the_migration_counts_the_analysed_finished_games_as_seen(player, lost):
    migration = import_module("game.migrations.0020_revealed")
    play.analysis_of_game(lost)
    other = play_under(player, "standard", [18])
    playing = player.game  # played on from a dead end, its analysis kept before
    Analysis.objects.create(game=playing, winnable=True, last_winnable=0)

    migration.mark_analysed_games_revealed(apps, None)

    assert list(Game.objects.filter(revealed=True).values_list("pk", flat=True)) == [lost.pk]
    assert not Game.objects.get(pk=other.pk).revealed
    assert list(Analysis.objects.values_list("game", flat=True)) == [lost.pk]


def test_an_analysis_asked_for_while_another_tab_undoes_leaves_the_game_playable(
    player, lost, monkeypatch
):
    """The undo lands while the analysis is read: the game is played on, not frozen."""
    load = play._load

    def undone_meanwhile(owner, game_id):
        row = load(owner, game_id)
        if row.status == Game.Status.DEAD_END:
            monkeypatch.setattr(play, "_load", load)
            assert player.post("undo").status_code == 200
        return row

    monkeypatch.setattr(play, "_load", undone_meanwhile)

    assert player.client.get(f"/game/{lost.pk}/analysis").status_code == 409
    game = player.game
    assert game.status == Game.Status.PLAYING and not game.revealed
    last = LINE[-1]
    again = player.post("draw") if last == "draw" else player.take(last)
    assert not elements(again.content, data_message=True)
    assert player.game.moves == LINE and not Analysis.objects.filter(game=lost).exists()
