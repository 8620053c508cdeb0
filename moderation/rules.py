"""What the rest of the site asks moderation before it lets a player write or sit: the chat
filter's verdict on a line, a running chat timeout, a ban from coin tables, a decent name. Reads
only (services.py writes)."""

from __future__ import annotations

import time
from typing import Any

import redis
from django.utils import timezone

from moderation.errors import ModerationError
from moderation.models import BannedWord, ChatTimeout, CoinBan, TypedLine
from moderation.wordfilter import Verdict, WordFilter
from realtime.redis import sync_redis

# Each process builds the filter from the word list once and keeps it. A change in the admin
# (forget_words, from the model's signals) clears it in the process that made it and bumps a
# stamp in Redis that every other process reads before it filters a line, so a word added or
# removed applies in every Daphne at the next line, not at a restart. Reading the stamp is one
# Redis GET a chat line; if Redis cannot answer, a process keeps its filter at most this long.
WORDS_KEPT_S = 30.0
WORDS_STAMP_KEY = "moderation:words-stamp"
_kept: tuple[float, bytes | None, WordFilter] | None = None
_UNKNOWN = b"?"  # the stamp when Redis could not be read


def _stamp() -> bytes | None:
    """The word list's stamp in Redis (None until the first change), or _UNKNOWN."""
    try:
        value = sync_redis().get(WORDS_STAMP_KEY)
    except redis.RedisError:
        return _UNKNOWN
    return value if value is None else bytes(value)


def word_filter() -> WordFilter:
    """The filter over the active words of the list (moderation.models.BannedWord)."""
    global _kept
    now = time.monotonic()
    stamp = _stamp()
    kept = _kept
    if kept is not None and now - kept[0] <= WORDS_KEPT_S and stamp in (_UNKNOWN, kept[1]):
        return kept[2]
    rows = BannedWord.objects.filter(active=True).values_list("text", "severity")
    _kept = (now, stamp, WordFilter(list(rows)))
    return _kept[2]


def forget_words(**_: Any) -> None:
    """The word list changed: this process and every other build the filter again."""
    global _kept
    _kept = None
    try:
        sync_redis().incr(WORDS_STAMP_KEY)
    except redis.RedisError:
        pass  # the other processes catch up within WORDS_KEPT_S


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


def keep_typed(line: Any, typed: str, *, refused: bool = False) -> None:
    """Keep what ``line``'s writer typed for the staff, when the filter starred it or refused
    it (TypedLine); nothing when it went out as typed."""
    if refused or typed != line.text:
        TypedLine.objects.create(line=line, text=typed, refused=refused)


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
