"""Staff pages for the live tables. Nothing here edits a logged action or a secret: matches and
their logs are read-only; staff may abort a stuck match (games.services.match_abort) and hide a
chat line."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import services
from games.models import ChatMessage, Majlis, Match, MatchAction, MatchSeed, Seat, Table


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
        "created_at",
        "started_at",
        "ended_at",
        "revealed_at",
    )
    readonly_fields = fields
    inlines = [SeedInline, ActionInline]
    actions = ["abort"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.action(description=_("Abort the selected matches (their secrets are revealed)"))
    def abort(self, request, queryset) -> None:
        done = 0
        for match in queryset:
            if not match.over:
                services.match_abort(match_id=match.pk)
                done += 1
        words = ngettext("%(n)d match aborted.", "%(n)d matches aborted.", done) % {"n": done}
        self.message_user(request, words, messages.SUCCESS)


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
