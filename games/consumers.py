"""WebSocket consumers. Thin: check who is asking, parse the frame, call a service, reply.

Every frame from a browser is JSON ``{"type": ..., ...}``. Anything else is answered with an
``error`` frame in the player's language and changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext_lazy as _

# Close codes in the 4000 range are the application's own (RFC 6455 §7.4.2).
CLOSE_UNAUTHENTICATED = 4401
MAX_FRAME = 8192

ERRORS = {
    "not_text": _("A message must be JSON text."),
    "too_long": _("The message is too long."),
    "not_json": _("The message is not valid JSON."),
    "no_type": _('A message must be a JSON object with a "type" field.'),
    "bad_seq": _("The sequence number (seq) must be a whole number."),
    "unknown_type": _("Unknown message type."),
}


class MajlisConsumer(AsyncWebsocketConsumer):
    """The lobby socket: a signed-in player's live link to the majlis."""

    group = "majlis"

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            # Refuse before accepting: the handshake fails and nothing is sent.
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.language = getattr(user, "language", "ar") or "ar"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "hello", "user": user.display_name or user.username})

    async def disconnect(self, code: int) -> None:
        if getattr(self, "language", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = self._parse(text_data, bytes_data)
        if isinstance(frame, str):
            await self.send_error("bad_frame", frame)
            return
        if frame["type"] == "ping":
            seq = frame.get("seq")
            if not isinstance(seq, int) or isinstance(seq, bool):
                await self.send_error("bad_frame", self._t("bad_seq"))
                return
            await self.send_json({"type": "pong", "seq": seq})
            return
        await self.send_error("unknown_type", self._t("unknown_type"))

    def _parse(self, text_data: str | None, bytes_data: bytes | None) -> dict[str, Any] | str:
        """The frame as a dict, or the words of the refusal."""
        if text_data is None:
            return self._t("not_text")
        if len(text_data) > MAX_FRAME:
            return self._t("too_long")
        try:
            frame = json.loads(text_data)
        except (ValueError, RecursionError):
            # A short frame can still nest deeper than the parser's recursion limit.
            return self._t("not_json")
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            return self._t("no_type")
        return frame

    def _t(self, key: str) -> str:
        with translation.override(self.language):
            return str(ERRORS[key])

    async def send_json(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(payload, ensure_ascii=False))

    async def send_error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})
