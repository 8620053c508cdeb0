#!/usr/bin/env python3
"""sahrat_verify.py: check a Sahrat shuffle yourself (sahrat-fair-v1).

One file, Python 3.8 or newer, standard library only. It shares no code with the Sahrat server:
it was written from the public spec (docs/fairness.md) so that you need not trust our code.

Example (the values are printed on the Verify page when a match ends or is aborted):

    python3 sahrat_verify.py --game jakaro \\
        --secret   <64 hex characters revealed after the match> \\
        --commitment <64 hex characters published before the first card> \\
        --id match-1 --seed 0=<seat 0's seed> --seed 1=<seat 1's seed> ... \\
        --purpose deal/1 --purpose deal/2 --below burn/1=4

It checks that SHA-256(secret) is the commitment, then prints each shuffle you ask for (of the
game's deck in its canonical order, or of the cards you give with --items) and each draw
below(n). Exit status: 0 the commitment matches, 1 it does not, 2 bad input, 3 an unexpected
failure (please report it).
"""

import argparse
import hashlib
import hmac
import json
import re
import sys

VERSION = "sahrat-fair-v1"
GAMES = ("hand", "jakaro")
TOKEN_RE = re.compile(r"[0-9A-Za-z_.:/-]{1,128}")
HEX64_RE = re.compile(r"[0-9a-fA-F]{64}")
TOKEN_RULE = "1 to 128 characters, each a letter A-Z a-z, a digit or one of _ . : / -"


class BadInput(Exception):
    """Input we cannot verify with; the message is shown to the user as it is."""


def canonical_deck(game):
    """The deck in the order the spec fixes, before any shuffle."""
    ranks = ["A"] + [str(r) for r in range(2, 11)] + ["J", "Q", "K"]
    one = [rank + suit for suit in "SHDC" for rank in ranks]
    if game == "jakaro":
        return one
    return one + one + ["JK1", "JK2"]


def hex32(text, what):
    text = text.strip()
    if not HEX64_RE.fullmatch(text):
        raise BadInput(
            f"{what} must be exactly 64 hexadecimal characters, got {len(text)} characters"
        )
    return bytes.fromhex(text)


def token(text, what):
    if not TOKEN_RE.fullmatch(text):
        raise BadInput(f"{what} {text!r} is not valid: it must be {TOKEN_RULE}")
    return text


def match_key(secret, game, ident, seeds):
    """HMAC-SHA256 keyed by the secret over the key message (seats in ascending number)."""
    text = VERSION + "\n" + "game=" + game + "\n" + "id=" + ident + "\n"
    for seat in sorted(seeds):
        text += "seed/" + str(seat) + "=" + seeds[seat] + "\n"
    return hmac.new(secret, text.encode("utf-8"), hashlib.sha256).digest()


class PurposeStream:
    """The byte stream of one purpose, read four bytes at a time."""

    def __init__(self, key, purpose):
        self.key = key
        self.purpose = purpose.encode("utf-8")
        self.block_number = 0
        self.pending = bytearray()

    def next_u32(self):
        while len(self.pending) < 4:
            counter = self.block_number.to_bytes(8, "big")
            block = hmac.new(self.key, self.purpose + b"\x00" + counter, hashlib.sha256)
            self.pending += block.digest()
            self.block_number += 1
        word = int.from_bytes(bytes(self.pending[:4]), "big")
        del self.pending[:4]
        return word

    def below(self, n):
        """Uniform in 0..n-1: mask to the bits of n-1, try again while the value is n or more."""
        if n == 1:
            return 0
        mask = 1
        while mask < n - 1:
            mask = mask * 2 + 1
        while True:
            value = self.next_u32() & mask
            if value < n:
                return value


def fisher_yates(key, items, purpose):
    cards = list(items)
    stream = PurposeStream(key, purpose)
    i = len(cards) - 1
    while i >= 1:
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
        i -= 1
    return cards


def parse_seeds(pairs):
    seeds = {}
    for pair in pairs:
        seat_text, equals, seed = pair.partition("=")
        if not equals or not re.fullmatch(r"[0-9]{1,6}", seat_text):
            raise BadInput(f"--seed must be SEAT=SEED with SEAT a seat number, got {pair!r}")
        seat = int(seat_text)
        if seat in seeds:
            raise BadInput(f"seat {seat} is given two seeds")
        seeds[seat] = token(seed, f"the seed of seat {seat}")
    return seeds


def parse_belows(pairs):
    out = []
    for pair in pairs:
        purpose, equals, n_text = pair.rpartition("=")
        if not equals or not re.fullmatch(r"[0-9]{1,10}", n_text):
            raise BadInput(f"--below must be PURPOSE=N with N a whole number, got {pair!r}")
        n = int(n_text)
        if not 1 <= n <= 2**32:
            raise BadInput(f"--below needs N from 1 to 4294967296, got {n}")
        if purpose in [p for p, _ in out]:
            raise BadInput(f"--below asks for {purpose!r} twice: each purpose is one draw")
        out.append((token(purpose, "the purpose"), n))
    return out


def run(args):
    """Do the work; returns the exit status. Raises BadInput for anything we cannot check."""
    if args.game not in GAMES:
        raise BadInput(f"unknown game {args.game!r}: it must be 'hand' or 'jakaro'")
    secret = hex32(args.secret, "the secret")
    published = hex32(args.commitment, "the commitment").hex()
    ident = token(args.ident, "the identifier (--id)")
    seeds = parse_seeds(args.seed)
    purposes = [token(p, "the purpose") for p in args.purpose]
    belows = parse_belows(args.below)
    if args.items is None:
        items = canonical_deck(args.game)
    else:
        items = [x for x in re.split(r"[\s,]+", args.items) if x]
        if not items:
            raise BadInput("--items gives nothing to shuffle")

    computed = hashlib.sha256(secret).hexdigest()
    matches = hmac.compare_digest(computed, published)
    report = {
        "version": VERSION,
        "game": args.game,
        "id": ident,
        "seeds": {str(s): seeds[s] for s in sorted(seeds)},
        "commitment_ok": matches,
        "commitment": computed,
        "shuffles": {},
        "below": {},
    }
    if matches:
        key = match_key(secret, args.game, ident, seeds)
        for purpose in purposes:
            report["shuffles"][purpose] = fisher_yates(key, items, purpose)
        for purpose, n in belows:
            report["below"][purpose] = PurposeStream(key, purpose).below(n)

    if args.json:
        print(json.dumps(report))
    else:
        print(
            "{}  game={}  id={}  seeds: {}".format(
                VERSION,
                args.game,
                ident,
                ", ".join(f"{s}={seeds[s]}" for s in sorted(seeds)) or "none",
            )
        )
        if not matches:
            print("commitment MISMATCH: this secret is not the one committed to.")
            print("  sha256(secret) = " + computed)
            print("  published      = " + published)
            print("No shuffle is shown: results from an uncommitted secret prove nothing.")
        else:
            print("commitment OK: sha256(secret) = " + computed)
            for purpose in purposes:
                print(purpose + ": " + " ".join(report["shuffles"][purpose]))
            for purpose, n in belows:
                print(f"{purpose} below({n}): {report['below'][purpose]}")
    return 0 if matches else 1


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=f"Check a Sahrat commitment and replay its shuffles ({VERSION})."
    )
    parser.add_argument("--game", required=True, help="hand or jakaro")
    parser.add_argument("--secret", required=True, help="revealed secret, 64 hex characters")
    parser.add_argument(
        "--commitment",
        required=True,
        help="commitment published before the first card, 64 hex characters",
    )
    parser.add_argument("--id", required=True, dest="ident", help="the match's public id")
    parser.add_argument(
        "--seed",
        action="append",
        default=[],
        metavar="SEAT=SEED",
        help="a seated player's seed; repeat for each seat that has one",
    )
    parser.add_argument(
        "--purpose",
        action="append",
        default=[],
        help="shuffle to print, e.g. deal/1 or reshuffle/3/1 (repeatable)",
    )
    parser.add_argument(
        "--below",
        action="append",
        default=[],
        metavar="PURPOSE=N",
        help="draw to print, e.g. burn/1=4 for below(4) (repeatable)",
    )
    parser.add_argument(
        "--items",
        help="shuffle these cards (comma- or space-separated) "
        "instead of the canonical deck, e.g. a fire pile for reshuffle/3/1",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        return run(args)
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a downloadable tool should never answer with a traceback
        print(f"error: unexpected failure ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
