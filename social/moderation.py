"""The one writer of moderation's records (moderation/models.py, the app below the tables that
holds them with the chat filter and the rules the tables ask): a player mutes someone at a
table, hides all chat (the panic switch) or reports someone; the staff dismiss a report, hide
lines, time a player out of chat, ban them from coin tables. Every staff step is logged
(StaffAction) with who and when. Here, above the tables, because it reads their chat and hides
its lines."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.models import ChatMessage, Table
from games.selectors import can_watch, current_match, table_state
from games.services import chat_hide
from games.viewers import watched_late
from moderation.errors import ModerationError
from moderation.models import ChatMute, ChatTimeout, CoinBan, Report, StaffAction, TypedLine
from realtime import groups
from social.services import other_player  # the active player named, not oneself

REPORT_LINES = 30  # the lines of chat a report keeps
TIMEOUTS = {"1h": timedelta(hours=1), "24h": timedelta(hours=24), "7d": timedelta(days=7)}


def hides_changed(user_id: int) -> None:
    """After commit: the player's table sockets draw their chat again (a mute, the panic
    switch)."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            groups.send(layer, groups.USER.name(user_id), groups.USER.event("chat.hides.changed"))

    transaction.on_commit(send)


# ------------------------------------------------------------------------------------ players


@transaction.atomic
def mute(*, user: Any, username: str, table_id: str) -> None:
    """``user`` hides ``username``'s lines at this table until they leave it."""
    other = other_player(user, username)
    table = Table.objects.get(public_id=table_id)
    ChatMute.objects.get_or_create(user=user, muted=other, table=table)
    hides_changed(user.pk)


@transaction.atomic
def unmute(*, user: Any, username: str, table_id: str) -> None:
    other = other_player(user, username)
    ChatMute.objects.filter(user=user, muted=other, table__public_id=table_id).delete()
    hides_changed(user.pk)


@transaction.atomic
def set_hide_chat(*, user: Any, hide: bool) -> None:
    """The panic switch: every chat hidden for ``user`` (or shown again)."""
    get_user_model().objects.filter(pk=user.pk).update(hide_chat=hide)
    user.hide_chat = hide
    hides_changed(user.pk)


def _typed(line: ChatMessage) -> TypedLine | None:
    try:
        return line.typed  # read with the line (select_related)
    except TypedLine.DoesNotExist:
        return None


def _saved_line(line: ChatMessage) -> dict[str, Any]:
    typed = _typed(line)
    chat = "watchers" if line.watchers else ("team" if line.team is not None else "table")
    return {
        "id": line.pk,
        "at": line.at.isoformat(),
        "user": line.user_id,
        "name": line.user.display_name or line.user.username,
        "text": line.text,
        # As typed, for the staff alone: a starred line's words, a refused line's whole text.
        "typed": typed.text if typed is not None else "",
        "refused": typed is not None and typed.refused,
        "hidden": line.hidden,
        "chat": chat,
        "table": line.table.public_id,
    }


@transaction.atomic
def report(
    *,
    user: Any,
    username: str,
    reason: str,
    words: str = "",
    table_id: str = "",
    line: ChatMessage | None = None,
) -> Report:
    """``user`` reports ``username``. From a table: the table's last REPORT_LINES lines of every
    chat there (table, teams, watchers; hidden and refused lines too) and its match are kept
    with it. From a profile (no table): the player's own last REPORT_LINES lines, wherever
    written. One open report per reporter and player at a time. With ``line`` (one line the
    reporter saw, from its menu in the chat: social.moderation.reportable_line): that line and
    LINE_CONTEXT lines either side of it at its table, each as typed; one open report per
    reporter and line."""
    other = other_player(user, username)
    if reason not in Report.Reason.values:
        raise ModerationError("bad_reason")
    open_reports = Report.objects.filter(reporter=user, status=Report.Status.OPEN)
    if line is not None:
        if open_reports.filter(line=line).exists():
            raise ModerationError("line_reported_already")
        table_id = line.table.public_id
    elif open_reports.filter(reported=other, table__public_id=table_id or None).exists():
        raise ModerationError("reported_already")
    table = Table.objects.filter(public_id=table_id).first() if table_id else None
    lines = ChatMessage.objects.select_related("user", "table", "typed").order_by("-at", "-pk")
    if line is not None:
        saved = [_saved_line(x) for x in _around(line)]
    else:
        lines = lines.filter(table=table) if table is not None else lines.filter(user=other)
        saved = [_saved_line(x) for x in lines[:REPORT_LINES]][::-1]
    return Report.objects.create(
        reporter=user,
        reported=other,
        reason=reason,
        words=" ".join(str(words or "").split())[:500],
        table=table,
        match=current_match(table) if table is not None else None,
        line=line,
        chat=saved,
    )


LINE_CONTEXT = 5  # the lines before and after a reported line that go with it


def _around(line: ChatMessage) -> list[ChatMessage]:
    """``line`` and the LINE_CONTEXT lines before and after it at its table (every chat there,
    hidden and refused lines too), oldest first."""
    here = ChatMessage.objects.filter(table_id=line.table_id)
    here = here.select_related("user", "table", "typed")
    before = here.filter(at__lte=line.at).exclude(pk=line.pk).order_by("-at", "-pk")
    after = here.filter(at__gte=line.at).exclude(pk=line.pk).order_by("at", "pk")
    older = [x for x in before[: LINE_CONTEXT * 2] if (x.at, x.pk) < (line.at, line.pk)]
    newer = [x for x in after[: LINE_CONTEXT * 2] if (x.at, x.pk) > (line.at, line.pk)]
    return [*older[:LINE_CONTEXT][::-1], line, *newer[:LINE_CONTEXT]]


def reportable_line(*, user: Any, line_id: Any, invite: str = "") -> ChatMessage:
    """The chat line ``line_id`` if ``user`` may report it: not their own, and among the lines
    of their own picture of the table now (games.selectors.table_state: the one viewer rule
    their socket is sent by, so no team's chat but theirs, no watchers' chat to a seated player
    during a round, no line of a player they blocked or muted); a watcher shown the table late
    (games.viewers.watched_late) is also refused a line newer than WATCH_DELAY_S, which their
    picture does not hold yet. ModerationError("no_such_line") otherwise, the same for a line
    that does not exist, so nothing is told about lines one cannot read."""
    found = (
        ChatMessage.objects.select_related("user", "table")
        .filter(pk=int(line_id) if str(line_id).isdigit() else None, hidden=False)
        .first()
    )
    invited = bool(invite) and found is not None and invite == found.table.invite_token
    if found is None or not can_watch(found.table, user, invited):
        raise ModerationError("no_such_line")
    if found.user_id == user.pk:
        raise ModerationError("own_line")
    picture = table_state(found.table, user)
    if found.pk not in {line["id"] for line in picture["chat"]}:
        raise ModerationError("no_such_line")
    late = timezone.now() - timedelta(seconds=settings.WATCH_DELAY_S)
    if watched_late(picture) and found.at > late:
        raise ModerationError("no_such_line")
    return found


# -------------------------------------------------------------------------------------- staff


def _log(staff: Any, player: Any, kind: str, report: Report | None, detail: str = "") -> None:
    StaffAction.objects.create(staff=staff, player=player, kind=kind, report=report, detail=detail)


def _handled(report: Report, staff: Any, status: str) -> None:
    report.status, report.handled_by, report.handled_at = status, staff, timezone.now()
    report.save(update_fields=["status", "handled_by", "handled_at"])


@transaction.atomic
def dismiss(*, staff: Any, report: Report, note: str = "") -> None:
    _handled(report, staff, Report.Status.DISMISSED)
    _log(staff, report.reported, StaffAction.Kind.DISMISS, report, note)


@transaction.atomic
def hide_lines(*, staff: Any, report: Report) -> int:
    """Hide the reported player's lines that the report saved, wherever they were written."""
    ids = [line["id"] for line in report.chat if line.get("user") == report.reported_id]
    done = chat_hide(message_ids=ids)
    _handled(report, staff, Report.Status.ACTED)
    _log(staff, report.reported, StaffAction.Kind.HIDE, report, f"{done} lines")
    return done


@transaction.atomic
def time_out(
    *, staff: Any, player: Any, length: str, reason: str, report: Report | None = None
) -> ChatTimeout:
    """A chat timeout of TIMEOUTS[length]: ``player`` is shown ``reason`` and its end when they
    try to write; their sockets keep working for play."""
    reason = " ".join(str(reason or "").split())[:200]
    if length not in TIMEOUTS or not reason:
        raise ValueError("a timeout needs a length of TIMEOUTS and a reason")
    timeout = ChatTimeout.objects.create(
        user=player, until=timezone.now() + TIMEOUTS[length], reason=reason, by=staff, report=report
    )
    if report is not None:
        _handled(report, staff, Report.Status.ACTED)
    _log(staff, player, StaffAction.Kind.TIMEOUT, report, f"{length}: {reason}")
    return timeout


@transaction.atomic
def ban_from_coin_tables(
    *, staff: Any, player: Any, reason: str, report: Report | None = None
) -> CoinBan:
    reason = " ".join(str(reason or "").split())[:200]
    if not reason:
        raise ValueError("a ban needs a reason")
    ban, _ = CoinBan.objects.update_or_create(user=player, defaults={"reason": reason, "by": staff})
    if report is not None:
        _handled(report, staff, Report.Status.ACTED)
    _log(staff, player, StaffAction.Kind.COIN_BAN, report, reason)
    return ban


@transaction.atomic
def lift_coin_ban(*, staff: Any, player: Any) -> None:
    if CoinBan.objects.filter(user=player).delete()[0]:
        _log(staff, player, StaffAction.Kind.LIFT_COIN_BAN, None)
