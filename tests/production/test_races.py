"""Requests that race for one table through two gunicorn servers on PostgreSQL: however many
arrive at once, a table is left once, and every move is applied once."""

import pytest

from tests.production import harness

pytestmark = [pytest.mark.production, pytest.mark.slow]

AT_ONCE = 10


@pytest.mark.parametrize(
    ("action", "form"), [("new", {}), ("replay", {}), ("deal", {"deal": "4242"})]
)
def test_leaving_one_table_at_once_from_many_requests_starts_one_game(
    servers, database_url, action, form
):
    player = harness.Player([server.port for server in servers])
    table = player.open()
    before = {game.pk for game in harness.stored_games(database_url)}

    def leave(i):
        headers = harness.HTMX | {"X-CSRFToken": table.csrf}
        form_sent = form | {"version": table.version}
        return player.client(i).request("POST", f"/game/{table.game}/{action}", form_sent, headers)

    responses = harness.run_threads(AT_ONCE, leave)

    assert [response.status for response in responses] == [200] * AT_ONCE
    assert sum(harness.STALE_WORDS not in response.body for response in responses) == 1
    new_games = [game for game in harness.stored_games(database_url) if game.pk not in before]
    assert len(new_games) == 1
    # Every answer shows the one new table.
    shown = {harness.PageTable.parse(response.body).game for response in responses}
    assert shown == {new_games[0].pk}
