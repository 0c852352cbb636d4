"""Requests the site never takes are refused with a 4xx page, never a server error: bodies over
the limit unread, file parts, forms in another character set; and the admin's search takes
any text."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from game.models import Game
from tests.site.conftest import Player

BOUNDARY = "sitetestboundary"
MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"


@pytest.fixture
def open_table(db):
    """A client that sends the CSRF token as a browser does, with a table open."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    player = Player(client)
    return client, player.game, client.cookies["csrftoken"].value


def assert_refused_in_the_sites_look(response, status):
    assert response.status_code == status
    assert "Traceback" not in response.text
    assert "data-message" in response.text and "/static/game/tripeaks.css" in response.text


def multipart(fields: dict, file_size: int = 0) -> bytes:
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
        for name, value in fields.items()
    ]
    if file_size:
        parts.append(
            f"--{BOUNDARY}\r\nContent-Disposition: form-data; name="
            f'"upload"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n'
            + "x" * file_size
            + "\r\n"
        )
    return ("".join(parts) + f"--{BOUNDARY}--\r\n").encode()


class EndlessBody:
    """A request body that is made as it is read, and counts what was read."""

    def __init__(self, head: bytes):
        self.head = head
        self.read_bytes = 0

    def read(self, size=-1):
        size = 64 * 1024 if size is None or size < 0 else size
        chunk = (self.head + b"x" * size)[:size]
        self.head = self.head[len(chunk) :]
        self.read_bytes += len(chunk)
        return chunk

    def readline(self, size=-1):
        return self.read(size)


@pytest.mark.parametrize("path", ["/accounts/login/", "/accounts/signup/", "/game/{pk}/draw"])
def test_a_form_in_another_character_set_is_a_400(open_table, path):
    client, game, token = open_table
    # The test client encodes the text in the declared character set.
    body = f"csrfmiddlewaretoken={token}&version={game.version}"

    response = client.post(
        path.format(pk=game.pk),
        body,
        content_type="application/x-www-form-urlencoded; charset=utf-16",
        headers={"X-CSRFToken": token},
    )

    assert_refused_in_the_sites_look(response, 400)


@pytest.mark.parametrize("charset", ["UTF-8", "utf8"])
def test_a_form_in_utf_8_declared_so_is_read(open_table, charset):
    client, game, token = open_table

    response = client.post(
        f"/game/{game.pk}/draw",
        f"version={game.version}",
        content_type=f"application/x-www-form-urlencoded; charset={charset}",
        headers={"X-CSRFToken": token},
    )

    assert response.status_code in (200, 302)
    game.refresh_from_db()
    assert game.version == 1, "the draw was made"


def test_a_file_part_is_refused_and_the_move_with_it_is_not_made(open_table):
    client, game, token = open_table
    body = multipart({"version": game.version, "csrfmiddlewaretoken": token}, file_size=1000)

    response = client.post(f"/game/{game.pk}/draw", body, content_type=MULTIPART)

    assert_refused_in_the_sites_look(response, 400)
    game.refresh_from_db()
    assert game.version == 0


def test_a_form_without_files_may_come_as_multipart(open_table):
    client, game, token = open_table
    body = multipart({"version": game.version, "csrfmiddlewaretoken": token})

    assert client.post(f"/game/{game.pk}/draw", body, content_type=MULTIPART).status_code == 302
    game.refresh_from_db()
    assert game.version == 1


def test_a_huge_upload_is_refused_before_any_of_it_is_read(open_table):
    client, game, token = open_table
    head = multipart({"version": game.version, "csrfmiddlewaretoken": token})[: -len("--\r\n")]
    body = EndlessBody(head)

    response = client.post(
        f"/game/{game.pk}/draw",
        content_type=MULTIPART,
        CONTENT_LENGTH=str(200 * 1024 * 1024),
        **{"wsgi.input": body},
    )

    assert_refused_in_the_sites_look(response, 413)
    assert body.read_bytes == 0
    assert Game.objects.get(pk=game.pk).version == 0


def test_a_form_just_under_the_limit_is_read(open_table):
    client, game, token = open_table
    filler = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE - 1000)
    body = f"csrfmiddlewaretoken={token}&version={game.version}&filler={filler}"

    response = client.post(
        f"/game/{game.pk}/draw", body, content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).version == 1


@pytest.mark.parametrize("model", ["game", "deal"])
@pytest.mark.parametrize("term", ["\u00b2", "\u0663", "12\u00b3"])
def test_the_admin_search_takes_digits_of_other_scripts(client, db, model, term):
    staff = get_user_model().objects.create_user("staff", is_staff=True, is_superuser=True)
    client.force_login(staff)
    Player(Client()).post("deal", {"deal": "3"})

    response = client.get(f"/admin/game/{model}/", {"q": term})

    assert response.status_code == 200
    assert "0 results" in response.text
