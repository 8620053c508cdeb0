"""Follows and blocks in the admin, read-only (staff see blocks: they are private to players);
and the moderation queue: open reports, newest first, each with its saved chat, the player's
earlier reports and timeouts, and one-click actions (social/moderation.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils import translation
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from games.faces import game_name
from moderation.admin import ReadOnly
from moderation.models import ChatTimeout, CoinBan, Report, StaffAction
from social import moderation as services
from social.models import Block, Follow, SocialSettings

# The staff read a timeout's length and a saved line's chat in their language, not as the keys
# the records keep ("24h", "team").
TIMEOUT_WORDS = {"1h": _("1 hour"), "24h": _("24 hours"), "7d": _("7 days")}
CHAT_WORDS = {"table": _("table"), "team": _("team"), "watchers": _("watchers")}


def _shown_line(line: dict[str, Any]) -> dict[str, Any]:
    """A saved chat line as the queue shows it: its time a datetime, its chat in words."""
    return {
        **line,
        "at": parse_datetime(line["at"]),
        "chat": CHAT_WORDS.get(line["chat"], line["chat"]),
    }


def _game_link(record: Any, url_name: str) -> str:
    """A table or a match as a link to its page: the game's name and its public id."""
    if record is None:
        return "—"
    url = reverse(url_name, args=[record.public_id])
    return format_html('<a href="{}">{} {}</a>', url, game_name(record.game), record.public_id)


@admin.register(Follow)
class FollowAdmin(ReadOnly):
    list_display = ("follower", "followed", "at")
    search_fields = ("follower__username", "followed__username")
    list_select_related = ("follower", "followed")


@admin.register(Block)
class BlockAdmin(ReadOnly):
    list_display = ("blocker", "blocked", "at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")


@admin.register(SocialSettings)
class SocialSettingsAdmin(ReadOnly):
    list_display = ("user", "hide_presence")


@admin.register(Report)
class ReportAdmin(ReadOnly):
    """The moderation queue: the changelist opens on the open reports, newest first."""

    list_display = ("at", "reported", "reason", "reporter", "where", "status", "handled_by")
    list_filter = ("status", "reason")
    list_select_related = ("reported", "reporter", "table", "handled_by")
    search_fields = ("reported__username", "reporter__username", "words")
    ordering = ("-at",)
    change_form_template = "admin/moderation/report/change_form.html"
    readonly_fields = ("reporter", "reported", "reason", "words", "where", "match_shown", "at")
    fields = (*readonly_fields, "status", "handled_by", "handled_at")

    # The table and the match by the game's name in the staff's language, each a link to what a
    # player would open (the table's page, the match's Verify page), not as the records print
    # themselves ("hand 36b9…").
    @admin.display(description=_("table"), ordering="table")
    def where(self, report: Report) -> str:
        return _game_link(report.table, "games:table")

    @admin.display(description=_("match"))
    def match_shown(self, report: Report) -> str:
        return _game_link(report.match, "verify:match")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A report is the player's word and the chat it saved: the staff close it by acting or
        # dismissing (both logged), never by making it disappear.
        return False

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        # The queue: open reports unless the staff member chose another filter.
        if not any(k.startswith("status") for k in request.GET) and "q" not in request.GET:
            return redirect(f"{request.path}?status__exact={Report.Status.OPEN}")
        return super().changelist_view(request, extra_context)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        report = get_object_or_404(Report, pk=object_id)
        earlier = Report.objects.filter(reported=report.reported).exclude(pk=report.pk)
        # The reason a timeout or a ban shows the player, in their language, ready to send.
        with translation.override(report.reported.language or "ar"):
            default_reason = str(report.get_reason_display())
        extra = {
            "report": report,
            "chat": [_shown_line(line) for line in report.chat],
            "earlier_reports": earlier.select_related("reporter")[:20],
            "timeouts": ChatTimeout.objects.filter(user=report.reported).order_by("-at")[:20],
            "coin_ban": CoinBan.objects.filter(user=report.reported).first(),
            "log": StaffAction.objects.filter(player=report.reported).select_related("staff")[:20],
            "lengths": [(key, TIMEOUT_WORDS[key]) for key in services.TIMEOUTS],
            "default_reason": default_reason,
            "act_url": reverse("admin:moderation_report_act", args=[report.pk]),
        }
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **extra})

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("<int:report_id>/act/", view(self.act_view), name="moderation_report_act"),
            *super().get_urls(),
        ]

    @staticmethod
    def _act(request: HttpRequest, report: Report, action: str, reason: str) -> str:
        """One staff action on ``report``; the words that say what was done."""
        staff, player = request.user, report.reported
        if action == "dismiss":
            services.dismiss(staff=staff, report=report, note=reason)
            return str(_("The report is dismissed."))
        if action == "hide":
            done = services.hide_lines(staff=staff, report=report)
            return str(_("%(n)s of their lines are hidden.") % {"n": done})
        if action.startswith("timeout_") and action[8:] in services.TIMEOUTS:
            services.time_out(
                staff=staff, player=player, length=action[8:], reason=reason, report=report
            )
            return str(_("%(name)s is timed out of chat.") % {"name": player})
        if action == "coin_ban":
            services.ban_from_coin_tables(staff=staff, player=player, reason=reason, report=report)
            return str(_("%(name)s may no longer sit at coin tables.") % {"name": player})
        if action == "coin_unban":
            services.lift_coin_ban(staff=staff, player=player)
            return str(_("%(name)s may sit at coin tables again.") % {"name": player})
        raise ValueError(action)

    def act_view(self, request: HttpRequest, report_id: int) -> HttpResponse:
        return require_POST(self._act_view)(request, report_id)

    def _act_view(self, request: HttpRequest, report_id: int) -> HttpResponse:
        if not self.has_view_permission(request) or not request.user.has_perm(
            "moderation.add_staffaction"
        ):
            raise PermissionDenied
        report = get_object_or_404(Report, pk=report_id)
        action = request.POST.get("action", "")
        reason = " ".join(request.POST.get("reason", "").split())
        back = reverse("admin:moderation_report_change", args=[report.pk])
        needs_reason = action.startswith("timeout_") or action == "coin_ban"
        if needs_reason and not reason:
            messages.error(request, _("Write the reason the player will be shown."))
            return redirect(back)
        try:
            done = self._act(request, report, action, reason)
        except ValueError:
            messages.error(request, _("That is not one of the actions."))
            return redirect(back)
        messages.success(request, done)
        return redirect(reverse("admin:moderation_report_changelist"))
