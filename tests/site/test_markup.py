"""The light reader of start tags finds what the full reader finds."""

from tests.site.markup import elements, read, start_tags


def tags_of(page) -> list[tuple[str, dict]]:
    return [(element.tag, element.attrs) for element in page.descendants()]


def test_start_tags_give_every_element_and_attribute_the_full_reader_gives(player):
    player.take(27)
    answers = [
        player.page.content,
        player.take(27).content,  # refused: taken just now, or it does not fit
        player.post("draw").content,
        player.post("hint").content,
        player.client.get("/accounts/signup/").content,
    ]
    for answer in answers:
        assert tags_of(start_tags(answer)) == tags_of(read(answer))


def test_start_tags_read_quotes_entities_and_bare_attributes():
    html = """<p data-x='a > b' hidden data-y="&lt;&amp;" data-z=plain>text <b>bold</b></p>"""
    (p,) = elements(start_tags(html), "p")
    assert p.attrs == {"data-x": "a > b", "hidden": None, "data-y": "<&", "data-z": "plain"}
    assert [element.tag for element in start_tags(html).descendants()] == ["p", "b"]
