"""The refusals of following and blocking, in the player's words."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from language.errors import PlayerError

MESSAGES = {
    "no_such_player": _("There is no such player."),
    "yourself": _("That is you."),
    "cannot_follow": _("You cannot follow this player."),
    "not_friends": _("You can invite only your friends (players who follow you back)."),
    "not_at_table": _("You can invite only to a table you sit at or created."),
    "table_full": _("This table has no free seat."),
    "not_waiting": _("The match at this table has already started."),
    "no_such_invitation": _("There is no such invitation."),
    "answered": _("This invitation was already answered."),
}


class SocialError(PlayerError):
    def message(self, lang: str = "ar") -> str:
        with translation.override(lang):
            return str(MESSAGES.get(self.code, MESSAGES["no_such_player"]))
