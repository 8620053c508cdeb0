"""The server's side of the Verify page on PostgreSQL, with real matches played to their end
through games/services/: the replay records every random event, the export is checked by the
server's own code (verify/audit.py), and every kind of tampering is a mismatch."""

from __future__ import annotations

import copy

import pytest

import games
from fairness.core import RandomSource
from games.models import Match, MatchAction, MatchSeed
from tests.verify.helpers import node_recompute, tampered
from verify import audit, selectors

pytestmark = pytest.mark.django_db(transaction=True)

MATCHES = [
    ("hand", {"players": 2, "variant": "plain", "table": "strict"}),
    ("jakaro", {"players": 2}),
    ("jakaro", {"players": 4}),
]


@pytest.mark.parametrize(("game", "options"), MATCHES, ids=str)
def test_a_finished_match_verifies_in_the_server_and_every_event_is_recomputed(
    finished, game, options
):
    match = finished(game, options, humans=1)
    page = selectors.match_page(match)
    assert page["revealed"] and page["secret"] == match.secret
    assert all(c["ok"] for c in page["checks"]), page["checks"]
    assert {c["what"] for c in page["checks"]} >= {"commitment", "seeds_after", "replay"}
    export = selectors.match_export(match)
    assert audit.check_export(export) == []

    # Each recorded event is what the match's source gives for its purpose, independently.
    seeds = {s.seat: s.seed for s in MatchSeed.objects.filter(match=match)}
    assert len(seeds) == 1  # the one player's browser seed; the bots added none
    source = RandomSource(bytes.fromhex(match.secret), game, match.public_id, seeds)
    deals = [e for e in page["events"] if e["type"] == "deal"]
    assert deals and deals[0]["purpose"] == "deal/1" and deals[0]["seq"] == 0
    for e in page["events"]:
        if e["kind"] == "below":
            assert e["result"] == source.below(e["n"], e["purpose"])
            assert e["victim_hand"][e["result"]] == e["burned"]
        elif e["items"] is None:
            assert e["result"] == source.deck(e["purpose"])
            dealt = [c for h in e["hands"] for c in h]
            assert sorted(dealt + e["rest"]) == sorted(e["result"])
        else:
            assert e["result"] == source.shuffle(e["items"], e["purpose"])
    # Purposes are used once each, in the game's own numbering.
    purposes = [e["purpose"] for e in page["events"]]
    assert len(purposes) == len(set(purposes))


@pytest.mark.parametrize("how", ["card", "secret", "seed", "seed_time"])
def test_a_tampered_export_is_a_mismatch_for_the_server(finished, how):
    match = finished("jakaro", {"players": 2}, humans=1)
    export = selectors.match_export(match)
    problems = audit.check_export(tampered(export, how))
    assert problems, how
    codes = {p["code"] for p in problems}
    expected = {"card": "event", "secret": "commitment", "seed": "event", "seed_time": "seed_time"}
    assert expected[how] in codes


def test_tampered_database_records_are_mismatches_on_the_page(finished):
    match = finished("jakaro", {"players": 2}, humans=1)
    seed = MatchSeed.objects.get(match=match)
    # A seed changed behind the page's back: the log no longer replays from it.
    MatchSeed.objects.filter(pk=seed.pk).update(seed="0" * 32)
    checks = {c["what"]: c["ok"] for c in selectors.match_page(match)["checks"]}
    assert checks["replay"] is False or checks.get("snapshot") is False
    MatchSeed.objects.filter(pk=seed.pk).update(seed=seed.seed)
    # A seed dated before the commitment.
    MatchSeed.objects.filter(pk=seed.pk).update(at=match.created_at.replace(year=2000))
    checks = {c["what"]: c["ok"] for c in selectors.match_page(match)["checks"]}
    assert checks["seeds_after"] is False
    MatchSeed.objects.filter(pk=seed.pk).update(at=seed.at)
    assert all(c["ok"] for c in selectors.match_page(match)["checks"])
    # One logged card changed: the log no longer replays (the hand never held it) or no longer
    # ends in the state the server kept.
    act = match.actions.exclude(seat=None).order_by("seq").first()
    parts = act.action.split()
    other = next(c for c in ("AS", "KD", "2C") if c != parts[1])
    MatchAction.objects.filter(pk=act.pk).update(action=" ".join([parts[0], other, *parts[2:]]))
    checks = {c["what"]: c["ok"] for c in selectors.match_page(match)["checks"]}
    assert checks["replay"] is False or checks.get("snapshot") is False
    MatchAction.objects.filter(pk=act.pk).update(action=act.action)
    # A secret that is not the committed one.
    Match.objects.filter(pk=match.pk).update(secret="ab" * 32)
    match.refresh_from_db()
    checks = {c["what"]: c["ok"] for c in selectors.match_page(match)["checks"]}
    assert checks["commitment"] is False


def test_the_replay_steps_give_every_seat_its_cards(finished):
    match = finished("hand", {"players": 2, "variant": "plain", "table": "strict"}, humans=1)
    engine = games.get("hand")
    first = selectors.replay_step(match, 0)
    assert first["step"] == 0 and first["last"] == match.seq
    assert [len(v["hand"]) for v in first["views"]] in ([14, 15], [15, 14])
    end = selectors.replay_step(match, 10**9)
    assert end["step"] == match.seq
    assert engine.to_json(end["state"]) == match.snapshot


def test_an_unrevealed_match_has_no_export_and_no_secret_on_its_page(fast_clocks, creator, users):
    from tests.tables.helpers import make_table, seat_humans

    table = make_table(creator, "hand", {"players": 2})
    waiting = Match.objects.get(table=table)
    page = selectors.match_page(waiting)
    assert page["secret"] is None and page["events"] == [] and not page["revealed"]
    with pytest.raises(selectors.NotRevealed):
        selectors.match_export(waiting)
    seat_humans(table, users[:2])
    waiting.refresh_from_db()
    assert waiting.status == "playing"
    with pytest.raises(selectors.NotRevealed):
        selectors.match_export(waiting)
    assert selectors.match_page(waiting)["secret"] is None


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"format": "other"},
        {"format": "sahrat-match-v1", "game": "chess"},
        {"format": "sahrat-match-v1", "game": "hand", "id": "x y"},
    ],
    ids=str,
)
def test_a_malformed_export_is_a_clear_error(bad):
    with pytest.raises(
        audit.ExportError
        if not isinstance(bad, dict) or bad.get("format") != "sahrat-match-v1"
        else ValueError
    ):
        audit.check_export(bad)


def test_a_hand_match_of_time_outs_records_its_reshuffles_from_the_fire_pile(finished, tmp_path):
    """Nobody lays anything (every turn runs out), so stocks run dry and fire piles are
    re-shuffled: each reshuffle event shuffles the pile without its top card, oldest first."""
    options = {"players": 2, "variant": "plain", "table": "strict", "rounds": 1}
    match = finished("hand", options, humans=2)
    page = selectors.match_page(match)
    assert all(c["ok"] for c in page["checks"]), page["checks"]
    reshuffles = [e for e in page["events"] if e["type"] == "reshuffle"]
    assert reshuffles, [e["purpose"] for e in page["events"]]
    engine = games.get("hand")
    for e in reshuffles:
        before = selectors.replay_step(match, e["seq"] - 1)["spectator"]
        fire = before["fire"]
        if e["action"] == "timeout" and page["facts"][e["seq"]]["returned"]:
            fire = [*fire, page["facts"][e["seq"]]["returned"]]
        assert e["items"] == fire[:-1]
        assert sorted(e["result"]) == sorted(e["items"])
    export = selectors.match_export(match)
    assert audit.check_export(export) == []
    assert engine.name == "hand"
    # The browser's code rebuilds the same piles from the log (time-outs included).
    browser = node_recompute(export, tmp_path)
    assert browser["allOk"] and browser["count"] == len(page["events"]), browser
    # A re-shuffled pile the server misreports is caught by the browser (it has its own pile).
    bad = copy.deepcopy(export)
    first = next(e for e in bad["events"] if e["type"] == "reshuffle")
    first["items"] = list(reversed(first["items"]))
    assert not node_recompute(bad, tmp_path)["allOk"]
