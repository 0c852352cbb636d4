import pytest


def test_home_page_renders(client):
    response = client.get("/")

    assert response.status_code == 200
    assert b"TriPeaks" in response.content


@pytest.mark.browser
def test_home_page_opens_in_a_browser(page):
    page.goto("/")

    assert page.title() == "TriPeaks"
