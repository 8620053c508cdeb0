"""The staff's side of moderation's records: the filtered words (edited here), the chat timeouts
and bans from coin tables, and the log of every staff action (read-only). The moderation queue
(the reports, with their actions) is in social/admin.py, beside the services it calls."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from moderation.models import BannedWord, ChatTimeout, CoinBan, StaffAction, TypedLine


class ReadOnly(admin.ModelAdmin):
    """Records the staff read, never write by hand (the services write them)."""

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(BannedWord)
class BannedWordAdmin(admin.ModelAdmin):
    list_display = ("text", "severity", "active", "changed_at")
    list_editable = ("severity", "active")
    list_filter = ("severity", "active")
    search_fields = ("text",)


@admin.register(ChatTimeout)
class ChatTimeoutAdmin(ReadOnly):
    list_display = ("user", "until", "reason", "by", "at")
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "by")


@admin.register(CoinBan)
class CoinBanAdmin(ReadOnly):
    list_display = ("user", "reason", "by", "at")
    search_fields = ("user__username",)


@admin.register(StaffAction)
class StaffActionAdmin(ReadOnly):
    """The log: who did what, to whom, when and why. Nobody edits or deletes it."""

    list_display = ("at", "staff", "kind", "player", "detail", "report")
    list_filter = ("kind",)
    search_fields = ("player__username", "staff__username", "detail")
    list_select_related = ("staff", "player")

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(TypedLine)
class TypedLineAdmin(ReadOnly):
    """Chat lines as typed, where the filter starred or refused them (staff only)."""

    list_display = ("line", "text", "refused")
    list_filter = ("refused",)
    search_fields = ("text", "line__user__username")
    list_select_related = ("line",)
