import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from game.engine.solver import solve
from game.models import Deal, Game, Verdict
from tests.site.markup import element, elements

from .support import changelist, parse, text_of

URL = "/admin/statistics/"


@pytest.fixture
def solver_calls(monkeypatch):
    """The decks the page solves. The real solver answers, without the page's small clock budget
    so that a slow machine cannot turn a verdict into "unknown"."""
    solved = []

    def solve_without_clock(deck, rules, **budget):
        solved.append(deck)
        return solve(deck, rules)

    monkeypatch.setattr("game.verdicts.solve", solve_without_clock)
    return solved


def page(client, query=""):
    response = client.get(URL + query)
    assert response.status_code == 200
    return response.content.decode()


def test_overall_figures_match_the_hand_built_games(staff_client, played, solver_calls):
    html = page(staff_client)

    # Six games, of which the untouched deal and the game in progress are not played.
    assert text_of(html, "data-played") == "4"
    assert text_of(html, "data-won") == "1"
    assert text_of(html, "data-win-rate") == "25%"
    # (120 + 60 + 31 + 9) s / 4 = 55 s; the won game alone took 2 minutes.
    assert text_of(html, "data-avg-time") == "0:55 won games 2:00"
    assert text_of(html, "data-avg-moves") == "30.0 won games 40.0"
    assert text_of(html, "data-hinted") == "2 3 hints in all"
    assert text_of(html, "data-undone") == "2 4 undos in all"


def test_a_practice_game_counts_in_no_figure(staff_client, played, solver_calls):
    """Dealt again from an analysis, every card known: its win says nothing of the deal."""

    def figures() -> str:
        return element(page(staff_client), id="content").text

    before = figures()
    Game.objects.create(
        deal=played["second"], status=Game.Status.WON, practice=True, cleared=28,
        longest_run=28, move_count=3, active_ms=1_000, started_at=played["games"][0].started_at,
    )  # fmt: skip

    assert figures() == before


def test_hint_and_undo_use(staff_client, played, solver_calls):
    html = page(staff_client)

    assert text_of(html, "data-use", "hint") == "Used a hint 2 50% 0.75 50%"
    assert text_of(html, "data-use", "no-hint") == "No hint 2 50% 0%"
    assert text_of(html, "data-use", "undo") == "Used undo 2 50% 1.00 0%"


def test_games_per_day_and_cards_cleared(staff_client, played, solver_calls):
    html = page(staff_client)
    charts = {chart.attrs["aria-label"]: chart for chart in parse(html).find_all("role", "img")}

    assert text_of(html, "data-day", "2026-03-01") == "Sun 1 Mar 2026 2 1"
    assert text_of(html, "data-day", "2026-03-03") == "Tue 3 Mar 2026 2 0"
    # A day without games is a bar of 0 in the chart, not a row in the table.
    assert parse(html).find_all("data-day", "2026-03-02") == []
    assert bar_titles(charts["Games played and won per day"])[-3:] == [
        "Mar 1: 2 played, 1 won", "Mar 2: 0 played, 0 won", "Mar 3: 2 played, 0 won",
    ]  # fmt: skip
    for cleared in (0, 10, 20, 28):
        assert text_of(html, "data-cleared", str(cleared)) == f"{cleared} 1"
    # Only the game in progress cleared 6, and it is not played.
    assert parse(html).find_all("data-cleared", "6") == []
    # A bar's title reads "<games> games cleared <cards>", one game in the singular.
    bars = bar_titles(charts["Games by cards cleared, 0 to 28"])
    assert "1 game cleared 28" in bars and "0 games cleared 27" in bars
    games_by_cleared = {int(title.split()[-1]): int(title.split()[0]) for title in bars}
    assert sorted(games_by_cleared) == list(range(29))
    assert {cleared for cleared, games in games_by_cleared.items() if games} == {0, 10, 20, 28}


def bar_titles(chart) -> list[str]:
    return [element.text for element in chart.descendants() if element.tag == "title"]


def test_hardest_deals_get_a_stored_verdict_once(staff_client, played, solver_calls):
    first, second = played["first"], played["second"]

    html = page(staff_client, "?min_plays=2")

    hardest = text_of(html, "id", "hardest")
    assert hardest.index("2 2 0 0% winnable") < hardest.index("1 2 1 50% winnable")
    assert Verdict.objects.get(deal=second, rules="standard").result == Deal.Verdict.WINNABLE
    assert Verdict.objects.get(deal=first, rules="standard").nodes == solve(first.cards).nodes
    page(staff_client, "?min_plays=2")
    assert len(solver_calls) == 2  # stored, so not solved again


def test_deals_played_less_often_are_not_among_the_hardest(staff_client, played, solver_calls):
    html = page(staff_client, "?min_plays=3")

    assert "No deal has been played 3 times yet." in html
    assert solver_calls == []


def test_most_played_deals_and_longest_runs(staff_client, played, solver_calls):
    # Under other rules the deal is another game: its figures are the standard game's.
    Game.objects.create(deal=played["first"], rules="open", status=Game.Status.WON, move_count=9)
    html = page(staff_client)

    assert text_of(html, "data-deal", str(played["first"].pk)) == "1 2 1 50%"
    longest = played["games"][0].pk
    assert text_of(html, "data-game", str(longest)) == f"12 Game {longest} alice 1 Mar 2026"
    runs = elements(element(html, id="longest-runs"), "tr", data_game=True)
    # No run of 0, and none of the game still in play (6), which an undo may yet take back.
    assert [row.text.split()[0] for row in runs] == ["12", "5", "3"]


def test_an_empty_site_has_a_page_too(staff_client, db):
    html = page(staff_client)

    assert text_of(html, "data-played") == "0"
    assert text_of(html, "data-win-rate") == "–", "no win rate of nothing played"
    assert text_of(html, "data-avg-time") == "– won games –"
    assert text_of(html, "data-avg-moves") == "– won games –"
    assert "No games yet." in html and "No card taken yet." in html


def test_with_no_game_won_the_won_games_averages_are_a_dash(staff_client, played, solver_calls):
    Game.objects.filter(status=Game.Status.WON).update(status=Game.Status.DEAD_END)

    html = page(staff_client)

    assert text_of(html, "data-avg-time") == "0:55 won games –"
    assert text_of(html, "data-avg-moves") == "30.0 won games –"


def test_anonymous_visitors_are_sent_to_the_admin_login(client, db):
    response = client.get(URL)

    assert response.status_code == 302
    assert response.url.startswith("/admin/login/")


def test_players_who_are_not_staff_are_refused(client, db):
    client.force_login(get_user_model().objects.create_user("player"))

    response = client.get(URL)

    assert response.status_code == 302
    assert response.url.startswith("/admin/login/")


def test_staff_need_permission_to_view_games_and_see_links_only_to_what_they_may_open(
    client, played, solver_calls
):
    clerk = get_user_model().objects.create_user("clerk", is_staff=True)
    client.force_login(clerk)

    assert client.get(URL).status_code == 403
    assert not parse(client.get("/admin/").content.decode()).find_all("href", URL)

    clerk.user_permissions.add(Permission.objects.get(codename="view_game"))
    assert parse(client.get("/admin/").content.decode()).find_all("href", URL)
    response = client.get(URL)
    assert response.status_code == 200
    # No link to a deal's page, which needs the permission to view deals.
    assert "/admin/game/deal/" not in response.content.decode()


@pytest.mark.parametrize("may_run_actions", [True, False], ids=["superuser", "view only"])
def test_every_deal_by_games_played_lists_the_most_played_first(
    client, played, solver_calls, may_run_actions
):
    """The list's sort counts its columns, the actions' checkbox among them only for staff who
    may run the verdict action: the link sorted view-only staff's list by wins."""
    first, second = played["first"], played["second"]
    for _ in range(2):  # the second deal: more played (4 against 2), fewer won (0 against 1)
        Game.objects.create(deal=second, status=Game.Status.DEAD_END, move_count=9)
    staff = get_user_model().objects.create_user(
        "staff", is_staff=True, is_superuser=may_run_actions
    )
    for codename in ("view_game", "view_deal"):
        staff.user_permissions.add(Permission.objects.get(codename=codename))
    client.force_login(staff)

    links = [a.attrs["href"] for a in parse(page(client)).find_all("href")]
    [every_deal] = [href for href in links if href.startswith("/admin/game/deal/?o=")]
    listed = changelist(client.get(every_deal).content.decode())

    shown = [row["identifier"].text for row in listed]
    assert shown == [str(deal.number) for deal in (second, first)]


def test_a_page_staff_may_not_open_says_so_in_the_sites_look(client, db):
    clerk = get_user_model().objects.create_user("clerk", is_staff=True)
    client.force_login(clerk)

    response = client.get(URL)

    assert response.status_code == 403
    assert (
        element(response.content, data_message=True).text
        == "That page is not open to this account."
    )
    assert [link.text for link in elements(response.content, "a", href="/")] == [
        "Back to the table"
    ]


def test_the_admin_links_to_the_page(staff_client):
    html = staff_client.get("/admin/").content.decode()

    assert parse(html).find_all("href", URL)


def test_games_wins_and_winnable_share_by_rule_set(staff_client, played, solver_calls):
    first, second = played["first"], played["second"]
    for status in (Game.Status.WON, Game.Status.WON, Game.Status.DEAD_END):
        Game.objects.create(deal=first, status=status, rules="wild", move_count=9)
    Verdict.objects.create(deal=first, rules="wild", result="winnable", nodes=5)
    Verdict.objects.create(deal=second, rules="wild", result="unwinnable", nodes=5)
    Verdict.objects.create(deal=first, rules="open", result="unknown", nodes=5)
    Verdict.objects.create(deal=second, rules="open", result="winnable", nodes=5)

    html = page(staff_client)

    rows = [row["data-rule-set"] for row in elements(html, "tr", data_rule_set=True)]
    assert rows == ["standard", "open", "wild"]
    assert element(html, "tr", data_rule_set="standard").text == "standard 4 1 25% –"
    assert element(html, "tr", data_rule_set="wild").text == "wild 3 2 67% 50% of 2"
    assert element(html, "tr", data_rule_set="open").text == "open 0 0 – 100% of 1"


def test_hand_scores_per_scoring_system(staff_client, played, solver_calls):
    deal = played["first"]
    for score in (-52, -40, 60, 1210):
        Game.objects.create(deal=deal, status=Game.Status.DEAD_END, scoring="pysol", score=score)
    Game.objects.create(deal=deal, status=Game.Status.PLAYING, scoring="pysol", score=2000)

    html = page(staff_client)

    pysol = element(html, id="scores-pysol")
    buckets = {
        row["data-score-bucket"]: row.text for row in elements(pysol, data_score_bucket=True)
    }
    assert buckets == {"-100": "-100 to -1 2", "0": "0 to 99 1", "1200": "1200 to 1299 1"}
    chart = element(pysol, role="img")
    titles = [part.text for part in elements(chart, "title")]
    assert len(titles) == 14, "every 100 points from -100 to 1299 has its bar"
    assert titles[0] == "2 hands scored -100 to -1" and titles[5] == "0 hands scored 400 to 499"
    assert titles[1] == "1 hand scored 0 to 99"
    assert "4 played hands by score" in pysol.text  # not the hand still in play
    assert "No scored hands yet." in element(html, id="scores-classic").text
