"""WebSocket consumers. Thin: check who is asking, parse the frame, call a service, reply.

The platform's rules for every socket (sign-in, limits, refusals) live in sahrat_site/sockets.py;
the frames are written down in docs/protocol.md.
"""

from __future__ import annotations

from typing import Any

from sahrat_site.sockets import SahratConsumer


class MajlisConsumer(SahratConsumer):
    """The lobby socket: a signed-in player's live link to the majlis."""

    def groups_for(self) -> tuple[str, ...]:
        return ("majlis",)

    async def on_connected(self) -> None:
        await self.send_json(
            {"type": "hello", "user": self.user.display_name or self.user.username}
        )

    async def on_frame(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "ping":
            seq = frame.get("seq")
            if not isinstance(seq, int) or isinstance(seq, bool):
                await self.send_error("bad_frame", self._t("bad_seq"))
                return
            await self.send_json({"type": "pong", "seq": seq})
            return
        await self.send_error("unknown_type", self._t("unknown_type"))
