"""A player's standing: one rating per mode, and the record of every rated match (the inputs a
rebuild starts from, and each player's change). Written only by standing/services.py."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

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

    rated_match = models.ForeignKey(RatedMatch, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    mode = models.CharField(_("mode"), max_length=20, choices=MODE_CHOICES)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("rated_match", "user"), name="rating_change_once")
        ]
        indexes = [models.Index(fields=("user", "mode", "id"))]

    def __str__(self) -> str:
        return f"{self.user_id} {self.mode}: {self.mu_before:.2f} -> {self.mu_after:.2f}"
