"""The standing's refusal: a player locked out after leaving matches, told until when."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone, translation
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

from language.errors import PlayerError


class LockedOut(PlayerError):
    """A player locked out of starting new matches (``until``: when it ends)."""

    def __init__(self, code: str, detail: str = "", *, until: datetime) -> None:
        super().__init__(code, detail)
        self.until = until

    def message(self, lang: str = "ar") -> str:
        with translation.override(lang):
            left = timeuntil(self.until, timezone.now(), depth=1)
            return _(
                "You left several matches in a row, so you cannot start a new one for "
                "%(time)s. You can still watch tables and chat."
            ) % {"time": left}
