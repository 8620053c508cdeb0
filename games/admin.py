"""Staff pages for the live tables. Nothing here edits a logged action or a secret: matches and
their logs are read-only; staff may abort a stuck match (games.services.match_abort) and hide a
chat line."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import services
from games.models import ChatMessage, Majlis, Match, MatchAction, MatchSeed, Seat, Table
from wallet import selectors as wallet_selectors


@admin.register(Majlis)
class MajlisAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "active", "order")
    list_editable = ("active", "order")
    prepopulated_fields = {"slug": ("name",)}


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("number", "user", "is_bot", "bot_playing", "left", "connected", "away_since")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("public_id", "game", "majlis", "status", "private", "stake", "created_by")
    list_filter = ("game", "status", "private", "majlis")
    search_fields = ("public_id", "created_by__username")
    readonly_fields = (
        "public_id",
        "game",
        "options",
        "invite_token",
        "stake",
        "turn_seconds",
        "status",
        "created_by",
        "created_at",
        "majlis",
        "private",
    )
    inlines = [SeatInline]

    def has_add_permission(self, request) -> bool:
        return False  # tables are made by players, through the services


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class ActionInline(ReadOnlyInline):
    model = MatchAction
    fields = ("seq", "seat", "action", "by", "at")
    readonly_fields = fields


class SeedInline(ReadOnlyInline):
    model = MatchSeed
    fields = ("seat", "user", "seed", "at")
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("public_id", "game", "table", "number", "status", "seq", "deadline")
    list_filter = ("game", "status")
    search_fields = ("public_id", "table__public_id")
    # The secret is not listed: it is shown on the Verify page once revealed.
    fields = (
        "public_id",
        "table",
        "number",
        "game",
        "options",
        "commitment",
        "status",
        "seq",
        "deadline",
        "outcome",
        "end_reason",
        "leavers",
        "created_at",
        "started_at",
        "ended_at",
        "revealed_at",
    )
    readonly_fields = fields
    inlines = [SeedInline, ActionInline]
    actions = ["abort"]
    change_form_template = "admin/games/match/change_form.html"

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("<int:match_id>/abort/", view(self.abort_view), name="games_match_abort"),
            *super().get_urls(),
        ]

    def _confirmation(self, request: HttpRequest, matches: list[Match], **extra: Any) -> Any:
        """The page staff see before a match is aborted: each match that is not over, and for a
        coin match how many coins go back to whom (the refund, wallet.services.refund)."""
        rows = [
            {"match": m, "refunds": wallet_selectors.refunds_of(m), "stake": m.table.stake}
            for m in matches
            if not m.over
        ]
        ctx = {
            **self.admin_site.each_context(request),
            "title": _("Abort these matches?"),
            "opts": self.model._meta,
            "rows": rows,
            "done": [m for m in matches if m.over],
            **extra,
        }
        return TemplateResponse(request, "admin/games/match/abort_confirm.html", ctx)

    def _abort(self, request: HttpRequest, matches: list[Match]) -> int:
        done = 0
        for match in matches:
            if not match.over:
                services.match_abort(match_id=match.pk)
                done += 1
        words = ngettext("%(n)d match aborted.", "%(n)d matches aborted.", done) % {"n": done}
        self.message_user(request, words, messages.SUCCESS)
        return done

    @admin.action(description=_("Abort the selected matches (their secrets are revealed)"))
    def abort(self, request, queryset) -> Any:
        """Asks first (an intermediate page, like Django's own delete); the page's "Yes" sends
        the action again with ``confirm``."""
        matches = list(queryset.select_related("table"))
        if request.POST.get("confirm") != "yes":
            return self._confirmation(
                request,
                matches,
                action_checkbox_name=helpers.ACTION_CHECKBOX_NAME,
                selected=[m.pk for m in matches],
            )
        self._abort(request, matches)
        return None

    def abort_view(self, request: HttpRequest, match_id: int) -> HttpResponse:
        """One match: GET asks (with the coins that go back), a POST with ``confirm`` aborts."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        match = get_object_or_404(Match.objects.select_related("table"), pk=match_id)
        if request.method == "POST" and request.POST.get("confirm") == "yes":
            self._abort(request, [match])
            return redirect(reverse("admin:games_match_change", args=[match.pk]))
        return self._confirmation(request, [match], one=match)


@admin.register(ChatMessage)
class ChatAdmin(admin.ModelAdmin):
    list_display = ("at", "table", "user", "team", "text", "hidden")
    list_filter = ("hidden",)
    search_fields = ("text", "user__username", "table__public_id")
    readonly_fields = ("table", "user", "team", "text", "at")
    list_editable = ("hidden",)
    actions = ["hide"]

    def has_add_permission(self, request) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        if "hidden" in form.changed_data:  # the table's cached chat lines must be read again
            services.chat_changed(obj.table)

    @admin.action(description=_("Hide the selected messages"))
    def hide(self, request, queryset) -> None:
        services.chat_hide(message_ids=list(queryset.values_list("pk", flat=True)))
