"""The standing in the admin, read-only: ratings change only as matches end (a rebuild checks)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from standing.models import MatchRecord, PlayerStanding, RatedMatch, Rating, RatingChange


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("user", "mode", "mu", "sigma", "rated", "updated_at")
    list_filter = ("mode",)
    search_fields = ("user__username", "user__display_name")


@admin.register(RatedMatch)
class RatedMatchAdmin(ReadOnly):
    list_display = ("match", "mode", "rated", "at")
    list_filter = ("mode", "rated")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = ("user", "mode", "rated_match", "mu_before", "mu_after")
    list_filter = ("mode",)


@admin.register(MatchRecord)
class MatchRecordAdmin(ReadOnly):
    list_display = ("user", "match", "mode", "status", "place", "left", "coins", "rating")
    list_filter = ("mode", "status", "left", "rated")
    search_fields = ("user__username", "user__display_name", "match__public_id")
    list_select_related = ("user", "match")


@admin.register(PlayerStanding)
class PlayerStandingAdmin(admin.ModelAdmin):
    """Read-only but for the lock-out: staff may lift one (or set one) by hand."""

    list_display = ("user", "recent", "leaves", "last_left_at", "locked_until")
    search_fields = ("user__username", "user__display_name")
    readonly_fields = ("user", "recent", "shown", "totals", "leaves", "last_left_at")
    fields = (*readonly_fields, "locked_until")

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False
