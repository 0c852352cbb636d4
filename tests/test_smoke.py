import pytest


@pytest.mark.django_db
def test_home_page_renders(client):
    response = client.get("/")

    assert response.status_code == 200
    assert b"TriPeaks" in response.content
