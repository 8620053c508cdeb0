#!/usr/bin/env python3
"""sahrat_verify.py: check a Sahrat shuffle yourself (sahrat-fair-v1).

One file, Python 3.8 or newer, standard library only. It shares no code with the Sahrat server:
it was written from the public spec (docs/fairness.md) so that you need not trust our code.

A whole match: download its export from the Verify page and run
``python3 sahrat_verify.py --export match.json`` (add ``--replay``, from a Sahrat checkout, to
also replay the whole log with the engines). One shuffle, with the values the Verify page prints
when a match ends or is aborted:

    python3 sahrat_verify.py --game jakaro \\
        --secret   <64 hex characters revealed after the match> \\
        --commitment <64 hex characters published before the first card> \\
        --id <the match's 16-hex id> --seed 0=<seat 0's seed> --seed 1=<seat 1's seed> ... \\
        --purpose deal/1 --purpose deal/2 --below burn/1=4

It checks that SHA-256(secret) is the commitment, then prints each shuffle you ask for (of the
game's deck in its canonical order, or, for every --purpose of the run, of the cards you give
with --items) and each draw below(n). The secret and the commitment may be in either case, with
whitespace (spaces, tabs, line breaks) around them; the id, seeds and purposes are used exactly
as given. Exit status: 0 the commitment matches, 1 it does not, 2 bad input (a malformed secret
or commitment included), 3 an unexpected failure (please report it). Every option and output
line is described in docs/fairness.md, section 6.2.
"""

import argparse
import hashlib
import hmac
import json
import os
import re
import subprocess
import sys
from datetime import datetime

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
        listed = ", ".join(f"{s}={seeds[s]}" for s in sorted(seeds)) or "none"
        print(f"{VERSION}  game={args.game}  id={ident}  seeds: {listed}")
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


def _when(text, what):
    """An ISO 8601 time from the export (Python 3.8's fromisoformat reads what Sahrat writes)."""
    try:
        return datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise BadInput(f"{what} is not a date and time: {text!r}") from None


def read_export(path):
    """The export file (or - for standard input) as a dict; BadInput if it is not one."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        data = json.loads(text)
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror}") from None
    except ValueError:
        raise BadInput(f"{path} is not JSON") from None
    if not isinstance(data, dict) or data.get("format") != "sahrat-match-v1":
        raise BadInput("this is not a Sahrat match export (format sahrat-match-v1)")
    return data


def check_export(data, replay=None):
    """Check a whole match export. Returns (lines to print, number of mismatches).

    Standard library only: the commitment, that every seed arrived after it, and every recorded
    shuffle and draw recomputed here. The piles the re-shuffles used are taken from the export;
    ``replay`` (the export's path; needs a Sahrat checkout) replays the whole log with the
    engines' rules and checks that it gives exactly those events, piles and hands and the same
    result.
    """
    if data.get("game") not in GAMES:
        raise BadInput("the export's game must be 'hand' or 'jakaro'")
    game = data["game"]
    ident = token(str(data.get("id", "")), "the identifier")
    secret = hex32(str(data.get("secret") or ""), "the secret")
    published = hex32(str(data.get("commitment") or ""), "the commitment").hex()
    committed_at = _when(data.get("committed_at"), "committed_at")
    seeds = {}
    rows = data.get("seeds")
    if not isinstance(rows, list):
        raise BadInput("the export has no list of seeds")
    lines, bad = [], 0
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("seat"), int):
            raise BadInput("each seed needs a seat number")
        seat = row["seat"]
        if seat in seeds:
            raise BadInput(f"seat {seat} is given two seeds")
        seeds[seat] = token(str(row.get("seed", "")), f"the seed of seat {seat}")
        if _when(row.get("at"), f"the time of seat {seat}'s seed") <= committed_at:
            lines.append(f"seed MISMATCH: seat {seat}'s seed is dated before the commitment")
            bad += 1
    computed = hashlib.sha256(secret).hexdigest()
    if not hmac.compare_digest(computed, published):
        lines.append("commitment MISMATCH: sha256(secret) = " + computed)
        lines.append("                     published      = " + published)
        lines.append("No shuffle is checked: results from an uncommitted secret prove nothing.")
        return lines, bad + 1
    lines.append("commitment OK: sha256(secret) = " + computed)
    key = match_key(secret, game, ident, seeds)
    events = data.get("events")
    if not isinstance(events, list):
        raise BadInput("the export has no list of events")
    for e in events:
        if not isinstance(e, dict):
            raise BadInput("each event is an object")
        purpose = token(str(e.get("purpose", "")), "the purpose")
        if e.get("kind") == "below":
            n = e.get("n")
            if not isinstance(n, int) or not 1 <= n <= 2**32:
                raise BadInput(f"{purpose}: n must be a whole number from 1 to 2**32")
            got = PurposeStream(key, purpose).below(n)
        else:
            items = e.get("items")
            got = fisher_yates(key, canonical_deck(game) if items is None else items, purpose)
        if got == e.get("result"):
            lines.append(f"{purpose}: OK")
        else:
            lines.append(f"{purpose}: MISMATCH (recomputed {got}, recorded {e.get('result')})")
            bad += 1
    lines.append(f"{len(events)} random events recomputed")
    if data.get("end_reason") == "forfeit":  # the leavers' result needs the game's teams
        lines.append("won by forfeit: its result is checked by --replay (not without it)")
    if replay:
        lines_r, bad_r = _replay_with_engines(replay)
        lines += lines_r
        bad += bad_r
    return lines, bad


def _replay_with_engines(path):
    """--replay: the whole log through the project's engines. This script imports nothing of
    Sahrat (its own checks above share no code with the server); this mode runs the project's
    own checker, ``python -m verify.audit``, as a separate program from a Sahrat checkout (the
    current directory, or the one in SAHRAT_CHECKOUT), and reports what it says."""
    checkout = os.environ.get("SAHRAT_CHECKOUT") or os.getcwd()
    if not os.path.isfile(os.path.join(checkout, "verify", "audit.py")):
        raise BadInput(
            "--replay runs the Sahrat project's engines: run it from a Sahrat checkout "
            "or set SAHRAT_CHECKOUT to one"
        )
    env = dict(os.environ, PYTHONPATH=checkout)
    done = subprocess.run(
        [sys.executable, "-m", "verify.audit", os.path.abspath(path)],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode == 2:
        raise BadInput("the export cannot be replayed: " + done.stderr.strip())
    if done.returncode not in (0, 1):
        raise BadInput("the project's replay failed: " + done.stderr.strip()[-500:])
    lines = done.stdout.strip().splitlines()
    return lines, 0 if done.returncode == 0 else max(1, len(lines))


def main_export(argv):
    """``--export FILE [--replay]``: check a whole match export."""
    if len(argv) < 2 or any(a != "--replay" for a in argv[2:]):
        raise BadInput("usage: sahrat_verify.py --export FILE.json [--replay]")
    lines, bad = check_export(read_export(argv[1]), argv[1] if "--replay" in argv[2:] else None)
    for line in lines:
        print(line)
    print("ALL OK" if not bad else f"{bad} MISMATCH(ES)")
    return 0 if not bad else 1


def guarded(work, *args):
    """``work(*args)``'s exit status; bad input is 2 and any other failure 3, each said in one
    line: a downloadable tool never answers with a traceback."""
    try:
        return work(*args)
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        print(f"error: unexpected failure ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 3


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "--export":
        return guarded(main_export, argv)
    parser = argparse.ArgumentParser(
        description=f"Check a Sahrat commitment and replay its shuffles ({VERSION})."
    )
    parser.add_argument("--game", required=True, help="hand or jakaro")
    parser.add_argument("--secret", required=True, help="revealed secret, 64 hex characters")
    commitment = "commitment published before the first card, 64 hex characters"
    parser.add_argument("--commitment", required=True, help=commitment)
    public_id = "the match's public id (16 hex characters)"
    parser.add_argument("--id", required=True, dest="ident", help=public_id)
    parser.add_argument(
        "--seed",
        action="append",
        default=[],
        metavar="SEAT=SEED",
        help="a seated player's seed (SEAT 0 to 999999); repeat for each seat that has one",
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
        help="shuffle these cards (comma- or space-separated) instead of the canonical deck, "
        "for every --purpose of this run (not --below), e.g. a fire pile for reshuffle/3/1",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: version, game, id, seeds, commitment_ok, commitment "
        "(the secret's SHA-256), shuffles and below",
    )
    return guarded(run, parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
