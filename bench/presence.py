"""Friends' presence at scale: ``python -m bench.presence [--quick]``.

``--players`` players (2,000; 300 with --quick), each the friend of ``--friends`` others (20),
some hiding their presence and some blocking a friend, every one with a lobby socket open:
each socket's channel joins the presence group of every friend it may see, as
``social.consumers.LobbyConsumer`` does (its friends read by ``social.selectors.seen_friend_ids``,
timed: ``join_read_ms_p50``), on the real channel layer (Redis). Then ``--changes`` state changes
of random players are sent as the games send them (one ``group_send`` to the player's presence
group) and every socket's channel is read.

Figures (one JSON line at the end): ``sent_per_change_p50`` / ``_max`` (messages delivered per
change: the friends who may see the player), ``cpu_ms_per_change`` (the sending process's CPU
for one change: what a web process spends), ``redis_cpu_ms_per_change`` (Redis's own CPU, from
INFO, the reads of the deliveries included), ``group_send_ms_p50``, ``memberships``
(group memberships in all), and ``leaks``: deliveries to a socket whose player may not see the
one who changed (hidden, blocked or no friend) — must be 0.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import time
from collections.abc import Sequence
from typing import Any

from bench import site
from bench.stats import percentile


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--friends", type=int, default=20)
    parser.add_argument("--changes", type=int, default=None)
    args = parser.parse_args(argv)
    players = args.players or (300 if args.quick else 2000)
    changes = args.changes or (50 if args.quick else 300)
    site.start()
    users, may_see, join_ms = seed(players, args.friends)
    figures = asyncio.run(run(users, may_see, changes))
    figures = {
        "players": players,
        "friends_each": args.friends,
        "changes": changes,
        "join_read_ms_p50": join_ms,
        **figures,
    }
    print(json.dumps(figures))
    return 0


def seed(players: int, friends: int) -> tuple[list[int], dict[int, set[int]], float]:
    """The players and their friendships (each with the ``friends`` nearest on a ring), 5 % of
    them hiding their presence, 2 % blocking one friend; who may see whom, by the selectors,
    and the median time of that read (a lobby socket's on connecting)."""
    from accounts.models import User
    from social import selectors
    from social.models import Block, Follow, SocialSettings

    run = secrets.token_hex(3)
    rng = random.Random(run)
    users = [User.objects.create_user(f"bench-pres-{run}-{i}").pk for i in range(players)]
    half = friends // 2
    follows = [
        Follow(follower_id=users[i], followed_id=users[(i + d) % players])
        for i in range(players)
        for d in [*range(1, half + 1), *range(-half, 0)]
    ]
    Follow.objects.bulk_create(follows, batch_size=5000, ignore_conflicts=True)
    hidden = rng.sample(users, players // 20)
    SocialSettings.objects.bulk_create(
        [SocialSettings(user_id=u, hide_presence=True) for u in hidden]
    )
    blockers = rng.sample(range(players), players // 50)
    for i in blockers:  # a block ends the follows both ways, as the service does
        a, b = users[i], users[(i + 1) % players]
        Block.objects.create(blocker_id=a, blocked_id=b)
        Follow.objects.filter(follower_id__in=(a, b), followed_id__in=(a, b)).delete()
    by_pk = {u.pk: u for u in User.objects.filter(pk__in=users)}
    may_see: dict[int, set[int]] = {}
    took = []
    for u in users:
        start = time.perf_counter()
        may_see[u] = set(selectors.seen_friend_ids(by_pk[u]))
        took.append((time.perf_counter() - start) * 1000)
    return users, may_see, round(statistics.median(took), 3)


async def run(users: list[int], may_see: dict[int, set[int]], changes: int) -> dict[str, Any]:
    from channels.layers import get_channel_layer

    from games.services.events import _presence_event
    from realtime.redis import redis_client

    layer = get_channel_layer()
    channel = {u: await layer.new_channel() for u in users}
    memberships = 0
    for u in users:
        for friend in may_see[u]:
            await layer.group_add(f"presence.{friend}", channel[u])
            memberships += 1
    rng = random.Random(1)
    sent, sends, leaks = [], [], 0
    redis = redis_client()
    cpu = 0.0
    redis0 = await _redis_cpu(redis)
    for who in rng.choices(users, k=changes):
        cpu0, start = time.process_time(), time.perf_counter()
        await layer.group_send(f"presence.{who}", _presence_event(who))
        sends.append((time.perf_counter() - start) * 1000)
        cpu += time.process_time() - cpu0
        got = 0
        for u in users:
            if who not in may_see[u]:
                continue
            message = await asyncio.wait_for(layer.receive(channel[u]), timeout=5)
            got += message.get("user") == who
        sent.append(got)
    redis_cpu = await _redis_cpu(redis) - redis0
    # Nobody else was sent anything: a last message sent to each socket's channel is the next it
    # reads. (Not a receive cut short by a timeout: channels-redis may deliver a message again
    # after a cancelled receive, which read here as a leak.)
    for u in users:
        await layer.send(channel[u], {"type": "bench.end"})
    for u in users:
        while (await asyncio.wait_for(layer.receive(channel[u]), timeout=5))["type"] != "bench.end":
            leaks += 1
    for u in users:
        for friend in may_see[u]:
            await layer.group_discard(f"presence.{friend}", channel[u])
    return {
        "memberships": memberships,
        "sent_per_change_p50": statistics.median(sent),
        "sent_per_change_max": max(sent),
        "group_send_ms_p50": round(statistics.median(sends), 3),
        "group_send_ms_p99": round(percentile(sends, 0.99), 3),
        "cpu_ms_per_change": round(cpu * 1000 / changes, 3),
        "redis_cpu_ms_per_change": round(redis_cpu * 1000 / changes, 3),
        "leaks": leaks,
    }


async def _redis_cpu(redis: Any) -> float:
    info = await redis.info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


if __name__ == "__main__":
    raise SystemExit(main())
