"""Persistence for deals, games and their append-only action logs; the rules live in game.engine.

A game's table is rebuilt from its deal and its log. The row keeps a snapshot (the moves in play
and every deck position ever shown) so a request need not replay the whole log, but the log is
the truth.
"""

from django.conf import settings
from django.db import IntegrityError, connections, models, router, transaction
from django.utils import timezone

from game.engine.deck import deck_for_number, format_deck, parse_deck
from game.engine.state import DRAW, UNDO, WILD


class Deal(models.Model):
    class Verdict(models.TextChoices):
        WINNABLE = "winnable", "winnable"
        UNWINNABLE = "unwinnable", "not winnable"
        UNKNOWN = "unknown", "unknown (out of budget)"

    deck = models.CharField(max_length=104, unique=True, help_text="Deck code, 52 cards.")
    number = models.BigIntegerField(null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number", "id"]

    def __str__(self):
        return self.identifier

    @property
    def identifier(self) -> str:
        """What players see and copy: the deal number where there is one, else the code."""
        return str(self.number) if self.number else self.deck

    @property
    def cards(self) -> tuple[int, ...]:
        return parse_deck(self.deck)

    @classmethod
    def for_number(cls, number: int) -> "Deal":
        """The deal of a number under this site's deal key."""
        deck = cls.deck_of(number)
        try:
            return cls._stored(deck, number)
        except IntegrityError:
            # The number is stored with another deck: the site's deal key has changed since. That
            # deal keeps its cards and games, named by its deck code from now on (unless another
            # request has just seen to it).
            cls.objects.filter(number=number).exclude(deck=deck).update(number=None)
            return cls._stored(deck, number)

    @staticmethod
    def deck_of(number: int) -> str:
        """The deck code of a deal number under this site's deal key."""
        return format_deck(deck_for_number(number, settings.TRIPEAKS_DEAL_KEY))

    @classmethod
    def for_code(cls, code: str) -> "Deal":
        """Raises DeckError for a malformed code."""
        return cls._stored(format_deck(parse_deck(code)), None)

    @classmethod
    def _stored(cls, deck: str, number: int | None) -> "Deal":
        """The deal of a deck code, made if it is new; a deal first started by its code gets its
        number when it is first started by the number. One upsert where get_or_create takes a
        read and an insert. The deal comes back with its deck and number loaded; anything else
        is read if asked for."""
        alias = router.db_for_write(cls)
        connection = connections[alias]
        created_at = cls._meta.get_field("created_at").get_db_prep_save(timezone.now(), connection)
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                # Requests inserting the same new deal at once collide on both its unique
                # columns, deck and number, which PostgreSQL can only settle for one of them
                # (the other fails, or the two deadlock). Taking the deal's turn first lets the
                # later request find the earlier one's row.
                cursor.execute(DEAL_TURN_SQL, [deck])
            cursor.execute(STORED_DEAL_SQL, [deck, number, created_at])
            pk, number = cursor.fetchone()
        return cls.from_db(alias, ["id", "deck", "number"], [pk, deck, number])


DEAL_TURN_SQL = "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))"
STORED_DEAL_SQL = """
INSERT INTO game_deal (deck, number, created_at) VALUES (%s, %s, %s)
ON CONFLICT (deck) DO UPDATE SET number = COALESCE(game_deal.number, excluded.number)
RETURNING id, number
"""


class Verdict(models.Model):
    """The exact solver's verdict on a deal under one rule set, worked out once (game.verdicts)."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="verdicts")
    rules = models.CharField(max_length=40)
    result = models.CharField(max_length=10, choices=Deal.Verdict.choices)
    nodes = models.PositiveIntegerField(help_text="Positions the solver searched for it.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deal", "rules"], name="one_verdict_per_rule_set")
        ]

    def __str__(self):
        return f"{self.deal} under {self.rules}: {self.result}"


class Game(models.Model):
    """One player's play of one deal."""

    class Scoring(models.TextChoices):
        NONE = "none", "unscored"
        PYSOL = "pysol", "PySolFC points"
        CLASSIC = "classic", "Hogue's original"

    class Status(models.TextChoices):
        # Labels as staff read them in lists and filters, all in lower case.
        PLAYING = "playing", "playing"
        WON = "won", "won"
        DEAD_END = "dead_end", "dead end"
        LEFT = "left", "left unfinished"
        SKIPPED = "skipped", "left untouched"

    # The foreign keys have no index of their own: each leads one of the indexes below, which
    # serves every lookup by it, and each index more is written on every move.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
        related_name="games", db_index=False,
    )  # fmt: skip
    session_key = models.CharField(
        max_length=40, blank=True, help_text="Owner while playing anonymously."
    )
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="games", db_index=False)
    rules = models.CharField(
        max_length=40, default="standard", help_text="The rule set: standard, or flags joined by +."
    )
    scoring = models.CharField(max_length=10, choices=Scoring.choices, default=Scoring.NONE)
    score = models.IntegerField(
        default=0, help_text="Snapshot: what the hand has made, worked out from the moves."
    )
    daily = models.DateField(
        null=True, blank=True, help_text="The daily deal's date, for the game that is its record."
    )
    # No index of its own: a status splits the games into a few large groups, and SQLite picks
    # such an index over the covering ones below, several times slower for the statistics.
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    revealed = models.BooleanField(
        default=False,
        help_text="Its player has seen the whole deal in its analysis: it takes no more moves.",
    )
    revealed_at = models.DateTimeField(
        null=True, blank=True, help_text="When its player saw the whole deal (since recorded)."
    )
    practice = models.BooleanField(
        default=False,
        help_text=(
            "Played with every card known (dealt from an analysis, or its deal seen whole): in no"
            " record; a scored hand keeps in the bank only what it had made before."
        ),
    )
    moves = models.JSONField(default=list, help_text="Snapshot: the moves in play.")
    seen = models.JSONField(default=list, help_text="Snapshot: deck positions ever shown.")
    cleared = models.PositiveSmallIntegerField(default=0)
    longest_run = models.PositiveSmallIntegerField(default=0)
    move_count = models.PositiveIntegerField(default=0, help_text="Takes and draws made.")
    undo_count = models.PositiveIntegerField(default=0)
    hint_count = models.PositiveIntegerField(default=0)
    active_ms = models.BigIntegerField(default=0, help_text="Clock time banked while paused.")
    running_since = models.DateTimeField(null=True, blank=True, help_text="Clock running since.")
    paused_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player's page stopped the clock, if it did."
    )
    version = models.PositiveIntegerField(
        default=0, help_text="Bumped by every move: a tap names the table version it was made for."
    )
    revision = models.PositiveIntegerField(
        default=0, help_text="Bumped by every write of the row; each write is conditional on it."
    )
    logged = models.PositiveIntegerField(
        default=0, help_text="Entries in the action log: the next one gets seq logged + 1."
    )
    started_at = models.DateTimeField(default=timezone.now)  # indexed with the status, below
    current_since = models.DateTimeField(
        default=timezone.now,
        help_text="When this became its player's table: the newest is the one `/` shows.",
    )
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        indexes = [
            # An anonymous player's games: every tap asks whether one is newer than its own.
            # Only anonymous games: a planner that also weighed "owner is none" by an index of
            # the owner would read every anonymous game's entry.
            models.Index(
                fields=["session_key", "-current_since"],
                condition=models.Q(owner=None),
                name="game_anonymous_by_recency",
            ),
            # A signed-in player's games: their record, by status, and the table `/` shows.
            models.Index(fields=["owner", "status"]),
            models.Index(fields=["owner", "-current_since"]),
            # Covering indexes for the staff statistics (game.stats): per deal and per day.
            models.Index(fields=["deal", "status", "practice", "rules"]),
            models.Index(fields=["started_at", "status", "practice"]),
            models.Index(fields=["-longest_run", "started_at"]),
            # The daily deals' records, for the day's results: only those games are indexed.
            models.Index(
                fields=["daily", "status"],
                condition=models.Q(daily__isnull=False),
                name="game_daily_records",
            ),
        ]
        constraints = [
            # One record of each day's daily deal per player (anonymous players by session).
            models.UniqueConstraint(
                fields=["owner", "daily"],
                condition=models.Q(owner__isnull=False, daily__isnull=False),
                name="one_daily_record_per_player",
            ),
            models.UniqueConstraint(
                fields=["session_key", "daily"],
                condition=models.Q(owner=None, daily__isnull=False),
                name="one_daily_record_per_session",
            ),
        ]

    def __str__(self):
        return f"Game {self.pk} of deal {self.deal}"

    @property
    def identifier(self) -> str:
        """The deal as players name it: the daily deal by its date, else the deal's identifier."""
        return f"daily {self.daily.isoformat()}" if self.daily else self.deal.identifier

    @property
    def name_in_play(self) -> str:
        """The deal as the table names it while it is played: never by its code, which would show
        every card (a deal typed by its code, or one whose number a new deal key has taken)."""
        if self.daily:
            return self.identifier
        return f"deal {self.deal.number}" if self.deal.number else "custom deal"

    @property
    def deal_name(self) -> str:
        """The deal as a heading names it: "daily 2026-12-05", "deal 77", "deal" and its code."""
        return self.identifier if self.daily else f"deal {self.deal.identifier}"

    PLAYED = (Status.WON, Status.DEAD_END, Status.LEFT)
    """The statuses of a played game: finished after a card was taken or drawn. A deal left
    untouched (skipped) and a game still in progress are not played."""

    def left_status(self) -> str:
        """What leaving this game in progress makes it: left once a card was taken or drawn."""
        return self.Status.LEFT if self.move_count else self.Status.SKIPPED

    def elapsed_ms(self, now=None) -> int:
        """Active time: what is banked plus the stretch the clock has been running."""
        if self.running_since is None:
            return self.active_ms
        now = now or timezone.now()
        return self.active_ms + int((now - self.running_since).total_seconds() * 1000)


class Action(models.Model):
    """One entry of a game's append-only log."""

    class Kind(models.TextChoices):
        TAKE = "take"
        DRAW = "draw"
        WILD = "wild", "wild card"
        UNDO = "undo"
        HINT = "hint"
        NEW = "new", "new deal"
        REPLAY = "replay"
        PAUSE = "pause"
        RESUME = "resume"
        WIN = "win"
        DEAD_END = "dead_end", "dead end"

    # No index of its own: the one on (game, seq) below serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="actions", db_index=False)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, db_index=True)
    pos = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Card taken.")
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["game_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_action_per_seq"),
        ]

    def __str__(self):
        return f"{self.kind} {self.pos}" if self.pos is not None else self.kind

    @property
    def move(self):
        """What the entry does to the table: a position, "draw", "wild", "undo", or None for
        entries that leave it as it is (hints, pauses...)."""
        if self.kind == self.Kind.TAKE:
            return self.pos
        moves = {self.Kind.DRAW: DRAW, self.Kind.WILD: WILD, self.Kind.UNDO: UNDO}
        return moves.get(self.kind)


class Analysis(models.Model):
    """The exact solver's look back at a finished game (game.engine.analysis), worked out once."""

    game = models.OneToOneField(
        Game, primary_key=True, on_delete=models.CASCADE, related_name="analysis"
    )
    winnable = models.BooleanField(
        null=True, help_text="Whether the deal could be won from the start; empty: undecided."
    )
    last_winnable = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The most moves played after which a win was possible."
    )
    losing_move = models.JSONField(null=True, blank=True, help_text="The move that lost it.")
    line = models.JSONField(default=list, help_text="A winning line from there.")
    solves = models.PositiveSmallIntegerField(default=0)
    computed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "analyses"

    def __str__(self):
        return f"Analysis of game {self.game_id}"
