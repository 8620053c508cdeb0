"""A player's standing: one rating per mode, and the record of every rated match (the inputs a
rebuild starts from, and each player's change). Written only by standing/services.py."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from standing.ratings import MODES, START_MU, START_SIGMA

MODE_CHOICES = [
    ("hand-solo", _("Hand, each for himself")),
    ("hand-partners", _("Hand, partners")),
    ("jakaro-2", _("Jakaro, two players")),
    ("jakaro-partners", _("Jakaro, partners")),
]
assert [m for m, _w in MODE_CHOICES] == list(MODES)


class Rating(models.Model):
    """A player's rating in one mode (openskill's mu and sigma, as doubles: a rebuild gives the
    very same floats)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    mode = models.CharField(_("mode"), max_length=20, choices=MODE_CHOICES)
    mu = models.FloatField(default=START_MU)
    sigma = models.FloatField(default=START_SIGMA)
    rated = models.PositiveIntegerField(_("rated matches"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=("user", "mode"), name="rating_once")]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.user_id} {self.mode}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatedMatch(models.Model):
    """A finished match, seen once by the standing (the key of "exactly once"): its mode,
    whether it was rated (a bot seated from the start makes it unrated), and its players as
    they counted, in seat order: [{"seat", "user", "place", "team", "left"}]."""

    match = models.OneToOneField(
        "games.Match", on_delete=models.PROTECT, primary_key=True, related_name="rated"
    )
    mode = models.CharField(_("mode"), max_length=20, choices=MODE_CHOICES)
    rated = models.BooleanField(_("rated"), default=True)
    players = models.JSONField(default=list)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rated match")
        verbose_name_plural = _("rated matches")

    def __str__(self) -> str:
        return f"{self.match_id} {self.mode}{'' if self.rated else ' (unrated)'}"


class RatingChange(models.Model):
    """One player's rating before and after one rated match."""

    rated_match = models.ForeignKey(
        RatedMatch, on_delete=models.CASCADE, related_name="changes", verbose_name=_("rated match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
    )
    mode = models.CharField(_("mode"), max_length=20, choices=MODE_CHOICES)
    mu_before = models.FloatField(_("skill before (μ)"))
    sigma_before = models.FloatField(_("uncertainty before (σ)"))
    mu_after = models.FloatField(_("skill after (μ)"))
    sigma_after = models.FloatField(_("uncertainty after (σ)"))

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("rated_match", "user"), name="rating_change_once")
        ]
        indexes = [models.Index(fields=("user", "mode", "id"))]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")

    def __str__(self) -> str:
        return f"{self.user_id} {self.mode}: {self.mu_before:.2f} -> {self.mu_after:.2f}"


class MatchRecord(models.Model):
    """One player's line in their history: a match they sat in from its start or joined, as it
    ended (finished or aborted). Written once, by the match's ending (standing/services.py
    ``match_ended``); the history, the statistics, head-to-head and the 30-day board read it."""

    class Status(models.TextChoices):
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("cancelled")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_records"
    )
    match = models.ForeignKey("games.Match", on_delete=models.PROTECT, related_name="records")
    game = models.CharField(_("game"), max_length=16)
    mode = models.CharField(_("mode"), max_length=20, choices=MODE_CHOICES)
    seat = models.PositiveSmallIntegerField(_("seat"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    rated = models.BooleanField(_("rated"), default=False)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    won = models.BooleanField(_("won"), default=False)  # first place (alone or shared)
    left = models.BooleanField(pgettext_lazy("a seat whose player left", "left"), default=False)
    # What a finished match gave (+) or cost (-); for a cancelled one, the stake refunded.
    coins = models.BigIntegerField(_("coins"), default=0)
    rating = models.IntegerField(_("rating after"), null=True, blank=True)  # shown number
    rating_change = models.IntegerField(_("rating change"), null=True, blank=True)
    provisional = models.BooleanField(default=False)
    stats = models.JSONField(_("statistics"), default=dict, blank=True)  # the seat's tally
    ended_at = models.DateTimeField(_("ended at"))

    class Meta:
        constraints = [models.UniqueConstraint(fields=("match", "user"), name="record_once")]
        indexes = [
            models.Index(fields=("user", "-ended_at", "-id"), name="record_history"),
            # A mode's chart: its last ratings, however many matches of other modes came since.
            models.Index(fields=("user", "mode", "-ended_at", "-id"), name="record_mode_history"),
            models.Index(fields=("mode", "ended_at"), name="record_board"),
        ]
        verbose_name = _("match record")
        verbose_name_plural = _("match records")

    def __str__(self) -> str:
        return f"{self.user_id} {self.match_id} {self.status} place {self.place}"


class PlayerStanding(models.Model):
    """What a player's pages and seat show at a glance, kept up to date by every ending and
    every seat given up: the recent matches finished or left (the reputation), the lock-out
    after repeated leaving, each mode's shown rating and running totals."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="standing",
    )
    # The last RECENT counted matches, oldest first: "F" finished, "L" left.
    recent = models.CharField(max_length=64, blank=True, default="")
    # {mode: [shown, provisional]}: the seat at a table shows it without reading Rating.
    shown = models.JSONField(default=dict, blank=True)
    # {mode: {"played", "won", "left", "coins", and the game's tally counts}}
    totals = models.JSONField(default=dict, blank=True)
    leaves = models.PositiveSmallIntegerField(_("leaves in a row"), default=0)
    last_left_at = models.DateTimeField(_("last left at"), null=True, blank=True)
    locked_until = models.DateTimeField(_("locked out until"), null=True, blank=True)

    class Meta:
        verbose_name = _("player standing")
        verbose_name_plural = _("player standings")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.recent}"
