"""A player's statistics, computed from a built history, and the My games page that shows them."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import records
from game import play
from game.engine.deck import format_deck
from game.models import Deal, Game, Verdict
from tests.accounts.conftest import account_game, act, make_user
from tests.engine.support import CHAIN_DECK
from tests.site.markup import element, elements, text

Status = Game.Status
W, D, L = Status.WON, Status.DEAD_END, Status.LEFT
START = datetime(2026, 5, 1, 9, tzinfo=UTC)


def game_of(user, status, *, finished: int | None, moves=30, ms=300_000, run=5, deal=1, **fields):
    """A game finished `finished` hours after START (None: never finished)."""
    at = None if finished is None else START + timedelta(hours=finished)
    return Game.objects.create(
        **fields,
        owner=user,
        deal=Deal.for_number(deal),
        status=status,
        move_count=moves,
        active_ms=ms,
        longest_run=run,
        cleared=28 if status == W else 12,
        started_at=START + timedelta(hours=finished or 0, minutes=-5),
        finished_at=at,
    )


@pytest.fixture
def history(alice):
    """Results in the order they finished: W W D W W W L W W, created out of that order, plus
    games that do not count."""
    results = [(W, 120_000), (W, 95_000), (D, 40_000), (W, 300_000), (W, 88_000), (W, 99_000)]
    results += [(L, 10_000), (W, 150_000), (W, 91_000)]
    for hour, (status, ms) in reversed(list(enumerate(results, start=1))):
        game_of(alice, status, finished=hour, ms=ms, run=hour)
    game_of(alice, L, finished=5, moves=0, run=0)  # left untouched: not part of the record
    game_of(alice, Status.PLAYING, finished=None, run=17)  # in progress: not played yet
    game_of(make_user("bob"), W, finished=3, ms=1_000, run=28)  # someone else's
    return alice


def test_statistics_of_a_built_history(history):
    figures = records.statistics(history).overall

    assert (figures.played, figures.won) == (9, 7)
    assert figures.win_rate == pytest.approx(7 / 9)
    assert figures.best_time_ms == 88_000 and figures.best_time == "1:28"
    assert figures.longest_run == 17, "the longest run of any game, in progress too"
    assert (figures.current_streak, figures.best_streak) == (2, 3)


def test_a_player_with_no_games(alice):
    figures = records.statistics(alice).overall

    assert (figures.played, figures.won, figures.longest_run) == (0, 0, 0)
    assert figures.win_rate is None and figures.best_time is None
    assert (figures.current_streak, figures.best_streak) == (0, 0)


@pytest.mark.parametrize(
    ("wins", "streaks"),
    [
        ([], (0, 0)),
        ([True, True, False], (0, 2)),
        ([False, True], (1, 1)),
        ([True, False, True, True, True, False, True, True], (2, 3)),
    ],
)
def test_streaks(wins, streaks):
    assert records.streaks(wins) == streaks


def test_my_games_shows_the_statistics_and_every_counted_game(history):
    client = Client()
    client.force_login(history)

    page = client.get("/accounts/games/").content.decode()

    assert "<dd data-played>9</dd>" in page and "<dd data-won>7</dd>" in page
    assert "<dd data-win-rate>78%</dd>" in page and "<dd data-best-time>1:28</dd>" in page
    assert "<dd data-streak>2</dd>" in page and "<dd data-best-streak>3</dd>" in page
    assert page.count("<tr data-game=") == 10
    assert page.count('data-action="replay"') == 10
    assert page.count(">On the table</a>") == 1, "the game in progress is the table"
    for heading in ("Deal", "Result", "Cleared", "Longest run", "Time", "Moves", "Date"):
        assert f'<th scope="col">{heading}</th>' in page
    assert "Dead end" in page and "Left" in page and "Unfinished" in page


def test_my_games_links_each_game_that_is_over_to_its_analysis(history):
    client = Client()
    client.force_login(history)
    page = client.get("/accounts/games/").content.decode()

    for row in elements(page, "tr", data_game=True):
        game = Game.objects.get(pk=row["data-game"])
        links = [link["href"] for link in elements(row, "a", data_analysis=True)]
        assert links == ([] if game.status == Status.PLAYING else [f"/game/{game.pk}/analysis"])
        if links:
            assert client.get(links[0]).status_code == 200


def test_my_games_pages_a_long_history(alice):
    for hour in range(30):
        game_of(alice, W, finished=hour)
    client = Client()
    client.force_login(alice)

    first, second = client.get("/accounts/games/"), client.get("/accounts/games/?page=2")

    assert first.text.count("<tr data-game=") == 25 and "Page 1 of 2" in first.text
    assert second.text.count("<tr data-game=") == 5


def test_my_games_leads_to_either_end_of_a_long_history(alice):
    for hour in range(80):
        game_of(alice, W, finished=hour)
    client = Client()
    client.force_login(alice)

    def pages_linked(page: int) -> list[tuple[str, str]]:
        nav = element(
            client.get(f"/accounts/games/?page={page}").content, "nav", **{"class": "pages"}
        )
        return [(link.text, link["href"]) for link in elements(nav, "a")]

    assert pages_linked(1) == [("Older", "?page=2"), ("Oldest", "?page=4")]
    assert pages_linked(2) == [("Newer", "?page=1"), ("Older", "?page=3"), ("Oldest", "?page=4")]
    assert pages_linked(4) == [("Newest", "?page=1"), ("Newer", "?page=3")]


def test_my_games_offers_no_replay_of_a_daily_deal_until_its_record_is_finished(alice):
    client = Client()
    client.force_login(alice)
    client.get("/daily")
    record = account_game(alice)
    act(client, record, "draw")
    replays = [form["action"] for form in elements(client.get("/accounts/games/").content, "form")]

    forged = client.post(f"/accounts/games/{record.pk}/replay", follow=True)

    assert f"/accounts/games/{record.pk}/replay" not in replays
    assert element(forged.content, data_message=True).text == play.RECORD_FIRST
    assert account_game(alice) == record


def test_replay_from_my_games_deals_that_deal_again_and_sets_the_table_aside(alice):
    old = game_of(alice, D, finished=1, deal=42)
    client = Client()
    client.force_login(alice)
    client.get("/")
    act(client, old, "new")
    table = account_game(alice)
    act(client, table, "draw")

    response = client.post(f"/accounts/games/{old.pk}/replay")

    assert response["Location"] == "/"
    fresh = account_game(alice)
    assert fresh.deal.number == 42 and fresh.moves == [] and fresh.pk not in (old.pk, table.pk)
    assert f'data-table="{fresh.pk}:0"' in client.get("/").text
    # As with Continue, the deal in play is put by unfinished, its clock stopped, and no longer
    # counted as left; My games offers to take it up again.
    table.refresh_from_db()
    assert table.status == Status.PLAYING and table.finished_at is None
    assert table.running_since is None and table.moves == ["draw"]
    games = client.get("/accounts/games/").content
    element(games, "form", action=f"/accounts/games/{table.pk}/continue")  # there, once
    client.post(f"/accounts/games/{table.pk}/continue")
    assert account_game(alice) == table


def test_replay_from_my_games_plays_that_games_rules_and_scoring(alice):
    old = game_of(alice, D, finished=1, deal=42, rules="headstart+wild", scoring="classic")
    client = Client()
    client.force_login(alice)
    client.get("/")
    act(client, account_game(alice), "deal", deal="", rules="standard", scoring="none")

    client.post(f"/accounts/games/{old.pk}/replay")

    fresh = account_game(alice)
    assert (fresh.deal.number, fresh.rules, fresh.scoring) == (42, "headstart+wild", "classic")
    assert 'data-rules="headstart+wild"' in client.get("/").text


def test_replay_from_my_games_sent_twice_deals_once(alice):
    old = game_of(alice, D, finished=1, deal=42)
    client = Client()
    client.force_login(alice)
    client.get("/")
    page = client.get("/accounts/games/").content
    form = element(page, "form", action=f"/accounts/games/{old.pk}/replay")
    sent = {field["name"]: field["value"] for field in elements(form, "input", type="hidden")}
    before = Game.objects.count()

    client.post(f"/accounts/games/{old.pk}/replay", sent)
    fresh = account_game(alice)
    client.post(f"/accounts/games/{old.pk}/replay", sent)

    assert Game.objects.count() == before + 1 and account_game(alice) == fresh
    assert fresh.deal.number == 42


@pytest.mark.parametrize("table", ["x", "-1", "1" * 19])
def test_replay_from_my_games_naming_a_table_badly_is_refused(alice, table):
    old = game_of(alice, D, finished=1, deal=42)
    client = Client()
    client.force_login(alice)
    before = Game.objects.count()

    response = client.post(f"/accounts/games/{old.pk}/replay", {"table": table})

    assert response.status_code == 400 and Game.objects.count() == before


def test_my_games_needs_an_account(client, db):
    response = client.get("/accounts/games/")

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_each_rule_set_has_its_own_figures_the_standard_game_first(alice):
    game_of(alice, W, finished=1, ms=200_000, rules="wild")
    game_of(alice, D, finished=2, rules="wild")
    game_of(alice, W, finished=3, ms=150_000, rules="open+nowrap", run=11)
    game_of(alice, D, finished=4, run=3)
    game_of(alice, Status.PLAYING, finished=None, rules="headstart")  # not played yet

    by_rules = records.statistics(alice).by_rules

    assert [figures.rules for figures in by_rules] == ["standard", "open+nowrap", "wild"]
    standard, open_nowrap, wild = by_rules
    assert (standard.played, standard.won, standard.longest_run) == (1, 0, 3)
    assert (open_nowrap.played, open_nowrap.won, open_nowrap.best_time) == (1, 1, "2:30")
    assert (wild.played, wild.won, wild.current_streak, wild.best_streak) == (2, 1, 0, 1)


def test_the_bank_sums_every_hand_and_the_best_hands_are_the_top_three(alice):
    for hour, score in enumerate([120, -30, 455, 80, 200], start=1):
        game_of(alice, D, finished=hour, scoring="classic", score=score, deal=hour)
    game_of(alice, Status.PLAYING, finished=None, scoring="classic", score=500, deal=9)
    game_of(alice, W, finished=7, scoring="pysol", score=900)
    game_of(alice, W, finished=8, score=0)  # unscored

    scored = {play.scoring: play for play in records.statistics(alice).scored}

    assert set(scored) == {"classic", "pysol"}
    assert scored["classic"].bank == 120 - 30 + 455 + 80 + 200 + 500, "the hand on the table too"
    best = scored["classic"].best
    assert [(hand.score, hand.deal) for hand in best] == [(455, "3"), (200, "5"), (120, "1")]
    assert scored["pysol"].bank == 900
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/games/").content
    assert text(element(page, data_bank="1325")) == "1,325"  # thousands set apart


def test_winnable_deals_count_only_decided_verdicts(alice):
    deals = {number: Deal.for_number(number) for number in (1, 2, 3)}
    Verdict.objects.create(deal=deals[1], rules="standard", result="winnable", nodes=1)
    Verdict.objects.create(deal=deals[2], rules="standard", result="unwinnable", nodes=1)
    Verdict.objects.create(deal=deals[2], rules="wild", result="winnable", nodes=1)
    game_of(alice, W, finished=1, deal=1)
    game_of(alice, D, finished=2, deal=1)
    game_of(alice, D, finished=3, deal=2)
    game_of(alice, D, finished=4, deal=2, rules="wild")
    game_of(alice, W, finished=5, deal=3)  # no verdict stored
    Verdict.objects.create(deal=deals[3], rules="open", result="unknown", nodes=1)
    game_of(alice, W, finished=6, deal=3, rules="open")  # the solver ran out of budget

    found = records.statistics(alice).winnable

    assert (found.deals, found.winnable, found.undecided) == (5, 2, 2)
    assert (found.played_on_winnable, found.won_on_winnable) == (3, 1)
    assert found.win_rate == pytest.approx(1 / 3)


def test_my_games_says_how_many_deals_are_winnable_among_those_decided(alice):
    def said() -> str:
        page = client.get("/accounts/games/").content
        return " ".join(element(page, data_winnable_deals=True).text.split())

    client = Client()
    client.force_login(alice)
    assert said().startswith("Winnable deals: none played yet.")
    first, second = Deal.for_number(1), Deal.for_number(2)
    game_of(alice, W, finished=1, deal=1)
    game_of(alice, D, finished=2, deal=2)

    assert said().startswith("Winnable deals: none decided by the solver yet.")
    Verdict.objects.create(deal=first, rules="standard", result="winnable", nodes=1)
    assert said().startswith("Winnable deals: 1 of 1 decided by the solver, 1 still undecided.")
    Verdict.objects.create(deal=second, rules="standard", result="unwinnable", nodes=1)
    assert said().startswith("Winnable deals: 1 of 2.")


@pytest.mark.parametrize(
    ("cleared", "today", "streaks"),
    [
        ([], date(2026, 5, 10), (0, 0)),
        ([1, 2, 3], date(2026, 5, 3), (3, 3)),
        ([1, 3, 4], date(2026, 5, 5), (3, 3)),  # one day missed: forgiven
        ([1, 2, 5, 6], date(2026, 5, 6), (2, 2)),  # two days missed: a new streak
        ([1, 2, 3], date(2026, 5, 5), (3, 3)),  # yesterday missed, today not yet played
        ([1, 2, 3], date(2026, 5, 6), (0, 3)),  # two days missed since
        ([1, 2, 3, 4, 8], date(2026, 5, 8), (1, 4)),
    ],
)
def test_daily_streaks_forgive_one_missed_day(cleared, today, streaks):
    days = [date(2026, 5, day) for day in cleared]

    assert records.daily_streaks(days, today) == streaks


def test_my_games_shows_rule_sets_scores_and_the_daily_deals(alice):
    today = timezone.now().date()
    for days_ago in (3, 1):
        game_of(alice, W, finished=1, daily=today - timedelta(days=days_ago), deal=days_ago)
    game_of(alice, W, finished=2, daily=today, ms=252_000, run=9, deal=5, undo_count=1)
    game_of(make_user("bob"), D, finished=1, daily=today, deal=6)
    game_of(alice, D, finished=3, rules="wild", scoring="pysol", score=77, deal=7)
    client = Client()
    client.force_login(alice)

    page = client.get("/accounts/games/").content

    assert element(page, data_daily_streak=True).text == "3"
    assert element(page, data_daily_today=True).text == (
        "Today's deal: 28/28 in 4:12, longest run 9, 1 undo"
    )
    days = [row["data-daily"] for row in elements(page, "tr", data_daily=True)]
    assert days == [str(today - timedelta(days=ago)) for ago in (0, 1, 3)]
    everyone = element(element(page, "tr", data_daily=str(today)), data_everyone_played=True)
    assert everyone["data-everyone-played"] == "2" and "50% cleared" in everyone.text
    assert "median 4:12" in everyone.text
    rule_sets = [row["data-rule-set"] for row in elements(page, "tr", data_rule_set=True)]
    assert rule_sets == ["standard", "wild"]
    wild = element(page, "tr", data_rule_set="wild")
    assert element(wild, data_figure="played").text == "1"
    assert element(element(page, data_scored="pysol"), data_bank=True).text == "77"
    scored_line = element(page, "td", data_rules="wild")
    assert "77" in scored_line.text and "PySolFC" in scored_line.text


def test_my_games_names_each_game_in_words_and_a_daily_deal_by_its_date(alice):
    today = timezone.now().date()
    game_of(alice, W, finished=1, daily=today, deal=5)
    game_of(alice, D, finished=2, rules="headstart+wild", scoring="pysol", score=10, deal=7)
    client = Client()
    client.force_login(alice)

    page = client.get("/accounts/games/").content

    deals = [element(row, "td", data_label="Deal").text for row in elements(page, data_game=True)]
    assert deals == ["7", f"daily {today.isoformat()}"]
    by_rules = element(page, "tr", data_rule_set="headstart+wild")
    assert element(by_rules, "th").text == "Head start + Wild card"
    scored_line = element(page, "td", data_rules="headstart+wild")
    assert scored_line.text == "Head start + Wild card, 10 (PySolFC points)"
    assert element(page, "td", data_rules="standard").text == "Standard"
    assert "(Head start + Wild card)" in element(page, data_best_hand="10").text
    # A scoring is named as the deal form names it.
    form = client.get("/").content
    offered = element(element(form, "select", name="scoring"), "option", value="pysol").text
    assert element(element(page, data_scored="pysol"), "h3").text == offered


def test_a_deal_known_by_its_code_alone_is_not_named_by_it_while_it_is_played(alice):
    # Its number taken by a new deal key, or typed by its code: the code shows every card.
    keyless = Deal.objects.create(deck=format_deck(CHAIN_DECK))
    in_play = game_of(alice, Status.PLAYING, finished=None, deal=1)
    Game.objects.filter(pk=in_play.pk).update(deal=keyless)
    game_of(alice, D, finished=2, deal=1)
    client = Client()
    client.force_login(alice)
    client.post(f"/accounts/games/{in_play.pk}/continue")

    page = client.get("/accounts/games/").content
    table = client.get("/").content

    playing = element(page, "td", id=f"deal-of-{in_play.pk}")
    assert playing.text == "custom deal" and keyless.deck not in page.decode()
    assert "custom deal" in element(table, "h1").text and keyless.deck not in table.decode()
    replayed = act(client, account_game(alice), "replay").content
    assert keyless.deck not in replayed.decode()
    # Over, it is named by its code, to copy.
    Game.objects.filter(pk=in_play.pk).update(status=L, finished_at=START)
    left = element(client.get("/accounts/games/").content, "td", id=f"deal-of-{in_play.pk}")
    assert left.text == keyless.deck


def test_everyones_results_of_several_days_are_each_days_results(alice):
    days = [date(2026, 5, day) for day in (1, 2, 3)]
    players = [alice, *(make_user(name) for name in ("bob", "carol", "dave"))]
    results = [(W, 200_000), (W, 100_000), (D, 50_000), (Status.PLAYING, 10_000)]
    for player, (status, ms) in zip(players, results, strict=True):
        game_of(player, status, finished=1, daily=days[0], ms=ms)
    game_of(alice, L, finished=30, daily=days[1], deal=2)
    game_of(make_user("erin"), W, finished=1, daily=days[0], ms=1_000, practice=True)  # no result

    found = records.everyones_results(days)

    assert found == {day: play.daily_results(day) for day in days}
    assert found[days[0]] == {"played": 3, "cleared_share": 2 / 3, "median_ms": 150_000}
