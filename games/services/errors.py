"""A table's refusals: ``TableError`` and the words each of its codes shows the player."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from language.errors import PlayerError
from wallet.services import MESSAGES as WALLET_MESSAGES

MESSAGES = {
    "no_such_table": _("There is no such table."),
    "no_such_seat": _("There is no such seat at this table."),
    "seat_taken": _("That seat is taken."),
    "table_full": _("This table is full."),
    "already_seated": _("You already have a seat at this table."),
    "not_seated": _("You have no seat at this table."),
    "not_waiting": _("The match has already started."),
    "table_closed": _(
        "This table was closed: nobody had sat at it for a while. Start or join another."
    ),
    "not_playing": _("No match is being played at this table."),
    "stale_seq": _("The table has moved on since you looked; here is what it shows now."),
    "server_only": _("Only the server may make that move."),
    "bad_seed": _("Your browser's seed is missing or malformed; reload the page."),
    "wrong_commitment": _(
        "The commitment you were shown is not this match's; reload the page before you sit."
    ),
    "bots_free_tables_only": _("Bots sit only at free tables."),
    "bad_bot_level": _("A bot plays easy, normal or strong."),
    "not_creator": _("Only the player who created the table may do that."),
    "bad_options": _("Those table options are not allowed."),
    "no_such_majlis": _("There is no such majlis."),
    "chat_empty": _("Write something first."),
    "chat_too_long": _("That message is too long."),
    "chat_too_fast": _("You are writing too fast; wait a moment."),
    "team_chat_closed": _("Team chat is closed during a round at a strict table."),
    "no_team": _("This table has no teams."),
    "not_over": _("The match is not over yet."),
    "already_ready": _("You are already ready for the next match."),
    "left_match": _("You left this match; your seat is played for you until it ends."),
    "not_at_this_table": _("You cannot sit at this table."),
    "reputation_low": _(
        "This table asks for a higher reputation for finishing matches than yours."
    ),
    # The coin wallet, checked by the table's services (games/services/seats.py): its own words.
    "not_enough_coins": WALLET_MESSAGES["not_enough_coins"],
    "bad_stake": _("That stake is not one of the coin table levels."),
}


class TableError(PlayerError):
    """A refused request at a table: a stable ``code`` and ``message(lang)``."""

    def message(self, lang: str = "ar") -> str:
        with translation.override(lang):
            return str(MESSAGES.get(self.code, MESSAGES["no_such_table"]))
