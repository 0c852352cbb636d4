"""Winnable deals only, and the daily deal (SPEC.md, "Winnable deals only, and the daily deal")."""

from datetime import timedelta

import pytest
from django.test import Client

from game import play
from game.engine.deck import format_deck
from game.engine.solver import solve
from game.models import Deal, Game, Verdict
from game.owners import Owner
from game.verdicts import is_winnable
from game.views import ANY_CHOSEN, WINNABLE_CHOSEN
from tests.conftest import returning
from tests.day import TODAY
from tests.engine.support import CHAIN_DECK, CHAIN_ORDER
from tests.site.conftest import HTMX, Player
from tests.site.decks import DEAD_END_DECK
from tests.site.markup import element, elements, message, text


def note(page) -> str:
    """What the table says of a choice set aside (data-note)."""
    return text(element(page, data_note=True))


def lost_deal_number() -> int:
    """The first deal number the solver proves cannot be won."""
    return next(n for n in range(1, 2000) if solve(Deal.for_number(n).cards).result == "loss")


def test_with_the_winnable_box_new_deal_passes_over_a_deal_that_cannot_be_won(player, monkeypatch):
    lost = lost_deal_number()
    player.post("deal", {"deal": "", "winnable": "on"})
    drawn = iter([lost - 1, 7 - 1])  # randbelow(n) + 1 is the deal number
    monkeypatch.setattr(play.secrets, "randbelow", lambda n: next(drawn))

    player.post("new")

    assert player.game.deal.number == 7 and is_winnable(player.game.deal, "standard")
    assert Verdict.objects.get(deal__number=lost, rules="standard").result == "unwinnable"


def test_the_winnable_box_is_kept_for_the_player_until_they_change_it(player, monkeypatch):
    lost = lost_deal_number()
    player.post("deal", {"deal": "", "winnable": "on"})
    player.post("deal", {"deal": "42", "winnable": "on"})  # a typed deal is dealt as typed
    assert player.game.deal.number == 42

    player.post("deal", {"deal": "42"})  # the box unticked
    monkeypatch.setattr(play.secrets, "randbelow", lambda n: lost - 1)
    player.post("new")

    assert player.game.deal.number == lost


def test_the_winnable_box_is_kept_on_the_account_across_devices(django_user_model, monkeypatch):
    alice = django_user_model.objects.create_user("alice", password="a long pass phrase")
    phone, laptop = Client(), Client()
    for device in (phone, laptop):
        device.post("/accounts/login/", {"username": "alice", "password": "a long pass phrase"})
        device.get("/")
    table = play.current_game(Owner.of_user(alice))
    phone.post(f"/game/{table.pk}/deal", {"deal": "", "winnable": "on", "version": table.version})
    lost = lost_deal_number()
    drawn = iter([lost - 1, 7 - 1])
    monkeypatch.setattr(play.secrets, "randbelow", lambda n: next(drawn))

    table = play.current_game(Owner.of_user(alice))
    laptop.post(f"/game/{table.pk}/new", {"version": table.version})

    assert play.current_game(Owner.of_user(alice)).deal.number == 7


def test_the_winnable_box_is_kept_as_soon_as_it_changes(player, monkeypatch):
    """With the script, the box posts itself on change; New deal then deals as it shows."""
    lost = lost_deal_number()
    monkeypatch.setattr(play.secrets, "randbelow", lambda n: lost - 1)
    assert player.client.post("/winnable-only", {"winnable": "on"}).status_code == 204
    drawn = iter([lost - 1, 7 - 1])
    monkeypatch.setattr(play.secrets, "randbelow", lambda n: next(drawn))
    page = player.post("new").content
    assert player.game.deal.number == 7
    assert element(page, "input", type="checkbox", name="winnable").has("checked")

    player.client.post("/winnable-only", {})
    monkeypatch.setattr(play.secrets, "randbelow", lambda n: lost - 1)
    player.post("new")

    assert player.game.deal.number == lost


def test_the_box_says_when_its_choice_applies(player):
    ticked = player.client.post("/winnable-only", {"winnable": "on"}, headers=HTMX)
    unticked = player.client.post("/winnable-only", {}, headers=HTMX)

    assert (ticked.status_code, unticked.status_code) == (200, 200)
    assert text(ticked.content) == WINNABLE_CHOSEN and text(unticked.content) == ANY_CHOSEN
    assert not elements(ticked.content, data_table=True), "the table is left as it is"
    assert element(ticked.content, id="tip").has("hidden"), "gone, as on any action"


def test_a_visitors_first_table_after_choosing_the_box_is_a_winnable_deal(client, monkeypatch):
    """A visitor whose session holds a choice but no game yet is dealt as New deal would."""
    lost = lost_deal_number()
    assert client.post("/winnable-only", {"winnable": "on"}).status_code == 204
    drawn = iter([lost - 1, 7 - 1])
    monkeypatch.setattr(play.secrets, "randbelow", lambda n: next(drawn))

    client.get("/")

    assert Game.objects.get().deal.number == 7


@pytest.mark.parametrize("signing_up", [False, True])
def test_a_choice_made_before_logging_in_becomes_the_accounts(django_user_model, signing_up):
    account = {"username": "alice", "password": "a long pass phrase"}
    if not signing_up:
        django_user_model.objects.create_user(**account)
    player = Player(Client())
    player.post("deal", {"deal": "", "winnable": "on"})

    if signing_up:
        password = account["password"]
        form = {"username": "alice", "password1": password, "password2": password}
        player.client.post("/accounts/signup/", form)
    else:
        player.client.post("/accounts/login/", account)

    box = element(player.client.get("/").content, "input", type="checkbox", name="winnable")
    assert box.has("checked")
    other = Client()
    other.post("/accounts/login/", account)
    box = element(other.get("/").content, "input", type="checkbox", name="winnable")
    assert box.has("checked")


@pytest.fixture
def chain_daily(monkeypatch):
    """The daily deal is the chain deck, a win by taking the cards in order."""
    deal = Deal.for_code(format_deck(CHAIN_DECK))
    monkeypatch.setattr(play, "daily_deal", lambda day: deal)
    return deal


def test_the_daily_deal_is_the_same_winnable_deal_for_every_player(db):
    first, second = returning(Client()), returning(Client())

    pages = [first.get("/daily"), second.get("/daily")]

    games = Game.objects.filter(daily=TODAY)
    assert games.count() == 2 and len({game.deal_id for game in games}) == 1
    assert is_winnable(games.first().deal, "standard")
    for page in pages:
        assert f"daily {TODAY.isoformat()}" in text(page.content)
        assert games.first().deal.deck not in page.content.decode()


def test_the_daily_deal_is_played_once_for_the_record_and_sets_the_table_aside(player):
    aside = player.game
    player.post("draw")

    first = player.client.get("/daily").content
    again = player.client.get("/daily").content

    record = Game.objects.get(daily=TODAY)
    assert player.game == record
    aside.refresh_from_db()
    assert aside.status == Game.Status.PLAYING and aside.running_since is None
    # Said once, with the way back: a player without an account has no My games to find it in.
    take_up = element(first, "form", action=f"/game/{aside.pk}/take-up")
    assert "set aside, unfinished" in text(take_up)
    assert not elements(again, "form", action=f"/game/{aside.pk}/take-up")
    player.post("draw")  # the record played: set aside in turn, and said
    back = player.client.post(take_up["action"], follow=True).content
    table = play.current_game(Owner(session_key=player.client.session.session_key))
    assert table == aside and table.moves == ["draw"]
    assert "set aside, unfinished" in text(
        element(back, "form", action=f"/game/{record.pk}/take-up")
    )


def test_a_hand_taken_up_ends_a_scored_hand_of_its_deal_and_says_with_what_score(player):
    player.start(CHAIN_DECK)
    unscored = player.game
    player.take(CHAIN_ORDER[0])
    player.client.get("/daily")  # the hand set aside
    player.post("deal", {"deal": unscored.deal.identifier, "scoring": "classic"})
    scored = player.game
    player.take(CHAIN_ORDER[0])

    shown = player.client.post(f"/game/{unscored.pk}/take-up", follow=True).content

    scored.refresh_from_db()
    assert scored.status == Game.Status.LEFT and scored.score == 1
    assert element(shown, data_left_score="1")
    assert not elements(shown, "form", action=f"/game/{scored.pk}/take-up")


@pytest.mark.parametrize("how", ["replayed", "typed", "typed once left"])
def test_no_other_hand_of_a_daily_deal_is_dealt_while_its_record_is_to_be_finished(
    player, chain_daily, how
):
    player.client.get("/daily")
    player.take(CHAIN_ORDER[0])
    if how == "typed once left":
        player.post("new")  # /daily takes it up again

    if how == "replayed":
        refused = player.post("replay")
    else:
        refused = player.post("deal", {"deal": chain_daily.identifier})

    assert message(refused.content) == play.RECORD_FIRST
    assert Game.objects.filter(deal=chain_daily).count() == 1


def test_a_daily_deal_at_a_dead_end_is_dealt_again_once_its_analysis_is_seen(player, monkeypatch):
    deal = Deal.for_code(format_deck(DEAD_END_DECK))
    monkeypatch.setattr(play, "daily_deal", lambda day: deal)
    player.client.get("/daily")
    for _ in range(23):
        ended = player.post("draw")
    record = player.game
    assert record.status == Game.Status.DEAD_END

    refused = player.post("replay")

    assert not elements(element(ended.content, id="panel"), "button", data_action="replay")
    assert message(refused.content) == play.RECORD_FIRST and player.game == record
    player.client.get(f"/game/{record.pk}/analysis")  # over for good: no undo out of it now
    assert elements(element(player.client.get("/").content, id="panel"), data_action="replay")
    player.post("replay")
    assert player.game != record and player.game.deal == deal


def test_a_past_daily_deal_still_in_play_typed_by_its_name_is_taken_up(player):
    first = player.game
    player.post("draw")
    player.client.get("/daily")
    player.post("draw")
    record = player.game
    player.client.post(f"/game/{first.pk}/take-up")  # the record set aside, in play
    Game.objects.filter(pk=record.pk).update(daily=TODAY - timedelta(days=1))  # the next day

    dealt = player.post("deal", {"deal": f"daily {(TODAY - timedelta(days=1)).isoformat()}"})

    table = play.current_game(Owner(session_key=player.client.session.session_key))
    assert table == record and table.moves == ["draw"]
    assert "as you left it" in note(dealt.content)


def test_only_the_players_own_game_in_play_can_be_taken_up(player):
    mine = player.game
    player.post("draw")
    player.post("new")  # left: over
    stranger = Player(Client())
    stranger.post("draw")

    refused = player.client.post(f"/game/{stranger.game.pk}/take-up")
    assert refused.status_code == 404 and message(refused.content) == play.NOT_YOURS
    over = player.client.post(f"/game/{mine.pk}/take-up", follow=True)
    assert message(over.content) == play.NO_LONGER_IN_PLAY
    assert Game.objects.get(pk=mine.pk).status == Game.Status.LEFT
    owner = Owner(session_key=player.client.session.session_key)
    assert play.current_game(owner) != mine and stranger.game.running_since is not None


def test_a_daily_deal_replayed_after_it_is_over_is_not_recorded(player, chain_daily):
    player.client.get("/daily")
    for pos in CHAIN_ORDER:
        player.take(pos)
    record = Game.objects.get(daily=TODAY)
    assert record.status == Game.Status.WON

    player.post("replay")

    assert player.game.deal == chain_daily and player.game.daily is None
    assert Game.objects.filter(daily=TODAY).get() == record
    player.client.get("/daily")  # the record again, as it ended
    assert play.current_game(Owner(session_key=player.client.session.session_key)) == record


def test_the_daily_deals_analysis_names_it_by_its_date(player, chain_daily):
    player.client.get("/daily")
    for pos in CHAIN_ORDER:
        player.take(pos)

    page = player.client.get(f"/game/{player.game.pk}/analysis").content

    assert text(element(page, "h1")) == f"Analysis daily {TODAY.isoformat()}"
    assert text(element(page, "title")) == f"Analysis of daily {TODAY.isoformat()} · TriPeaks"


def test_the_days_results_count_the_finished_records(player, chain_daily):
    player.client.get("/daily")
    for pos in CHAIN_ORDER:
        player.take(pos)
    other = Player(Client())
    other.client.get("/daily")
    other.post("draw")
    other.post("new")

    practice = Player(Client())  # a record played with every card known counts in no results
    practice.client.get("/daily")
    practice.post("draw")
    Game.objects.filter(pk=practice.game.pk).update(practice=True, status="won")

    results = play.daily_results(TODAY)

    assert results["played"] == 2 and results["cleared_share"] == 0.5
    won = Game.objects.get(daily=TODAY, status="won", practice=False)
    assert results["median_ms"] == won.active_ms


def test_a_daily_deal_left_and_seen_in_its_analysis_stays_left(player, chain_daily):
    player.client.get("/daily")
    player.take(CHAIN_ORDER[0])
    player.post("new")
    record = Game.objects.get(daily=TODAY)
    player.client.get("/daily")
    table = play.current_game(Owner(session_key=player.client.session.session_key))
    assert table == record  # left, it is taken up again
    player.post("new", game=record)

    player.client.get(f"/game/{record.pk}/analysis")
    page = player.client.get("/daily").content
    refused = player.take(CHAIN_ORDER[1], game=record)

    hint = player.post("hint", game=record)

    assert text(element(page, id="panel-title")) == "Deal left"
    assert not elements(page, data_free=True)  # no card offered to play under the panel
    assert message(refused.content) == play.REVEALED
    assert message(hint.content) == play.REVEALED and not elements(hint.content, data_hint=True)
    record.refresh_from_db()
    assert record.status == Game.Status.LEFT and record.cleared == 1 and record.hint_count == 0


def test_leaving_the_daily_deal_offers_it_again_before_its_analysis_which_ends_it(
    player, chain_daily
):
    player.client.get("/daily")
    player.take(CHAIN_ORDER[0])

    left = element(player.post("new").content, "p", **{"class": "left"})

    record = Game.objects.get(daily=TODAY)
    links = {link["href"] for link in elements(left, "a")}
    assert links == {"/daily", f"/game/{record.pk}/analysis"}
    assert "which ends it" in text(left)
    # Another deal left says nothing of the daily deal.
    ordinary = player.game
    player.post("draw")
    other = element(player.post("new").content, "p", **{"class": "left"})
    assert [link["href"] for link in elements(other, "a")] == [f"/game/{ordinary.pk}/analysis"]
    assert "daily" not in text(other)


def test_a_daily_deal_taken_up_again_gets_hints_and_once_seen_whole_is_not_offered_again(
    player, chain_daily
):
    player.client.get("/daily")
    player.take(CHAIN_ORDER[0])
    player.post("new")
    record = Game.objects.get(daily=TODAY)
    player.client.get("/daily")  # taken up again, still marked left until its next move

    hinted = player.post("hint", game=record).content

    assert elements(hinted, data_hint=True) and not elements(hinted, data_message=True)
    record.refresh_from_db()
    assert record.hint_count == 1
    player.client.get(f"/game/{record.pk}/analysis")  # it stays as it ended from now on
    player.client.get("/daily")
    left = element(player.post("new", game=record).content, "p", **{"class": "left"})
    assert "daily" not in text(left)


def test_a_daily_deal_finished_after_its_day_names_its_day(player, chain_daily):
    player.client.get("/daily")
    player.take(CHAIN_ORDER[0])
    yesterday = TODAY - timedelta(days=1)
    Game.objects.filter(daily=TODAY).update(daily=yesterday)  # begun before midnight
    for pos in CHAIN_ORDER[1:]:
        page = player.take(pos).content

    shown = text(element(page, data_daily_results=True))
    assert shown.startswith(f"The deal of {yesterday.isoformat()}: 1 player so far")


def test_the_daily_deal_has_a_number_only_the_sites_key_foresees(settings, db):
    today = play.daily_deal(TODAY)
    settings.TRIPEAKS_DEAL_KEY = "another site's key"
    play.cache.clear()

    elsewhere = play.daily_deal(TODAY)

    assert elsewhere.deck != today.deck


def test_a_past_daily_deal_can_be_played_again_by_its_name_but_not_a_future_one(player):
    yesterday = TODAY - timedelta(days=1)
    # Under the rules it is winnable under, whatever game the form names.
    dealt = player.post("deal", {"deal": f"daily {yesterday.isoformat()}", "rules": "nowrap"})
    game = player.game
    assert game.deal == play.daily_deal(yesterday) and game.rules == "standard"
    assert "standard rules" in note(dealt.content)  # the game chosen set aside, and why
    assert not elements(dealt.content, data_message=True)  # dealt: nothing refused
    as_chosen = player.post("deal", {"deal": f"daily {yesterday.isoformat()}", "rules": "standard"})
    assert not elements(as_chosen.content, data_note=True)
    assert game.daily is None  # not a record of that day: its day is over
    refused = player.post("deal", {"deal": f"daily {(TODAY + timedelta(days=1)).isoformat()}"})
    assert refused.status_code == 400 and "not out yet" in message(refused.content)
    for name in ("yesterday", TODAY.strftime("%Y%m%d"), TODAY.strftime("%G-W%V-%u")):
        refused = player.post("deal", {"deal": f"daily {name}"})
        assert refused.status_code == 400 and "YYYY-MM-DD" in message(refused.content)


@pytest.mark.parametrize("name", [f"daily {TODAY.isoformat()}", "daily", " Deal DAILY "])
def test_todays_daily_deal_typed_by_its_name_is_the_players_record_of_it(player, name):
    dealt = player.post("deal", {"deal": name, "rules": "nowrap", "scoring": "pysol"})
    assert "standard and unscored" in note(dealt.content)
    player.post("draw")

    record = Game.objects.get(daily=TODAY)
    assert record.deal == play.daily_deal(TODAY) and record.moves == ["draw"]
    assert (record.rules, record.scoring) == ("standard", "none")
    player.post("deal", {"deal": name})
    assert Game.objects.filter(deal=record.deal).get() == record


def test_logging_in_keeps_the_accounts_record_of_a_daily_deal_played_on_both(django_user_model):
    django_user_model.objects.create_user("alice", password="a long pass phrase")
    laptop, phone = Client(), returning(Client())
    laptop.post("/accounts/login/", {"username": "alice", "password": "a long pass phrase"})
    laptop.get("/daily")
    phone.get("/daily")

    phone.post("/accounts/login/", {"username": "alice", "password": "a long pass phrase"})

    games = Game.objects.filter(owner__username="alice", deal=play.daily_deal(TODAY))
    assert games.count() == 2 and games.filter(daily=TODAY).count() == 1


def test_logging_in_keeps_the_daily_record_played_for_real_over_one_played_knowing(
    django_user_model, chain_daily
):
    django_user_model.objects.create_user("alice", password="a long pass phrase")
    phone, laptop = returning(Client()), Client()
    phone.get("/daily")
    won = Game.objects.get(daily=TODAY)
    for pos in CHAIN_ORDER:
        won.refresh_from_db()
        phone.post(f"/game/{won.pk}/take", {"pos": pos, "version": won.version}, headers=HTMX)
    assert phone.get(f"/game/{won.pk}/analysis").status_code == 200
    laptop.post("/accounts/login/", {"username": "alice", "password": "a long pass phrase"})
    laptop.get("/daily")  # the account's own record, begun with the winning line known
    knowing = Game.objects.get(daily=TODAY, owner__username="alice")

    phone.post("/accounts/login/", {"username": "alice", "password": "a long pass phrase"})

    won.refresh_from_db()
    knowing.refresh_from_db()
    assert (won.daily, won.practice, won.status) == (TODAY, False, Game.Status.WON)
    assert (knowing.daily, knowing.practice) == (None, True)
    assert play.daily_results(TODAY)["played"] == 1


@pytest.mark.parametrize("account_moves", [0, 1], ids=["untouched", "in play"])
def test_logging_in_keeps_the_daily_record_won_here_over_the_accounts_unfinished_one(
    django_user_model, chain_daily, account_moves
):
    django_user_model.objects.create_user("alice", password="a long pass phrase")
    laptop, phone = Client(), Client()
    laptop.post("/accounts/login/", {"username": "alice", "password": "a long pass phrase"})
    laptop.get("/daily")  # opening the page begins the account's record
    account = Game.objects.get(daily=TODAY, owner__username="alice")
    if account_moves:
        laptop.post(f"/game/{account.pk}/draw", {"version": account.version}, headers=HTMX)
    here = Player(phone)
    here.client.get("/daily")
    for pos in CHAIN_ORDER:
        here.take(pos)
    won = here.game
    assert won.status == Game.Status.WON

    phone.post("/accounts/login/", {"username": "alice", "password": "a long pass phrase"})

    assert list(Game.objects.filter(daily=TODAY, owner__username="alice")) == [won]
    account.refresh_from_db()
    assert account.daily is None and account.move_count == account_moves
    assert play.daily_results(TODAY)["played"] == 1


def test_logging_in_keeps_the_accounts_record_played_over_one_dealt_here_and_left_untouched(
    django_user_model,
):
    django_user_model.objects.create_user("alice", password="a long pass phrase")
    laptop, phone = Client(), returning(Client())
    laptop.post("/accounts/login/", {"username": "alice", "password": "a long pass phrase"})
    laptop.get("/daily")
    played = Game.objects.get(daily=TODAY, owner__username="alice")
    laptop.post(f"/game/{played.pk}/draw", {"version": played.version}, headers=HTMX)
    here = Player(phone)
    here.client.get("/daily")
    untouched = here.game
    here.post("new")  # left before a move: left untouched
    untouched.refresh_from_db()
    assert untouched.status == Game.Status.SKIPPED

    phone.post("/accounts/login/", {"username": "alice", "password": "a long pass phrase"})

    assert list(Game.objects.filter(daily=TODAY, owner__username="alice")) == [played]
