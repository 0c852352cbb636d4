"""The site's own URL converter: `<game:game_id>` in every URL that names a game."""


class GameId:
    """A game's id: at most 18 digits, so that any id in a URL fits the database's integers."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
