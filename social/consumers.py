"""The lobby socket with friends: the majlis's own (games.consumers.MajlisConsumer) plus the
player's own group (``user.<id>``: their friends changed) and one group per friend whose
presence they may see (``presence.<id>``: where that friend is changed). The games send to a
player's presence group without knowing who follows it (games/services/events.py).

Every other page a signed-in player opens (their profile, the Verify page, the rules…) connects
with ``?only=notices``: their own group alone, for the invitations and answers sent to them
(static/js/notices.js), and no frame about tables or friends that page would not use."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.conf import settings

from games.consumers import MajlisConsumer, notice_frame
from games.services.events import presence_changed_async
from realtime import groups
from social import selectors

NOTICES_LEAVE = 4  # sockets a notices-only page leaves free for the table and the majlis


class LobbyConsumer(MajlisConsumer):
    _friends: tuple[str, ...] = ()
    notices_only = False  # ?only=notices: a page that shows the player's notices and no more
    joins = (*MajlisConsumer.joins, groups.USER, groups.PRESENCE)

    async def authorize(self) -> bool:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.notices_only = (query.get("only") or [""])[0] == "notices"
        return await super().authorize()

    def socket_cap(self) -> int:
        # A page that only shows notices never takes the last NOTICES_LEAVE of the account's
        # sockets: a player with many such tabs open can still open a table (and the majlis).
        if self.notices_only:
            return settings.WS_MAX_SOCKETS_PER_USER - NOTICES_LEAVE
        return super().socket_cap()

    def groups_for(self) -> tuple[str, ...]:
        if self.notices_only:
            return (groups.USER.name(self.user.pk),)
        return (*super().groups_for(), groups.USER.name(self.user.pk))

    async def on_connected(self) -> None:
        await super().on_connected()
        if not self.notices_only:
            await self._follow_friends()
        await presence_changed_async(self.channel_layer, self.user.pk)  # online now

    async def on_disconnected(self) -> None:
        for group in self._friends:
            await self.channel_layer.group_discard(group, self.channel_name)
        self._friends = ()
        await presence_changed_async(self.channel_layer, self.user.pk)  # maybe offline now
        await super().on_disconnected()

    async def _follow_friends(self) -> None:
        """Join the presence groups of the friends this player may see, leave the others."""
        ids = await database_sync_to_async(selectors.seen_friend_ids)(self.user)
        wanted = tuple(groups.PRESENCE.name(i) for i in ids)
        for group in set(self._friends) - set(wanted):
            await self.channel_layer.group_discard(group, self.channel_name)
        for group in set(wanted) - set(self._friends):
            await self.join(group)
        self._friends = wanted

    async def friends_changed(self, event: dict[str, Any]) -> None:
        if self.notices_only:
            return
        await self._follow_friends()
        await self.send_json({"type": "friends_changed"})

    async def notice(self, event: dict[str, Any]) -> None:
        await self.send_json(notice_frame(event))

    async def chat_hides_changed(self, event: dict[str, Any]) -> None:
        """The player muted someone or turned the panic switch: nothing this page shows (its
        table pages redraw their chat); handled so the socket lives on (issue 57, item 11)."""

    async def coins_changed(self, event: dict[str, Any]) -> None:
        """The player's coins moved: a ``coins`` frame (docs/protocol.md); of the pages, only a
        table's thin bar shows coins, and its own socket brings them."""
        await self.send_coins(event)

    async def presence_changed(self, event: dict[str, Any]) -> None:
        if event.get("user") != self.user.pk:
            await self.send_json({"type": "friends_changed"})
