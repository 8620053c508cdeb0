"""Follows and blocks in the admin, read-only: staff see blocks (they are private to players)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from social.models import Block, Follow, SocialSettings


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False


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
