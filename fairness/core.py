"""The provably fair shuffle, sahrat-fair-v1 (specified in docs/fairness.md).

Pure standard library: the engines, the live tables and the Verify page all draw their randomness
from here, and nothing under this module may import Django. The algorithm is deliberately small so
that a stranger can re-implement it from the spec alone (verify/standalone and static/verify do).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import re
import secrets as _secrets
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

VERSION = "sahrat-fair-v1"

SUITS = ("S", "H", "D", "C")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

# Canonical deck orders: the shuffle permutes these lists, so they are part of the spec.
JAKARO_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
HAND_DECK: tuple[str, ...] = JAKARO_DECK + JAKARO_DECK + ("JK1", "JK2")
DECKS: dict[str, tuple[str, ...]] = {"hand": HAND_DECK, "jakaro": JAKARO_DECK}

# Identifiers and seeds are joined with "\n" and "=" in the key message; restricting their
# alphabet keeps that encoding unambiguous without length prefixes. \Z, not $: "$" would also
# accept one trailing newline, which would smuggle a line break into the key message.
_TOKEN = re.compile(r"\A[0-9A-Za-z_.:/-]{1,128}\Z")
_HEX64 = re.compile(r"\A[0-9a-f]{64}\Z")

# Draws are 32-bit words, so below(n) is uniform only up to n = 2**32.
MAX_BELOW = 1 << 32

T = TypeVar("T")


class FairnessError(ValueError):
    """Bad input to the fairness core: a message fit to show as it is."""


def new_secret() -> bytes:
    """32 fresh bytes from the operating system's CSPRNG."""
    return _secrets.token_bytes(32)


def parse_secret(secret_hex: str) -> bytes:
    """The secret from its published form: exactly 64 hex characters (case and spaces around
    are forgiven)."""
    if not isinstance(secret_hex, str) or not _HEX64.match(secret_hex.strip().lower()):
        raise FairnessError("the secret must be 64 hexadecimal characters (32 bytes)")
    return bytes.fromhex(secret_hex.strip().lower())


def parse_commitment(commitment_hex: str) -> str:
    """A published commitment, normalised to 64 lowercase hex characters."""
    if not isinstance(commitment_hex, str) or not _HEX64.match(commitment_hex.strip().lower()):
        raise FairnessError("the commitment must be 64 hexadecimal characters (a SHA-256)")
    return commitment_hex.strip().lower()


def _check_secret(secret: bytes) -> bytes:
    if not isinstance(secret, bytes | bytearray) or len(secret) != 32:
        raise FairnessError("the secret must be 32 bytes")
    return bytes(secret)


def commitment(secret: bytes) -> str:
    """SHA-256 of the secret, in hex: published before the first card."""
    return hashlib.sha256(_check_secret(secret)).hexdigest()


def matches_commitment(secret: bytes, commitment_hex: str) -> bool:
    """Does a revealed secret match what was committed? Constant-time compare."""
    return hmac.compare_digest(commitment(secret), parse_commitment(commitment_hex))


def check_token(value: str, what: str) -> str:
    """``value`` if it is a valid identifier, seed or purpose, else a FairnessError naming it."""
    if not isinstance(value, str) or not _TOKEN.match(value):
        raise FairnessError(f"{what} must be 1–128 characters of A–Z, a–z, 0–9 and _ . : / -")
    return value


def check_game(game: str) -> str:
    """``game`` if it is 'hand' or 'jakaro'."""
    if not isinstance(game, str) or game not in DECKS:
        raise FairnessError(f"unknown game {game!r}: expected 'hand' or 'jakaro'")
    return game


def key_message(game: str, ident: str, seeds: Mapping[int, str]) -> bytes:
    """The exact bytes that the secret keys (see derive_key); shown in the spec's test vectors."""
    if not isinstance(seeds, Mapping):
        raise FairnessError("the seeds must map a seat number to a seed")
    lines = [VERSION, f"game={check_game(game)}", f"id={check_token(ident, 'the identifier')}"]
    # bool is an int in Python; "seed/True=" would be nonsense, so it is refused like any non-seat.
    bad = [s for s in seeds if not isinstance(s, int) or isinstance(s, bool) or s < 0]
    if bad:
        raise FairnessError(f"a seat must be a whole number from 0, not {bad[0]!r}")
    for seat in sorted(seeds):
        lines.append(f"seed/{seat}={check_token(seeds[seat], 'a seed')}")
    return ("\n".join(lines) + "\n").encode()


def derive_key(secret: bytes, game: str, ident: str, seeds: Mapping[int, str]) -> bytes:
    """The match key: HMAC-SHA256(secret, message naming the version, game, id and every seed).

    Seeds are mixed by hashing, never XOR: the server committed to the secret before any seed
    existed, so it cannot steer the key, and no seed can cancel another.
    """
    secret = _check_secret(secret)
    return hmac.new(secret, key_message(game, ident, seeds), hashlib.sha256).digest()


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
    """The random source of one match (either game): its secret, game, public id and the seeds
    of the seats whose browsers sent one (the server makes none; docs/fairness.md §5).

    Every use names its purpose (Hand ``deal/3``, ``reshuffle/3/1``; Jakaro ``deal/2``,
    ``burn/1`` …) and is computed from its own stream, so each can be checked on its own. The same
    purpose always gives the same result: callers must name each use uniquely.
    """

    def __init__(
        self, secret: bytes, game: str, ident: str, seeds: Mapping[int, str] | None = None
    ) -> None:
        self._key = derive_key(secret, game, ident, seeds if seeds is not None else {})
        self.seeds = dict(seeds or {})
        self.game = game
        self.ident = ident

    def _stream(self, purpose: str) -> _Stream:
        if not isinstance(purpose, str) or not purpose:
            raise FairnessError("a purpose must be a non-empty text")
        check_token(purpose, "a purpose")
        return _Stream(self._key, purpose)

    def below(self, n: int, purpose: str) -> int:
        """A uniform integer in [0, n)."""
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_BELOW:
            raise FairnessError("below(n) needs a whole number n from 1 to 2**32")
        return self._stream(purpose).below(n)

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        """A new list: Fisher–Yates from the last position down, j = below(i + 1)."""
        if not isinstance(items, Sequence):
            # A set or dict has no order of its own, so its shuffle could not be replayed.
            raise FairnessError("shuffle needs an ordered sequence of items (a list or tuple)")
        out = list(items)
        stream = self._stream(purpose)
        for i in range(len(out) - 1, 0, -1):
            j = stream.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def deck(self, purpose: str) -> list[str]:
        """The game's canonical deck, shuffled for this purpose."""
        return self.shuffle(DECKS[self.game], purpose)


@dataclass(frozen=True)
class Replay:
    """What a verifier shows: whether the secret matches, then each requested result."""

    commitment_ok: bool
    computed_commitment: str
    shuffles: dict[str, list[str]] = field(default_factory=dict)
    belows: dict[str, int] = field(default_factory=dict)


def replay(
    secret_hex: str,
    commitment_hex: str,
    game: str,
    ident: str,
    seeds: Mapping[int, str],
    purposes: Sequence[str] = (),
    belows: Sequence[tuple[str, int]] = (),
    items: Sequence[str] | None = None,
) -> Replay:
    """Check a revealed secret against its commitment and, if it matches, recompute each shuffle
    (of ``items``, else the game's canonical deck) and each ``below(n)``.

    A mismatch computes nothing more: results from a secret that was not committed prove nothing.
    All input is validated first, so bad input is a FairnessError even when the secret mismatches.
    """
    secret = parse_secret(secret_hex)
    published = parse_commitment(commitment_hex)
    source = RandomSource(secret, game, ident, seeds)
    for purpose in [*purposes, *(p for p, _ in belows)]:
        check_token(purpose, "a purpose")
    for _, n in belows:
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_BELOW:
            raise FairnessError("below(n) needs a whole number n from 1 to 2**32")
    if len({p for p, _ in belows}) < len(belows):
        # Each purpose is one draw; two n for one purpose would be two different questions.
        raise FairnessError("each below(n) purpose may be asked only once")
    computed = commitment(secret)
    if not hmac.compare_digest(computed, published):
        return Replay(False, computed)
    deck = list(items) if items is not None else list(DECKS[game])
    return Replay(
        True,
        computed,
        {p: source.shuffle(deck, p) for p in purposes},
        {p: source.below(n, p) for p, n in belows},
    )


def _seed_arg(text: str) -> tuple[int, str]:
    seat, sep, seed = text.partition("=")
    if not sep or not seat.isascii() or not seat.isdigit():
        raise FairnessError(f"a seed is written SEAT=SEED (for example 0=3f9a…), not {text!r}")
    return int(seat), seed


def _below_arg(text: str) -> tuple[str, int]:
    purpose, sep, n = text.rpartition("=")
    if not sep or not n.isascii() or not n.isdigit():
        raise FairnessError(f"a draw is written PURPOSE=N (for example burn/1=5), not {text!r}")
    return purpose, int(n)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairness``: the same checks as the standalone verifier, from this core.

    Exit 0 when the commitment matches, 1 when it does not, 2 on bad input (message on stderr).
    """
    parser = argparse.ArgumentParser(
        prog="python -m fairness",
        description=f"Replay {VERSION} shuffles from a revealed secret (see docs/fairness.md).",
    )
    parser.add_argument("--game", required=True, help="hand or jakaro")
    parser.add_argument("--secret", required=True, help="the revealed secret, 64 hex characters")
    parser.add_argument("--commitment", required=True, help="the published SHA-256, 64 hex")
    parser.add_argument("--id", required=True, dest="ident", help="the match's public id")
    parser.add_argument("--seed", action="append", default=[], metavar="SEAT=SEED")
    parser.add_argument("--purpose", action="append", default=[], help="e.g. deal/1, reshuffle/3/1")
    parser.add_argument("--below", action="append", default=[], metavar="PURPOSE=N")
    parser.add_argument("--items", help="shuffle these (comma-separated) instead of the deck")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        seeds: dict[int, str] = {}
        for seat, seed in map(_seed_arg, args.seed):
            if seat in seeds:
                raise FairnessError(f"seat {seat} has two seeds")
            seeds[seat] = seed
        items = None
        if args.items is not None:
            items = [x for x in re.split(r"[,\s]+", args.items) if x]
            if not items:
                raise FairnessError("--items lists nothing to shuffle")
        result = replay(
            args.secret,
            args.commitment,
            args.game,
            args.ident,
            seeds,
            args.purpose,
            [_below_arg(b) for b in args.below],
            items,
        )
    except FairnessError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        out = {"version": VERSION, "game": args.game, "id": args.ident}
        out |= {"seeds": {str(k): v for k, v in sorted(seeds.items())}}
        out |= {"commitment_ok": result.commitment_ok, "commitment": result.computed_commitment}
        out |= {"shuffles": result.shuffles, "below": result.belows}
        print(json.dumps(out))
    else:
        print(f"{VERSION}  game={args.game}  id={args.ident}")
        if not result.commitment_ok:
            print(f"commitment MISMATCH: sha256(secret) = {result.computed_commitment}")
            print(f"                     published      = {parse_commitment(args.commitment)}")
        else:
            print(f"commitment OK: sha256(secret) = {result.computed_commitment}")
        for purpose, deck in result.shuffles.items():
            print(f"{purpose}: {' '.join(deck)}")
        for purpose, n in map(_below_arg, args.below):
            if purpose in result.belows:
                print(f"{purpose} below({n}): {result.belows[purpose]}")
    return 0 if result.commitment_ok else 1


if __name__ == "__main__":
    sys.exit(main())
