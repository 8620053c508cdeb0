"""The rating mathematics (standing/ratings.py), without the database: the library against its
own published example, places from the engine's outcome, and who gains and loses what."""

from __future__ import annotations

from openskill.models import PlackettLuce

from standing import ratings
from standing.ratings import Player


def test_the_library_gives_its_published_example_values():
    # openskill's README: a1 and a2 beat b1 and b2. Published before the model's default tau
    # (the drift that keeps a rating from freezing), so the model without it gives them.
    model = PlackettLuce(tau=0)
    a1 = model.rating()
    a2 = model.rating(mu=32.444, sigma=5.123)
    b1 = model.rating(mu=43.381, sigma=2.421)
    b2 = model.rating(mu=25.188, sigma=6.211)
    [[x1, x2], [y1, y2]] = model.rate([[a1, a2], [b1, b2]])
    assert (x1.mu, x1.sigma) == (28.669648436582808, 8.071520788025197)
    assert (x2.mu, x2.sigma) == (33.83086971107981, 5.062772998705765)
    assert (y1.mu, y1.sigma) == (43.071274808241974, 2.4166900452721256)
    assert (y2.mu, y2.sigma) == (23.149503312339064, 6.1378606973362135)


def test_modes():
    assert ratings.mode_of("hand", {"players": 3}) == "hand-solo"
    assert ratings.mode_of("hand", {"players": 4, "partners": True}) == "hand-partners"
    assert ratings.mode_of("jakaro", {"players": 2}) == "jakaro-2"
    assert ratings.mode_of("jakaro", {"players": 4}) == "jakaro-partners"


def test_places_come_from_the_outcome_ties_shared_and_a_leaver_last():
    outcome = {"places": [[1, [2]], [2, [0, 3]], [4, [1]]], "teams": [[0], [1], [2], [3]]}
    assert ratings.places(outcome, 4, left=[]) == [2, 4, 1, 2]
    assert ratings.places(outcome, 4, left=[2]) == [1, 3, 4, 1]  # the winner left: last
    partners = {"places": [[1, [1, 3]], [2, [0, 2]]], "teams": [[0, 2], [1, 3]]}
    assert ratings.teams_of(partners, 4) == [0, 1, 0, 1]


def fresh(user: int, place: int, team: int | None = None, left: bool = False) -> Player:
    return Player(
        user=user,
        seat=user,
        mu=ratings.START_MU,
        sigma=ratings.START_SIGMA,
        place=place,
        team=user if team is None else team,
        left=left,
    )


def test_the_winner_gains_the_loser_loses_and_a_tie_moves_both_alike():
    new = ratings.rate([fresh(0, 1), fresh(1, 2)])
    assert new[0][0] > ratings.START_MU > new[1][0]
    tied = ratings.rate([fresh(0, 1), fresh(1, 1), fresh(2, 3)])
    assert tied[0] == tied[1] and tied[0][0] > tied[2][0]
    assert ratings.shown(ratings.START_MU, ratings.START_SIGMA) == ratings.SHOWN_BASE
    assert ratings.provisional(ratings.START_SIGMA)


def test_partners_move_as_a_team_and_a_leavers_partner_keeps_their_rating():
    new = ratings.rate([fresh(0, 2, 0), fresh(1, 1, 1), fresh(2, 2, 0), fresh(3, 1, 1)])
    assert new[1] == new[3] and new[0] == new[2] and new[1][0] > new[0][0]
    # Seat 1 left (its team ranks last, though its bot won): the leaver loses, its partner
    # keeps the rating it had; the other team gains.
    left = ratings.rate([fresh(0, 2, 0), fresh(1, 3, 1, left=True), fresh(2, 2, 0), fresh(3, 1, 1)])
    assert left[1][0] < ratings.START_MU
    assert left[3] == (ratings.START_MU, ratings.START_SIGMA)
    assert left[0][0] > ratings.START_MU and left[0] == left[2]
