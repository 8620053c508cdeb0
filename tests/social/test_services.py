"""Following, friends and where they are, hiding one's presence, and blocking (every way in a
blocked player might try), through the services and the pages."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from games import selectors as game_selectors
from games import services as game_services
from games.models import Match
from games.services import TableError
from social import selectors, services
from social.errors import SocialError
from social.models import Block, Follow
from tests.tables.helpers import make_table, seat_humans, seed_for, sit_at

pytestmark = pytest.mark.django_db


def befriend(a, b) -> None:
    services.follow(user=a, username=b.username)
    services.follow(user=b, username=a.username)


def state_of(user, friend) -> dict:
    return next(f for f in selectors.friends_of(user) if f["username"] == friend.username)


def test_two_who_follow_each_other_are_friends(users):
    a, b, c = users[:3]
    services.follow(user=a, username=b.username)
    assert selectors.friends_of(a) == []
    assert [u.username for u in selectors.following_only(a)] == [b.username]
    services.follow(user=b, username=a.username)
    assert [f["username"] for f in selectors.friends_of(a)] == [b.username]
    assert selectors.relation(a, b) == {
        "following": True,
        "followed_by": True,
        "friends": True,
        "blocked": False,
    }
    assert selectors.relation(a, c)["friends"] is False
    services.follow(user=a, username=b.username)  # again: nothing more
    assert Follow.objects.filter(follower=a).count() == 1
    with pytest.raises(SocialError) as refused:
        services.follow(user=a, username=a.username)
    assert refused.value.message("en") == "That is you."
    with pytest.raises(SocialError):
        services.follow(user=a, username="nobody-at-all")


def test_a_friends_presence_follows_them_to_the_table_and_into_play(users):
    a, b, c = users[:3]
    befriend(a, b)
    assert state_of(a, b)["state"] == "offline"
    table = make_table(c, "jakaro", {"players": 2})
    seat_humans(table, [b])
    seen = state_of(a, b)
    assert seen["state"] == "at_table" and seen["table"] == table.public_id
    sit_at(table, c, 1)
    seen = state_of(a, b)
    assert seen["state"] == "playing" and seen["game"] == "jakaro"
    # A private table is named, never linked: its link is its invite.
    private = make_table(c, "hand", {"players": 2}, private=True)
    seat_humans(private, [a])
    assert state_of(b, a) == {**state_of(b, a), "state": "at_table", "table": None}


def test_a_hidden_presence_is_not_shown(users):
    a, b = users[:2]
    befriend(a, b)
    table = make_table(b, "jakaro", {"players": 2})
    seat_humans(table, [b])
    services.set_hide_presence(user=b, hide=True)
    seen = state_of(a, b)
    assert seen["state"] == "hidden" and seen["table"] is None
    assert selectors.seen_friend_ids(a) == []
    services.set_hide_presence(user=b, hide=False)
    assert state_of(a, b)["state"] == "at_table"


def test_a_block_ends_following_and_keeps_the_blocked_out(users):
    a, b, c = users[:3]
    befriend(a, b)
    services.block(user=a, username=b.username)
    assert not Follow.objects.exists()
    assert Block.objects.filter(blocker=a, blocked=b).exists()
    # The blocked player cannot follow, nor sit at a table the blocker created.
    with pytest.raises(SocialError) as refused:
        services.follow(user=b, username=a.username)
    assert refused.value.code == "cannot_follow"
    with pytest.raises(SocialError):
        services.follow(user=a, username=b.username)  # nor the blocker, until they unblock
    table = make_table(a, "jakaro", {"players": 2})
    match = Match.objects.get(table=table, number=1)
    with pytest.raises(TableError) as refused:
        game_services.seat_take(
            user=b,
            table_id=table.public_id,
            number=1,
            seed=seed_for(b.pk),
            commitment=match.commitment,
            match_id=match.public_id,
        )
    assert refused.value.code == "not_at_this_table"
    assert refused.value.message("en") == "You cannot sit at this table."
    # Quick play shows neither the other's table.
    assert game_selectors.quick_seat(b, game="jakaro", players=None, partners=None, stake=0) is None
    theirs = make_table(b, "jakaro", {"players": 2})
    seat_humans(theirs, [b])
    found = game_selectors.quick_seat(a, game="jakaro", players=None, partners=None, stake=0)
    assert found is not None and found[0] == table  # their own, never the blocked one's
    found = game_selectors.quick_seat(c, game="jakaro", players=None, partners=None, stake=0)
    assert found is not None
    # Unblocked, all is as before.
    services.unblock(user=a, username=b.username)
    services.follow(user=b, username=a.username)
    assert Follow.objects.filter(follower=b, followed=a).exists()


def page(user, url: str, lang: str = "en") -> str:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    user.language = lang
    user.save(update_fields=["language"])
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_pages_follow_block_and_list_friends(users):
    a, b = users[:2]
    client = Client()
    client.force_login(a)
    html = page(a, f"/accounts/u/{b.username}/")
    assert 'data-testid="follow"' in html and 'data-testid="block"' in html
    client.post(f"/friends/follow/{b.username}/", {"next": f"/accounts/u/{b.username}/"})
    client.force_login(b)
    client.post(f"/friends/follow/{a.username}/")
    html = page(a, "/friends/")
    assert f'data-friend="{b.username}"' in html and "offline" in html
    arabic = page(a, "/friends/", "ar")
    assert "غير متصل" in arabic
    assert 'data-testid="friends-tag"' in page(a, f"/accounts/u/{b.username}/")
    # A block is private: the blocked player's view of the blocker's page says nothing of it.
    client.force_login(a)
    client.post(f"/friends/block/{b.username}/")
    assert 'data-testid="unblock"' in page(a, f"/accounts/u/{b.username}/")
    theirs = page(b, f"/accounts/u/{a.username}/")
    assert "unblock" not in theirs and "blocked" not in theirs.lower()
    assert f'data-testid="unblock-{b.username}"' in page(a, "/friends/")
    # A stranger's page lists no buttons for a visitor, nor on one's own page.
    assert (
        'data-testid="relation"' not in Client().get(f"/accounts/u/{a.username}/").content.decode()
    )
    assert 'data-testid="relation"' not in page(a, f"/accounts/u/{a.username}/")
