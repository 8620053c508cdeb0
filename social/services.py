"""Following and blocking: the one writer of Follow, Block and SocialSettings. Each change
tells the two players' open pages (their lobby sockets, social/consumers.py) after commit, so
a friends list and whose presence a socket follows stay right."""

from __future__ import annotations

from typing import Any

from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db import transaction

from realtime import groups
from social.errors import SocialError
from social.models import Block, Follow, SocialSettings


def other_player(user: Any, username: str) -> Any:
    """The active player ``username``, who is not ``user``; SocialError otherwise."""
    other = get_user_model().objects.filter(username=username, is_active=True).first()
    if other is None:
        raise SocialError("no_such_player")
    if other.pk == user.pk:
        raise SocialError("yourself")
    return other


def friends_changed(*user_ids: int) -> None:
    """After commit: each of these players' sockets reads their friends again."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            for user_id in set(user_ids):
                groups.send(layer, groups.USER.name(user_id), groups.USER.event("friends.changed"))

    transaction.on_commit(send)


@transaction.atomic
def follow(*, user: Any, username: str) -> Follow:
    """``user`` follows ``username`` (refused between two players one of whom blocked the
    other: a block keeps a player from following you, and you from following them)."""
    other = other_player(user, username)
    if (
        Block.objects.filter(blocker=other, blocked=user).exists()
        or Block.objects.filter(blocker=user, blocked=other).exists()
    ):
        raise SocialError("cannot_follow")
    made, _new = Follow.objects.get_or_create(follower=user, followed=other)
    friends_changed(user.pk, other.pk)
    return made


@transaction.atomic
def unfollow(*, user: Any, username: str) -> None:
    other = other_player(user, username)
    Follow.objects.filter(follower=user, followed=other).delete()
    friends_changed(user.pk, other.pk)


@transaction.atomic
def block(*, user: Any, username: str) -> Block:
    """``user`` blocks ``username``: private; any following between them ends, both ways."""
    other = other_player(user, username)
    made, _new = Block.objects.get_or_create(blocker=user, blocked=other)
    Follow.objects.filter(follower=user, followed=other).delete()
    Follow.objects.filter(follower=other, followed=user).delete()
    friends_changed(user.pk, other.pk)
    return made


@transaction.atomic
def unblock(*, user: Any, username: str) -> None:
    other = other_player(user, username)
    Block.objects.filter(blocker=user, blocked=other).delete()
    friends_changed(user.pk, other.pk)


@transaction.atomic
def set_hide_presence(*, user: Any, hide: bool) -> None:
    """Hide (or show again) the player's presence from their friends."""
    SocialSettings.objects.update_or_create(user=user, defaults={"hide_presence": bool(hide)})
    followers = Follow.objects.filter(followed=user).values_list("follower_id", flat=True)
    friends_changed(user.pk, *followers)
