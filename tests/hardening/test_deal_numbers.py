"""Deal numbers are keyed by a secret of the site: the same number and key always give the same
deal, and without the key the number tells nothing about the hidden cards."""

import os
import subprocess
import sys

from game.engine.deck import DEVELOPMENT_DEAL_KEY, deck_for_number, format_deck
from game.models import Deal
from tests.site.conftest import Player

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Deal 7 under the development key, worked out from deck.py's docstring by a separate program: a
# fixed code pins the shuffle across versions and platforms.
DEAL_7 = (
    "JH8CQC6HTSAD7DQH4SAS5D6S9HQD2S9CTH8HQS3SKS5CAC8DTD6D5H9D8S2D4D6CJD3H7SAHKD2H4H7CJCKC7H5SJS"
    "9STC3DKH4C3C2C"
)


def test_the_same_number_and_key_give_the_same_deal():
    assert deck_for_number(7, "some key") == deck_for_number(7, "some key")
    assert sorted(deck_for_number(7, "some key")) == list(range(52))


def test_a_deal_number_is_pinned_under_the_development_key():
    assert format_deck(deck_for_number(7)) == format_deck(deck_for_number(7, DEVELOPMENT_DEAL_KEY))
    assert format_deck(deck_for_number(7)) == DEAL_7


def test_another_key_deals_other_cards_for_every_number():
    numbers = range(1, 200)
    ours = [deck_for_number(number, "one site") for number in numbers]
    theirs = [deck_for_number(number, "another site") for number in numbers]
    assert all(mine != other for mine, other in zip(ours, theirs, strict=True))


def test_the_site_deals_numbers_with_its_configured_key(client, db, settings):
    settings.TRIPEAKS_DEAL_KEY = "the site's own key"
    player = Player(client)

    assert player.post("deal", {"deal": "7"}).status_code == 200

    deal = Deal.objects.get(number=7)
    assert deal.deck == format_deck(deck_for_number(7, "the site's own key"))
    assert deal.deck != DEAL_7


def test_a_number_stored_under_an_earlier_key_is_dealt_under_the_sites_key(client, db, settings):
    player = Player(client)
    earlier = player.game.deal  # the table dealt under the development key
    player.post("draw")
    settings.TRIPEAKS_DEAL_KEY = "a new key"

    assert player.post("deal", {"deal": str(earlier.number)}).status_code == 200

    dealt = player.game.deal
    assert dealt.number == earlier.number and dealt.deck == Deal.deck_of(earlier.number)
    earlier.refresh_from_db()
    assert earlier.number is None and earlier.deck != dealt.deck  # named by its code from now on
    assert earlier.games.get().moves == ["draw"]


def production_check(**env):
    """`manage.py check` in production mode, in a fresh process as a deploy runs it."""
    base = {key: value for key, value in os.environ.items() if not key.startswith("TRIPEAKS_")}
    env = base | {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "s" * 50} | env
    return subprocess.run(
        [sys.executable, "manage.py", "check"], env=env, cwd=ROOT, capture_output=True, text=True
    )


def test_production_mode_refuses_to_start_without_a_deal_key():
    refused = production_check()
    assert refused.returncode != 0
    assert "TRIPEAKS_DEAL_KEY must be set when DJANGO_DEBUG is off" in refused.stderr

    assert production_check(TRIPEAKS_DEAL_KEY="k" * 32).returncode == 0
