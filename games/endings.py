"""Why a match ended as it did (``Match.end_reason``), kept on the match for the players' pages,
their wallets and the protocol (docs/protocol.md). Its own module: games/models.py is full."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class EndReason(models.TextChoices):
    PLAYED = "", _("played to the end")
    STAFF = "staff", _("cancelled by the staff")
    # Aborted: nobody seated made a move of their own (all time-outs and stand-in bots).
    UNPLAYED = "unplayed", _("cancelled: nobody played")
    # Finished at once: every other side's players gave their seats up (docs/wallet.md).
    FORFEIT = "forfeit", _("won by forfeit")
