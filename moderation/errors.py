"""The refusals of chat moderation, in the player's words."""

from __future__ import annotations

from datetime import datetime

from django.utils import formats, timezone, translation
from django.utils.translation import gettext_lazy as _

from language import digits
from language.errors import PlayerError

MESSAGES = {
    "chat_refused": _("That message was not sent: it has words this majlis does not allow."),
    "chat_timeout": _("You cannot write in chat until %(until)s. The reason: %(reason)s"),
    "coin_banned": _("You may not sit at coin tables. The reason: %(reason)s"),
    "bad_reason": _("Choose a reason for the report."),
    "reported_already": _("You have already reported this player; the staff will look at it."),
    "line_reported_already": _("You have already reported this line; the staff will look at it."),
    "no_such_line": _("That line cannot be reported: it is not in a chat you can read."),
    "own_line": _("That line is your own."),
}


class ModerationError(PlayerError):
    """A refusal of moderation: its ``code``, and for a timeout or a ban when it ends and the
    reason the staff gave, which the player is shown."""

    def __init__(
        self, code: str, detail: str = "", *, until: datetime | None = None, reason: str = ""
    ) -> None:
        super().__init__(code, detail)
        self.until = until
        self.reason = reason

    def message(self, lang: str = "ar") -> str:
        with translation.override(lang):
            words = str(MESSAGES.get(self.code, MESSAGES["chat_refused"]))
            if "%(" not in words:
                return words
            until = ""
            if self.until is not None:
                shown = formats.date_format(timezone.localtime(self.until), "DATETIME_FORMAT")
                until = digits.digits(shown, digits.default_for(lang))
            return words % {"until": until, "reason": self.reason}
