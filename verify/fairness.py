"""The provably fair shuffle, sahrat-fair-v1 (specified in docs/fairness.md).

Pure standard library: the engines, the live tables and the Verify page all draw their randomness
from here, and nothing under this module may import Django. The algorithm is deliberately small so
that a stranger can re-implement it from the spec alone (verify/standalone and static/verify do).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets as _secrets
from collections.abc import Mapping, Sequence
from typing import TypeVar

VERSION = "sahrat-fair-v1"

SUITS = ("S", "H", "D", "C")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

# Canonical deck orders: the shuffle permutes these lists, so they are part of the spec.
JAKARO_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
HAND_DECK: tuple[str, ...] = JAKARO_DECK + JAKARO_DECK + ("JK1", "JK2")
DECKS: dict[str, tuple[str, ...]] = {"hand": HAND_DECK, "jakaro": JAKARO_DECK}

# Identifiers and seeds are joined with "\n" and "=" in the key message; restricting their
# alphabet keeps that encoding unambiguous without length prefixes.
_TOKEN = re.compile(r"^[0-9A-Za-z_.:/-]{1,128}$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")

T = TypeVar("T")


class FairnessError(ValueError):
    """Bad input to the fairness core: a message fit to show as it is."""


def new_secret() -> bytes:
    """32 fresh bytes from the operating system's CSPRNG."""
    return _secrets.token_bytes(32)


def new_seed() -> str:
    """A server-made player seed, for a seat whose browser did not send one."""
    return _secrets.token_hex(16)


def parse_secret(secret_hex: str) -> bytes:
    """The secret from its published form: exactly 64 lowercase hex characters."""
    if not isinstance(secret_hex, str) or not _HEX64.match(secret_hex.strip().lower()):
        raise FairnessError("the secret must be 64 hexadecimal characters (32 bytes)")
    return bytes.fromhex(secret_hex.strip().lower())


def commitment(secret: bytes) -> str:
    """SHA-256 of the secret, in hex: published before the first card."""
    if len(secret) != 32:
        raise FairnessError("the secret must be 32 bytes")
    return hashlib.sha256(secret).hexdigest()


def matches_commitment(secret: bytes, commitment_hex: str) -> bool:
    """Does a revealed secret match what was committed? Constant-time compare."""
    return hmac.compare_digest(commitment(secret), commitment_hex.strip().lower())


def check_token(value: str, what: str) -> str:
    if not isinstance(value, str) or not _TOKEN.match(value):
        raise FairnessError(f"{what} must be 1–128 characters of A–Z, a–z, 0–9 and _ . : / -")
    return value


def derive_key(secret: bytes, game: str, ident: str, seeds: Mapping[int, str]) -> bytes:
    """The round key: HMAC-SHA256(secret, message naming the version, game, id and every seed).

    Seeds are mixed by hashing, never XOR: the server committed to the secret before any seed
    existed, so it cannot steer the key, and no seed can cancel another.
    """
    if len(secret) != 32:
        raise FairnessError("the secret must be 32 bytes")
    if game not in DECKS:
        raise FairnessError(f"unknown game {game!r}: expected 'hand' or 'jakaro'")
    lines = [VERSION, f"game={game}", f"id={check_token(ident, 'the identifier')}"]
    for seat in sorted(seeds):
        if not isinstance(seat, int) or seat < 0:
            raise FairnessError("a seat must be a whole number from 0")
        lines.append(f"seed/{seat}={check_token(seeds[seat], 'a seed')}")
    message = ("\n".join(lines) + "\n").encode()
    return hmac.new(secret, message, hashlib.sha256).digest()


class _Stream:
    """Unbounded bytes for one purpose: HMAC-SHA256(key, purpose || 0x00 || counter_be64)."""

    def __init__(self, key: bytes, purpose: str) -> None:
        self._key = key
        self._prefix = purpose.encode() + b"\x00"
        self._counter = 0
        self._buf = b""

    def u32(self) -> int:
        if len(self._buf) < 4:
            block = hmac.new(
                self._key, self._prefix + self._counter.to_bytes(8, "big"), hashlib.sha256
            ).digest()
            self._counter += 1
            self._buf += block
        word, self._buf = self._buf[:4], self._buf[4:]
        return int.from_bytes(word, "big")

    def below(self, n: int) -> int:
        # Mask to the smallest all-ones number covering n-1 and reject what is >= n:
        # no modulo bias, no floats, and rejections are common enough to show in test vectors.
        if n == 1:
            return 0
        mask = (1 << (n - 1).bit_length()) - 1
        while True:
            x = self.u32() & mask
            if x < n:
                return x


class RandomSource:
    """The random source of one round (Hand) or one match (Jakaro).

    Every use names its purpose (``deal/1``, ``reshuffle/2``, ``burn/3`` …) and is computed from
    its own stream, so each can be checked on its own. The same purpose always gives the same
    result: callers must name each use uniquely.
    """

    def __init__(
        self, secret: bytes, game: str, ident: str, seeds: Mapping[int, str] | None = None
    ) -> None:
        self.game = game
        self.ident = ident
        self.seeds = dict(seeds or {})
        self._key = derive_key(secret, game, ident, self.seeds)

    def _stream(self, purpose: str) -> _Stream:
        if not isinstance(purpose, str) or not purpose:
            raise FairnessError("a purpose must be a non-empty text")
        check_token(purpose, "a purpose")
        return _Stream(self._key, purpose)

    def below(self, n: int, purpose: str) -> int:
        """A uniform integer in [0, n)."""
        if not isinstance(n, int) or n < 1:
            raise FairnessError("below(n) needs a whole number n >= 1")
        return self._stream(purpose).below(n)

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        """A new list: Fisher–Yates from the last position down, j = below(i + 1)."""
        out = list(items)
        stream = self._stream(purpose)
        for i in range(len(out) - 1, 0, -1):
            j = stream.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def deck(self, purpose: str) -> list[str]:
        """The game's canonical deck, shuffled for this purpose."""
        return self.shuffle(DECKS[self.game], purpose)
