"""The live tables: rooms (majlis), tables, seats, matches and their append-only action logs.

A match is its log: ``MatchAction`` rows, replayed from the match's random source (its secret,
the game, its public id and the players' browser seeds), give the state; ``Match.snapshot`` is a
cache of that state. Every state change goes through games/services/.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.endings import EndReason
from games.registry import NAMES

GAME_CHOICES = [(name, name) for name in NAMES]


def new_public_id() -> str:
    """A match's or table's public id: unguessable, URL-safe, a fairness token
    (docs/fairness.md)."""
    return secrets.token_hex(8)


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


# A private table's short code: easy to say aloud (no 0/O, 1/I/L, 2/Z, 5/S, 8/B lookalikes),
# eight letters in two groups, 25**8 (1.5e11) codes: not found by trying.
CODE_ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"


def new_invite_code() -> str:
    letters = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
    return f"{letters[:4]}-{letters[4:]}"


def normal_code(text: str) -> str:
    """What a player typed, as the stored code: upper case, spaces and dashes dropped, the
    dash put back."""
    letters = "".join(c for c in str(text).upper() if c.isalnum())
    return f"{letters[:4]}-{letters[4:]}" if len(letters) == 8 else ""


class Majlis(models.Model):
    """A named room with default table options; staff manage them in the admin."""

    name = models.CharField(_("name"), max_length=60)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    description = models.CharField(_("description"), max_length=200, blank=True)
    # {"hand": {...options...}, "jakaro": {...}}: what the create form starts from.
    default_options = models.JSONField(_("default options"), default=dict, blank=True)
    active = models.BooleanField(pgettext_lazy("a majlis accepting tables", "open"), default=True)
    order = models.PositiveIntegerField(_("order"), default=0)

    class Meta:
        ordering = ("order", "name")
        verbose_name = _("majlis")
        verbose_name_plural = _("majlis rooms")

    def __str__(self) -> str:
        return self.name


# The bots' strengths (games.contract.BOT_LEVELS), as the create form and the admin show them.
BOT_LEVEL_CHOICES = [
    ("easy", pgettext_lazy("a bot's strength", "easy")),
    ("normal", pgettext_lazy("a bot's strength", "normal")),
    ("strong", pgettext_lazy("a bot's strength", "strong")),
]


class Table(models.Model):
    """Where a game is played, match after match, by the same seats."""

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        PLAYING = "playing", _("playing")
        CLOSED = "closed", _("closed")

    public_id = models.CharField(_("id"), max_length=32, unique=True, default=new_public_id)
    majlis = models.ForeignKey(
        Majlis, on_delete=models.PROTECT, related_name="tables", verbose_name=_("majlis")
    )
    game = models.CharField(_("game"), max_length=16, choices=GAME_CHOICES)
    options = models.JSONField(_("options"))
    private = models.BooleanField(_("private"), default=False)
    invite_token = models.CharField(
        _("invite token"), max_length=32, unique=True, default=new_invite_token
    )
    invite_code = models.CharField(
        _("invite code"), max_length=9, unique=True, default=new_invite_code
    )
    # Coins each seat puts in the pot (escrowed); 0 is a free table (bots may sit).
    stake = models.PositiveIntegerField(_("stake"), default=0)
    # The share of recent matches a player must have finished to sit here (0: anyone).
    min_reputation = models.PositiveSmallIntegerField(_("minimum reputation (%)"), default=0)
    # How well the bots its creator seats play (a free table's; docs/bots.md).
    bot_level = models.CharField(
        _("bot strength"), max_length=6, choices=BOT_LEVEL_CHOICES, default="normal"
    )
    turn_seconds = models.PositiveIntegerField(_("turn time (s)"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tables_created",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Bumped by every change to the table's chat (a line posted or hidden): a broadcast's chat
    # lines are read once per change, not once per move (games.chat_lines.chat_lines' cache key).
    chat_seq = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ("-created_at",)
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        indexes = [models.Index(fields=("status", "private"))]

    def __str__(self) -> str:
        return f"{self.game} {self.public_id}"

    @property
    def is_free(self) -> bool:
        return self.stake == 0

    @property
    def group(self) -> str:
        """The channel-layer group of everyone watching this table."""
        return f"table.{self.public_id}"


class Seat(models.Model):
    """A chair at a table: a player, a bot, or empty. A player who leaves a free table for too
    long is replaced by a bot (``bot_playing``) and keeps the right to take the seat back."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    number = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
        verbose_name=_("player"),
    )
    is_bot = models.BooleanField(_("bot"), default=False)  # a bot sat here from the start
    # That bot's strength (docs/bots.md; one playing for an absent player plays at "normal").
    bot_level = models.CharField(
        _("bot strength"), max_length=6, choices=BOT_LEVEL_CHOICES, default="normal"
    )
    # A bot plays for the absent player.
    bot_playing = models.BooleanField(_("a bot plays for the player"), default=False)
    # Coin tables: the player's seat is marked as left.
    left = models.BooleanField(pgettext_lazy("a seat whose player left", "left"), default=False)
    # Sockets its player has open to the table (the sum of their Presence rows).
    connected = models.PositiveSmallIntegerField(_("open sockets"), default=0)
    away_since = models.DateTimeField(
        _("away since"), null=True, blank=True
    )  # the last socket closed then
    ready = models.BooleanField(_("ready"), default=False)  # for the next match at this table
    # The player came back while the seat was kept (the start of that absence): their page warns
    # them what a longer absence costs until their next move (games.services.presence._recount).
    back_from = models.DateTimeField(_("back from an absence at"), null=True, blank=True)

    class Meta:
        ordering = ("table", "number")
        constraints = [
            models.UniqueConstraint(fields=("table", "number"), name="seat_unique_number"),
            models.UniqueConstraint(
                fields=("table", "user"),
                condition=models.Q(user__isnull=False),
                name="seat_one_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}"

    @property
    def empty(self) -> bool:
        return self.user_id is None and not self.is_bot

    @property
    def played_by_bot(self) -> bool:
        return self.is_bot or self.bot_playing


class WebProcess(models.Model):
    """A web server process that serves sockets. It says it is alive every PRESENCE_BEAT_S; one
    not seen for PRESENCE_LEASE_S has ended without closing its sockets (a crash, a deploy's
    restart), and the sockets it counted are taken off the seats (services.processes_gone)."""

    id = models.CharField(max_length=80, primary_key=True)  # host:pid:random
    started_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return self.id


class Presence(models.Model):
    """How many sockets ``user`` has open to ``table`` through one web process. A seat's
    ``connected`` is the sum over its player's rows, so it stays right when a process ends without
    a word for its sockets, when one person has several tabs, and when a watcher sits down."""

    # No database constraint: its check would take a share lock on the table's row, and a
    # socket opening must never wait on a move or a match's end that holds it.
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="presence", db_constraint=False
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    process = models.CharField(max_length=80, db_index=True)  # a WebProcess id
    sockets = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=("table", "user", "process"), name="presence_one_row_per_process"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id} via {self.process}: {self.sockets}"


class Match(models.Model):
    """One match at a table, from its commitment (fixed when the table, or the next match, is
    created, before anyone sits) to its revealed secret."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for players")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    public_id = models.CharField(_("id"), max_length=32, unique=True, default=new_public_id)
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="matches", verbose_name=_("table")
    )
    number = models.PositiveIntegerField(
        _("number at its table"), default=1
    )  # 1, 2, ... at this table
    game = models.CharField(_("game"), max_length=16, choices=GAME_CHOICES)
    options = models.JSONField(_("options"))
    commitment = models.CharField(_("commitment"), max_length=64)
    # Hex; never leaves the server before the match ends or is aborted (``revealed_at``).
    secret = models.CharField(_("secret"), max_length=64)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    seq = models.PositiveIntegerField(_("actions logged"), default=0)  # actions logged so far
    deadline = models.DateTimeField(
        _("deadline"), null=True, blank=True
    )  # when the due action is played
    # When the countdown task already queued for this match fires (None: none queued). A new
    # deadline at or after it needs no task of its own: that one re-queues itself for the
    # deadline (games.services.clock.schedule), so a person's move sends no task at all.
    timer_at = models.DateTimeField(null=True, blank=True, editable=False)
    snapshot = models.TextField(blank=True)  # the engine's to_json after action ``seq``
    outcome = models.JSONField(_("outcome"), null=True, blank=True)
    # Why it ended, if not played to the end (EndReason), for the players' pages and wallets.
    end_reason = models.CharField(
        _("why it ended"), max_length=16, choices=EndReason.choices, blank=True, default=""
    )
    # The seats given up during the match (away past SEAT_KEEP_SECONDS, or the player left):
    # [{"seat": n, "user": id, "name": display name, "why": "away" | "forfeit", "at": ISO}].
    # Kept on the match because the seat is emptied when it ends: its result, end screen and
    # the leaver's wallet still name her, marked as left.
    leavers = models.JSONField(_("players who left"), default=list, blank=True)
    # Who sat in each seat when a played match ended, by seat number ([{"user", "name", "bot",
    # "level"}]: a bot's strength). The players move one seat when the next match is made (the
    # deal moves on, games/services/play.py), so the match shown between matches names its
    # seats, and shows each player their own side, from this, not from the seats.
    seating = models.JSONField(_("seating"), default=list, blank=True, editable=False)
    # Each seat's statistics so far ({"0": {"home": 3, ...}}: the game's ``tally`` of every
    # logged action added up), kept by the player's standing when the match ends.
    tally = models.JSONField(_("statistics"), default=dict, blank=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    revealed_at = models.DateTimeField(_("revealed at"), null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=("table", "number"), name="match_unique_number"),
        ]
        indexes = [models.Index(fields=("status", "deadline"))]

    def __str__(self) -> str:
        return f"{self.game} match {self.public_id}"

    @property
    def revealed(self) -> bool:
        return self.revealed_at is not None

    @property
    def over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    def left_by(self, user_id: int | None) -> dict | None:
        """The leaver record of ``user_id`` in this match, if they gave their seat up."""
        return next((r for r in self.leavers if r.get("user") == user_id), None)


class MatchSeed(models.Model):
    """A seed a player's browser made for one match, sent with the sit-down (or the "ready" for
    the next match at the table), after the commitment was shown. Bots add none."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seeds", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    seed = models.CharField(_("seed"), max_length=128)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, verbose_name=_("player")
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ("match", "seat")
        constraints = [
            models.UniqueConstraint(fields=("match", "seat"), name="seed_one_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} seat {self.seat}: {self.seed}"


class MatchAction(models.Model):
    """One logged action, append-only: the canonical action text the engine accepted."""

    class By(models.TextChoices):
        PLAYER = "player", _("player")
        BOT = "bot", _("bot")
        TIMEOUT = "timeout", _("time-out")
        SERVER = "server", _("server")

    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="actions", verbose_name=_("match")
    )
    seq = models.PositiveIntegerField(_("number"))  # 1, 2, ...
    seat = models.PositiveSmallIntegerField(
        _("seat"), null=True, blank=True
    )  # None: the server's own
    action = models.CharField(_("action"), max_length=200)
    by = models.CharField(_("by"), max_length=8, choices=By.choices)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ("match", "seq")
        constraints = [
            models.UniqueConstraint(fields=("match", "seq"), name="action_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq} {self.seat}: {self.action}"


class ChatMessage(models.Model):
    """A line of table chat, of one team's chat (``team`` set), or of the watchers' chat
    (``watchers``)."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="chat", verbose_name=_("table")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, verbose_name=_("player")
    )
    team = models.PositiveSmallIntegerField(_("team"), null=True, blank=True)
    text = models.CharField(_("text"), max_length=200)
    at = models.DateTimeField(_("at"), auto_now_add=True)
    hidden = models.BooleanField(_("hidden by staff"), default=False)
    # Written by a watcher: the watchers' chat, which the players read only between rounds.
    watchers = models.BooleanField(_("watchers' chat"), default=False)

    class Meta:
        ordering = ("table", "at")
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self) -> str:
        return self.text[:40]
