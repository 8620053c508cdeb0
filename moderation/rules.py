"""What the rest of the site asks moderation before it lets a player write or sit: the chat
filter's verdict on a line, a running chat timeout, a ban from coin tables, a decent name. Reads
only (services.py writes)."""

from __future__ import annotations

import time
from typing import Any

from django.utils import timezone

from moderation.errors import ModerationError
from moderation.models import BannedWord, ChatTimeout, CoinBan
from moderation.wordfilter import Verdict, WordFilter

# Each process builds the filter from the word list once and keeps it this long; a change in the
# admin reaches the process that made it at once (forget_words, from the model's signals) and
# every other process within this time.
WORDS_KEPT_S = 30.0
_kept: tuple[float, WordFilter] | None = None


def word_filter() -> WordFilter:
    """The filter over the active words of the list (moderation.models.BannedWord)."""
    global _kept
    now = time.monotonic()
    if _kept is None or now - _kept[0] > WORDS_KEPT_S:
        rows = BannedWord.objects.filter(active=True).values_list("text", "severity")
        _kept = (now, WordFilter(list(rows)))
    return _kept[1]


def forget_words(**_: Any) -> None:
    """The word list changed: the next line builds the filter again."""
    global _kept
    _kept = None


def chat_line(user: Any, text: str) -> str:
    """The line ``user`` may post for ``text``: refused (ModerationError) while a chat timeout
    runs or when a word of the "refuse" kind is in it; else with the "mask" words starred."""
    running = running_timeout(user)
    if running is not None:
        raise ModerationError("chat_timeout", until=running.until, reason=running.reason)
    verdict: Verdict = word_filter().check(text)
    if verdict.refused:
        raise ModerationError("chat_refused", ",".join(verdict.matched))
    return verdict.text


def running_timeout(user: Any) -> ChatTimeout | None:
    """The chat timeout that ends last among those running for ``user``, if any."""
    return (
        ChatTimeout.objects.filter(user=user, until__gt=timezone.now()).order_by("-until").first()
    )


def check_coin_table(user: Any) -> None:
    """Refuse a seat at a coin table to a player the staff banned from them."""
    ban = CoinBan.objects.filter(user=user).first()
    if ban is not None:
        raise ModerationError("coin_banned", reason=ban.reason)


def decent_name(name: str) -> bool:
    """Whether a username or display name passes the chat filter (no listed word at all)."""
    return word_filter().clean(name)
