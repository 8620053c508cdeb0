"""Who follows whom (two who follow each other are friends), who blocked whom, and whether a
player hides their presence. Written only by social/services.py."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Follow(models.Model):
    """``follower`` follows ``followed``; both ways, they are friends."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("follower", "followed"), name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_self"),
        ]
        indexes = [models.Index(fields=("followed", "follower"))]
        verbose_name = _("follow")
        verbose_name_plural = _("follows")

    def __str__(self) -> str:
        return f"{self.follower_id} -> {self.followed_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: private (only the blocker and the staff see it)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("blocker", "blocked"), name="block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]
        indexes = [models.Index(fields=("blocked", "blocker"))]
        verbose_name = _("block")
        verbose_name_plural = _("blocks")

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class SocialSettings(models.Model):
    """A player's choices about being seen: ``hide_presence`` keeps their friends from seeing
    whether they are online and where they play."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="social"
    )
    hide_presence = models.BooleanField(_("hide my presence"), default=False)

    class Meta:
        verbose_name = _("presence setting")
        verbose_name_plural = _("presence settings")

    def __str__(self) -> str:
        return f"{self.user_id}: {'hidden' if self.hide_presence else 'shown'}"


class Invitation(models.Model):
    """``sender`` asks ``recipient`` (a friend) to sit at ``table``; answered once."""

    class Answer(models.TextChoices):
        WAITING = "", _("not answered")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent"
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    answer = models.CharField(max_length=8, choices=Answer.choices, blank=True, default="")
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=("recipient", "-at")),
            models.Index(fields=("sender", "-at")),
        ]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.sender_id} -> {self.recipient_id} at {self.table_id}: {self.answer or '…'}"
