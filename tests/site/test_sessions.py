"""A player's session lasts for as long as they keep coming back: an anonymous player's games
are reached only through it."""

from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import OperationalError
from django.utils import timezone

from tripeaks_site.outage import RESTING
from tripeaks_site.sessions import RENEWED


def session_cookie(response):
    return response.cookies.get(settings.SESSION_COOKIE_NAME)


def test_the_first_request_of_a_day_renews_the_session(player, client):
    session = client.session
    session[RENEWED] = (timezone.localdate() - timedelta(days=13)).isoformat()
    session.save()
    Session.objects.filter(pk=session.session_key).update(
        expire_date=timezone.now() + timedelta(days=1)
    )

    renewing = player.post("draw")
    same_day = player.post("draw")

    cookie = session_cookie(renewing)
    assert cookie is not None and cookie.value == session.session_key
    assert cookie["max-age"] == settings.SESSION_COOKIE_AGE
    expiry = Session.objects.get(pk=session.session_key).expire_date
    assert expiry > timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE - 60)
    # Later requests that day write nothing to the session.
    assert renewing.status_code == same_day.status_code == 200
    assert session_cookie(same_day) is None


@pytest.mark.parametrize("url", ["/robots.txt", "/accounts/login/", "/nowhere"])
def test_a_session_that_cannot_be_saved_while_the_database_is_away_gets_the_resting_page(
    player, client, url
):
    session = client.session
    session[RENEWED] = (timezone.localdate() - timedelta(days=1)).isoformat()
    session.save()
    # Its first request of the day saves the session, though the page itself reads nothing. The
    # database cannot be stopped for one request here: a failing save stands in for it.
    with mock.patch.object(Session, "save", side_effect=OperationalError("connection refused")):
        response = client.get(url)

    assert response.status_code == 503 and RESTING in response.text
    assert response["Retry-After"]
