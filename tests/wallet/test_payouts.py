"""Settlement of coin matches on PostgreSQL: every case of Hand §9 and Jakaro §11 (two to four
players, partners, shared places, leavers, abort, remainders), the seed's example exactly, and
property tests that a settlement's payouts plus the fee are the pot and no wallet goes negative.

Each case plays the real path: a coin table, the players sit (their stakes go into the match's
escrow), the match ends with the engine's own outcome for a finishing order, and the wallet
settles it. What each player gains is read from their wallet balance.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.models import Match
from tests.wallet.conftest import balance, fund, total
from tests.wallet.helpers import coin_match, finish, hand_outcome, jakaro_outcome
from wallet import payouts
from wallet import services as wallet_services
from wallet.models import Account, Transfer

pytestmark = pytest.mark.django_db(transaction=True)

START = 500  # the starter grant every player has (settings.WALLET_STARTER_GRANT)

# (name, game, options, stake, outcome, seats that left, each seat's gain after the match,
#  the house's fee)
CASES = [
    (
        "hand 2p: winner takes all",
        "hand",
        {"players": 2},
        100,
        hand_outcome(2, False, [(1, (1,)), (2, (0,))]),
        (),
        [-100, 80],
        20,
    ),
    (
        "hand 3p: 70/30",
        "hand",
        {"players": 3},
        100,
        hand_outcome(3, False, [(1, (2,)), (2, (0,)), (3, (1,))]),
        (),
        [-19, -100, 89],
        30,
    ),
    (
        "hand 4p solo: 70/30",
        "hand",
        {"players": 4},
        100,
        hand_outcome(4, False, [(1, (0,)), (2, (3,)), (3, (1,)), (4, (2,))]),
        (),
        [152, -100, -100, 8],
        40,
    ),
    (
        "hand 4p partners: the team splits",
        "hand",
        {"players": 4, "partners": True},
        100,
        hand_outcome(4, True, [(1, (1, 3)), (2, (0, 2))]),
        (),
        [-100, 80, -100, 80],
        40,
    ),
    (
        "jakaro 4p: the seed's example, 180 each",
        "jakaro",
        {"players": 4},
        100,
        jakaro_outcome(4, 0),
        (),
        [80, -100, 80, -100],
        40,
    ),
    (
        "jakaro 2p: winner takes all",
        "jakaro",
        {"players": 2},
        50,
        jakaro_outcome(2, 1),
        (),
        [-50, 40],
        10,
    ),
    # Shared places pool the prizes of the places they cover.
    (
        "hand 2p: a shared first place splits",
        "hand",
        {"players": 2},
        100,
        hand_outcome(2, False, [(1, (0,)), (1, (1,))]),
        (),
        [-10, -10],
        20,
    ),
    (
        "hand 3p: two share first, 100% pooled",
        "hand",
        {"players": 3},
        100,
        hand_outcome(3, False, [(1, (0,)), (1, (1,)), (3, (2,))]),
        (),
        [35, 35, -100],
        30,
    ),
    (
        "hand 4p: three share second, 30% pooled",
        "hand",
        {"players": 4},
        100,
        hand_outcome(4, False, [(1, (2,)), (2, (0,)), (2, (1,)), (2, (3,))]),
        (),
        [-64, -64, 152, -64],
        40,
    ),
    # Leavers get nothing.
    (
        "hand 4p partners: a winning partner left, the other takes the team share",
        "hand",
        {"players": 4, "partners": True},
        100,
        hand_outcome(4, True, [(1, (0, 2)), (2, (1, 3))]),
        (2,),
        [260, -100, -100, -100],
        40,
    ),
    (
        "jakaro 4p: a winning partner left",
        "jakaro",
        {"players": 4},
        100,
        jakaro_outcome(4, 1),
        (1,),
        [-100, -100, -100, 260],
        40,
    ),
    (
        "hand 3p solo: the winner left, the next place takes the share",
        "hand",
        {"players": 3},
        100,
        hand_outcome(3, False, [(1, (0,)), (2, (1,)), (3, (2,))]),
        (0,),
        [-100, 170, -100],
        30,
    ),
    (
        "hand 4p solo: second left, third takes 30%",
        "hand",
        {"players": 4},
        100,
        hand_outcome(4, False, [(1, (0,)), (2, (1,)), (3, (2,)), (4, (3,))]),
        (1,),
        [152, -100, 8, -100],
        40,
    ),
    (
        "jakaro 2p: the winner left, the other takes the prize",
        "jakaro",
        {"players": 2},
        100,
        jakaro_outcome(2, 0),
        (0,),
        [-100, 80],
        20,
    ),
    (
        "jakaro 4p: both winners left, the other team takes the prize",
        "jakaro",
        {"players": 4},
        100,
        jakaro_outcome(4, 0),
        (0, 2),
        [-100, 80, -100, 80],
        40,
    ),
    (
        "a loser who left changes nothing",
        "hand",
        {"players": 3},
        100,
        hand_outcome(3, False, [(1, (0,)), (2, (1,)), (3, (2,))]),
        (2,),
        [89, -19, -100],
        30,
    ),
    (
        "hand 3p: second and third left, second's share goes up to first",
        "hand",
        {"players": 3},
        100,
        hand_outcome(3, False, [(1, (0,)), (2, (1,)), (3, (2,))]),
        (1, 2),
        [170, -100, -100],
        30,
    ),
    (
        "everyone left: the house takes the pot",
        "hand",
        {"players": 2},
        100,
        hand_outcome(2, False, [(1, (0,)), (2, (1,))]),
        (0, 1),
        [-100, -100],
        200,
    ),
    # Remainders: whole coins down, left-over coins one each by place, then seat number.
    (
        "remainder: 27 coins 70/30 is 19 and 8",
        "hand",
        {"players": 3},
        10,
        hand_outcome(3, False, [(1, (1,)), (2, (2,)), (3, (0,))]),
        (),
        [-10, 9, -2],
        3,
    ),
    (
        "remainder: 36 coins, first 25.2, three share second",
        "hand",
        {"players": 4},
        10,
        hand_outcome(4, False, [(1, (3,)), (2, (0,)), (2, (1,)), (2, (2,))]),
        (),
        [-6, -7, -7, 16],
        4,
    ),
]


@pytest.mark.parametrize(
    ("game", "options", "stake", "outcome", "left", "gains", "fee"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_settlement_pays_each_case_of_the_rules(
    host, people, game, options, stake, outcome, left, gains, fee
):
    n = len(gains)
    match = coin_match(host, game, options, stake, people[:n])
    escrow = Account.objects.get(kind=Account.Kind.ESCROW, match=match)
    assert escrow.balance == stake * n  # the pot, escrowed at the start
    assert [balance(p) for p in people[:n]] == [START - stake] * n

    finish(match, outcome, left)

    assert [balance(p) - START for p in people[:n]] == gains
    assert wallet_services.house_account().balance == fee
    escrow.refresh_from_db()
    assert escrow.balance == 0
    assert sum(gains) + fee == 0  # coins only moved between players and the house
    assert total() == 0
    for number in left:  # a leaver is never paid
        assert not Transfer.objects.filter(
            kind=Transfer.Kind.PAYOUT, dest=wallet_services.wallet_of(people[number])
        ).exists()


def test_the_seed_example_four_at_100(host, people):
    """Jakaro §11: four players at 100: pot 400, fee 40, 180 each."""
    match = coin_match(host, "jakaro", {"players": 4}, 100, people[:4])
    assert Account.objects.get(match=match).balance == 400
    finish(match, jakaro_outcome(4, 0))
    fee = Transfer.objects.get(match=match, kind=Transfer.Kind.FEE)
    assert fee.amount == 40
    paid = Transfer.objects.filter(match=match, kind=Transfer.Kind.PAYOUT).order_by("key")
    assert [(t.dest.user, t.amount) for t in paid] == [(people[0], 180), (people[2], 180)]


def test_an_aborted_match_refunds_every_stake_in_full(host, people):
    match = coin_match(host, "hand", {"players": 4}, 500, people[:4])
    assert [balance(p) for p in people[:4]] == [0, 0, 0, 0]
    services.match_abort(match_id=match.pk)
    assert [balance(p) for p in people[:4]] == [START] * 4
    assert Account.objects.get(match=match).balance == 0
    assert wallet_services.house_account().balance == 0
    assert Transfer.objects.filter(match=match, kind=Transfer.Kind.REFUND).count() == 4
    # Aborting again (a second staff click) refunds nothing more.
    services.match_abort(match_id=match.pk)
    wallet_services.refund(Match.objects.get(pk=match.pk))
    assert [balance(p) for p in people[:4]] == [START] * 4


# ------------------------------------------------------------------------------ properties


@st.composite
def finishing(draw):
    """A finishing order the Hand engine could give (ties anywhere), with its outcome."""
    n = draw(st.sampled_from([2, 3, 4]))
    partners = n == 4 and draw(st.booleans())
    units = [(0, 2), (1, 3)] if partners else [(s,) for s in range(n)]
    scores = draw(st.lists(st.integers(0, 3), min_size=len(units), max_size=len(units)))
    order = sorted(range(len(units)), key=lambda u: scores[u])
    places = []
    for u in order:
        place = 1 + sum(1 for v in order if scores[v] < scores[u])
        places.append((place, units[u]))
    left = draw(st.sets(st.integers(0, n - 1)))
    return n, partners, hand_outcome(n, partners, places), tuple(sorted(left))


@given(
    case=finishing(),
    pot=st.integers(0, 10**9),
    percent=st.integers(0, 100),
)
@settings(max_examples=400, deadline=None)
def test_property_payouts_plus_fee_are_the_pot(case, pot, percent):
    n, _partners, outcome, left = case
    result = payouts.split(pot, outcome, left, percent)
    assert result.total == pot
    assert result.fee >= payouts.fee_of(pot, percent)
    assert all(c > 0 for c in result.payouts.values())
    assert not set(result.payouts) & set(left)  # a leaver is never paid
    if len(left) < n:  # someone stayed: the house takes exactly the fee
        assert result.fee == payouts.fee_of(pot, percent)


@given(case=finishing(), level=st.sampled_from([10, 50, 100, 500]))
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_property_settlement_on_postgres_balances_and_never_goes_negative(
    host, people, case, level
):
    n, partners, outcome, left = case
    before = [balance(p) for p in people[:n]]
    house_before = wallet_services.house_account().balance
    for i, p in enumerate(people[:n]):  # top up whoever is short of the stake
        if balance(p) < level:
            fund(p, level, key=f"prop:{p.pk}:{Transfer.objects.count()}:{i}")
    before = [balance(p) for p in people[:n]]
    options = {"players": n, "partners": partners}
    match = coin_match(host, "hand", options, level, people[:n])
    finish(match, outcome, left)
    after = [balance(p) for p in people[:n]]
    fee = wallet_services.house_account().balance - house_before
    assert sum(after) - sum(before) + fee == 0  # payouts + fee == pot
    assert Account.objects.get(match=match).balance == 0
    assert not Account.objects.exclude(kind=Account.Kind.REWARDS).filter(balance__lt=0).exists()
    assert total() == 0
    for s in left:
        assert after[s] == before[s] - level


def test_every_combination_of_leavers_pays_the_pot_exactly(host, people):
    """Four solo players, every subset of leavers: the coins always add up."""
    outcome = hand_outcome(4, False, [(1, (0,)), (2, (1,)), (2, (2,)), (4, (3,))])
    for k in range(5):
        for left in itertools.combinations(range(4), k):
            result = payouts.split(400, outcome, left, 10)
            assert result.total == 400
            assert not set(result.payouts) & set(left)
