"""Friends and blocks as the pages and sockets read them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from games.models import Seat, Table
from games.whereabouts import whereabouts
from realtime.limits import online
from social.models import Block, Follow, SocialSettings

STATES = ("playing", "at_table", "online", "offline")  # the friends list's order


def relation(viewer: Any, other: Any) -> dict[str, bool]:
    """What ``viewer`` sees of ``other`` on their page: whether they follow them, are followed
    back (friends: both), and whether the viewer blocked them (a block is the blocker's own:
    the one blocked is never told)."""
    follows = set(
        Follow.objects.filter(
            follower__in=(viewer.pk, other.pk), followed__in=(viewer.pk, other.pk)
        ).values_list("follower_id", flat=True)
    )
    return {
        "following": viewer.pk in follows,
        "followed_by": other.pk in follows,
        "friends": follows == {viewer.pk, other.pk},
        "blocked": Block.objects.filter(blocker=viewer, blocked=other).exists(),
    }


def players_at(viewer: Any, table: Any) -> list[dict[str, Any]]:
    """The people seated at ``table`` other than ``viewer``, in seat order, each with what the
    viewer sees of them (``relation``) and whether the viewer muted them here (``muted``,
    moderation.ChatMute read through the viewer's reverse relation): the table's "Players"
    sheet, to follow, block, mute or report one."""
    seats = table.seats.filter(user__isnull=False).exclude(user=viewer).select_related("user")
    muted = set(viewer.chat_mutes.filter(table=table).values_list("muted_id", flat=True))
    return [
        {
            "user": s.user,
            "seat": s.number,
            "rel": relation(viewer, s.user),
            "muted": s.user_id in muted,
        }
        for s in seats.order_by("number")
    ]


def friend_ids(user: Any) -> list[int]:
    """Those who follow ``user`` and whom ``user`` follows (a block ends both follows)."""
    return list(
        Follow.objects.filter(
            follower=user, followed__in=Follow.objects.filter(followed=user).values("follower")
        ).values_list("followed_id", flat=True)
    )


def seen_friend_ids(user: Any, ids: list[int] | None = None) -> list[int]:
    """The friends whose presence ``user`` may see: not hidden by them (``ids``: the friends,
    when the caller has read them already)."""
    ids = friend_ids(user) if ids is None else ids
    hidden = set(
        SocialSettings.objects.filter(user_id__in=ids, hide_presence=True).values_list(
            "user_id", flat=True
        )
    )
    return [i for i in ids if i not in hidden]


def friends_of(user: Any) -> list[dict[str, Any]]:
    """``user``'s friends, each with their presence: ``state`` (playing, at_table, online,
    offline; "hidden" for one who hides it) and, at a public table, its id and game; playing
    first, then by name."""
    ids = friend_ids(user)
    seen = set(seen_friend_ids(user, ids))
    where = whereabouts([i for i in ids if i in seen])
    live = online([i for i in ids if i in seen])
    out = []
    for friend in get_user_model().objects.filter(pk__in=ids).only("username", "display_name"):
        place = where.get(friend.pk)
        if friend.pk not in seen:
            state = "hidden"
        elif place is not None:
            state = place["state"]
        else:
            state = "online" if friend.pk in live else "offline"
        out.append(
            {
                "username": friend.username,
                "name": friend.display_name or friend.username,
                "state": state,
                "table": place["table"] if place else None,
                "game": place["game"] if place else None,
            }
        )
    order = {s: i for i, s in enumerate((*STATES, "hidden"))}
    out.sort(key=lambda f: (order[f["state"]], f["name"]))
    return out


def following_only(user: Any) -> list[Any]:
    """Players ``user`` follows who do not follow back (yet)."""
    back = Follow.objects.filter(followed=user).values("follower")
    return list(
        get_user_model()
        .objects.filter(followers__follower=user)
        .exclude(pk__in=back)
        .only("username", "display_name")
    )


def blocked_by_me(user: Any) -> list[Any]:
    return list(
        get_user_model()
        .objects.filter(blocked_by__blocker=user)
        .only("username", "display_name")
        .order_by("username")
    )


def hides_presence(user: Any) -> bool:
    return SocialSettings.objects.filter(user=user, hide_presence=True).exists()


def waiting_table_of(user: Any) -> Any:
    """The table ``user`` sits at (or created) that waits for players with a free seat: the
    one the friends list's "Invite" buttons invite to; None when there is none."""
    seat = (
        Seat.objects.filter(user=user, table__status=Table.Status.OPEN)
        .select_related("table")
        .order_by("-table__created_at")
        .first()
    )
    table = seat.table if seat is not None else None
    if table is None:
        table = (
            Table.objects.filter(created_by=user, status=Table.Status.OPEN)
            .order_by("-created_at")
            .first()
        )
    if table is None or not table.seats.filter(user__isnull=True, is_bot=False).exists():
        return None
    return table
