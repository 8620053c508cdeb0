"""Chat that stays decent: the words the filter knows, the players' mutes, their reports, the
staff's chat timeouts and bans from coin tables, and the log of every staff action. Written only
by social/moderation.py, above the tables (the word list also by staff in the admin; a player's
mutes at a table end when the table's seats service sees them leave it)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Severity(models.TextChoices):
    MASK = "mask", _("mask the word")
    REFUSE = "refuse", _("refuse the line")


class BannedWord(models.Model):
    """A word or phrase the chat filter looks for (moderation/wordfilter.py sees through its
    disguises); staff edit the list in the admin, which starts with moderation/words.py."""

    text = models.CharField(_("word or phrase"), max_length=80, unique=True)
    severity = models.CharField(
        _("severity"), max_length=6, choices=Severity.choices, default=Severity.MASK
    )
    active = models.BooleanField(_("active"), default=True)
    changed_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        ordering = ("text",)
        verbose_name = _("filtered word")
        verbose_name_plural = _("filtered words")

    def __str__(self) -> str:
        return self.text


class ChatMute(models.Model):
    """``user`` hides ``muted``'s lines at ``table`` until they leave it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("user", "table", "muted"), name="mute_once"),
            models.CheckConstraint(condition=~Q(user=F("muted")), name="mute_not_self"),
        ]
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id} at {self.table_id}"


class Report(models.Model):
    """A player reports another, with the chat as it was when they did (``chat``: the last
    lines, hidden ones included, each ``{id, at, user, name, text, hidden, chat}``)."""

    class Reason(models.TextChoices):
        INSULTS = "insults", _("insults or bad words")
        HARASSMENT = "harassment", _("harassment or threats")
        SPAM = "spam", _("spam or flooding")
        NAME = "name", _("an offensive name")
        OTHER = "other", _("something else")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        DISMISSED = "dismissed", _("dismissed")
        ACTED = "acted", _("acted on")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_made",
        verbose_name=_("reported by"),
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_against",
        verbose_name=_("player reported"),
    )
    reason = models.CharField(_("reason"), max_length=12, choices=Reason.choices)
    words = models.CharField(_("their words"), max_length=500, blank=True)
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )
    match = models.ForeignKey(
        "games.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )
    # The chat line reported, when a player reported one line (its menu in the chat).
    line = models.ForeignKey(
        "games.ChatMessage",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("line reported"),
    )
    chat = models.JSONField(_("the chat when reported"), default=list, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("handled by"),
    )
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)

    class Meta:
        ordering = ("-at",)
        indexes = [models.Index(fields=("status", "-at")), models.Index(fields=("reported", "-at"))]
        verbose_name = _("report")
        verbose_name_plural = _("reports")

    def __str__(self) -> str:
        return f"{self.reported} ({self.get_reason_display()})"


class TypedLine(models.Model):
    """A chat line as its writer typed it, when the word filter starred part of it (the line's
    ``text`` is what the players read) or refused it (``refused``: the line is kept hidden, its
    text empty): for the staff (a report, the admin), never sent to a player."""

    line = models.OneToOneField(
        "games.ChatMessage",
        on_delete=models.CASCADE,
        related_name="typed",
        verbose_name=_("line"),
    )
    text = models.CharField(_("as typed"), max_length=200)
    refused = models.BooleanField(_("refused by the word filter"), default=False)

    class Meta:
        verbose_name = _("line as typed")
        verbose_name_plural = _("lines as typed")

    def __str__(self) -> str:
        return self.text[:40]


class ChatTimeout(models.Model):
    """``user`` may not write in any chat until ``until``; they are shown ``reason``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_timeouts"
    )
    until = models.DateTimeField(_("until"))
    reason = models.CharField(_("reason"), max_length=200)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    report = models.ForeignKey(Report, on_delete=models.SET_NULL, null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=("user", "-until"))]
        verbose_name = _("chat timeout")
        verbose_name_plural = _("chat timeouts")

    def __str__(self) -> str:
        return f"{self.user} until {self.until:%Y-%m-%d %H:%M}"

    @property
    def running(self) -> bool:
        return self.until > timezone.now()


class CoinBan(models.Model):
    """``user`` may not sit at a coin table (free tables stay open to them)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="coin_ban"
    )
    reason = models.CharField(_("reason"), max_length=200)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("ban from coin tables")
        verbose_name_plural = _("bans from coin tables")

    def __str__(self) -> str:
        return str(self.user)


class StaffAction(models.Model):
    """The log: every moderation step a staff member took, when, on whom and why."""

    class Kind(models.TextChoices):
        DISMISS = "dismiss", _("dismissed the report")
        HIDE = "hide", _("hid chat lines")
        TIMEOUT = "timeout", _("chat timeout")
        COIN_BAN = "coin_ban", _("banned from coin tables")
        LIFT_COIN_BAN = "coin_unban", _("lifted the ban from coin tables")

    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("staff member"),
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="moderation_log",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("action"), max_length=10, choices=Kind.choices)
    report = models.ForeignKey(Report, on_delete=models.SET_NULL, null=True, blank=True)
    detail = models.CharField(_("detail"), max_length=300, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ("-at",)
        verbose_name = _("staff action")
        verbose_name_plural = _("staff actions")

    def __str__(self) -> str:
        return f"{self.staff}: {self.get_kind_display()} ({self.player})"
