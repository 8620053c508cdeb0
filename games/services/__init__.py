"""Every state change of the live tables: one function per use case (DESIGN.md, "Services").

Each use case is ``@transaction.atomic``, locks the rows it changes (``select_for_update``), goes
to the game only through the registry (``games.get``), and broadcasts after commit. A refused
request raises ``TableError`` (a stable code and words in the player's language) or the engine's
``IllegalAction``, and changes nothing. The reads they share (``game_of``, ``load_state``,
``current_match``, ...) are in games/selectors.py.

Use case -> module:

- a new table: ``table_create`` -> tables.py
- sit, a bot, stand up, ready, the start, leave, kept too long: ``seat_take``,
  ``seat_add_bot``, ``seat_leave``, ``table_ready``, ``seat_forfeit``, ``seats_expired``,
  ``seat_expire``, ``rematch_lapsed``, ``seat_lapse`` -> seats.py
- a move, what is due, the end of a match: ``match_play``, ``match_advance``, ``matches_due``,
  ``match_abort``, ``end_match`` -> play.py
- sockets and web processes: ``seat_connected``, ``seat_disconnected``, ``process_seen``,
  ``sockets_restored``, ``processes_gone`` -> presence.py
- chat: ``chat_post``, ``chat_hide``, ``chat_changed`` -> chat.py
- what the wallet is told (the seats, the coins held elsewhere): ``settle`` -> coins.py
- what is sent after commit: ``broadcast``, ``broadcast_lobby`` -> events.py
- deadlines and the countdown task: ``due``, ``Due`` -> clock.py
- refusals: ``TableError``, ``MESSAGES`` -> errors.py
"""

from games.services.chat import chat_changed, chat_hide, chat_post
from games.services.clock import Due, due
from games.services.coins import settle
from games.services.errors import MESSAGES, TableError
from games.services.events import broadcast, broadcast_lobby
from games.services.play import end_match, match_abort, match_advance, match_play, matches_due
from games.services.presence import (
    process_seen,
    processes_gone,
    seat_connected,
    seat_disconnected,
    sockets_restored,
)
from games.services.seats import (
    SEED_PATTERN,
    rematch_lapsed,
    seat_add_bot,
    seat_expire,
    seat_forfeit,
    seat_lapse,
    seat_leave,
    seat_take,
    seats_expired,
    table_ready,
)
from games.services.tables import table_close_idle, table_create, tables_idle

__all__ = [
    "MESSAGES",
    "SEED_PATTERN",
    "Due",
    "TableError",
    "broadcast",
    "broadcast_lobby",
    "chat_changed",
    "chat_hide",
    "chat_post",
    "due",
    "end_match",
    "match_abort",
    "match_advance",
    "match_play",
    "matches_due",
    "process_seen",
    "processes_gone",
    "rematch_lapsed",
    "seat_add_bot",
    "seat_connected",
    "seat_disconnected",
    "seat_expire",
    "seat_forfeit",
    "seat_lapse",
    "seat_leave",
    "seat_take",
    "seats_expired",
    "settle",
    "sockets_restored",
    "table_close_idle",
    "table_create",
    "table_ready",
    "tables_idle",
]
