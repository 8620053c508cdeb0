"""The refusals of following and blocking, in the player's words."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from language.errors import PlayerError

MESSAGES = {
    "no_such_player": _("There is no such player."),
    "yourself": _("That is you."),
    "cannot_follow": _("You cannot follow this player."),
}


class SocialError(PlayerError):
    def message(self, lang: str = "ar") -> str:
        with translation.override(lang):
            return str(MESSAGES.get(self.code, MESSAGES["no_such_player"]))
