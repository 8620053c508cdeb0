"""Invitations: a player asks a friend to their table, the friend is told at once on any open
page of theirs (a notice over their sockets' own group, ``user.<id>``) and finds it later on the
friends page; accepting takes them to a free seat, declining tells the one who asked. The one
writer of Invitation."""

from __future__ import annotations

from typing import Any

from channels.layers import get_channel_layer
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.faces import game_name
from games.models import Match, Seat, Table
from realtime import groups
from social.errors import SocialError
from social.models import Block, Invitation
from social.selectors import friend_ids
from social.services import other_player


def _name(user: Any) -> str:
    return user.display_name or user.username


def notify(user: Any, kind: str, text: str, link: str = "") -> None:
    """After commit: a notice on every open page of ``user`` (lobby, friends and table pages):
    ``kind`` (invited, accepted, declined), the words already in their language, a link."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            event = groups.USER.event("notice", kind=kind, text=text, link=link)
            groups.send(layer, groups.USER.name(user.pk), event)

    transaction.on_commit(send)


def _waiting_with_room(table: Table) -> None:
    match = Match.objects.filter(table=table).order_by("-number").first()
    if table.status != Table.Status.OPEN or match is None or match.status != "waiting":
        raise SocialError("not_waiting")
    if not Seat.objects.filter(table=table, user__isnull=True, is_bot=False).exists():
        raise SocialError("table_full")


@transaction.atomic
def invite(*, user: Any, username: str, table_id: str) -> Invitation:
    """``user`` invites their friend ``username`` to ``table_id`` (a table they sit at or
    created, waiting, with a free seat). Asking again while unanswered sends nothing new."""
    other = other_player(user, username)
    if (
        other.pk not in friend_ids(user)
        or Block.objects.filter(
            blocker__in=(user.pk, other.pk), blocked__in=(user.pk, other.pk)
        ).exists()
    ):
        raise SocialError("not_friends")
    table = Table.objects.filter(public_id=table_id).first()
    if table is None or (
        table.created_by_id != user.pk and not Seat.objects.filter(table=table, user=user).exists()
    ):
        raise SocialError("not_at_table")
    _waiting_with_room(table)
    found = Invitation.objects.filter(sender=user, recipient=other, table=table, answer="").first()
    if found is not None:
        return found
    made = Invitation.objects.create(sender=user, recipient=other, table=table)
    with translation.override(other.language or "ar"):
        text = _("%(name)s invites you to their table of %(game)s.") % {
            "name": _name(user),
            "game": game_name(table.game),
        }
    notify(other, "invited", text, reverse("social:friends") + f"#invitation-{made.pk}")
    return made


@transaction.atomic
def answer(*, user: Any, invitation_id: Any, accept: bool) -> Invitation:
    """The invited player answers. Accepting needs the table still waiting with a free seat
    (else it is refused and stays unanswered); the one who asked is told either way."""
    found = (
        Invitation.objects.select_for_update()
        .select_related("sender", "table")
        .filter(pk=invitation_id if str(invitation_id).isdigit() else None, recipient=user)
        .first()
    )
    if found is None:
        raise SocialError("no_such_invitation")
    if found.answer:
        raise SocialError("answered")
    if accept:
        _waiting_with_room(found.table)
    found.answer = Invitation.Answer.ACCEPTED if accept else Invitation.Answer.DECLINED
    found.answered_at = timezone.now()
    found.save(update_fields=["answer", "answered_at"])
    with translation.override(found.sender.language or "ar"):
        if accept:
            text = _("%(name)s accepted your invitation and is on the way.")
        else:
            text = _("%(name)s declined your invitation.")
        text = text % {"name": _name(user)}
    link = reverse("games:table", args=[found.table.public_id])
    notify(found.sender, "accepted" if accept else "declined", text, link)
    return found


def invitations_of(user: Any, limit: int = 20) -> list[Invitation]:
    """The player's latest invitations, unanswered first."""
    rows = (
        Invitation.objects.filter(recipient=user)
        .select_related("sender", "table")
        .order_by("-at")[:limit]
    )
    return sorted(rows, key=lambda i: bool(i.answer))
