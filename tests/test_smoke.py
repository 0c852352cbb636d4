import pytest

from tests.browser.conftest import quiet


@pytest.mark.django_db
def test_home_page_renders(client):
    response = client.get("/")

    assert response.status_code == 200
    assert b"TriPeaks" in response.content


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_home_page_opens_in_a_browser(page):
    page.goto("/")

    assert page.title() == "TriPeaks"
    quiet(page)
