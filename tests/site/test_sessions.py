"""A player's session lasts for as long as they keep coming back: an anonymous player's games
are reached only through it."""

from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

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
